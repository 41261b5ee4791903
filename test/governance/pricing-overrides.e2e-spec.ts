import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PricingOverrides } from '../../src/modules/governance/pricing-overrides/pricing-override-set.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import { created, sseMessages, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { expectError, OSS_CONFIG, ossClient } from './governance-test-kit.js';

const OVERRIDES = '/api/governance/pricing-overrides';
const chat = (model = 'openai/gpt-4o-mini', extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'price these five words' }],
  ...extra,
});

/** Pricing overrides (issue 11 §1): validation, precedence, and the exact cost charged through /v1. */
describe(`pricing overrides (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let vkId: string;
  let keyIds: Record<string, string>;
  /** The table's cost of the same request, without overrides. */
  let baseline: { prompt: number; completion: number; cost: Record<string, number> };

  async function override(body: Record<string, unknown>): Promise<any> {
    const res = await s.admin.post(OVERRIDES, {
      name: 'o',
      match_type: 'exact',
      pattern: 'gpt-4o-mini',
      request_types: ['chat_completion'],
      ...body,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.pricing_override;
  }
  async function charged(headers: Record<string, string> = {}): Promise<{ header: number; body: any; log: number }> {
    const res = await s.inference.post('/v1/chat/completions', chat(), { headers });
    expect(res.status, res.text).toBe(200);
    const log = await s.admin.get(`/api/logs/${res.headers.get('x-request-id')}`);
    return { header: Number(res.headers.get('x-gateway-cost-usd')), body: res.body.usage, log: log.body.cost };
  }
  /** Prompt and completion tokens at these per-token rates (binary fractions: the sums are exact). */
  const at = (input: number, output: number) => baseline.prompt * input + baseline.completion * output;

  beforeAll(async () => {
    s = await startInferenceStack();
    const vks = await s.admin.get('/api/governance/virtual-keys');
    vkId = vks.body.virtual_keys.find((k: any) => k.name === 'inference-tests').id;
    const keys = await s.admin.get('/api/keys');
    keyIds = Object.fromEntries(keys.body.keys.map((k: any) => [k.name, k.id]));
    const first = await charged();
    baseline = { prompt: first.body.prompt_tokens, completion: first.body.completion_tokens, cost: first.body.cost };
    expect(baseline.prompt).toBeGreaterThan(0);
    expect(baseline.completion).toBeGreaterThan(0);
    expect(baseline.cost.total_cost).toBeGreaterThan(0);
  });
  afterAll(() => s?.close());
  beforeEach(async () => {
    const listed = await s.admin.get(OVERRIDES, { query: { limit: 1000 } });
    for (const o of listed.body.pricing_overrides)
      expect((await s.admin.delete(`${OVERRIDES}/${o.id}`)).status).toBe(200);
  });

  it('an override changes the charged cost exactly: header, usage and log row', async () => {
    const o = await override({
      scope_kind: 'global',
      patch: { input_cost_per_token: 0.5, output_cost_per_token: 0.25 },
    });
    expect(o).toMatchObject({
      scope_kind: 'global',
      patch: { input_cost_per_token: 0.5, output_cost_per_token: 0.25 },
      pricing_patch: JSON.stringify({ input_cost_per_token: 0.5, output_cost_per_token: 0.25 }),
    });
    const c = await charged();
    const expected = at(0.5, 0.25);
    expect(c.header).toBe(expected);
    expect(c.body.cost).toMatchObject({
      input_tokens_cost: baseline.prompt * 0.5,
      output_tokens_cost: baseline.completion * 0.25,
      total_cost: expected,
    });
    expect(c.log).toBe(expected);
  });

  it('only the fields set are replaced; the rest keep the table’s rates', async () => {
    await override({ scope_kind: 'provider', provider_id: 'openai', patch: { input_cost_per_token: 1 } });
    const c = await charged();
    expect(c.body.cost.input_tokens_cost).toBe(baseline.prompt);
    expect(c.body.cost.output_tokens_cost).toBe(baseline.cost.output_tokens_cost);
    expect(c.header).toBeCloseTo(baseline.prompt + baseline.cost.output_tokens_cost!, 12);
  });

  it('the most specific scope wins: virtual key + provider key > virtual key > provider > global', async () => {
    await override({ scope_kind: 'global', patch: { input_cost_per_token: 0.5, output_cost_per_token: 0.5 } });
    expect((await charged()).header).toBe(at(0.5, 0.5));
    await override({
      scope_kind: 'provider',
      provider_id: 'openai',
      patch: { input_cost_per_token: 1, output_cost_per_token: 1 },
    });
    expect((await charged()).header).toBe(at(1, 1));
    await override({
      scope_kind: 'provider_key',
      provider_key_id: keyIds['oa-1'],
      patch: { input_cost_per_token: 1.5, output_cost_per_token: 1.5 },
    });
    expect((await charged({ 'x-gateway-api-key': 'oa-1' })).header).toBe(at(1.5, 1.5));
    expect((await charged({ 'x-gateway-api-key': 'oa-2' })).header).toBe(at(1, 1));
    await override({
      scope_kind: 'virtual_key',
      virtual_key_id: vkId,
      patch: { input_cost_per_token: 2, output_cost_per_token: 2 },
    });
    expect((await charged({ 'x-gateway-api-key': 'oa-1' })).header).toBe(at(2, 2));
    await override({
      scope_kind: 'virtual_key_provider',
      virtual_key_id: vkId,
      provider_id: 'openai',
      patch: { input_cost_per_token: 3, output_cost_per_token: 3 },
    });
    await override({
      scope_kind: 'virtual_key_provider_key',
      virtual_key_id: vkId,
      provider_key_id: keyIds['oa-1'],
      patch: { input_cost_per_token: 4, output_cost_per_token: 4 },
    });
    expect((await charged({ 'x-gateway-api-key': 'oa-1' })).header).toBe(at(4, 4));
    expect((await charged({ 'x-gateway-api-key': 'oa-2' })).header).toBe(at(3, 3));
    // User scopes are stored, and never match: data-plane requests carry no user yet.
    await override({
      scope_kind: 'user',
      user_id: 'user-1',
      patch: { input_cost_per_token: 8, output_cost_per_token: 8 },
    });
    expect((await charged({ 'x-gateway-api-key': 'oa-2' })).header).toBe(at(3, 3));
  });

  it('within a scope: exact before wildcard, the longest prefix first; request types must match', async () => {
    await override({
      scope_kind: 'global',
      match_type: 'wildcard',
      pattern: 'gpt-*',
      patch: { input_cost_per_token: 1, output_cost_per_token: 1 },
    });
    await override({
      scope_kind: 'global',
      match_type: 'wildcard',
      pattern: 'gpt-4o*',
      patch: { input_cost_per_token: 2, output_cost_per_token: 2 },
    });
    expect((await charged()).header).toBe(at(2, 2));
    await override({
      scope_kind: 'global',
      patch: { input_cost_per_token: 0.5, output_cost_per_token: 0.5 },
      request_types: ['embedding'],
    });
    expect((await charged()).header).toBe(at(2, 2));
    await override({
      scope_kind: 'global',
      patch: { input_cost_per_token: 0.5, output_cost_per_token: 0.5 },
      request_types: ['chat_completion_stream'],
    });
    expect((await charged()).header).toBe(at(0.5, 0.5));
  });

  it('a stream’s usage chunk carries the overridden cost', async () => {
    await override({ scope_kind: 'global', patch: { input_cost_per_token: 0.5, output_cost_per_token: 0.25 } });
    const res = await s.inference.post(
      '/v1/chat/completions',
      chat('openai/gpt-4o-mini', { stream: true, stream_options: { include_usage: true } }),
    );
    expect(res.status, res.text).toBe(200);
    const usage = sseMessages(res.text)
      .filter((m) => m.data !== '[DONE]')
      .map((m) => JSON.parse(m.data))
      .find((c) => c.usage)?.usage;
    expect(usage.cost.total_cost).toBe(at(0.5, 0.25));
  });

  it('validates: exactly the ids of the scope kind, the pattern, request types and the patch; writes nothing on error', async () => {
    const base = {
      name: 'x',
      scope_kind: 'global',
      match_type: 'exact',
      pattern: 'gpt-4o',
      request_types: ['chat_completion'],
      patch: { input_cost_per_token: 1 },
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ scope_kind: 'provider' }, 'provider_id'],
      [{ provider_id: 'openai' }, 'provider_id'],
      [{ scope_kind: 'virtual_key', virtual_key_id: 'not-a-uuid' }, 'virtual_key_id'],
      [{ scope_kind: 'virtual_key', virtual_key_id: '00000000-0000-4000-8000-000000000000' }, 'virtual_key_id'],
      [{ scope_kind: 'virtual_key_provider', virtual_key_id: vkId }, 'provider_id'],
      [{ scope_kind: 'provider', provider_id: 'openai', user_id: 'u' }, 'user_id'],
      [{ scope_kind: 'nope' }, 'scope_kind'],
      [{ match_type: 'wildcard', pattern: 'gpt-4o' }, 'pattern'],
      [{ match_type: 'wildcard', pattern: 'gpt-*o*' }, 'pattern'],
      [{ pattern: 'gpt-*' }, 'pattern'],
      [{ request_types: [] }, 'request_types'],
      [{ request_types: ['nope'] }, 'request_types'],
      [{ patch: {} }, 'patch'],
      [{ patch: { input_cost_per_token: -1 } }, 'patch.input_cost_per_token'],
      [{ patch: { made_up_cost: 1 } }, 'patch.made_up_cost'],
    ];
    for (const [change, param] of cases)
      expectError(await s.admin.post(OVERRIDES, { ...base, ...change }), 400, 'validation_failed', param);
    expect((await s.admin.get(OVERRIDES)).body.count).toBe(0);
  });

  it('lists with filters; updates merge, a new scope kind resets the ids, patch is replaced whole', async () => {
    const a = await override({
      name: 'negotiated',
      scope_kind: 'provider',
      provider_id: 'openai',
      patch: { input_cost_per_token: 1, output_cost_per_token: 1 },
    });
    await override({ name: 'other', scope_kind: 'global', patch: { input_cost_per_token: 1 } });
    expect((await s.admin.get(OVERRIDES)).body).toMatchObject({ count: 2, pagination: { total_count: 2 } });
    expect(
      (await s.admin.get(OVERRIDES, { query: { scope_kind: 'provider' } })).body.pricing_overrides.map(
        (o: any) => o.name,
      ),
    ).toEqual(['negotiated']);
    expect((await s.admin.get(OVERRIDES, { query: { provider_id: 'openai' } })).body.count).toBe(1);
    expect((await s.admin.get(OVERRIDES, { query: { search: 'NEGOT' } })).body.count).toBe(1);
    const patched = await s.admin.put(`${OVERRIDES}/${a.id}`, { patch: { output_cost_per_token: 0.5 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.message).toBe('Pricing override updated successfully');
    expect(patched.body.pricing_override).toMatchObject({
      name: 'negotiated',
      provider_id: 'openai',
      patch: { output_cost_per_token: 0.5 },
    });
    expect(patched.body.pricing_override.patch.input_cost_per_token).toBeUndefined();
    expectError(
      await s.admin.put(`${OVERRIDES}/${a.id}`, { scope_kind: 'virtual_key' }),
      400,
      'validation_failed',
      'virtual_key_id',
    );
    const moved = await s.admin.put(`${OVERRIDES}/${a.id}`, { scope_kind: 'virtual_key', virtual_key_id: vkId });
    expect(moved.body.pricing_override).toMatchObject({
      scope_kind: 'virtual_key',
      virtual_key_id: vkId,
      provider_id: null,
    });
    expect((await s.admin.get(`${OVERRIDES}/${a.id}`)).body.scope_kind).toBe('virtual_key');
    expect((await s.admin.delete(`${OVERRIDES}/${a.id}`)).body).toEqual({
      message: 'Pricing override deleted successfully',
    });
    expectError(await s.admin.get(`${OVERRIDES}/${a.id}`), 404, 'pricing_override_not_found');
  });

  it('prices a model the table does not know', async () => {
    await created(
      s.admin.post('/api/providers/openai/keys', { name: 'any-model', value: 'sk-any', models: ['house-model'] }),
    );
    await override({
      scope_kind: 'global',
      pattern: 'house-model',
      patch: { input_cost_per_token: 0.5, output_cost_per_token: 0.25 },
    });
    const res = await s.inference.post('/v1/chat/completions', chat('openai/house-model'));
    expect(res.status, res.text).toBe(200);
    expect(Number(res.headers.get('x-gateway-cost-usd'))).toBe(at(0.5, 0.25));
  });
});

describe.skipIf(!TEST_REDIS_URL || RUN_MODE !== 'postgres')(`pricing overrides across replicas (${RUN_MODE})`, () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ config: OSS_CONFIG, keepDatabase: true });
    second = await startTestApp({
      config: { ...OSS_CONFIG, encryption_key: first.config.encryption_key },
      databaseUrl: first.databaseUrl,
      redisPrefix: first.config.redis_prefix,
    });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('an override written on one replica prices requests on the other at once', async () => {
    const overrides = second.app.get(PricingOverrides);
    const request = { provider: 'openai', providerKeyId: 'k', model: 'gpt-4o-mini', requestType: 'chat_completion' };
    expect((await overrides.snapshot()).find(request)).toBeUndefined();
    const res = await ossClient(first).post(OVERRIDES, {
      name: 'replicated',
      scope_kind: 'provider',
      provider_id: 'openai',
      match_type: 'wildcard',
      pattern: 'gpt-*',
      request_types: ['chat_completion'],
      patch: { input_cost_per_token: 1 },
    });
    expect(res.status, res.text).toBe(201);
    await vi.waitFor(async () => expect((await overrides.snapshot()).find(request)?.name).toBe('replicated'), {
      timeout: 1000,
      interval: 20,
    });
  });
});
