import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../governance/governance-test-kit.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { assignProfile, createProfile, createUser } from './access-profiles-kit.js';

/** A user's copy of a profile and its managed virtual key, enforced on /v1 like any key. */
describe(`access profile managed keys (${RUN_MODE})`, () => {
  let s: InferenceStack;

  beforeAll(async () => {
    s = await startInferenceStack({ edition: 'enterprise' });
  });
  afterAll(() => s?.close());

  it('builds the key from the copy: providers, models and budgets hold on /v1', async () => {
    const profile = await createProfile(s.admin, {
      name: 'engineers',
      provider_configs: [{ provider_name: 'openai', all_models_allowed: false, allowed_models: ['gpt-4o-mini'] }],
      budgets: [{ max_limit: 0.0007, reset_duration: '1d' }],
    });
    expect(profile).toMatchObject({ id: expect.any(Number), version: 1, is_active: true });
    expect(profile.budgets).toEqual([{ max_limit: 0.0007, reset_duration: '1d', scope: 'total' }]);
    const userId = await createUser(s.admin);
    const assigned = await assignProfile(s.admin, userId, profile.id);
    expect(assigned.access_profile).toMatchObject({
      user_id: userId,
      parent_profile_id: profile.id,
      name: 'engineers',
    });
    const key = assigned.virtual_key;
    expect(key.value).toMatch(/^sk-/);
    expect(assigned.access_profile.virtual_key_ids).toEqual([key.id]);
    expect(assigned.access_profile.virtual_key_values[0]).toBe(`${key.value.slice(0, 8)}…${key.value.slice(-4)}`);
    expect(key.provider_configs).toMatchObject([{ provider: 'openai', allowed_models: ['gpt-4o-mini'] }]);
    expect(key.budgets).toMatchObject([{ max_limit: 0.0007, reset_duration: '1d', current_usage: 0 }]);

    const inference = s.gw.http.withHeaders({ authorization: `Bearer ${key.value}` });
    const chat = (model: string) =>
      inference.post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
    expectError(await chat('anthropic/claude-sonnet-4-5'), 403, 'model_blocked');
    expectError(await chat('openai/gpt-4o'), 403, 'model_blocked');
    const first = await chat('openai/gpt-4o-mini');
    expect(first.status, first.text).toBe(200);
    // A request reserves its worst case (~0.0006 here) and is charged its real cost: the budget is used up within a
    // few dozen requests (a larger one takes hundreds, too slow under load).
    await expect
      .poll(async () => (await chat('openai/gpt-4o-mini')).status, { timeout: 10_000, interval: 10 })
      .toBe(402);

    expectError(
      await s.admin.post(`/api/governance/users/${userId}/access-profiles`, { profile_id: profile.id }),
      409,
      'already_exists',
    );
    expectError(
      await s.admin.post(`/api/governance/users/${userId}/access-profiles`, { profile_id: 999999 }),
      404,
      'access_profile_not_found',
    );
    expectError(
      await s.admin.post(`/api/governance/users/not-a-user/access-profiles`, { profile_id: profile.id }),
      404,
      'user_not_found',
    );
    expectError(
      await s.admin.post(`/api/governance/users/${userId}/access-profiles`, { profile_id: 'x' }),
      400,
      'validation_failed',
    );
  });
  it('refuses at exactly the profile’s request rate limit (429), like any key', async () => {
    const profile = await createProfile(s.admin, {
      name: 'rate-limited',
      rate_limit: { request_max_limit: 3, request_reset_duration: '1h' },
    });
    const { virtual_key: key } = await assignProfile(s.admin, await createUser(s.admin), profile.id);
    expect(key.rate_limit).toMatchObject({
      request_max_limit: 3,
      request_reset_duration: '1h',
      request_current_usage: 0,
    });
    const inference = s.gw.http.withHeaders({ authorization: `Bearer ${key.value}` });
    const chat = () =>
      inference.post('/v1/chat/completions', {
        model: 'openai/gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
      });
    for (let i = 1; i <= 3; i++) expect((await chat()).status, `request ${i}`).toBe(200);
    const refused = await chat();
    expectError(refused, 429, 'request_limited');
    expect(refused.body.error.message).toContain('3');
    const view = await s.admin.get(`/api/governance/virtual-keys/${key.id}`);
    expect(view.body.rate_limit.request_current_usage).toBe(3);
  });

  it('holds a provider-scoped budget on that provider only', async () => {
    const profile = await createProfile(s.admin, {
      name: 'openai-capped',
      provider_configs: [
        { provider_name: 'openai', all_models_allowed: true },
        { provider_name: 'anthropic', all_models_allowed: true },
      ],
      budgets: [{ max_limit: 0.000001, reset_duration: '1d', scope: 'provider:openai' }],
    });
    const { virtual_key: key } = await assignProfile(s.admin, await createUser(s.admin), profile.id);
    // Scoped to the provider: on its provider config, not on the key.
    expect(key.budgets).toEqual([]);
    const openai = key.provider_configs.find((pc: any) => pc.provider === 'openai');
    const anthropic = key.provider_configs.find((pc: any) => pc.provider === 'anthropic');
    expect(openai.budgets).toMatchObject([{ max_limit: 0.000001, reset_duration: '1d', current_usage: 0 }]);
    expect(anthropic.budgets).toEqual([]);

    const inference = s.gw.http.withHeaders({ authorization: `Bearer ${key.value}` });
    const chat = (model: string) =>
      inference.post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
    await expect
      .poll(async () => (await chat('openai/gpt-4o-mini')).status, { timeout: 10_000, interval: 10 })
      .toBe(402);
    expectError(await chat('openai/gpt-4o-mini'), 402, 'budget_exceeded');
    for (let i = 0; i < 3; i++) expect((await chat('anthropic/claude-sonnet-4-5')).status).toBe(200);
  });
});
