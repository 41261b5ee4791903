import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTHORIZATION_HEADER,
  CREDENTIAL_HEADERS,
  DATA_PLANE_CREDENTIAL_SOURCES,
  VIRTUAL_KEY_HEADER,
} from '../../src/core/auth/credential-headers.js';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import { recordSecret } from '../helpers/evidence.js';
import type { HttpClient } from '../helpers/http.js';
import { startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startHttpPeer, type McpPeer } from '../mcp/mcp-peers.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { startPushReceiver, wireMessage, type PushReceiver } from '../agents/data-plane-kit.js';

/**
 * Issue 43: no credential a caller presents ever leaves the gateway. For every header of the one credential list
 * (taken from the module, so a header added later is covered without editing this file) and every plane (`/v1`, each
 * native-format prefix, a framework prefix, async jobs and their webhook, A2A on both bindings and its push relay,
 * `/mcp` and `/mcp/{client}`), requests carry a virtual key and a provider key in that header; a routing rule that
 * would match on any of them never matches. Every upstream sits
 * behind a TCP proxy that keeps every byte the gateway sent it. Then: no value reached an upstream, came back in a
 * response, was logged, is in a row read back through the API, in any table, or (embedded) in the database files.
 */
const SETUP_TOKEN = 'setup-token-credential-leak';
const SOURCES: ReadonlySet<string> = new Set(DATA_PLANE_CREDENTIAL_SOURCES);
const HEADERS = [...CREDENTIAL_HEADERS];

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** node:http, not fetch: fetch drops or refuses some of these headers (`cookie2`, `set-cookie`). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      new URL(path, base),
      { method, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** How a value is written in `header`: as a Bearer in Authorization, a cookie pair in the cookie headers. */
function written(header: string, value: string): string {
  if (header === AUTHORIZATION_HEADER) return `Bearer ${value}`;
  if (header.includes('cookie')) return `gateway_session=${value}; other=${value}`;
  return value;
}

const user = (text: string) => [{ role: 'user', content: text }];

/** The inference-side calls of every plane, each given the caller's headers. */
function inferencePlanes(): Array<[string, (h: Record<string, string>) => [string, string, unknown]]> {
  return [
    ['/v1 chat', () => ['POST', '/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: user('leak') }]],
    [
      '/v1 chat stream',
      () => ['POST', '/v1/chat/completions', { model: 'openai/gpt-4o-mini', stream: true, messages: user('leak') }],
    ],
    ['/v1 embeddings', () => ['POST', '/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'leak' }]],
    ['/openai/v1', () => ['POST', '/openai/v1/chat/completions', { model: 'gpt-4o-mini', messages: user('leak') }]],
    [
      '/litellm/v1',
      () => ['POST', '/litellm/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: user('x') }],
    ],
    [
      '/anthropic/v1',
      () => [
        'POST',
        '/anthropic/v1/messages',
        { model: 'claude-3-5-haiku-latest', max_tokens: 16, messages: user('x') },
      ],
    ],
    [
      '/genai/v1beta',
      () => [
        'POST',
        '/genai/v1beta/models/gemini-2.5-flash:generateContent',
        { contents: [{ parts: [{ text: 'x' }] }] },
      ],
    ],
    ['/cohere/v2', () => ['POST', '/cohere/v2/chat', { model: 'command-r', messages: user('leak') }]],
    [
      '/bedrock',
      () => [
        'POST',
        '/bedrock/model/amazon.nova-lite-v1:0/converse',
        { messages: [{ role: 'user', content: [{ text: 'x' }] }] },
      ],
    ],
    [
      'azure deployments',
      () => [
        'POST',
        '/openai/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
        { messages: user('x') },
      ],
    ],
  ];
}

describe(`no credential a caller presents leaves the gateway (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  let appDir: string;
  let sim: Simulator;
  let agent: A2aAgent;
  let mcpPeer: McpPeer;
  let hooks: WebhookReceiver;
  let pushes: PushReceiver;
  const proxies: Record<string, RecordingProxy> = {};
  let vk: { id: string; value: string };
  let ruleId: string;
  /** Every value that must stay inside the gateway, by what it is. */
  const canaries = new Map<string, string>();
  /** Every data-plane answer, status line, headers and body. */
  const answers: string[] = [];
  const taskIds: string[] = [];

  const canary = (label: string, value: string) => {
    canaries.set(label, value);
    recordSecret(value, `credential-leak ${label}`);
    return value;
  };
  /** Where each header's values go: a provider key of its own per header, so a hit names the header. */
  const providerKey = (header: string) => canaries.get(`provider key in ${header}`)!;

  /**
   * The caller's headers for one case: `value` in `header`, plus the virtual key where the request still needs
   * one to get through (a header the data plane does not read a key from, or the key header itself overwritten).
   */
  function callerHeaders(header: string, value: string): Record<string, string> {
    const headers: Record<string, string> = { [header]: written(header, value) };
    const authenticatesByItself = value === vk.value && SOURCES.has(header);
    if (!authenticatesByItself) {
      const via = header === VIRTUAL_KEY_HEADER ? AUTHORIZATION_HEADER : VIRTUAL_KEY_HEADER;
      headers[via] = written(via, vk.value);
    }
    return headers;
  }

  async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const res = await send(gw.baseUrl, method, path, { 'anthropic-version': '2023-06-01', ...headers }, body);
    answers.push(`${res.status} ${JSON.stringify(res.headers)} ${res.text}`);
    return res;
  }

  beforeAll(async () => {
    sim = await startSimulator();
    mcpPeer = await startHttpPeer();
    hooks = await startWebhookReceiver();
    pushes = await startPushReceiver();
    agent = await startA2aAgent({
      // The card sends the gateway to the proxy, so every A2A call passes it.
      transformCard: (card) => JSON.parse(JSON.stringify(card).replaceAll(agent.url, proxies.agent!.url)),
    });
    proxies.agent = await startRecordingProxy(agent.url);
    proxies.providers = await startRecordingProxy(sim.url);
    proxies.mcp = await startRecordingProxy(mcpPeer.url);
    proxies.webhooks = await startRecordingProxy(hooks.url);
    proxies.push = await startRecordingProxy(pushes.url);
    const via = (proxy: RecordingProxy, url: string) => url.replace(new URL(url).origin, proxy.url);

    appDir = mkdtempSync(join(tmpdir(), 'gw-credential-leak-'));
    gw = await startTestApp({
      appDir,
      config: { setup_token: SETUP_TOKEN, outbound: { allow_loopback: true } },
    });
    admin = gw.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
    const created = async (path: string, body: unknown) => {
      const res = await admin.post(path, body);
      expect(res.status, `${path}: ${res.text}`).toBe(201);
      return res.body;
    };
    const base = proxies.providers.url;
    for (const [provider, path, key] of [
      ['openai', '/openai/v1', 'sk-stored-openai-key'],
      ['anthropic', '/anthropic', 'sk-ant-stored-key'],
      ['gemini', '/gemini', 'gem-stored-key'],
      ['cohere', '/cohere', 'co-stored-key'],
    ] as const) {
      await created('/api/providers', { provider, base_url: `${base}${path}` });
      await created(`/api/providers/${provider}/keys`, { name: `${provider}-1`, value: key });
    }
    await created('/api/providers', { provider: 'azure' });
    await created('/api/providers/azure/keys', {
      name: 'az-1',
      value: 'az-stored-key',
      azure_key_config: { endpoint: `${base}/azure`, api_version: '2024-10-21', deployments: { 'gpt-4o': 'dep-4o' } },
    });
    await created('/api/providers', { provider: 'bedrock', base_url: `${base}/bedrock` });
    await created('/api/providers/bedrock/keys', {
      name: 'br-1',
      value: 'bedrock-stored-key',
      bedrock_key_config: { region: 'us-east-1' },
    });
    // A rule that would match on any credential header or `?key=`: routing rules must never see them.
    const sees = [...HEADERS.map((h) => `"${h}" in headers`), '"key" in params'].join(' || ');
    ruleId = (
      await created('/api/governance/routing-rules', {
        name: 'sees-a-credential',
        cel_expression: sees,
        targets: [{ provider: 'openai', model: 'gpt-4o-mini', weight: 1 }],
      })
    ).rule.id;
    vk = (await created('/api/governance/virtual-keys', { name: 'leak-test' })).virtual_key;
    canary('virtual key', vk.value);
    for (const header of HEADERS) canary(`provider key in ${header}`, `sk-proj-${randomBytes(12).toString('hex')}`);
    canary('body field', `sk-body-${randomBytes(12).toString('hex')}`);
    await created('/api/mcp/client', {
      name: 'leaky',
      connection_type: 'http',
      connection_string: via(proxies.mcp, mcpPeer.url),
      tools_to_execute: ['echo'],
      allow_on_all_virtual_keys: true,
    });
    await created('/api/agents', {
      name: 'leaky',
      agent_card_url: `${proxies.agent.url}/.well-known/agent-card.json`,
      virtual_key_ids: [vk.id],
      runtime_auth: { type: 'headers', headers: { 'X-Upstream-Key': 'agent-own-credential' } },
    });
    const hook = await created('/api/webhooks', { name: 'leak-hook', url: via(proxies.webhooks, hooks.url) });
    hooks.secret = hook.secret;
  });

  afterAll(async () => {
    await gw?.close();
    await Promise.all(Object.values(proxies).map((p) => p.close()));
    await Promise.all([sim?.close(), agent?.close(), mcpPeer?.close(), hooks?.close(), pushes?.close()]);
    if (appDir) rmSync(appDir, { recursive: true, force: true });
  });

  it.each(HEADERS)('%s: inference on /v1, every native prefix and a framework prefix', async (header) => {
    for (const value of [vk.value, providerKey(header)]) {
      for (const [plane, build] of inferencePlanes()) {
        const headers = callerHeaders(header, value);
        const [method, path, body] = build(headers);
        const res = await call(method, path, headers, body);
        // Either served, or refused by the authenticator: never a 5xx, never an upstream that saw the value.
        expect(res.status, `${plane} with ${header}: ${res.text}`).toBeLessThan(500);
      }
      // Gemini's ?key= carries the value as a query parameter.
      await call(
        'POST',
        `/genai/v1beta/models/gemini-2.5-flash:generateContent?key=${encodeURIComponent(value)}`,
        {},
        {
          contents: [{ parts: [{ text: 'x' }] }],
        },
      );
    }
  });

  it.each(HEADERS)('%s: an async job, its replay on the worker and its webhook', async (header) => {
    for (const value of [vk.value, providerKey(header)]) {
      const headers = { ...callerHeaders(header, value), 'x-gateway-async-webhook': 'leak-hook' };
      const submitted = await call('POST', '/v1/async/chat/completions', headers, {
        model: 'openai/gpt-4o-mini',
        messages: user('async leak'),
      });
      if (submitted.status !== 202) continue; // refused before anything was stored (a ticket header, a wrong key)
      const id = (JSON.parse(submitted.text) as { id: string }).id;
      for (let i = 0; i < 400; i++) {
        const polled = await call('GET', `/v1/async/chat/completions/${id}`, headers);
        if (polled.status !== 202) {
          expect(polled.status, polled.text).toBe(200);
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      await hooks.waitFor((all) => all.some((d) => (d.body as { data?: { id?: string } })?.data?.id === id));
    }
  });

  it.each(HEADERS)('%s: A2A on JSON-RPC and HTTP+JSON (send, get, stream) and the push relay', async (header) => {
    for (const value of [vk.value, providerKey(header)]) {
      const headers = callerHeaders(header, value);
      const rpc = (method: string, params: unknown) =>
        call(
          'POST',
          '/agents/a2a/leaky/jsonrpc',
          { ...headers, 'a2a-version': '1.0' },
          { jsonrpc: '2.0', id: 1, method, params },
        );
      const sent = await rpc('SendMessage', {
        message: wireMessage(`tck-complete-task-${randomBytes(4).toString('hex')}`),
      });
      const taskId = (JSON.parse(sent.text) as { result?: { task?: { id?: string } } }).result?.task?.id;
      if (taskId) {
        taskIds.push(taskId);
        await rpc('GetTask', { id: taskId });
      }
      await rpc('SendStreamingMessage', { message: wireMessage(`tck-stream-001-${randomBytes(4).toString('hex')}`) });
      const rest = await call('POST', '/agents/a2a/leaky/rest/message:send', headers, {
        message: wireMessage(`tck-complete-task-${randomBytes(4).toString('hex')}`),
      });
      const restTask = (JSON.parse(rest.text) as { task?: { id?: string } }).task?.id;
      if (restTask) await call('GET', `/agents/a2a/leaky/rest/tasks/${restTask}`, headers);
      await call('POST', '/agents/a2a/leaky/rest/message:stream', headers, {
        message: wireMessage(`tck-stream-001-${randomBytes(4).toString('hex')}`),
      });
      const withPush = await rpc('SendMessage', {
        message: wireMessage(`tck-complete-task-${randomBytes(4).toString('hex')}`),
        configuration: {
          taskPushNotificationConfig: {
            url: pushes.url.replace(new URL(pushes.url).origin, proxies.push!.url),
            token: 'client-token',
          },
        },
      });
      if (withPush.status === 200 && !withPush.text.includes('"error"')) {
        const before = pushes.received.length;
        await pushes.waitFor((all) => all.length > before);
      }
    }
  });

  it.each(HEADERS)('%s: MCP on /mcp and /mcp/{client}', async (header) => {
    for (const value of [vk.value, providerKey(header)]) {
      const headers = { ...callerHeaders(header, value), accept: 'application/json, text/event-stream' };
      for (const [path, tool] of [
        ['/mcp', 'leaky-echo'],
        ['/mcp/leaky', 'echo'],
      ] as const) {
        await call('POST', path, headers, {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'leak', version: '1' } },
        });
        await call('POST', path, headers, {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: tool, arguments: { text: 'leak' } },
        });
      }
    }
  });

  it('fields named like any credential header, in any spelling, are stored redacted (logs, A2A history, tool logs)', async () => {
    const secret = canaries.get('body field')!;
    const fields: Record<string, string> = {};
    for (const header of HEADERS) {
      for (const name of [header, header.replace(/-/g, '_'), header.toUpperCase()]) fields[name] = secret;
    }
    const auth = { authorization: `Bearer ${vk.value}` };
    const chat = await call('POST', '/v1/chat/completions', auth, {
      model: 'openai/gpt-4o-mini',
      messages: user('body fields'),
      tools: [
        { type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' }, ...fields } },
      ],
      metadata: fields,
    });
    expect(chat.status, chat.text).toBe(200);
    const a2a = await call('POST', '/agents/a2a/leaky/rest/message:send', auth, {
      message: { ...wireMessage('tck-complete-task-body-fields'), metadata: fields },
    });
    expect(a2a.status, a2a.text).toBe(200);
    const tool = await call(
      'POST',
      '/mcp/leaky',
      { ...auth, accept: 'application/json, text/event-stream' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'body', ...fields } } },
    );
    expect(tool.status, tool.text).toBe(200);
    expect(tool.text).toContain('"body"');
  });

  it('no value reached an upstream, a response, a log line, a stored row, a table or a database file', async () => {
    const scan = (text: string) => [...canaries].filter(([, value]) => text.includes(value)).map(([label]) => label);
    const bodyField = canaries.get('body field')!;
    const notBodyField = (labels: string[]) => labels.filter((l) => l !== 'body field');

    // The upstreams: every byte each one received (a body field is the caller's own content, sent on as content).
    for (const [name, proxy] of Object.entries(proxies)) {
      expect(proxy.sent().length, `${name} received nothing: the test did not reach it`).toBeGreaterThan(0);
      expect(notBodyField(scan(proxy.sent())), `reached ${name}`).toEqual([]);
    }
    expect(proxies.agent!.sent()).toContain('agent-own-credential'); // the registration's own auth did go
    expect(hooks.received.length).toBeGreaterThan(0);
    expect(pushes.received.length).toBeGreaterThan(0);

    // Every answer the callers got.
    expect(answers.length).toBeGreaterThan(HEADERS.length * 20);
    expect(answers.filter((a) => a.startsWith('200')).length).toBeGreaterThan(HEADERS.length * 10);
    // (An agent's answer may quote the caller's message metadata: the caller's own content, not a credential.)
    expect(notBodyField(scan(answers.join('\n'))), 'in a response').toEqual([]);

    // Stored rows, read back through the management API.
    const read = async (path: string, query: Record<string, string | number> = {}) => {
      const res = await admin.get(path, { query });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      return res;
    };
    let logs: Array<{ id: string }> = [];
    for (let i = 0; i < 100 && logs.length === 0; i++) {
      logs = (await read('/api/logs', { limit: 1000 })).body.logs;
      if (logs.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(logs.length).toBeGreaterThan(HEADERS.length * 10);
    expect(logs.filter((row) => (row as { routing_rule_id?: string }).routing_rule_id === ruleId)).toEqual([]);
    const stored: string[] = [JSON.stringify(logs)];
    for (const row of logs) stored.push((await read(`/api/logs/${row.id}`)).text);
    stored.push((await read('/api/mcp-logs', { limit: 1000 })).text);
    const history = (await read('/api/agents/history', { limit: 1000 })).body;
    stored.push(JSON.stringify(history));
    for (const row of history.history ?? history.records ?? history.items ?? []) {
      stored.push((await read(`/api/agents/history/${row.id}`)).text);
    }
    stored.push((await read('/api/async-jobs', { limit: 1000 })).text);
    stored.push((await read('/api/agents/push-configs', { limit: 1000 })).text);
    expect(scan(stored.join('\n')), 'in a row read through the API').toEqual([]);
    // The body fields were stored, and redacted.
    const bodyFieldRow = stored.find((s) => s.includes('"body fields"') || s.includes('tck-complete-task-body-fields'));
    expect(bodyFieldRow, 'the row of the body-field request').toBeDefined();
    expect(stored.join('\n')).toContain('<REDACTED>');

    // Every table, as text.
    const dataSource = gw.app.get<DataSource>(getDataSourceToken());
    const names = await dataSource.query<Array<{ name: string }>>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    );
    expect(names.length).toBeGreaterThan(20);
    for (const { name } of names) {
      const rows = await dataSource.query<Array<{ row: string }>>(`SELECT t::text AS row FROM "${name}" t`);
      const text = rows.map((r) => r.row).join('\n');
      expect(scan(text), `in table ${name}`).toEqual([]);
    }

    // Every log line the gateway wrote.
    const lines = gw.logs.text();
    expect(lines.length).toBeGreaterThan(0);
    expect(scan(lines), 'in a log line').toEqual([]);

    // The embedded database's files, once the gateway has closed them.
    if (RUN_MODE === 'embedded') {
      await gw.close();
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir)) {
          const path = join(dir, entry);
          if (statSync(path).isDirectory()) walk(path);
          else files.push(path);
        }
      };
      walk(appDir);
      expect(files.length).toBeGreaterThan(100);
      for (const file of files) {
        const bytes = readFileSync(file).toString('latin1');
        expect(scan(bytes), `in ${file}`).toEqual([]);
      }
      expect(bodyField).toBeTruthy();
    }
  });
});
