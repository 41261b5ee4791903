import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { created, expectInferenceError, seen, startInferenceStack, type InferenceStack } from './inference-kit.js';

const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'route me' }],
  ...extra,
});

/** Keys, retries, retry hints, key rotation, dead keys and fallbacks, as the caller and the provider see them. */
describe('inference routing', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  const openaiCalls = () => seen(s.sim).filter((r) => r.family === 'openai');

  it('retries a 5xx on the same key with backoff, then succeeds', async () => {
    s.sim.scenario({
      match: { family: 'openai' },
      responses: [{ fault: 'error', status: 503 }, { fault: 'error', status: 500 }, { ok: true }],
    });
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { 'x-gateway-api-key': 'oa-1' },
    });
    expect(res.status, res.text).toBe(200);
    const calls = openaiCalls();
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers.authorization))).toEqual(new Set(['Bearer sk-oa-1']));
    // Backoff 20 ms then 40 ms, each with ±20 % jitter.
    expect(calls[1]!.time - calls[0]!.time).toBeGreaterThanOrEqual(15);
    expect(calls[2]!.time - calls[1]!.time).toBeGreaterThanOrEqual(30);
  });

  it('gives up after max_retries and relays the provider error with its status and classification', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 503 }], repeat: true });
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
    expectInferenceError(res, 503, 'provider_overloaded', { isGatewayError: false });
    expect(openaiCalls()).toHaveLength(3);
    expect(res.body.extra_fields.routing_info).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(res.body.extra_fields.provider).toBe('openai');
    expect(res.body.extra_fields.original_model_requested).toBe('gpt-4o-mini');
    expect(res.body.extra_fields.resolved_model_used).toBe('gpt-4o-mini');
    expect(res.body.extra_fields.request_type).toBe('chat_completion');
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
  });

  it('a 429 rotates to the other key; a short retry-after-ms hint is waited for', async () => {
    s.sim.scenario({
      match: { family: 'openai', key: 'sk-oa-1' },
      responses: [{ fault: 'rate_limit', hint: 'retry-after-ms', hint_ms: 60 }],
      repeat: true,
    });
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-gateway-routing-info-key')).toBe('oa-2');
    const calls = openaiCalls();
    if (calls.length === 2) {
      expect(calls[0]!.headers.authorization).toBe('Bearer sk-oa-1');
      expect(calls[1]!.time - calls[0]!.time).toBeGreaterThanOrEqual(55);
    } else {
      // The weighted choice went to oa-2 first.
      expect(calls).toHaveLength(1);
    }
  });

  it('a hint longer than retry_backoff_max stops the retries and the fallback serves', async () => {
    s.sim.scenario({
      match: { family: 'openai' },
      responses: [{ fault: 'rate_limit', hint: 'retry-after-seconds', hint_ms: 10_000 }],
      repeat: true,
    });
    const res = await s.inference.post(
      '/v1/chat/completions',
      chat('openai/gpt-4o-mini', { fallbacks: ['anthropic/claude-sonnet-4-5'] }),
      { headers: { 'x-gateway-api-key': 'oa-1' } },
    );
    expect(res.status, res.text).toBe(200);
    expect(openaiCalls()).toHaveLength(1);
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('anthropic');
    expect(res.headers.get('x-gateway-routing-info-is-fallback')).toBe('true');
    expect(res.headers.get('x-gateway-routing-info-primary-provider')).toBe('openai');
    expect(res.headers.get('x-gateway-routing-info-primary-model')).toBe('gpt-4o-mini');
    expect(res.headers.get('x-gateway-fallback-index')).toBe('1');
    expect(res.headers.get('x-gateway-routing-info-requested-model')).toBe('gpt-4o-mini');
  });

  it('without fallbacks the 429 comes back with retry_after_ms clamped and Retry-After', async () => {
    s.sim.scenario({
      match: { family: 'gemini' },
      responses: [{ fault: 'rate_limit', hint: 'gemini-retry-info', hint_ms: 37_000 }],
      repeat: true,
    });
    const res = await s.inference.post('/v1/chat/completions', chat('gemini/gemini-2.5-flash'));
    expectInferenceError(res, 429, 'provider_rate_limited', { isGatewayError: false });
    expect(res.body.extra_fields.retry_after_ms).toBe(37_000);
    expect(res.headers.get('retry-after')).toBe('37');
    expect(seen(s.sim).filter((r) => r.family === 'gemini')).toHaveLength(1);
  });

  it('a 401 kills the key for this request and the other key serves at once', async () => {
    s.sim.scenario({
      match: { family: 'openai', key: 'sk-oa-1' },
      responses: [{ fault: 'error', status: 401 }],
      repeat: true,
    });
    for (let i = 0; i < 4; i++) {
      const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-gateway-routing-info-key')).toBe('oa-2');
    }
  });

  it('every key refused: 502 provider_credentials_exhausted, and fallbacks run', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 401 }], repeat: true });
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
    expectInferenceError(res, 502, 'provider_credentials_exhausted');
    expect(openaiCalls()).toHaveLength(2);
    const fallback = await s.inference.post(
      '/v1/chat/completions',
      chat('openai/gpt-4o-mini', { fallbacks: ['gemini/gemini-2.5-flash'] }),
    );
    expect(fallback.status, fallback.text).toBe(200);
    expect(fallback.headers.get('x-gateway-routing-info-provider')).toBe('gemini');
  });

  it("a provider 400 (the caller's bad request) is neither retried nor fallen back", async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 400 }], repeat: true });
    const res = await s.inference.post(
      '/v1/chat/completions',
      chat('openai/gpt-4o-mini', { fallbacks: ['anthropic/claude-sonnet-4-5'] }),
    );
    expectInferenceError(res, 400, 'caller_invalid_request', { isGatewayError: false });
    expect(seen(s.sim)).toHaveLength(1);
  });

  it('a 5xx on every attempt of the primary falls back; the fallback error comes back marked as such', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 500 }], repeat: true });
    s.sim.scenario({ match: { family: 'anthropic' }, responses: [{ fault: 'overloaded' }], repeat: true });
    const res = await s.inference.post(
      '/v1/chat/completions',
      chat('openai/gpt-4o-mini', { fallbacks: ['anthropic/claude-sonnet-4-5'] }),
    );
    expectInferenceError(res, 529, 'provider_overloaded', { isGatewayError: false });
    expect(res.body.extra_fields.routing_info).toMatchObject({
      provider: 'anthropic',
      is_fallback: true,
      primary_provider: 'openai',
      primary_model: 'gpt-4o-mini',
    });
    expect(res.body.extra_fields.original_model_requested).toBe('gpt-4o-mini');
    expect(openaiCalls()).toHaveLength(3);
  });

  it('upstream timeout: 504 provider_timeout', async () => {
    await s.admin.put('/api/providers/gemini', {
      network_config: {
        default_request_timeout: '300ms',
        max_retries: 0,
        retry_backoff_initial: '20ms',
        retry_backoff_max: '200ms',
      },
    });
    try {
      s.sim.scenario({ match: { family: 'gemini' }, responses: [{ fault: 'delay', delay_ms: 2000 }] });
      const res = await s.inference.post('/v1/chat/completions', chat('gemini/gemini-2.5-flash'));
      expectInferenceError(res, 504, 'provider_timeout', { code: 'upstream_timeout' });
    } finally {
      await s.admin.put('/api/providers/gemini', {
        network_config: {
          default_request_timeout: '5s',
          max_retries: 2,
          retry_backoff_initial: '20ms',
          retry_backoff_max: '200ms',
        },
      });
    }
  });

  it('pins a key by name or id', async () => {
    const keys = (await s.admin.get('/api/providers/openai/keys')).body.keys as Array<{ id: string; name: string }>;
    const oa2 = keys.find((k) => k.name === 'oa-2')!;
    for (let i = 0; i < 3; i++) {
      const byName = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
        headers: { 'x-gateway-api-key': 'oa-1' },
      });
      expect(byName.headers.get('x-gateway-routing-info-key')).toBe('oa-1');
      const byId = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
        headers: { 'x-gateway-api-key-id': oa2.id, 'x-gateway-api-key': 'oa-1' },
      });
      expect(byId.headers.get('x-gateway-routing-info-key')).toBe('oa-2');
    }
    const unknown = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
      headers: { 'x-gateway-api-key': 'nope' },
    });
    expectInferenceError(unknown, 400, 'caller_model_not_available', { param: 'x-gateway-api-key' });
  });

  it('aliases, allow-lists, block lists and bare models, live after each change', async () => {
    const key = await created(
      s.admin.post('/api/providers/gemini/keys', {
        name: 'ge-alias',
        value: 'gem-key-2',
        models: ['gemini-2.5-pro'],
        aliases: { fast: { model_id: 'gemini-2.5-flash', model_name: 'gemini-2.5-flash', model_family: 'gemini' } },
      }),
    );
    try {
      // ge-1 allows every model, `fast` included; the pin makes the alias key serve.
      const aliased = await s.inference.post('/v1/chat/completions', chat('gemini/fast'), {
        headers: { 'x-gateway-api-key': 'ge-alias' },
      });
      expect(aliased.status, aliased.text).toBe(200);
      expect(aliased.headers.get('x-gateway-routing-info-key')).toBe('ge-alias');
      expect(aliased.headers.get('x-gateway-routing-info-model')).toBe('gemini-2.5-flash');
      expect(aliased.headers.get('x-gateway-routing-info-alias-model-id')).toBe('gemini-2.5-flash');
      expect(aliased.headers.get('x-gateway-routing-info-alias-model-family')).toBe('gemini');
      expect(aliased.headers.get('x-gateway-routing-info-requested-model')).toBe('fast');
      expect(seen(s.sim).at(-1)!.path).toContain('gemini-2.5-flash:generateContent');

      // A bare model resolves to the provider whose key names it.
      const bare = await s.inference.post('/v1/chat/completions', chat('gemini-2.5-pro'));
      expect(bare.status, bare.text).toBe(200);
      expect(bare.headers.get('x-gateway-routing-info-provider')).toBe('gemini');
      expect(bare.headers.get('x-gateway-routing-info-requested-provider')).toBeNull();

      // Block it on every gemini key: the model is no longer available, at once.
      const geKeys = (await s.admin.get('/api/providers/gemini/keys')).body.keys as Array<{ id: string }>;
      for (const k of geKeys) {
        const put = await s.admin.put(`/api/providers/gemini/keys/${k.id}`, { blacklisted_models: ['gemini-2.5-pro'] });
        expect(put.status, put.text).toBe(200);
      }
      const blocked = await s.inference.post('/v1/chat/completions', chat('gemini/gemini-2.5-pro'));
      expectInferenceError(blocked, 400, 'caller_model_not_available', { code: 'model_not_available', param: 'model' });
      for (const k of geKeys) await s.admin.put(`/api/providers/gemini/keys/${k.id}`, { blacklisted_models: [] });
    } finally {
      await s.admin.delete(`/api/providers/gemini/keys/${key.id}`);
    }
  });

  it('a disabled key is skipped on the next request', async () => {
    const keys = (await s.admin.get('/api/providers/openai/keys')).body.keys as Array<{ id: string; name: string }>;
    const oa1 = keys.find((k) => k.name === 'oa-1')!;
    expect((await s.admin.put(`/api/providers/openai/keys/${oa1.id}`, { enabled: false })).status).toBe(200);
    try {
      for (let i = 0; i < 4; i++) {
        const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
        expect(res.headers.get('x-gateway-routing-info-key')).toBe('oa-2');
      }
    } finally {
      await s.admin.put(`/api/providers/openai/keys/${oa1.id}`, { enabled: true });
    }
  });
});
