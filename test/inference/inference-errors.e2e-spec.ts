import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../auth/auth-helpers.js';
import { startTestApp } from '../helpers/test-app.js';
import {
  expectInferenceError,
  seen,
  SETUP_TOKEN,
  sseMessages,
  startInferenceStack,
  type InferenceStack,
} from './inference-kit.js';

const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'hello' }],
  ...extra,
});

/** Sends a unary request the provider answers slowly and gives up on it once the provider has it. */
async function abandonUnaryRequest(s: InferenceStack): Promise<void> {
  s.sim.scenario({ match: { family: 'gemini' }, responses: [{ fault: 'delay', delay_ms: 3000 }] });
  const abort = new AbortController();
  const pending = fetch(`${s.gw.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
    body: JSON.stringify(chat('gemini/gemini-2.5-flash')),
    signal: abort.signal,
  }).catch((e: unknown) => e);
  await eventually(async () => {
    expect(seen(s.sim)).toHaveLength(1);
    return true;
  });
  abort.abort();
  await pending;
}

/** What callers get when they, a provider or the connection misbehave: a GatewayError, never a 500. */
describe('inference errors', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('refuses a missing, unknown or management credential with 401 before any provider call', async () => {
    const missing = await s.gw.http.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('missing_credentials');
    const unknown = await s.gw.http.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { authorization: 'Bearer sk-gw-not-a-real-key-000000000000000000' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_credentials');
    const management = await s.gw.http.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: {
        'x-gateway-setup-token': SETUP_TOKEN,
        authorization: 'Bearer gwm_0123456789012345678901234567890123456789',
      },
    });
    expect(management.status).toBe(401);
    const providerKey = await s.gw.http.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { authorization: 'Bearer sk-some-provider-key' },
    });
    expect(providerKey.status).toBe(401);
    expect(providerKey.body.error.code).toBe('invalid_credentials');
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('surfaces errors through the openai SDK as APIError carrying our body', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 400 }] });
    const err = await s.openai.chat.completions
      .create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const apiError = err as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(400);
    expect((apiError.error as any).event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(apiError.headers?.get('x-gateway-routing-info-provider')).toBe('openai');

    const unknownModel = await s.openai.chat.completions
      .create({ model: 'nosuch/model-x', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(unknownModel).toBeInstanceOf(OpenAI.BadRequestError);
    expect((unknownModel as any).error.param).toBe('model');
  });

  it('bad input: malformed JSON, missing fields, unknown provider, a model no key allows', async () => {
    const malformed = await s.inference.post('/v1/chat/completions', undefined, {
      rawBody: '{"model": "openai/gpt-4o-mini", "messages": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_json');

    expectInferenceError(
      await s.inference.post('/v1/chat/completions', { messages: [] }),
      400,
      'caller_invalid_request',
      {
        param: 'model',
      },
    );
    expectInferenceError(
      await s.inference.post('/v1/chat/completions', { model: 'openai/gpt-4o-mini' }),
      400,
      'caller_invalid_request',
      { param: 'messages' },
    );
    expectInferenceError(
      await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini', { fallbacks: ['ok/x', 7] })),
      400,
      'caller_invalid_request',
      { param: 'fallbacks[1]' },
    );
    expectInferenceError(
      await s.inference.post('/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'x', stream: true }),
      400,
      'caller_invalid_request',
      { param: 'stream' },
    );
    expectInferenceError(
      await s.inference.post('/v1/chat/completions', chat('nosuch/model-x')),
      400,
      'caller_model_unknown',
      {
        code: 'model_unknown',
        param: 'model',
      },
    );
    expectInferenceError(
      await s.inference.post('/v1/chat/completions', chat('mistral/mistral-large')),
      400,
      'caller_model_not_available',
      {
        code: 'model_not_available',
        param: 'model',
      },
    );
    expectInferenceError(
      await s.inference.post('/v1/embeddings', { model: 'anthropic/claude-sonnet-4-5', input: 'x' }),
      400,
      'caller_invalid_request',
      {
        code: 'unsupported_operation',
        param: 'model',
      },
    );
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('a stream the provider drops mid-way ends with an SSE error event, not [DONE]', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'drop', after_events: 2 }] });
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini', { stream: true }));
    expect(res.status).toBe(200);
    const messages = sseMessages(res.text);
    const last = JSON.parse(messages[messages.length - 1]!.data);
    expect(last.is_gateway_error).toBe(true);
    expect(last.extra_fields.error_type).toBe('provider_connection_failed');
    expect(last.status_code).toBe(502);
    expect(res.text).not.toContain('[DONE]');

    // The SDK surfaces it as an error while iterating.
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'drop', after_events: 2 }] });
    const stream = await s.openai.chat.completions.create({ ...chat('openai/gpt-4o-mini'), stream: true } as any);
    const failure = await (async () => {
      for await (const _ of stream as any) void _;
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
  });

  it('a stream the provider stalls mid-way past the request timeout ends with a 504 upstream_timeout event', async () => {
    expect(
      (await s.admin.put('/api/providers/openai', { network_config: { default_request_timeout: '300ms' } })).status,
    ).toBe(200);
    try {
      s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'stall', after_events: 2 }] });
      const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini', { stream: true }));
      expect(res.status).toBe(200);
      const messages = sseMessages(res.text);
      const last = JSON.parse(messages[messages.length - 1]!.data);
      expect(last).toMatchObject({
        is_gateway_error: true,
        status_code: 504,
        error: { type: 'upstream_timeout', code: 'upstream_timeout' },
        extra_fields: { error_type: 'provider_timeout' },
      });
      expect(res.text).not.toContain('[DONE]');
    } finally {
      await s.admin.put('/api/providers/openai', { network_config: { default_request_timeout: '5s' } });
    }
  });

  it("a provider's in-stream error becomes the stream's last event with the provider's classification", async () => {
    s.sim.scenario({ match: { family: 'anthropic' }, responses: [{ fault: 'stream_error' }] });
    const res = await s.inference.post('/v1/chat/completions', chat('anthropic/claude-sonnet-4-5', { stream: true }));
    const messages = sseMessages(res.text);
    const last = JSON.parse(messages[messages.length - 1]!.data);
    expect(last.is_gateway_error).toBe(false);
    expect(last.extra_fields.error_type).toBe('provider_overloaded');
    expect(res.text).not.toContain('[DONE]');
  });

  it('a stream that fails before its first byte is a plain JSON error with routing headers', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 404 }] });
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini', { stream: true }));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.is_gateway_error).toBe(false);
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
  });

  it('a client that disconnects mid-stream cancels the upstream request', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'chunk_delay', chunk_delay_ms: 200 }] });
    const abort = new AbortController();
    const response = await fetch(`${s.gw.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        chat('openai/gpt-4o-mini', { stream: true, messages: [{ role: 'user', content: 'a b c d e f g h i j k l' }] }),
      ),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await eventually(async () => {
      expect(seen(s.sim).at(-1)!.client_aborted).toBe(true);
      return true;
    });
  });

  it('a client that gives up on a unary request cancels the upstream request too', async () => {
    await abandonUnaryRequest(s);
    await eventually(async () => {
      expect(seen(s.sim)[0]!.client_aborted).toBe(true);
      return true;
    });
  });

  it('counts requests, errors and tokens in /metrics', async () => {
    await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { 'x-gateway-api-key': 'oa-1' },
    });
    s.sim.scenario({ match: { family: 'gemini' }, responses: [{ fault: 'error', status: 400 }] });
    await s.inference.post('/v1/chat/completions', chat('gemini/gemini-2.5-flash'));
    const metrics = await s.admin.get('/metrics');
    expect(metrics.text).toMatch(
      /gateway_inference_requests_total\{[^}]*provider="openai"[^}]*key="oa-1"[^}]*\} [1-9]/,
    );
    expect(metrics.text).toMatch(
      /gateway_inference_errors_total\{[^}]*provider="gemini"[^}]*error_type="caller_invalid_request"[^}]*\} 1/,
    );
    expect(metrics.text).toMatch(
      /gateway_inference_tokens_total\{[^}]*provider="openai"[^}]*direction="prompt"[^}]*\} [1-9]/,
    );
    expect(metrics.text).toMatch(/gateway_inference_cost_usd_total\{[^}]*provider="openai"/);
  });

  it('unknown price: usage has no cost and no cost header, never 0', async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('openai/sim-unpriced-model'));
    expect(res.status, res.text).toBe(200);
    expect(res.body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(res.body.usage.cost).toBeUndefined();
    expect(res.headers.get('x-gateway-cost-usd')).toBeNull();
  });
});

describe('inference access modes', () => {
  it('allow_direct_keys: a provider key is passed through; require_virtual_key false: anonymous use of stored keys', async () => {
    const s = await startInferenceStack({ inference: { allow_direct_keys: true } });
    try {
      const res = await s.gw.http.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
        headers: { authorization: 'Bearer sk-caller-own-key' },
      });
      expect(res.status, res.text).toBe(200);
      expect(seen(s.sim).at(-1)!.headers.authorization).toBe('Bearer sk-caller-own-key');
      expect(res.headers.get('x-gateway-routing-info-key')).toBe('direct');
      const none = await s.gw.http.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
      expect(none.status).toBe(401);
    } finally {
      await s.close();
    }
    const open = await startTestApp({ config: { inference: { require_virtual_key: false } } });
    try {
      const res = await open.http.post('/v1/chat/completions', chat('mistral/mistral-large'));
      // No credential needed: the request reaches routing (and finds the provider unconfigured).
      expectInferenceError(res, 400, 'caller_model_not_available');
    } finally {
      await open.close();
    }
  });
});

/** A client that gave up must not hold the shutdown: closing the app ends every connection it still has. */
describe('inference errors: shutdown after a client gave up', () => {
  it('app.close() returns promptly after a unary request was abandoned', async () => {
    const s = await startInferenceStack();
    try {
      await abandonUnaryRequest(s);
      const started = Date.now();
      await s.gw.close();
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await s.close();
    }
  });
});
