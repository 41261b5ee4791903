import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seen } from '../inference/inference-kit.js';
import {
  answerWith,
  chat,
  createKey,
  exactChat,
  expectRefusal,
  startGovernedStack,
  upstreamCalls,
  type GovernedStack,
} from './limits-kit.js';

const ask = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'which provider' }],
  ...extra,
});

/**
 * Issue 11 §1, first bullet, through /v1: a key's provider configs decide which providers, models and provider keys
 * it may use; a bare model is placed by their weights; each model of a fallback chain is checked on its own.
 */
describe('virtual key provider configs', () => {
  let s: GovernedStack;
  beforeAll(async () => {
    s = await startGovernedStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('without provider configs a key uses every configured provider and model, as before', async () => {
    const key = await createKey(s, { name: 'pc-open' });
    for (const model of ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5', 'gemini/gemini-2.0-flash']) {
      expect((await chat(key, ask(model))).status).toBe(200);
    }
  });

  it('only the listed providers and models; the black list wins over *; refused before the provider', async () => {
    const key = await createKey(s, {
      name: 'pc-listed',
      provider_configs: [
        { provider: 'openai', weight: 1, allowed_models: ['gpt-4o-mini'], key_ids: ['*'] },
        {
          provider: 'anthropic',
          weight: 1,
          allowed_models: ['*'],
          blacklisted_models: ['claude-opus-4-1'],
          key_ids: ['*'],
        },
      ],
    });
    expect((await chat(key, ask('openai/gpt-4o-mini'))).status).toBe(200);
    expect((await chat(key, ask('anthropic/claude-sonnet-4-5'))).status).toBe(200);
    const model = await chat(key, ask('openai/gpt-4o'));
    expectRefusal(model, 403, 'model_blocked', 'policy_model_blocked');
    expect(model.body.error.message).toMatch(/may not use model 'gpt-4o' of provider 'openai'/);
    expectRefusal(await chat(key, ask('anthropic/claude-opus-4-1')), 403, 'model_blocked', 'policy_model_blocked');
    const provider = await chat(key, ask('gemini/gemini-2.0-flash'));
    expectRefusal(provider, 403, 'model_blocked', 'policy_provider_blocked');
    expect(provider.body.error.message).toMatch(/may not use provider 'gemini'/);
    expect(upstreamCalls(s)).toBe(2);
  });

  it('key_ids restricts the provider keys the router picks; [] allows none', async () => {
    const keys = (await s.admin.get('/api/providers/openai/keys')).body.keys as Array<{ id: string; name: string }>;
    const second = keys.find((k) => k.name === 'oa-2')!;
    const key = await createKey(s, {
      name: 'pc-keys',
      provider_configs: [{ provider: 'openai', weight: 1, allowed_models: ['*'], key_ids: [second.id] }],
    });
    for (let i = 0; i < 8; i++) {
      const res = await chat(key, ask('openai/gpt-4o-mini'));
      expect(res.headers.get('x-gateway-routing-info-key')).toBe('oa-2');
    }
    expect(new Set(seen(s.sim).map((r) => r.headers.authorization))).toEqual(new Set(['Bearer sk-oa-2']));
    const none = await createKey(s, {
      name: 'pc-no-keys',
      provider_configs: [{ provider: 'openai', weight: 1, allowed_models: ['*'], key_ids: [] }],
    });
    expectRefusal(await chat(none, ask('openai/gpt-4o-mini')), 403, 'model_blocked', 'policy_provider_blocked');
  });

  it('a bare model goes to the allowed providers by weight; a null weight is never picked', async () => {
    const key = await createKey(s, {
      name: 'pc-weights',
      provider_configs: [
        { provider: 'openai', weight: 1, allowed_models: ['*'], key_ids: ['*'] },
        { provider: 'gemini', weight: 1, allowed_models: ['*'], key_ids: ['*'] },
        { provider: 'anthropic', weight: null, allowed_models: ['*'], key_ids: ['*'] },
      ],
    });
    const served = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const res = await chat(key, ask('gpt-4o-mini'));
      expect(res.status, res.text).toBe(200);
      const provider = res.headers.get('x-gateway-routing-info-provider')!;
      served.set(provider, (served.get(provider) ?? 0) + 1);
    }
    expect(served.get('anthropic')).toBeUndefined();
    expect(served.get('openai')).toBeGreaterThan(5);
    expect(served.get('gemini')).toBeGreaterThan(5);
    const nowhere = await createKey(s, {
      name: 'pc-nowhere',
      provider_configs: [{ provider: 'openai', weight: 1, allowed_models: ['gpt-4o'], key_ids: ['*'] }],
    });
    expectRefusal(await chat(nowhere, ask('gpt-4o-mini')), 403, 'model_blocked', 'policy_model_blocked');
  });

  it("each model of a fallback chain is checked against its own provider's levels", async () => {
    const fallbacks = ['anthropic/claude-sonnet-4-5', 'gemini/gemini-2.0-flash'];
    // The budget allows one request of this body (its estimate equals the usage the simulator reports).
    const { body: withFallback, cost, usage } = exactChat('openai/gpt-4o-mini', 16, 'count me', { fallbacks });
    const { body } = exactChat();
    answerWith(s, usage);
    const key = await createKey(s, {
      name: 'pc-fallback',
      provider_configs: [
        {
          provider: 'openai',
          weight: 1,
          allowed_models: ['*'],
          key_ids: ['*'],
          budgets: [{ max_limit: cost, reset_duration: '1h' }],
        },
        { provider: 'anthropic', weight: 1, allowed_models: ['*'], key_ids: ['*'] },
      ],
    });
    const first = await chat(key, withFallback);
    expect(first.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    // The openai config's budget is spent: the fallback serves without openai being called.
    const second = await chat(key, withFallback);
    expect(second.status, second.text).toBe(200);
    expect(second.headers.get('x-gateway-routing-info-provider')).toBe('anthropic');
    expect(second.headers.get('x-gateway-fallback-index')).toBe('1');
    expect(seen(s.sim).map((r) => r.family)).toEqual(['openai', 'anthropic']);
    // Without a fallback the refusal is the caller's answer; gemini is not allowed at all.
    expectRefusal(await chat(key, body), 402, 'budget_exceeded', 'policy_budget_exceeded');
    const last = await chat(key, { ...body, fallbacks: ['gemini/gemini-2.0-flash'] });
    expectRefusal(last, 403, 'model_blocked', 'policy_provider_blocked');
  });
});
