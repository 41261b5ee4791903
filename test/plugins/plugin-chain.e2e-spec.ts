import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import type { GatewayPlugin, PluginJson, PluginStreamEnd } from '../../src/modules/plugins/registry/gateway-plugin.js';
import { PluginRegistry } from '../../src/modules/plugins/registry/plugin-registry.js';
import { expectGatewayError } from '../helpers/gateway-error.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { randomBytes } from 'node:crypto';
import {
  expectInferenceError,
  SETUP_TOKEN,
  seen,
  sseMessages,
  startInferenceStack,
  type InferenceStack,
} from '../inference/inference-kit.js';

const chat = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'openai/gpt-4o-mini',
  messages: [{ role: 'user', content }],
  ...extra,
});

function lastContent(body: PluginJson): string {
  const messages = body.messages as Array<{ content: string }>;
  return messages[messages.length - 1]!.content;
}

/** Appends ` [tag]` to the last message: the provider sees the tags in chain order. */
function tagger(name: string, order: number, seenOrder: string[]): GatewayPlugin {
  return {
    name,
    defaults: { enabled: true, order },
    onRequest(request) {
      if (!lastContent(request.body).startsWith('tag')) return undefined;
      seenOrder.push(name);
      request.log('info', `tagged by ${name}`);
      const messages = (request.body.messages as Array<{ role: string; content: string }>).map((m) => ({ ...m }));
      messages[messages.length - 1]!.content += ` [${name}]`;
      return { body: { ...request.body, messages }, headers: { [`x-test-${name}`]: 'seen' } };
    },
  };
}

const UNARY_ANSWER = {
  id: 'chatcmpl-cached',
  object: 'chat.completion',
  created: 1700000000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'from the plugin' }, finish_reason: 'stop' }],
};

const chunk = (delta: PluginJson, finish: string | null = null) => ({
  id: 'chatcmpl-cached',
  object: 'chat.completion.chunk',
  created: 1700000000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** Answers `answer me` itself (unary or as a stream of two groups), like a cache hit. */
const answering: GatewayPlugin = {
  name: 'test-answer',
  defaults: { enabled: true, order: 50 },
  onRequest(request) {
    if (lastContent(request.body) !== 'answer me') return undefined;
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, cost: { total_cost: 0.5 } };
    const headers = { 'x-gateway-cache-status': 'hit', 'x-gateway-cache-type': 'direct' };
    if (!request.stream) {
      return {
        answer: {
          type: 'unary',
          provider: 'openai',
          model: 'gpt-4o-mini',
          body: structuredClone(UNARY_ANSWER),
          usage,
          headers,
        },
      };
    }
    const groups = [
      [{ kind: 'chunk', chunk: chunk({ role: 'assistant', content: 'from ' }) }],
      [
        { kind: 'chunk', chunk: chunk({ content: 'the plugin' }) },
        { kind: 'chunk', chunk: chunk({}, 'stop'), usage },
      ],
    ];
    return { answer: { type: 'stream', provider: 'openai', model: 'gpt-4o-mini', groups, usage, headers } };
  },
};

/** Refuses `forbidden` with a GatewayError of its choice. */
const refusing: GatewayPlugin = {
  name: 'test-refuse',
  defaults: { enabled: true, order: 5 },
  onRequest(request) {
    if (lastContent(request.body) !== 'forbidden') return undefined;
    throw new GatewayException(403, 'permission_denied', 'This topic is refused by policy', {
      reason: 'policy_access_denied',
    });
  },
};

/** Fails on `fail`: one throws, the other never settles. */
const throwing: GatewayPlugin = {
  name: 'test-throw',
  defaults: { enabled: true, order: 1 },
  onRequest(request) {
    if (lastContent(request.body) === 'fail') throw new Error('plugin bug');
    return undefined;
  },
};
const hanging: GatewayPlugin = {
  name: 'test-hang',
  defaults: { enabled: true, order: 2 },
  onRequest(request) {
    if (lastContent(request.body) !== 'fail') return undefined;
    return new Promise(() => undefined);
  },
};

/** Upper-cases the streamed text of `shout` requests. */
const shouting: GatewayPlugin = {
  name: 'test-shout',
  defaults: { enabled: true, order: 60 },
  onStreamChunk(request, output) {
    if (lastContent(request.body) !== 'shout') return undefined;
    const o = output as { kind: string; chunk?: any };
    const delta = o.chunk?.choices?.[0]?.delta;
    if (o.kind !== 'chunk' || typeof delta?.content !== 'string') return undefined;
    const chunk = structuredClone(o.chunk);
    chunk.choices[0].delta.content = delta.content.toUpperCase();
    return { kind: 'chunk', chunk };
  },
};

/** Has a config of its own, which it checks. */
const configured: GatewayPlugin = {
  name: 'test-config',
  defaults: { enabled: false, config: { limit: 1 } },
  validateConfig(config) {
    const limit = config.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
      return GatewayException.validation('config.limit', 'limit must be a positive integer');
    }
    return undefined;
  },
};

/** Sees every answer: unary ones and the ends of streams (with their groups). */
function observer(responses: PluginJson[], ends: PluginStreamEnd[]): GatewayPlugin {
  return {
    name: 'test-observe',
    recordsStream: true,
    defaults: { enabled: true, order: 90 },
    onResponse(request, response) {
      responses.push({ ...response, requestId: request.requestId });
      request.log('debug', `observed ${response.fromPlugin ? 'plugin' : 'provider'} answer`);
    },
    onStreamEnd(request, end) {
      ends.push(end);
    },
  };
}

describe(`plugin chain through /v1 (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let registry: PluginRegistry;
  const order: string[] = [];
  const responses: PluginJson[] = [];
  const ends: PluginStreamEnd[] = [];

  async function logRow(id: string): Promise<any> {
    let row: any;
    await expect
      .poll(async () => {
        const res = await s.admin.get(`/api/logs/${id}`);
        row = res.body;
        return res.status;
      })
      .toBe(200);
    return row;
  }

  async function failures(plugin: string, hook: string, reason: string): Promise<number> {
    const text = (await s.admin.get('/metrics')).text;
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`gateway_plugin_failures_total{plugin="${plugin}",hook="${hook}",reason="${reason}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  beforeAll(async () => {
    s = await startInferenceStack({ plugins: { hook_timeout: '100ms' } });
    registry = s.gw.app.get(PluginRegistry);
    for (const p of [
      tagger('b', 20, order),
      tagger('a', 10, order),
      answering,
      refusing,
      throwing,
      hanging,
      configured,
      shouting,
    ]) {
      registry.register(p);
    }
    registry.register(observer(responses, ends));
  });
  afterAll(() => s?.close());
  beforeEach(() => {
    s.sim.reset();
    order.length = 0;
    responses.length = 0;
    ends.length = 0;
  });

  it('runs pre-request hooks in declared order; rewrites reach the provider; plugin_logs land in the row', async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('tag me'));
    expect(res.status, res.text).toBe(200);
    expect(order).toEqual(['a', 'b']);
    expect(seen(s.sim)[0].body.messages[0].content).toBe('tag me [a] [b]');
    expect(res.headers.get('x-test-a')).toBe('seen');
    expect(res.headers.get('x-test-b')).toBe('seen');
    const id = res.headers.get('x-request-id')!;
    await expect.poll(() => responses.length).toBe(1);
    expect(responses[0]).toMatchObject({ requestId: id, status: 200, provider: 'openai', fromPlugin: false });
    const row = await logRow(id);
    expect(row.cache_hit).toBe(false);
    const logs = JSON.parse(row.plugin_logs);
    expect(logs.map((l: any) => [l.plugin, l.level, l.message])).toEqual([
      ['a', 'info', 'tagged by a'],
      ['b', 'info', 'tagged by b'],
      ['test-observe', 'debug', 'observed provider answer'],
    ]);
    expect(typeof logs[0].at_ms).toBe('number');
  });

  it('a refusal answers the GatewayError the plugin chose, and no provider is called', async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('forbidden'));
    expectInferenceError(res, 403, 'policy_access_denied', { code: 'permission_denied' });
    expect(res.body.error.message).toBe('This topic is refused by policy');
    expect(seen(s.sim)).toHaveLength(0);
    const row = await logRow(res.headers.get('x-request-id')!);
    expect(row).toMatchObject({ status: 'error', status_code: 403, error_type: 'policy_access_denied' });
  });

  it('a throwing and a timing-out plugin are skipped: the request succeeds, failures are counted and logged', async () => {
    const thrownBefore = await failures('test-throw', 'onRequest', 'error');
    const hungBefore = await failures('test-hang', 'onRequest', 'timeout');
    const started = performance.now();
    const res = await s.inference.post('/v1/chat/completions', chat('fail'));
    expect(res.status, res.text).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(seen(s.sim)).toHaveLength(1);
    expect(await failures('test-throw', 'onRequest', 'error')).toBe(thrownBefore + 1);
    expect(await failures('test-hang', 'onRequest', 'timeout')).toBe(hungBefore + 1);
    const lines = s.gw.logs.records().filter((l: any) => l.msg === 'plugin hook skipped');
    expect(
      lines.some((l: any) => l.plugin === 'test-throw' && l.reason === 'error' && l.err === 'Error: plugin bug'),
    ).toBe(true);
    expect(lines.some((l: any) => l.plugin === 'test-hang' && l.reason === 'timeout')).toBe(true);
    const row = await logRow(res.headers.get('x-request-id')!);
    const logs = JSON.parse(row.plugin_logs);
    expect(logs.filter((l: any) => l.level === 'error').map((l: any) => l.plugin)).toEqual(['test-throw', 'test-hang']);
  });

  it("a plugin's unary answer is served at zero cost without the provider, logged as a cache hit", async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('answer me'));
    expect(res.status, res.text).toBe(200);
    expect(seen(s.sim)).toHaveLength(0);
    expect(res.body.choices[0].message.content).toBe('from the plugin');
    expect(res.body.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(res.body.usage.cost.total_cost).toBe(0);
    expect(res.headers.get('x-gateway-cost-usd')).toBe('0');
    expect(res.headers.get('x-gateway-cache-status')).toBe('hit');
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    expect(res.headers.get('x-gateway-routing-info-model')).toBe('gpt-4o-mini');
    await expect.poll(() => responses.length).toBe(1);
    expect(responses[0]).toMatchObject({ fromPlugin: true, provider: 'openai', model: 'gpt-4o-mini' });
    const row = await logRow(res.headers.get('x-request-id')!);
    expect(row).toMatchObject({
      status: 'success',
      provider: 'openai',
      model: 'gpt-4o-mini',
      cache_hit: true,
      cache_type: 'direct',
      cost: 0,
      total_tokens: 7,
      selected_key_id: null,
    });
    const hits = await s.admin.get('/api/logs', { query: { cache_hit: 'true', limit: 100 } });
    expect(hits.status, hits.text).toBe(200);
    expect(hits.body.logs.map((r: any) => r.id)).toContain(row.id);
    expect(hits.body.logs.every((r: any) => r.cache_hit === true)).toBe(true);
    const misses = await s.admin.get('/api/logs', { query: { cache_hit: 'false', limit: 100 } });
    expect(misses.body.logs.length).toBeGreaterThan(0);
    expect(misses.body.logs.some((r: any) => r.id === row.id)).toBe(false);
  });

  it('a hit counts as a request in the rate limits (plugins.cache_hits_count_requests), at zero cost', async () => {
    const created = await s.admin.post('/api/governance/virtual-keys', {
      name: 'hit-limits',
      rate_limit: { request_max_limit: 2, request_reset_duration: '1m' },
      budgets: [{ max_limit: 0.000001, reset_duration: '1d' }],
    });
    expect(created.status, created.text).toBe(201);
    const limited = s.gw.http.withHeaders({ authorization: `Bearer ${created.body.virtual_key.value}` });
    for (let i = 0; i < 2; i++) {
      const hit = await limited.post('/v1/chat/completions', chat('answer me'));
      expect(hit.status, hit.text).toBe(200);
      expect(hit.headers.get('x-gateway-cost-usd')).toBe('0');
      expect(hit.headers.get('x-ratelimit-remaining-requests')).toBe(String(1 - i));
    }
    const third = await limited.post('/v1/chat/completions', chat('answer me'));
    expectInferenceError(third, 429, 'policy_rate_limited');
    expect(seen(s.sim)).toHaveLength(0);
    const refused = await logRow(third.headers.get('x-request-id')!);
    expect(refused).toMatchObject({ status: 'error', status_code: 429, cache_hit: false });
  });

  it("a plugin's stream answer is replayed with its chunking through the SDK, at zero cost", async () => {
    const stream = await s.openai.chat.completions
      .create({ ...chat('answer me'), stream: true, stream_options: { include_usage: true } } as never)
      .withResponse();
    expect(stream.response.headers.get('x-gateway-cost-usd')).toBe('0');
    expect(stream.response.headers.get('x-gateway-cache-type')).toBe('direct');
    const chunks: any[] = [];
    for await (const c of stream.data as unknown as AsyncIterable<any>) chunks.push(c);
    expect(seen(s.sim)).toHaveLength(0);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? null).join('')).toContain('from the plugin');
    const usage = chunks[chunks.length - 1].usage;
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(usage.cost.total_cost).toBe(0);
    await expect.poll(() => ends.length).toBe(1);
    expect(ends[0]).toMatchObject({ status: 200, fromPlugin: true, failed: false });
    // The observer recorded two groups, as the plugin gave them.
    expect(ends[0]!.groups).toHaveLength(2);
    const row = await logRow(stream.response.headers.get('x-request-id')!);
    expect(row).toMatchObject({ cache_hit: true, cache_type: 'direct', stream: true, cost: 0 });
  });

  it("a plugin's answer reaches a provider-format route in that format, unary and streamed (Anthropic SDK)", async () => {
    const anthropic = new Anthropic({ baseURL: `${s.gw.baseUrl}/anthropic`, apiKey: s.vk, maxRetries: 0 });
    const request = {
      model: 'openai/gpt-4o-mini',
      max_tokens: 64,
      messages: [{ role: 'user' as const, content: 'answer me' }],
    };
    const { data, response } = await anthropic.messages.create(request).withResponse();
    expect(data).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'from the plugin' }],
    });
    expect(data.usage).toMatchObject({ input_tokens: 3, output_tokens: 4 });
    expect(response.headers.get('x-gateway-cost-usd')).toBe('0');
    const final = await anthropic.messages.stream(request).finalMessage();
    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: 'from the plugin' })]);
    expect(final.stop_reason).toBe('end_turn');
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('a replayed stream keeps its groups as separate writes (raw SSE)', async () => {
    const res = await fetch(`${s.gw.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...chat('answer me'), stream: true }),
    });
    expect(res.status).toBe(200);
    const reads: string[] = [];
    const decoder = new TextDecoder();
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) reads.push(decoder.decode(bytes));
    const messages = sseMessages(reads.join(''));
    expect(messages.map((m) => m.data)).toHaveLength(4);
    expect(messages[3]!.data).toBe('[DONE]');
    expect(JSON.parse(messages[0]!.data).choices[0].delta.content).toBe('from ');
  });

  it('a chunk hook replaces stream outputs before they are written', async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('shout', { stream: true }));
    expect(res.status, res.text).toBe(200);
    const text = sseMessages(res.text)
      .filter((m) => m.data !== '[DONE]')
      .map((m) => JSON.parse(m.data).choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe('ECHO: SHOUT');
  });

  it("a provider's stream reaches stream-end hooks with its outputs recorded", async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('hello there', { stream: true }));
    expect(res.status, res.text).toBe(200);
    await expect.poll(() => ends.length).toBe(1);
    expect(ends[0]).toMatchObject({ status: 200, fromPlugin: false, failed: false, provider: 'openai' });
    const outputs = ends[0]!.groups!.flat() as Array<{ kind: string }>;
    expect(outputs.length).toBeGreaterThan(0);
    expect(outputs.every((o) => o.kind === 'chunk')).toBe(true);
  });

  it('GET /api/plugins lists every registered plugin with its settings, in chain order', async () => {
    const res = await s.admin.get('/api/plugins');
    expect(res.status, res.text).toBe(200);
    const byName = Object.fromEntries(res.body.plugins.map((p: any) => [p.name, p]));
    expect(res.body.count).toBe(res.body.plugins.length);
    expect(byName.logging).toEqual({ name: 'logging', enabled: true, order: 0, config: {} });
    expect(byName.telemetry).toEqual({ name: 'telemetry', enabled: false, order: 10, config: {} });
    expect(byName.jsonparser).toEqual({ name: 'jsonparser', enabled: false, order: 40, config: {} });
    expect(byName.a).toMatchObject({ enabled: true, order: 10 });
    const orders = res.body.plugins.map((p: any) => p.order);
    expect(orders).toEqual([...orders].sort((x: number, y: number) => x - y));
    const one = await s.admin.get('/api/plugins/test-config');
    expect(one.body).toEqual({ name: 'test-config', enabled: false, order: 100, config: { limit: 1 } });
  });

  it('unknown plugins are 404, bad settings 400 naming the field, and nothing is applied', async () => {
    const missing = await s.admin.get('/api/plugins/nope');
    expect(missing.status).toBe(404);
    expectGatewayError(missing.body, 404, 'plugin_not_found');
    expect((await s.admin.put('/api/plugins/nope', { enabled: true })).status).toBe(404);
    const cases: Array<[unknown, string]> = [
      [{ enabled: 'yes' }, 'enabled'],
      [{ order: 1.5 }, 'order'],
      [{ config: [1] }, 'config'],
      [{ enabled: null }, 'enabled'],
      [{ enabled: true, config: { limit: 0 } }, 'config.limit'],
    ];
    for (const [body, param] of cases) {
      const res = await s.admin.put('/api/plugins/test-config', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectGatewayError(res.body, 400, 'validation_failed');
      expect(res.body.error.param).toBe(param);
    }
    const after = await s.admin.get('/api/plugins/test-config');
    expect(after.body).toEqual({ name: 'test-config', enabled: false, order: 100, config: { limit: 1 } });
    const ok = await s.admin.put('/api/plugins/test-config', { config: { limit: 5 } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ name: 'test-config', enabled: false, order: 100, config: { limit: 5 } });
    const audit = await s.admin.get('/api/audit-logs', { query: { limit: 50 } });
    const puts = (audit.body.audit_logs ?? audit.body.logs ?? []).filter(
      (r: any) => r.route === '/api/plugins/:name' && r.method === 'PUT',
    );
    expect(puts.some((r: any) => r.target_id === 'test-config' && r.status_code === 200)).toBe(true);
  });

  it('PUT disables, re-enables and reorders plugins for the next request', async () => {
    expect((await s.admin.put('/api/plugins/a', { enabled: false })).body.enabled).toBe(false);
    await s.inference.post('/v1/chat/completions', chat('tag 1'));
    expect(order).toEqual(['b']);
    expect(seen(s.sim)[0].body.messages[0].content).toBe('tag 1 [b]');
    order.length = 0;
    expect((await s.admin.put('/api/plugins/a', { enabled: true, order: 30 })).body).toMatchObject({ order: 30 });
    await s.inference.post('/v1/chat/completions', chat('tag 2'));
    expect(order).toEqual(['b', 'a']);
    expect(seen(s.sim)[1].body.messages[0].content).toBe('tag 2 [b] [a]');
    expect((await s.admin.put('/api/plugins/a', { order: 10 })).status).toBe(200);
  });

  it('the logging plugin switched off writes no request-log row; on again, rows come back', async () => {
    expect((await s.admin.put('/api/plugins/logging', { enabled: false })).status).toBe(200);
    const off = await s.inference.post('/v1/chat/completions', chat('not logged'));
    expect(off.status).toBe(200);
    expect((await s.admin.put('/api/plugins/logging', { enabled: true })).status).toBe(200);
    const on = await s.inference.post('/v1/chat/completions', chat('logged'));
    await logRow(on.headers.get('x-request-id')!);
    expect((await s.admin.get(`/api/logs/${off.headers.get('x-request-id')}`)).status).toBe(404);
  });

  it('a plugin whose appliesTo says no is left out of the request: none of its hooks run', async () => {
    const calls: string[] = [];
    const selective: GatewayPlugin = {
      name: 'test-selective',
      defaults: { enabled: true, order: 5 },
      appliesTo: (request) => lastContent(request.body).includes('select me'),
      onRequest: (request) => {
        calls.push(`request:${lastContent(request.body)}`);
        request.log('info', 'selected');
        return undefined;
      },
      onStreamChunk: () => {
        calls.push('chunk');
        return undefined;
      },
    };
    registry.register(selective);
    try {
      const skipped = await s.inference.post('/v1/chat/completions', chat('pass by', { stream: true }));
      expect(skipped.status, skipped.text).toBe(200);
      const skippedRow = await logRow(skipped.headers.get('x-request-id')!);
      expect(JSON.parse(skippedRow.plugin_logs ?? '[]').map((l: any) => l.plugin)).not.toContain('test-selective');
      expect(calls).toEqual([]);

      const picked = await s.inference.post('/v1/chat/completions', chat('select me', { stream: true }));
      expect(picked.status, picked.text).toBe(200);
      expect(calls[0]).toBe('request:select me');
      expect(calls.filter((c) => c === 'chunk').length).toBeGreaterThan(0);
      const pickedRow = await logRow(picked.headers.get('x-request-id')!);
      expect(JSON.parse(pickedRow.plugin_logs).map((l: any) => [l.plugin, l.message])).toContainEqual([
        'test-selective',
        'selected',
      ]);
    } finally {
      registry.unregister('test-selective');
    }
  });

  it('jsonparser repairs streamed JSON cut off at the stream end and logs it', async () => {
    expect((await s.admin.put('/api/plugins/jsonparser', { enabled: true })).status).toBe(200);
    try {
      s.sim.scenario({
        match: { family: 'openai' },
        responses: [{ ok: true, text: '{"city": "Paris", "tags": ["a", "b' }],
      });
      const res = await s.inference.post(
        '/v1/chat/completions',
        chat('json please', { stream: true, response_format: { type: 'json_object' } }),
      );
      expect(res.status, res.text).toBe(200);
      const row = await logRow(res.headers.get('x-request-id')!);
      const logs = JSON.parse(row.plugin_logs ?? '[]').filter((l: any) => l.plugin === 'jsonparser');
      expect(logs).toHaveLength(1);
      expect(logs[0].message).toBe('streamed JSON was incomplete; repaired: {"city": "Paris", "tags": ["a", "b"]}');
    } finally {
      await s.admin.put('/api/plugins/jsonparser', { enabled: false });
    }
  });
});

describe.skipIf(!TEST_REDIS_URL || RUN_MODE !== 'postgres')(`plugin settings across replicas (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let second: TestApp;
  const order: string[] = [];

  beforeAll(async () => {
    s = await startInferenceStack({}, { keepDatabase: true });
    second = await startTestApp({
      config: { setup_token: SETUP_TOKEN, encryption_key: s.gw.config.encryption_key },
      databaseUrl: s.gw.databaseUrl,
      redisPrefix: s.gw.config.redis_prefix,
    });
    for (const app of [s.gw, second]) app.app.get(PluginRegistry).register(tagger('a', 10, order));
  });
  afterAll(async () => {
    await s?.close();
    await second?.close();
  });

  it('a plugin disabled on one replica stops acting on the other within a second', async () => {
    const onSecond = second.http.withHeaders({ authorization: `Bearer ${s.vk}` });
    expect((await onSecond.post('/v1/chat/completions', chat('tag x'))).status).toBe(200);
    expect(order).toEqual(['a']);
    expect((await s.admin.put('/api/plugins/a', { enabled: false })).status).toBe(200);
    await vi.waitFor(() => expect(second.app.get(PluginRegistry).get('a')?.enabled).toBe(false), {
      timeout: 1000,
      interval: 20,
    });
    order.length = 0;
    expect((await onSecond.post('/v1/chat/completions', chat('tag y'))).status).toBe(200);
    expect(order).toEqual([]);
    const listed = await second.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN }).get('/api/plugins/a');
    expect(listed.body).toMatchObject({ name: 'a', enabled: false });
  });
});

describe(`the telemetry plugin (${RUN_MODE})`, () => {
  let receiver: OtlpReceiver;
  let s: InferenceStack;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    s = await startInferenceStack({ otel: { endpoint: receiver.url, export_interval: '50ms' } });
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
  });

  /** Sends a request in a new trace; answers the trace id. */
  async function traced(): Promise<string> {
    const traceId = randomBytes(16).toString('hex');
    const header = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const res = await s.inference.post('/v1/chat/completions', chat('trace me'), { headers: { traceparent: header } });
    expect(res.status, res.text).toBe(200);
    return traceId;
  }

  it('is on when otel is configured; switched off, requests export no spans; on again, they do', async () => {
    expect((await s.admin.get('/api/plugins/telemetry')).body).toMatchObject({ enabled: true });
    const first = await traced();
    await receiver.waitFor((spans) => spans.find((x) => x.traceId === first));
    expect((await s.admin.put('/api/plugins/telemetry', { enabled: false })).status).toBe(200);
    const off = await traced();
    expect((await s.admin.put('/api/plugins/telemetry', { enabled: true })).status).toBe(200);
    const on = await traced();
    // Spans are exported in order: once the later request's span is in, the switched-off one would be too.
    await receiver.waitFor((spans) => spans.find((x) => x.traceId === on));
    expect(receiver.spans().filter((x) => x.traceId === off)).toEqual([]);
  });
});

describe(`plugin settings in the config file (${RUN_MODE})`, () => {
  it('apply over the defaults; a bad one stops the start naming the key', async () => {
    await expect(
      startTestApp({ config: { plugins: { settings: { jsonparser: { enabled: 'yes' } } } } }),
    ).rejects.toThrow('config: plugins.settings.jsonparser.enabled: must be a boolean');
    const gw = await startTestApp({
      config: {
        setup_token: SETUP_TOKEN,
        plugins: { settings: { jsonparser: { enabled: true, order: 7 }, logging: { enabled: false } } },
      },
    });
    try {
      const admin = gw.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
      expect((await admin.get('/api/plugins/jsonparser')).body).toEqual({
        name: 'jsonparser',
        enabled: true,
        order: 7,
        config: {},
      });
      expect((await admin.get('/api/plugins/logging')).body).toMatchObject({ enabled: false });
      // The API overrides the file.
      expect((await admin.put('/api/plugins/jsonparser', { order: 8 })).body).toMatchObject({
        enabled: true,
        order: 8,
      });
    } finally {
      await gw.close();
    }
  });
});
