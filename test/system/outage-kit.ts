import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { HttpClient } from '../helpers/http.js';
import { startSpawned, type SpawnedGateway } from '../helpers/spawned-gateway.js';
import type { Simulator } from '../simulator/server.js';

/**
 * What the dependency-outage suites share: a gateway process on private Postgres and Redis, configured through the
 * setup token, and a bounded closed-loop load of chat completions whose every answer is kept.
 */

export const SETUP_TOKEN = 'setup-token-outage-123456';
export const CHAT = {
  model: 'openai/gpt-4o-mini',
  messages: [{ role: 'user', content: 'still there' }],
  max_tokens: 8,
};

export interface OutageGateway extends SpawnedGateway {
  admin: HttpClient;
  /** A second replica of the same deployment takes both (`GATEWAY_REDIS_PREFIX`, `GATEWAY_ENCRYPTION_KEY`). */
  redisPrefix: string;
  encryptionKey: string;
}

/**
 * Spawns `node dist/src/main.js` on the given database and Redis and configures the simulator as its OpenAI provider
 * (`configured`: a replica of a deployment configured already).
 */
export async function startOutageGateway(
  sim: Simulator,
  databaseUrl: string,
  redisUrl: string,
  extraEnv: Record<string, string> = {},
  options: { configured?: boolean } = {},
): Promise<OutageGateway> {
  const redisPrefix = extraEnv.GATEWAY_REDIS_PREFIX ?? `gwt-${randomBytes(5).toString('hex')}`;
  const encryptionKey = extraEnv.GATEWAY_ENCRYPTION_KEY ?? randomBytes(32).toString('base64');
  const gateway = await startSpawned({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    GATEWAY_REDIS_PREFIX: redisPrefix,
    GATEWAY_ENCRYPTION_KEY: encryptionKey,
    GATEWAY_SETUP_TOKEN: SETUP_TOKEN,
    GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true',
    GATEWAY_LOG_LEVEL: 'warn',
    ...extraEnv,
  });
  const admin = gateway.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
  if (options.configured) return { ...gateway, admin, redisPrefix, encryptionKey };
  const provider = await admin.post('/api/providers', { provider: 'openai', base_url: `${sim.url}/openai/v1` });
  expect(provider.status, provider.text).toBe(201);
  const key = await admin.post('/api/providers/openai/keys', { name: 'oa', value: 'sk-outage' });
  expect(key.status, key.text).toBe(201);
  return { ...gateway, admin, redisPrefix, encryptionKey };
}

/** Creates a virtual key (optionally with limits) and returns a client that presents it. */
export async function virtualKey(gateway: OutageGateway, name: string, extra: Record<string, unknown> = {}) {
  const created = await gateway.admin.post('/api/governance/virtual-keys', { name, ...extra });
  expect(created.status, created.text).toBe(201);
  const vk = created.body.virtual_key as { id: string; value: string };
  return { id: vk.id, value: vk.value, client: gateway.http.withHeaders({ authorization: `Bearer ${vk.value}` }) };
}

export interface Answer {
  status: number;
  /** When the request was sent and answered (ms since epoch), and how long it took. */
  startedAt: number;
  ms: number;
  body: string;
  /** Set when no answer came (a socket error or the client-side bound). */
  error?: string;
}

/**
 * `clients` loops each sending `send()` back to back until `stop()` is called, or until `maxMs` passed (the loop
 * always ends on its own). Each request is bounded by `timeoutMs` on the client side: past it, it counts as an error
 * (a hang), never as an answer.
 */
export function loadLoop(
  send: (signal: AbortSignal) => Promise<{ status: number; text: string }>,
  options: { clients: number; maxMs: number; timeoutMs: number },
): { stop: () => void; done: Promise<Answer[]> } {
  const answers: Answer[] = [];
  let stopped = false;
  const deadline = Date.now() + options.maxMs;
  const one = async () => {
    while (!stopped && Date.now() < deadline) {
      const startedAt = Date.now();
      try {
        const res = await send(AbortSignal.timeout(options.timeoutMs));
        answers.push({ status: res.status, startedAt, ms: Date.now() - startedAt, body: res.text });
      } catch (err) {
        answers.push({ status: 0, startedAt, ms: Date.now() - startedAt, body: '', error: String(err) });
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.clients }, one)).then(() => answers);
  return { stop: () => (stopped = true), done };
}

/** A POST of JSON through fetch, bounded by `signal`. */
export async function postJson(
  client: HttpClient,
  path: string,
  body: unknown,
  signal: AbortSignal,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const res = await client.request('POST', path, { body, headers, signal });
  return { status: res.status, text: res.text };
}

/** Polls `check` every 200 ms until it holds; throws after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not within ${timeoutMs} ms${last ? ` (${last instanceof Error ? last.message : JSON.stringify(last)})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Sums every sample of a Prometheus counter whose labels contain `labels` (`kind="request_logs"`). */
export function metricSum(metrics: string, name: string, labels: string): number {
  let sum = 0;
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${name}{`) || !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
