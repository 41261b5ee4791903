import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../governance/governance-test-kit.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { created, startInferenceStack, type InferenceStack } from './inference-kit.js';

const TEST = '/api/providers/openai/test';
const MISSING_ID = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';

/**
 * `POST /api/providers/{provider}/test` against the provider simulator: one small chat completion on one key; the
 * answer or the provider's error is the result; what the caller got wrong is a 4xx naming the field.
 */
describe(`provider test action (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let keyIds: Record<string, string>;
  beforeAll(async () => {
    s = await startInferenceStack();
    const keys = (await s.admin.get('/api/providers/openai/keys')).body.keys as Array<{ id: string; name: string }>;
    keyIds = Object.fromEntries(keys.map((k) => [k.name, k.id]));
  });
  afterAll(() => s?.close());

  const lastChat = () => s.sim.requests({ path: '/openai/v1/chat/completions' }).at(-1);

  it('answers with the provider’s text, the key used, the tokens and the time taken', async () => {
    s.sim.reset();
    const res = await s.admin.post(TEST, { model: 'gpt-4o-mini', key_id: keyIds['oa-2'], prompt: 'Hello there' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      provider: 'openai',
      model: 'gpt-4o-mini',
      key_id: keyIds['oa-2'],
      key_name: 'oa-2',
      latency_ms: expect.any(Number),
      answer: expect.stringMatching(/\S/),
      usage: {
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      },
    });
    // One request, on the key named, small.
    expect(s.sim.requests({ path: '/openai/v1/chat/completions' })).toHaveLength(1);
    expect(lastChat()).toMatchObject({
      key: 'sk-oa-2',
      body: { model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'Hello there' }] },
    });
    // The key's value never comes back.
    expect(res.text).not.toContain('sk-oa-');
  });

  it('picks an enabled key serving the model when none is named, and tests a disabled key when named', async () => {
    const picked = await s.admin.post(TEST, { model: 'gpt-4o' });
    expect(picked.status, picked.text).toBe(200);
    expect(['oa-1', 'oa-2']).toContain(picked.body.key_name);
    expect(lastChat()?.body).toMatchObject({
      messages: [{ role: 'user', content: 'Say hello in one short sentence.' }],
    });

    const off = await created(
      s.admin.post('/api/providers/openai/keys', { name: 'oa-off', value: 'sk-oa-off', enabled: false }),
    );
    const res = await s.admin.post(TEST, { model: 'gpt-4o', key_id: off.id });
    expect(res.body).toMatchObject({ status: 'success', key_name: 'oa-off' });
    expect(lastChat()?.key).toBe('sk-oa-off');
    await s.admin.delete(`/api/providers/openai/keys/${off.id}`);
  });

  it('a provider refusal is the result: status failed with the GatewayError /v1 relays, no retry', async () => {
    s.sim.reset();
    const limited = await s.admin.post(TEST, { model: 'sim-rate-limit', key_id: keyIds['oa-1'] });
    expect(limited.status, limited.text).toBe(200);
    expect(limited.body).toMatchObject({ status: 'failed', provider: 'openai', key_name: 'oa-1' });
    expect(limited.body.answer).toBeUndefined();
    expect(limited.body.error).toMatchObject({
      status_code: 429,
      error: { message: expect.stringMatching(/\S/) },
      extra_fields: { error_type: 'provider_rate_limited' },
    });
    expect(s.sim.requests({ path: '/openai/v1/chat/completions' })).toHaveLength(1);

    const broken = await s.admin.post(TEST, { model: 'sim-error-401', key_id: keyIds['oa-1'] });
    expect(broken.body).toMatchObject({ status: 'failed', error: { status_code: 401 } });
  });

  it('an unreachable provider is a failed result too', async () => {
    await created(s.admin.post('/api/providers', { provider: 'mistral', base_url: 'http://127.0.0.1:9/v1' }));
    await created(s.admin.post('/api/providers/mistral/keys', { name: 'mi-1', value: 'sk-mi-1' }));
    const res = await s.admin.post('/api/providers/mistral/test', { model: 'mistral-small' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'failed',
      key_name: 'mi-1',
      error: { error: { message: expect.any(String) } },
    });
    expect(res.body.error.status_code).toBeGreaterThanOrEqual(500);
  });

  it('what the caller got wrong is a 4xx naming the field', async () => {
    const narrow = await created(
      s.admin.post('/api/providers/openai/keys', { name: 'oa-narrow', value: 'sk-oa-n', models: ['gpt-4o'] }),
    );
    expectError(await s.admin.post(TEST, { model: 'o3', key_id: narrow.id }), 400, 'validation_failed', 'model');
    expectError(await s.admin.post(TEST, {}), 400, 'validation_failed', 'model');
    expectError(await s.admin.post(TEST, { model: '' }), 400, 'validation_failed', 'model');
    expectError(await s.admin.post(TEST, { model: 'gpt-4o', key_id: 'abc' }), 400, 'validation_failed', 'key_id');
    expectError(
      await s.admin.post(TEST, { model: 'gpt-4o', prompt: 'x'.repeat(1001) }),
      400,
      'validation_failed',
      'prompt',
    );
    expectError(await s.admin.post(TEST, { model: 'gpt-4o', key_id: MISSING_ID }), 404, 'provider_key_not_found');
    expectError(await s.admin.post('/api/providers/cohere/test', { model: 'command-r' }), 404, 'provider_not_found');
    expectError(await s.admin.post('/api/providers/nope/test', { model: 'x' }), 400, 'validation_failed', 'provider');
    expectError(await s.gw.http.post(TEST, { model: 'gpt-4o' }), 401, 'setup_token_required');
    await s.admin.delete(`/api/providers/openai/keys/${narrow.id}`);
  });
});
