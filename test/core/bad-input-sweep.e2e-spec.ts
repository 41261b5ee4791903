import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, authEnabledConfig, bearer } from '../auth/auth-helpers.js';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import {
  bodyWith,
  createFixtures,
  fillPath,
  hugeValue,
  judgeAnswer,
  mutationTargets,
  ODD_PATH_VALUES,
  ODD_QUERY_VALUES,
  operations,
  send,
  wrongType,
  type Answer,
  type Fixtures,
  type Operation,
} from '../helpers/openapi-input.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';

/**
 * The bad-input sweep (issue 8, PROOF): one pass of hostile input over every operation of the committed OpenAPI
 * document, authenticated so requests reach validation. Every answer must be below 500, every error body a
 * GatewayError with a catalogued code, and every 400's `error.param` a field the operation declares (or `body`).
 */

interface Case {
  op: Operation;
  label: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function authHeaders(op: Operation, fx: Fixtures): Record<string, string> {
  if (op.security.includes('BasicAuth')) return ADMIN_BASIC;
  if (op.security.includes('BearerAuth')) return bearer(fx.virtualKey);
  return {};
}

const JSON_TYPE = { 'content-type': 'application/json' };
const DEEP = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

function casesOf(op: Operation, fx: Fixtures): Case[] {
  const cases: Case[] = [];
  const path = fillPath(op, fx);
  const add = (label: string, c: Partial<Case>) => cases.push({ op, label, path, ...c });
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.method);

  for (const p of op.parameters.filter((x) => x.in === 'path')) {
    for (const raw of ODD_PATH_VALUES)
      add(`path ${p.name}=${raw.slice(0, 12)}`, { path: fillPath(op, fx, { name: p.name, raw }) });
  }
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    for (const value of ODD_QUERY_VALUES) {
      add(`query ${p.name}=${JSON.stringify(value.slice(0, 12))}`, {
        path: `${path}?${p.name}=${encodeURIComponent(value)}`,
      });
    }
    add(`query ${p.name} twice`, { path: `${path}?${p.name}=1&${p.name}=2` });
  }
  if (!hasBody) return cases;

  add('malformed JSON', { headers: JSON_TYPE, body: '{"a":' });
  add('deep nesting', { headers: JSON_TYPE, body: DEEP });
  add('text/plain', { headers: { 'content-type': 'text/plain' }, body: '{"name":"x"}' });
  add('form', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x' });
  for (const raw of ['[]', '"text"', '42', 'null', 'true']) add(`body ${raw}`, { headers: JSON_TYPE, body: raw });
  if (!op.body?.properties) return cases;
  const root = op.body;
  for (const target of mutationTargets(root)) {
    const variants: Array<[string, unknown]> = [
      ['NUL', 'a\u0000b'],
      ['null', null],
      ['wrong type', wrongType(target.schema)],
      ['huge', hugeValue(target.schema)],
    ];
    for (const [kind, value] of variants) {
      add(`${kind} at ${target.path}`, {
        headers: JSON_TYPE,
        body: JSON.stringify(bodyWith(root, target.path, value, fx)),
      });
    }
  }
  return cases;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

interface Figures {
  operations: number;
  requests: number;
  serverErrors: string[];
  notGatewayErrors: string[];
  wrongParams: string[];
}

function judge(c: Case, answer: Answer, figures: Figures): void {
  const { problem } = judgeAnswer(c.op, answer);
  if (!problem) return;
  const line = `${c.op.id} [${c.label}]: ${problem.text}`;
  if (problem.kind === 'serverError') figures.serverErrors.push(line);
  else if (problem.kind === 'notGatewayError') figures.notGatewayErrors.push(line);
  else figures.wrongParams.push(line);
}

describe(`bad-input sweep over the OpenAPI document (${RUN_MODE})`, () => {
  let gw: TestApp;
  let a2a: A2aAgent;
  let fx: Fixtures;
  const figures: Figures = { operations: 0, requests: 0, serverErrors: [], notGatewayErrors: [], wrongParams: [] };

  beforeAll(async () => {
    a2a = await startA2aAgent();
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }) });
    fx = await createFixtures(gw, a2a.cardUrl, ADMIN_BASIC);
  });
  afterAll(async () => {
    agent.destroy();
    await gw?.close();
    await a2a?.close();
  });

  it('answers every case of every operation with a GatewayError below 500 naming a declared field', async () => {
    const ops = operations();
    figures.operations = ops.length;
    const cases = ops.flatMap((op) => casesOf(op, fx));
    // DELETEs last, so the resources other cases address still exist.
    cases.sort((a, b) => Number(a.op.method === 'DELETE') - Number(b.op.method === 'DELETE'));
    const queue = [...cases];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          judge(
            c,
            await send(gw.baseUrl, agent, {
              method: c.op.method,
              path: c.path,
              headers: { ...authHeaders(c.op, fx), ...c.headers },
              body: c.body,
            }),
            figures,
          );
          figures.requests++;
        }
      }),
    );
    process.stdout.write(
      `bad-input sweep (${RUN_MODE}): ${figures.operations} operations, ${figures.requests} requests, ` +
        `${figures.serverErrors.length} × 5xx, ${figures.notGatewayErrors.length} non-GatewayError bodies, ` +
        `${figures.wrongParams.length} wrong params\n`,
    );
    expect(figures.operations).toBeGreaterThanOrEqual(100);
    expect({
      serverErrors: figures.serverErrors,
      notGatewayErrors: figures.notGatewayErrors,
      wrongParams: figures.wrongParams,
    }).toEqual({ serverErrors: [], notGatewayErrors: [], wrongParams: [] });
  }, 120_000);
});
