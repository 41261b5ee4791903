import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as semconv from '@opentelemetry/semantic-conventions';
import { ConfigError, loadConfig } from '../../src/core/config/config.loader.js';
import * as attributes from '../../src/core/tracing/semantic-attributes.js';
import { InferenceTracing } from '../../src/modules/inference/telemetry/inference-tracing.service.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { startInferenceStack, type InferenceStack } from './inference-kit.js';
import { samples } from '../helpers/prometheus-samples.js';

const SERVER = 2;
const CLIENT = 3;
const STATUS_ERROR = 2;

/** A W3C traceparent with fresh ids, sampled. */
function traceparent(): { header: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user' as const, content: 'otel-secret-prompt-text' }],
  ...extra,
});

/** The request span of a trace (once exported) and its attempt spans, in start order. */
async function traceOf(
  receiver: OtlpReceiver,
  traceId: string,
): Promise<{ request: ReceivedSpan; attempts: ReceivedSpan[] }> {
  return receiver.waitFor((spans) => {
    const mine = spans.filter((s) => s.traceId === traceId);
    const request = mine.find((s) => s.kind === SERVER);
    if (!request) return undefined;
    const attempts = mine.filter((s) => s.kind === CLIENT && s.parentSpanId === request.spanId);
    attempts.sort((a, b) => Number(a.attributes['gateway.attempt']) - Number(b.attributes['gateway.attempt']));
    return { request, attempts };
  });
}

/** The sum of the samples whose labels include `labels`. */
function total(text: string, name: string, labels: Record<string, string>): number {
  return samples(text, name)
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

describe('OpenTelemetry traces of /v1 (otel.endpoint set)', () => {
  let receiver: OtlpReceiver;
  let s: InferenceStack;
  let virtualKeyId: string;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    s = await startInferenceStack({
      otel: { endpoint: receiver.url, headers: { 'x-collector-key': 'collector-token-1' }, export_interval: '50ms' },
    });
    const keys = await s.admin.get('/api/governance/virtual-keys');
    virtualKeyId = (keys.body.virtual_keys as Array<{ id: string; name: string }>).find(
      (k) => k.name === 'inference-tests',
    )!.id;
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
  });
  beforeEach(() => s.sim.reset());

  it('exports a SERVER span per request continuing the caller’s traceparent, with a CLIENT span per attempt', async () => {
    const parent = traceparent();
    const { data, response } = await s.openai.chat.completions
      .create(chat('openai/gpt-4o-mini', { max_tokens: 64, temperature: 0.25, top_p: 0.5 }), {
        headers: { traceparent: parent.header, tracestate: 'vendor=abc' },
      })
      .withResponse();
    const { request, attempts } = await traceOf(receiver, parent.traceId);

    expect(request.name).toBe('chat openai/gpt-4o-mini');
    expect(request.parentSpanId).toBe(parent.spanId);
    expect(request.status.code).not.toBe(STATUS_ERROR);
    expect(request.resource['service.name']).toBe('ai-gateway');
    expect(request.scope).toBe('ai-gateway');
    const usage = data.usage!;
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'openai/gpt-4o-mini',
      'gen_ai.request.stream': false,
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.temperature': 0.25,
      'gen_ai.request.top_p': 0.5,
      'gen_ai.provider.name': 'openai',
      'gen_ai.response.model': data.model,
      'gen_ai.response.id': data.id,
      'gen_ai.response.finish_reasons': data.choices.map((c) => c.finish_reason),
      'gen_ai.usage.input_tokens': usage.prompt_tokens,
      'gen_ai.usage.output_tokens': usage.completion_tokens,
      'http.response.status_code': 200,
      'gateway.virtual_key.id': virtualKeyId,
      'gateway.virtual_key.name': 'inference-tests',
      'gateway.provider_key.name': response.headers.get('x-gateway-routing-info-key'),
      'gateway.fallback_index': 0,
      'gateway.retries': 0,
      'gateway.attempts': 1,
    });
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(request.attributes['gateway.cost_usd']).toBeCloseTo((usage as any).cost.total_cost, 12);
    expect(request.attributes['error.type']).toBeUndefined();

    expect(attempts).toHaveLength(1);
    const [attempt] = attempts;
    expect(attempt!.name).toBe('chat gpt-4o-mini');
    expect(attempt!.traceId).toBe(parent.traceId);
    expect(attempt!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': usage.prompt_tokens,
      'gen_ai.usage.output_tokens': usage.completion_tokens,
      'http.response.status_code': 200,
      'gateway.provider': 'openai',
      'gateway.attempt': 1,
    });
    // The exporter sends the configured headers to the collector.
    expect(receiver.exports.at(-1)!.headers['x-collector-key']).toBe('collector-token-1');
    expect(receiver.exports.at(-1)!.path).toBe('/v1/traces');
  });

  it('the routing rule that chose the model is on the request span', async () => {
    const created = await s.admin.post('/api/governance/routing-rules', {
      name: 'traced',
      cel_expression: 'headers["x-traced"] == "yes"',
      targets: [{ model: 'gpt-4o', weight: 1 }],
    });
    expect(created.status, created.text).toBe(201);
    const parent = traceparent();
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { traceparent: parent.header, 'x-traced': 'yes' },
    });
    expect(res.status, res.text).toBe(200);
    const { request } = await traceOf(receiver, parent.traceId);
    expect(request.attributes).toMatchObject({
      'gateway.routing_rule.id': created.body.rule.id,
      'gateway.routing_rule.name': 'traced',
      'gen_ai.response.model': expect.stringContaining('gpt-4o'),
    });
    expect((await s.admin.delete(`/api/governance/routing-rules/${created.body.rule.id}`)).status).toBe(200);
  });

  it('one attempt span per retry, each with the provider’s failing status and error.type', async () => {
    s.sim.scenario({
      match: { family: 'openai' },
      responses: [{ fault: 'error', status: 503 }, { fault: 'error', status: 500 }, { ok: true }],
    });
    const parent = traceparent();
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { traceparent: parent.header, 'x-gateway-api-key': 'oa-1' },
    });
    expect(res.status, res.text).toBe(200);
    const { request, attempts } = await traceOf(receiver, parent.traceId);
    expect(attempts.map((a) => a.attributes['http.response.status_code'])).toEqual([503, 500, 200]);
    expect(attempts.map((a) => a.attributes['error.type'])).toEqual([
      'provider_overloaded',
      'provider_server_error',
      undefined,
    ]);
    expect(attempts.map((a) => a.status.code === STATUS_ERROR)).toEqual([true, true, false]);
    expect(attempts.map((a) => a.attributes['gateway.provider_key.name'])).toEqual(['oa-1', 'oa-1', 'oa-1']);
    expect(request.attributes).toMatchObject({ 'gateway.retries': 2, 'gateway.attempts': 3 });
    expect(request.status.code).not.toBe(STATUS_ERROR);
  });

  it('a fallback is an attempt of another provider, marked with its fallback index', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 503 }], repeat: true });
    const parent = traceparent();
    const res = await s.inference.post(
      '/v1/chat/completions',
      chat('openai/gpt-4o-mini', { fallbacks: ['anthropic/claude-sonnet-4-5'] }),
      { headers: { traceparent: parent.header } },
    );
    expect(res.status, res.text).toBe(200);
    const { request, attempts } = await traceOf(receiver, parent.traceId);
    expect(attempts.map((a) => [a.attributes['gen_ai.provider.name'], a.attributes['gateway.fallback_index']])).toEqual(
      [
        ['openai', 0],
        ['openai', 0],
        ['openai', 0],
        ['anthropic', 1],
      ],
    );
    expect(attempts[3]!.name).toBe('chat claude-sonnet-4-5');
    expect(request.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gateway.fallback_index': 1,
      'gateway.retries': 2,
      'gateway.attempts': 4,
      'gen_ai.usage.input_tokens': res.body.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': res.body.usage.completion_tokens,
    });
  });

  it('a failed request ends its span with error.type, the status sent and an error status', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 503 }], repeat: true });
    const parent = traceparent();
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { traceparent: parent.header },
    });
    expect(res.status).toBe(503);
    const { request, attempts } = await traceOf(receiver, parent.traceId);
    expect(request.status.code).toBe(STATUS_ERROR);
    expect(request.attributes).toMatchObject({
      'error.type': 'provider_overloaded',
      'http.response.status_code': 503,
      'gen_ai.provider.name': 'openai',
      'gateway.retries': 2,
      'gateway.attempts': 3,
    });
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.attributes['error.type'] === 'provider_overloaded')).toBe(true);
  });

  it('a stream: the attempt ends with the response headers, the request span carries the stream’s usage', async () => {
    const parent = traceparent();
    const stream = await s.openai.chat.completions.create(
      { ...chat('openai/gpt-4o-mini'), stream: true, stream_options: { include_usage: true } },
      { headers: { traceparent: parent.header } },
    );
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    const { request, attempts } = await traceOf(receiver, parent.traceId);
    expect(request.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.usage.input_tokens': usage!.prompt_tokens,
      'gen_ai.usage.output_tokens': usage!.completion_tokens,
      'http.response.status_code': 200,
    });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.attributes['http.response.status_code']).toBe(200);
    expect(attempts[0]!.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
  });

  it('an invalid traceparent starts a new root trace', async () => {
    const bad = `00-${'0'.repeat(32)}-${randomBytes(8).toString('hex')}-01`;
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini', { seed: 917_263 }), {
      headers: { traceparent: bad },
    });
    expect(res.status, res.text).toBe(200);
    const request = await receiver.waitFor((spans) =>
      spans.find((sp) => sp.kind === SERVER && sp.attributes['gen_ai.request.seed'] === 917_263),
    );
    expect(request.parentSpanId).toBeUndefined();
    expect(request.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(request.traceId).not.toBe('0'.repeat(32));
  });

  it('never exports keys, the virtual key, authorization headers or message content', async () => {
    const exported = receiver.exports.map((e) => e.body).join('\n');
    expect(exported.length).toBeGreaterThan(1000);
    for (const secret of [s.vk, 'sk-oa-1', 'sk-oa-2', 'sk-ant-1', 'Bearer', 'otel-secret-prompt-text']) {
      expect(exported, secret).not.toContain(secret);
    }
    expect(exported.toLowerCase()).not.toContain('authorization');
  });

  it('/metrics counts retries and fallbacks by virtual key, and requests by error_type', async () => {
    const scrape = async () => {
      const res = await s.admin.get('/metrics');
      expect(res.status).toBe(200);
      return res.text;
    };
    const vk = { virtual_key: 'inference-tests' };
    const before = await scrape();
    s.sim.scenario({
      match: { family: 'openai' },
      responses: [{ fault: 'error', status: 503 }, { ok: true }],
    });
    expect((await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'))).status).toBe(200);
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 503 }], repeat: true });
    const fallback = await s.inference.post(
      '/v1/chat/completions',
      chat('openai/gpt-4o-mini', { fallbacks: ['anthropic/claude-sonnet-4-5'] }),
    );
    expect(fallback.status).toBe(200);
    expect((await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'))).status).toBe(503);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);

    // 1 retry in the first request, 2 before the fallback, 2 in the failed one.
    expect(delta('gateway_inference_retries_total', { ...vk, provider: 'openai' })).toBe(3);
    expect(delta('gateway_inference_retries_total', { ...vk, provider: 'anthropic' })).toBe(2);
    expect(
      delta('gateway_inference_fallbacks_total', { ...vk, provider: 'anthropic', model: 'claude-sonnet-4-5' }),
    ).toBe(1);
    expect(delta('gateway_inference_fallbacks_total', { ...vk, provider: 'openai' })).toBe(0);
    expect(delta('gateway_inference_requests_total', { ...vk, status: '503', error_type: 'provider_overloaded' })).toBe(
      1,
    );
    expect(delta('gateway_inference_requests_total', { ...vk, status: '200', error_type: '' })).toBe(2);
    expect(delta('gateway_inference_errors_total', { ...vk, error_type: 'provider_overloaded' })).toBe(1);
  });
});

describe('OpenTelemetry traces off (no otel.endpoint)', () => {
  let receiver: OtlpReceiver;
  let s: InferenceStack;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // An exporter created by mistake (without our URL) would fall back to these and reach the receiver.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${receiver.url}/v1/traces`;
    s = await startInferenceStack();
  });
  afterAll(async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    await s?.close();
    await receiver?.close();
  });

  it('creates no tracer, no request trace, and exports nothing', async () => {
    const tracing = s.gw.app.get(InferenceTracing);
    expect(tracing.enabled).toBe(false);
    expect(tracing.startRequest({ traceparent: traceparent().header }, 'chat x', {})).toBeUndefined();
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { traceparent: traceparent().header },
    });
    expect(res.status, res.text).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await s.gw.close();
    expect(receiver.exports).toEqual([]);
  });
});

describe('otel config', () => {
  const problemsOf = (otel: Record<string, unknown>): string[] => {
    try {
      loadConfig({ env: {}, overrides: { app_dir: '/tmp', otel } });
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
    return [];
  };

  it('takes an http(s) endpoint and header names with string values, and nothing else', () => {
    expect(problemsOf({ endpoint: 'https://collector.example.com:4318', headers: { 'x-api-key': 'env.KEY' } })).toEqual(
      [],
    );
    expect(problemsOf({ endpoint: 'collector:4318' })).toEqual(['otel.endpoint: must be a URL address']);
    expect(problemsOf({ endpoint: 'ftp://collector' })).toEqual(['otel.endpoint: must be a URL address']);
    expect(problemsOf({ headers: { 'bad header': 'x' } })).toEqual(['otel.headers: "bad header" is not a header name']);
    expect(problemsOf({ headers: { 'x-key': 5 } })).toEqual(['otel.headers.x-key: must be a non-empty string']);
    expect(
      problemsOf({ export_interval: '0s', service_name: '' })
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['otel.export_interval', 'otel.service_name']);
    const defaults = loadConfig({ env: {}, overrides: { app_dir: '/tmp' } }).otel;
    expect(defaults).toMatchObject({ service_name: 'ai-gateway', export_interval: '5s', max_queue_size: 2048 });
    expect(defaults.endpoint).toBeUndefined();
    expect(
      loadConfig({ env: { GATEWAY_OTEL_ENDPOINT: 'http://127.0.0.1:4318' }, overrides: { app_dir: '/tmp' } }).otel
        .endpoint,
    ).toBe('http://127.0.0.1:4318');
  });
});

describe('the attribute names the gateway writes', () => {
  it('are the ones of @opentelemetry/semantic-conventions', () => {
    for (const [name, value] of Object.entries(attributes)) {
      expect(value, name).toBe(semconv[name as keyof typeof semconv]);
    }
  });
});
