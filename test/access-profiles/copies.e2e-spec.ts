import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CounterStore } from '../../src/core/redis/counter.store.js';
import { requestCounterKey } from '../../src/modules/governance/limits/governed-levels.js';
import { rateLimitWindow } from '../../src/modules/governance/objects/limits.js';
import { expectError, OSS_CONFIG, ossClient, sql } from '../governance/governance-test-kit.js';
import { startTestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { assignProfile, createProfile, createUser } from './access-profiles-kit.js';

const VKS = '/api/governance/virtual-keys';
const MISSING_USER = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';
const masked = (value: string) => `${value.slice(0, 8)}…${value.slice(-4)}`;

/** Users' copies through HTTP: listing with masked keys, removal of a copy with its keys, the managed keys' edit lock. */
describe(`access profile copies (${RUN_MODE})`, () => {
  let s: InferenceStack;
  const copiesOf = (userId: string) => `/api/governance/users/${userId}/access-profiles`;
  const chat = (value: string) =>
    s.gw.http
      .withHeaders({ authorization: `Bearer ${value}` })
      .post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  /** Rows left of a managed key (and of its copy) in every table it spans. */
  const storedRows = async (copyId: number, keyId: string) => {
    const [row] = await sql<Record<string, string>>(
      s.gw,
      `SELECT (SELECT count(*) FROM access_profile_copies WHERE id = $1) AS copies,
              (SELECT count(*) FROM virtual_keys WHERE id = $2) AS keys,
              (SELECT count(*) FROM virtual_key_credentials WHERE virtual_key_id = $2) AS credentials,
              (SELECT count(*) FROM virtual_key_provider_configs WHERE virtual_key_id = $2) AS configs,
              (SELECT count(*) FROM budgets WHERE virtual_key_id = $2) AS budgets,
              (SELECT count(*) FROM rate_limits WHERE virtual_key_id = $2) AS rate_limits`,
      [copyId, keyId],
    );
    return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
  };

  beforeAll(async () => {
    s = await startInferenceStack({ edition: 'enterprise' });
  });
  afterAll(() => s?.close());

  it('lists a user’s copies with their keys, values masked from a hint stored at creation', async () => {
    const first = await createProfile(s.admin, { name: 'list-a' });
    const second = await createProfile(s.admin, { name: 'list-b', budgets: [{ max_limit: 5, reset_duration: '1d' }] });
    const userId = await createUser(s.admin);
    expect((await s.admin.get(copiesOf(userId))).body).toEqual({ access_profiles: [] });

    const a = await assignProfile(s.admin, userId, first.id);
    const b = await assignProfile(s.admin, userId, second.id);
    const res = await s.admin.get(copiesOf(userId));
    expect(res.status, res.text).toBe(200);
    expect(res.body.access_profiles).toEqual([
      {
        id: a.access_profile.id,
        user_id: userId,
        parent_profile_id: first.id,
        name: 'list-a',
        is_active: true,
        expires_at: null,
        assigned_via: 'direct',
        role_id: null,
        virtual_key_ids: [a.virtual_key.id],
        virtual_key_values: [masked(a.virtual_key.value)],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      expect.objectContaining({
        parent_profile_id: second.id,
        virtual_key_ids: [b.virtual_key.id],
        virtual_key_values: [masked(b.virtual_key.value)],
      }),
    ]);
    // The hint is all that is kept in clear: the value itself is stored only as its hash.
    const [credential] = await sql(
      s.gw,
      'SELECT value_hint, value_hash FROM virtual_key_credentials WHERE virtual_key_id = $1',
      [a.virtual_key.id],
    );
    expect(credential.value_hint).toBe(masked(a.virtual_key.value));
    expect(credential.value_hash).not.toContain(a.virtual_key.value.slice(6));

    // Rotation is a value change, not a policy change: allowed, and the list shows the new value.
    const rotated = await s.admin.post(`${VKS}/${a.virtual_key.id}/rotate`, {});
    expect(rotated.status, rotated.text).toBe(200);
    const newValue = rotated.body.virtual_key.value as string;
    expect((await chat(newValue)).status).toBe(200);
    expectError(await chat(a.virtual_key.value), 401, 'invalid_credentials');
    const after = await s.admin.get(copiesOf(userId));
    expect(after.body.access_profiles[0].virtual_key_values).toEqual([masked(newValue)]);

    expectError(await s.admin.get(copiesOf(MISSING_USER)), 404, 'user_not_found');
    expectError(await s.admin.get(copiesOf('not-a-user')), 404, 'user_not_found');
  });

  it('removes a copy and every key it produced at once: the key stops on /v1, rows and counters go', async () => {
    const profile = await createProfile(s.admin, {
      name: 'removable',
      budgets: [{ max_limit: 100, reset_duration: '1d' }],
      rate_limit: { request_max_limit: 50, request_reset_duration: '1h' },
      provider_configs: [{ provider_name: 'openai', all_models_allowed: true }],
    });
    const userId = await createUser(s.admin);
    const other = await createUser(s.admin);
    const assigned = await assignProfile(s.admin, userId, profile.id);
    const kept = await assignProfile(s.admin, other, profile.id);
    const key = assigned.virtual_key;
    expect((await chat(key.value)).status).toBe(200);
    expect((await chat(key.value)).status).toBe(200);
    const rateLimitId = key.rate_limit.id as string;
    const counters = s.gw.app.get(CounterStore);
    expect((await counters.get(requestCounterKey(rateLimitId), rateLimitWindow('1h'))).value).toBe(2);
    expect(await storedRows(assigned.access_profile.id, key.id)).toEqual({
      copies: 1,
      keys: 1,
      credentials: 1,
      configs: 1,
      budgets: 1,
      rate_limits: 1,
    });

    // Two removals at once: one wins, the other finds nothing (the copy row is locked, then gone).
    const [one, two] = await Promise.all([
      s.admin.delete(`${copiesOf(userId)}/${profile.id}`),
      s.admin.delete(`${copiesOf(userId)}/${profile.id}`),
    ]);
    const ok = one.status === 200 ? one : two;
    const refused = one.status === 200 ? two : one;
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({
      message: 'Access profile removed from user',
      deleted_vk_names: [key.name],
      deleted_vk_count: 1,
    });
    expectError(refused, 404, 'access_profile_copy_not_found');

    // At once, without waiting for any cache to expire.
    expectError(await chat(key.value), 401, 'invalid_credentials');
    expect(await storedRows(assigned.access_profile.id, key.id)).toEqual({
      copies: 0,
      keys: 0,
      credentials: 0,
      configs: 0,
      budgets: 0,
      rate_limits: 0,
    });
    expect((await counters.get(requestCounterKey(rateLimitId), rateLimitWindow('1h'))).value).toBe(0);
    expect((await s.admin.get(copiesOf(userId))).body).toEqual({ access_profiles: [] });
    // The other holder keeps theirs.
    expect((await chat(kept.virtual_key.value)).status).toBe(200);
    expect((await s.admin.get(`/api/governance/access-profiles/${profile.id}`)).body.user_count).toBe(1);

    expectError(await s.admin.delete(`${copiesOf(userId)}/${profile.id}`), 404, 'access_profile_copy_not_found');
    expectError(await s.admin.delete(`${copiesOf(userId)}/abc`), 404, 'access_profile_copy_not_found');
    expectError(await s.admin.delete(`${copiesOf(MISSING_USER)}/${profile.id}`), 404, 'user_not_found');

    // Given again: a fresh copy and key, counting from zero.
    const again = await assignProfile(s.admin, userId, profile.id);
    expect(again.virtual_key.id).not.toBe(key.id);
    expect(again.virtual_key.rate_limit.request_current_usage).toBe(0);
    expect((await chat(again.virtual_key.value)).status).toBe(200);
  });

  it('locks a managed key’s policy: only name and description change through the key’s routes', async () => {
    const profile = await createProfile(s.admin, {
      name: 'locked',
      provider_configs: [{ provider_name: 'openai', all_models_allowed: true }],
      budgets: [{ max_limit: 100, reset_duration: '1d' }],
    });
    const userId = await createUser(s.admin);
    const { virtual_key: key } = await assignProfile(s.admin, userId, profile.id);
    expect(key.access_profile_copy_id).toEqual(expect.any(Number));

    const renamed = await s.admin.put(`${VKS}/${key.id}`, { name: 'my key', description: 'mine' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.virtual_key).toMatchObject({ name: 'my key', description: 'mine' });

    const locked: Array<[Record<string, unknown>, string]> = [
      [{ is_active: false }, 'is_active'],
      [{ expires_at: '2099-01-01T00:00:00Z' }, 'expires_at'],
      [{ team_id: null }, 'team_id'],
      [{ customer_id: null }, 'customer_id'],
      [{ provider_configs: [] }, 'provider_configs'],
      [{ budgets: [] }, 'budgets'],
      [{ rate_limit: null }, 'rate_limit'],
      [{ mcp_configs: [] }, 'mcp_configs'],
      [{ reset_usage: true }, 'reset_usage'],
      [{ name: 'sneaky', budgets: [{ max_limit: 1e6, reset_duration: '1d' }] }, 'budgets'],
    ];
    for (const [body, param] of locked) {
      expectError(await s.admin.put(`${VKS}/${key.id}`, body), 409, 'profile_managed', param);
    }
    expectError(await s.admin.delete(`${VKS}/${key.id}`), 409, 'profile_managed');

    // Nothing of the refused requests was written: the key keeps its name, policy and works.
    const stored = await s.admin.get(`${VKS}/${key.id}`);
    expect(stored.body).toMatchObject({ name: 'my key', is_active: true, expires_at: null });
    expect(stored.body.budgets).toMatchObject([{ max_limit: 100, reset_duration: '1d' }]);
    expect(stored.body.provider_configs).toMatchObject([{ provider: 'openai' }]);
    expect((await chat(key.value)).status).toBe(200);

    // Budget overrides stay allowed on managed keys (a temporary raise for one user, not a policy change).
    const budgetId = stored.body.budgets[0].id as string;
    const override = await s.admin.put(`${VKS}/${key.id}/budgets/${budgetId}/override`, { amount: 5, mode: 'forever' });
    expect(override.status, override.text).toBe(200);
    expect(override.body.effective_max_limit).toBe(105);

    // An ordinary key is not locked.
    const plain = await s.admin.post(VKS, { name: 'plain-key' });
    expect((await s.admin.put(`${VKS}/${plain.body.virtual_key.id}`, { is_active: false })).status).toBe(200);
    expect((await s.admin.delete(`${VKS}/${plain.body.virtual_key.id}`)).status).toBe(200);
  });

  it('answers 404 enterprise_only on the open-source edition', async () => {
    const oss = await startTestApp({ config: OSS_CONFIG });
    try {
      const api = ossClient(oss);
      const user = MISSING_USER;
      expectError(await api.get(copiesOf(user)), 404, 'enterprise_only');
      expectError(await api.delete(`${copiesOf(user)}/1`), 404, 'enterprise_only');
      expectError(
        await api.post('/api/governance/access-profiles/1/roles', { role_ids: [user] }),
        404,
        'enterprise_only',
      );
      expectError(await api.delete(`/api/governance/access-profiles/1/roles/${user}`), 404, 'enterprise_only');
    } finally {
      await oss.close();
    }
  });
});
