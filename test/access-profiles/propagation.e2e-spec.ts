import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, sql, UUID } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { SETUP_TOKEN, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { assignProfile, createProfile, createToolGroup, createUser, PROFILES } from './access-profiles-kit.js';
import {
  adoptFields,
  copyOf,
  pollStatus,
  propagate,
  propagated,
  seedCopies,
  seedUsers,
  SIX_FIELDS,
  type Query,
} from './propagation-kit.js';

let serial = 0;
const unique = (name: string) => `${name}-${++serial}-${Date.now()}`;

/** Every profile field, version 1 (users get copies of it) and version 2 (the template changes to it). */
const V1 = {
  provider_configs: [{ provider_name: 'openai', all_models_allowed: false, allowed_models: ['gpt-4o-mini'] }],
  budgets: [{ max_limit: 5, reset_duration: '1d' }],
  rate_limit: { request_max_limit: 100, request_reset_duration: '1h' },
  mcp_tool_groups: [{ tool_group_id: 'set by useToolGroups' }],
  mcp_servers: [{ mcp_server_id: 'server-a' }],
  mcp_tool_overrides: [{ mcp_client_id: 'server-b', tool_name: 'search', action: 'include' }],
};
const V2 = {
  provider_configs: [
    { provider_name: 'openai', all_models_allowed: false, allowed_models: ['gpt-4o'] },
    { provider_name: 'anthropic', all_models_allowed: true },
  ],
  budgets: [
    { max_limit: 7, reset_duration: '1d' },
    { max_limit: 2, reset_duration: '1w', scope: 'provider:anthropic' },
  ],
  rate_limit: {
    request_max_limit: 200,
    request_reset_duration: '1h',
    token_max_limit: 5000,
    token_reset_duration: '1d',
  },
  mcp_tool_groups: [{ tool_group_id: 'set by useToolGroups' }],
  mcp_servers: [{ mcp_server_id: 'server-c' }],
  mcp_tool_overrides: [{ mcp_client_id: 'server-d', tool_name: 'fetch', action: 'include' }],
};

/** Referenced tool groups must exist: V1 and V2 reference two made on this gateway. */
async function useToolGroups(admin: HttpClient): Promise<void> {
  V1.mcp_tool_groups = [{ tool_group_id: await createToolGroup(admin, unique('group_a').replace(/-/g, '_')) }];
  V2.mcp_tool_groups = [{ tool_group_id: await createToolGroup(admin, unique('group_b').replace(/-/g, '_')) }];
}

const chatBody = (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 });

describe(`access profile propagation (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let admin: HttpClient;
  let query: Query;

  beforeAll(async () => {
    s = await startInferenceStack({ edition: 'enterprise' });
    admin = s.admin;
    query = (text, params) => sql(s.gw, text, params);
    await useToolGroups(admin);
  });
  afterAll(() => s?.close());

  /** A template at V1 and, beside it, the V2 source its fields are taken from. */
  async function profilePair(v1: Record<string, unknown> = V1, v2: Record<string, unknown> = V2) {
    const profile = await createProfile(admin, { name: unique('team'), ...v1 });
    const next = await createProfile(admin, { name: unique('next'), ...v2 });
    return { profile, next };
  }

  async function keyOf(vkId: string): Promise<any> {
    const res = await admin.get(`/api/governance/virtual-keys/${vkId}`);
    expect(res.status, res.text).toBe(200);
    return res.body.virtual_key ?? res.body;
  }

  const chat = (vk: string, model: string) =>
    s.gw.http.withHeaders({ authorization: `Bearer ${vk}` }).post('/v1/chat/completions', chatBody(model));

  it('each field alone: only that field reaches the copy, and the managed key follows', async () => {
    const { profile, next } = await profilePair();
    const user = await createUser(admin);
    const assigned = await assignProfile(admin, user, profile.id);
    const vkId = assigned.virtual_key.id as string;
    await adoptFields(query, profile.id, next.id, SIX_FIELDS);
    const before = await copyOf(query, user, profile.id);
    const source = (await admin.get(`${PROFILES}/${next.id}`)).body.access_profile;

    for (const [i, field] of SIX_FIELDS.entries()) {
      const result = await propagated(admin, profile.id, { fields: [field] });
      expect(result).toEqual({
        affected_users: 1,
        failed_users: 0,
        skipped_users: 0,
        user_ids: [user],
        fields: [field],
        applied: true,
        vk_sync_errors: [],
      });
      const copy = await copyOf(query, user, profile.id);
      for (const [j, other] of SIX_FIELDS.entries()) {
        // Fields propagated so far carry V2; the rest still carry V1.
        expect(copy[other], `${field} → ${other}`).toEqual(j <= i ? source[other] : before[other]);
      }
      const key = await keyOf(vkId);
      if (field === 'provider_configs') {
        expect(key.provider_configs.map((pc: any) => [pc.provider, pc.allowed_models])).toEqual([
          ['anthropic', ['*']],
          ['openai', ['gpt-4o']],
        ]);
      }
      if (field === 'budgets') {
        expect(key.budgets).toMatchObject([{ max_limit: 7, reset_duration: '1d' }]);
        const anthropic = key.provider_configs.find((pc: any) => pc.provider === 'anthropic');
        expect(anthropic.budgets).toMatchObject([{ max_limit: 2, reset_duration: '1w' }]);
      }
      if (field === 'rate_limit') {
        expect(key.rate_limit).toMatchObject({ request_max_limit: 200, token_max_limit: 5000 });
      }
      if (field === 'mcp_servers') {
        // Whole servers first, then the included tools (managedKeyPolicy's order).
        expect(key.mcp_configs).toEqual([
          { mcp_client_id: 'server-c', tools_to_execute: ['*'] },
          { mcp_client_id: 'server-b', tools_to_execute: ['search'] },
        ]);
      }
      if (field === 'mcp_tool_overrides') {
        expect(key.mcp_configs).toEqual([
          { mcp_client_id: 'server-c', tools_to_execute: ['*'] },
          { mcp_client_id: 'server-d', tools_to_execute: ['fetch'] },
        ]);
      }
    }
    // Everything matches now: the same call skips the user and writes nothing.
    const again = await propagated(admin, profile.id, { fields: [...SIX_FIELDS] });
    expect(again).toMatchObject({ affected_users: 0, skipped_users: 1, user_ids: [], applied: true });
  });

  it('all six together; the hot path enforces the new allow-list on the next request', async () => {
    const { profile, next } = await profilePair();
    const users = [await createUser(admin), await createUser(admin)];
    const keys: string[] = [];
    for (const u of users) keys.push((await assignProfile(admin, u, profile.id)).virtual_key.value as string);
    const [first, second] = keys as [string, string];
    expect((await chat(first, 'openai/gpt-4o-mini')).status).toBe(200);
    expectError(await chat(first, 'openai/gpt-4o'), 403, 'model_blocked');
    await adoptFields(query, profile.id, next.id, SIX_FIELDS);

    const result = await propagated(admin, profile.id, { fields: [...SIX_FIELDS] });
    expect(result).toEqual({
      affected_users: 2,
      failed_users: 0,
      skipped_users: 0,
      user_ids: [...users].sort(),
      fields: [...SIX_FIELDS],
      applied: true,
      vk_sync_errors: [],
    });
    const source = (await admin.get(`${PROFILES}/${next.id}`)).body.access_profile;
    for (const u of users) {
      const copy = await copyOf(query, u, profile.id);
      for (const field of SIX_FIELDS) expect(copy[field]).toEqual(source[field]);
    }
    expectError(await chat(first, 'openai/gpt-4o-mini'), 403, 'model_blocked');
    expect((await chat(first, 'openai/gpt-4o')).status).toBe(200);
    expect((await chat(second, 'anthropic/claude-sonnet-4-5')).status).toBe(200);
  });

  it('a dry run answers the counts of the real run and writes nothing', async () => {
    const { profile, next } = await profilePair();
    const users = [await createUser(admin), await createUser(admin)];
    const keyIds: string[] = [];
    for (const u of users) keyIds.push((await assignProfile(admin, u, profile.id)).virtual_key.id);
    const stranger = await createUser(admin);
    await adoptFields(query, profile.id, next.id, ['provider_configs', 'budgets', 'rate_limit']);
    const copiesBefore = await query('SELECT * FROM access_profile_copies WHERE parent_profile_id = $1 ORDER BY id', [
      profile.id,
    ]);
    const keyBefore = await keyOf(keyIds[0]!);
    // V2's anthropic budget needs V2's provider configs: propagated together.
    const body = { fields: ['provider_configs', 'budgets', 'rate_limit'], user_ids: [...users, stranger] };

    const preview = await propagated(admin, profile.id, { ...body, dry_run: true });
    expect(preview).toEqual({
      affected_users: 2,
      failed_users: 0,
      skipped_users: 1,
      user_ids: [...users].sort(),
      fields: ['provider_configs', 'budgets', 'rate_limit'],
      applied: false,
      vk_sync_errors: [],
    });
    expect(
      await query('SELECT * FROM access_profile_copies WHERE parent_profile_id = $1 ORDER BY id', [profile.id]),
    ).toEqual(copiesBefore);
    expect(await keyOf(keyIds[0]!)).toEqual(keyBefore);
    expect(
      await query('SELECT id FROM access_profile_propagations WHERE access_profile_id = $1', [profile.id]),
    ).toEqual([]);

    const real = await propagated(admin, profile.id, body);
    expect(real).toEqual({ ...preview, applied: true });
    expect((await keyOf(keyIds[0]!)).budgets).toMatchObject([{ max_limit: 7 }]);
  });

  it('reset_usage: usage charged through /v1 is kept where windows keep their length, zeroed when asked', async () => {
    const limits = {
      provider_configs: [{ provider_name: 'openai' }],
      budgets: [{ max_limit: 10, reset_duration: '1d' }],
      rate_limit: { request_max_limit: 100, request_reset_duration: '1h' },
    };
    const { profile, next } = await profilePair(limits, {
      ...limits,
      budgets: [{ max_limit: 20, reset_duration: '1d' }],
      rate_limit: { request_max_limit: 300, request_reset_duration: '1h' },
    });
    const user = await createUser(admin);
    const { virtual_key: key } = await assignProfile(admin, user, profile.id);
    for (let i = 0; i < 2; i++) expect((await chat(key.value, 'openai/gpt-4o-mini')).status).toBe(200);
    // Cost and tokens are charged after the response.
    await expect
      .poll(async () => {
        const k = await keyOf(key.id);
        return k.budgets[0].current_usage > 0 && k.rate_limit.request_current_usage === 2;
      })
      .toBe(true);
    const used = (await keyOf(key.id)).budgets[0].current_usage as number;
    await adoptFields(query, profile.id, next.id, ['budgets', 'rate_limit']);

    const kept = await propagated(admin, profile.id, { fields: ['budgets', 'rate_limit'] });
    expect(kept).toMatchObject({ affected_users: 1, applied: true, vk_sync_errors: [] });
    const afterKeep = await keyOf(key.id);
    expect(afterKeep.budgets).toMatchObject([{ max_limit: 20, reset_duration: '1d', current_usage: used }]);
    expect(afterKeep.rate_limit).toMatchObject({ request_max_limit: 300, request_current_usage: 2 });

    // Nothing differs any more, but reset_usage still rewrites the key: with zeroed counters.
    const reset = await propagated(admin, profile.id, { fields: ['budgets', 'rate_limit'], reset_usage: true });
    expect(reset).toMatchObject({ affected_users: 1, skipped_users: 0, user_ids: [user] });
    const afterReset = await keyOf(key.id);
    expect(afterReset.budgets).toMatchObject([{ max_limit: 20, current_usage: 0 }]);
    expect(afterReset.rate_limit).toMatchObject({ request_max_limit: 300, request_current_usage: 0 });
  });

  it('selectors: user_ids and group_ids (team members) are united; neither means every holder', async () => {
    const { profile, next } = await profilePair();
    const teamA = crypto.randomUUID();
    const teamB = crypto.randomUUID();
    const a = await createUser(admin, { team_id: teamA });
    const b = await createUser(admin, { team_id: teamB });
    const c = await createUser(admin);
    const memberWithoutCopy = await createUser(admin, { team_id: teamA });
    for (const u of [a, b, c]) await assignProfile(admin, u, profile.id);
    await adoptFields(query, profile.id, next.id, ['rate_limit']);

    const first = await propagated(admin, profile.id, { fields: ['rate_limit'], user_ids: [c], group_ids: [teamA] });
    expect(first).toMatchObject({
      affected_users: 2,
      failed_users: 0,
      skipped_users: 1,
      user_ids: [a, c].sort(),
    });
    expect((await copyOf(query, b, profile.id)).rate_limit).toMatchObject({ request_max_limit: 100 });
    expect((await copyOf(query, a, profile.id)).rate_limit).toMatchObject({ request_max_limit: 200 });
    void memberWithoutCopy;

    const second = await propagated(admin, profile.id, {
      fields: ['rate_limit'],
      user_ids: [b, crypto.randomUUID()],
      group_ids: [],
    });
    expect(second).toMatchObject({ affected_users: 1, skipped_users: 1, user_ids: [b] });

    const everyone = await propagated(admin, profile.id, { fields: ['rate_limit'] });
    expect(everyone).toMatchObject({ affected_users: 0, failed_users: 0, skipped_users: 3, user_ids: [] });
  });

  it('a partial failure is counted exactly: rules, a refused copy, a refused key sync', async () => {
    // v1 grants openai only; the template then adds anthropic, then a budget scoped to anthropic.
    const profile = await createProfile(admin, {
      name: unique('partial'),
      provider_configs: [{ provider_name: 'openai' }],
    });
    const withAnthropic = await createProfile(admin, {
      name: unique('with-anthropic'),
      provider_configs: [{ provider_name: 'openai' }, { provider_name: 'anthropic' }],
      budgets: [{ max_limit: 3, reset_duration: '1d', scope: 'provider:anthropic' }],
    });
    const lacksProvider = await createUser(admin);
    await assignProfile(admin, lacksProvider, profile.id);
    await adoptFields(query, profile.id, withAnthropic.id, ['provider_configs']);
    const [affected, keyRefused, copyRefused] = [
      await createUser(admin),
      await createUser(admin),
      await createUser(admin),
    ];
    const keyOfRefused = (await assignProfile(admin, keyRefused, profile.id)).virtual_key.id as string;
    await assignProfile(admin, affected, profile.id);
    await assignProfile(admin, copyRefused, profile.id);
    await adoptFields(query, profile.id, withAnthropic.id, ['budgets']);
    const matches = await createUser(admin);
    await assignProfile(admin, matches, profile.id);
    const noCopy = await createUser(admin);

    // The database refuses one user's copy change and another user's key change.
    await query(`CREATE OR REPLACE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by test trigger'; END $$`);
    await query(`CREATE TRIGGER test_refuse_copy BEFORE UPDATE ON access_profile_copies FOR EACH ROW
      WHEN (OLD.user_id = '${copyRefused}') EXECUTE FUNCTION test_refuse()`);
    await query(`CREATE TRIGGER test_refuse_key BEFORE UPDATE ON virtual_keys FOR EACH ROW
      WHEN (OLD.id = '${keyOfRefused}') EXECUTE FUNCTION test_refuse()`);
    const keyBefore = await keyOf(keyOfRefused);
    const copiesBefore = {
      lacksProvider: await copyOf(query, lacksProvider, profile.id),
      copyRefused: await copyOf(query, copyRefused, profile.id),
    };
    try {
      const selected = [lacksProvider, affected, keyRefused, copyRefused, matches, noCopy];
      const result = await propagated(admin, profile.id, { fields: ['budgets'], user_ids: selected });
      expect(result).toEqual({
        affected_users: 2,
        failed_users: 2,
        skipped_users: 2,
        user_ids: [affected, keyRefused].sort(),
        fields: ['budgets'],
        applied: true,
        vk_sync_errors: [expect.stringMatching(new RegExp(`^user ${keyRefused}: .*refused by test trigger`))],
      });
      // Failed users: nothing of theirs changed. The key-sync failure: copy saved, key as it was.
      expect(await copyOf(query, lacksProvider, profile.id)).toEqual(copiesBefore.lacksProvider);
      expect(await copyOf(query, copyRefused, profile.id)).toEqual(copiesBefore.copyRefused);
      expect((await copyOf(query, keyRefused, profile.id)).budgets).toMatchObject([{ scope: 'provider:anthropic' }]);
      expect(await keyOf(keyOfRefused)).toEqual(keyBefore);
      const outcomes = await query(
        `SELECT u.user_id, u.outcome, u.key_synced, u.message FROM access_profile_propagation_users u
         JOIN access_profile_propagations p ON p.id = u.propagation_id WHERE p.access_profile_id = $1`,
        [profile.id],
      );
      const byUser = new Map(outcomes.map((o) => [o.user_id, o]));
      expect(byUser.get(lacksProvider)).toMatchObject({ outcome: 'failed', message: expect.stringContaining('scope') });
      expect(byUser.get(copyRefused)).toMatchObject({ outcome: 'failed', message: expect.stringContaining('refused') });
      expect(byUser.get(keyRefused)).toMatchObject({ outcome: 'affected', key_synced: false });
      expect(byUser.get(affected)).toMatchObject({ outcome: 'affected', key_synced: true, message: null });
      expect(byUser.get(matches)).toMatchObject({ outcome: 'skipped' });
      expect(byUser.get(noCopy)).toMatchObject({ outcome: 'skipped' });
    } finally {
      await query('DROP TRIGGER test_refuse_copy ON access_profile_copies');
      await query('DROP TRIGGER test_refuse_key ON virtual_keys');
    }
  });

  it('the deprecated path behaves the same and says so in its headers', async () => {
    const { profile, next } = await profilePair();
    const user = await createUser(admin);
    await assignProfile(admin, user, profile.id);
    await adoptFields(query, profile.id, next.id, ['mcp_servers']);
    const res = await admin.post(`/api/access-profiles/${profile.id}/propagate`, { fields: ['mcp_servers'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ affected_users: 1, user_ids: [user], fields: ['mcp_servers'], applied: true });
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toBe(
      `</api/governance/access-profiles/${profile.id}/propagate>; rel="successor-version"`,
    );
    const missing = await admin.post('/api/access-profiles/999999/propagate', { fields: ['budgets'] });
    expectError(missing, 404, 'access_profile_not_found');
    expect(missing.headers.get('deprecation')).toBe('true');
    const current = await propagate(admin, profile.id, { fields: ['mcp_servers'] });
    expect(current.headers.get('deprecation')).toBeNull();
  });

  it('writes an audit entry with the counts', async () => {
    const { profile, next } = await profilePair();
    const user = await createUser(admin);
    await assignProfile(admin, user, profile.id);
    await adoptFields(query, profile.id, next.id, ['rate_limit']);
    await propagated(admin, profile.id, { fields: ['rate_limit'], user_ids: [user, crypto.randomUUID()] });
    const [propagation] = await query('SELECT id FROM access_profile_propagations WHERE access_profile_id = $1', [
      profile.id,
    ]);
    const res = await admin.get('/api/audit-logs', { query: { permission: 'AccessProfiles:Create', limit: '100' } });
    expect(res.status, res.text).toBe(200);
    const entries = res.body.audit_logs.filter((e: any) => e.target_id === String(profile.id));
    const fromJob = entries.find((e: any) => e.metadata?.action === 'propagate');
    expect(fromJob).toMatchObject({
      method: 'POST',
      route: '/api/governance/access-profiles/:profile_id/propagate',
      status_code: 200,
      metadata: {
        action: 'propagate',
        status: 'completed',
        propagation_id: propagation.id,
        access_profile_id: profile.id,
        fields: ['rate_limit'],
        reset_usage: false,
        affected_users: 1,
        failed_users: 0,
        skipped_users: 1,
        vk_sync_errors: 0,
      },
    });
    // The request itself is audited by the hook as every management write.
    expect(entries.some((e: any) => e.metadata === null && e.status_code === 200)).toBe(true);
  });

  it('400 names the field and writes nothing; unknown profiles and jobs are 404', async () => {
    const { profile } = await profilePair();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'fields'],
      [{ fields: [] }, 'fields'],
      [{ fields: 'budgets' }, 'fields'],
      [{ fields: null }, 'fields'],
      [{ fields: ['budgets', 'calendar_aligned'] }, 'fields[1]'],
      [{ fields: ['budgets', 'rate_limit', 'budgets'] }, 'fields[2]'],
      [{ fields: ['budgets'], user_ids: ['not-a-uuid'] }, 'user_ids[0]'],
      [{ fields: ['budgets'], user_ids: 'x' }, 'user_ids'],
      [{ fields: ['budgets'], group_ids: [crypto.randomUUID(), 42] }, 'group_ids[1]'],
      [{ fields: ['budgets'], dry_run: 'yes' }, 'dry_run'],
      [{ fields: ['budgets'], reset_usage: 1 }, 'reset_usage'],
      [{ fields: ['budgets'], everyone: true }, 'everyone'],
    ];
    for (const [body, param] of cases) {
      expectError(await propagate(admin, profile.id, body), 400, 'validation_failed', param);
    }
    expect(
      await query('SELECT id FROM access_profile_propagations WHERE access_profile_id = $1', [profile.id]),
    ).toEqual([]);
    expectError(await propagate(admin, 999999, { fields: ['budgets'] }), 404, 'access_profile_not_found');
    expectError(await propagate(admin, 'abc', { fields: ['budgets'] }), 404, 'access_profile_not_found');
    expectError(await admin.get(`${PROFILES}/propagations/${crypto.randomUUID()}`), 404, 'propagation_not_found');
    expectError(await admin.get(`${PROFILES}/propagations/nope`), 404, 'propagation_not_found');
  });

  describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('two replicas on one Postgres and Redis', () => {
    let replica: TestApp;
    beforeAll(async () => {
      replica = await startTestApp({
        // The same encryption key: provider keys stored by the first replica are read by this one.
        config: { setup_token: SETUP_TOKEN, edition: 'enterprise', encryption_key: s.gw.config.encryption_key },
        databaseUrl: s.gw.databaseUrl,
        redisPrefix: s.gw.config.redis_prefix,
        keepDatabase: true,
      });
    });
    afterAll(() => replica?.close());

    it('a propagation run through one replica is enforced by the other on its next request', async () => {
      const { profile, next } = await profilePair();
      const user = await createUser(admin);
      const { virtual_key: key } = await assignProfile(admin, user, profile.id);
      const onReplica = (model: string) =>
        replica.http
          .withHeaders({ authorization: `Bearer ${key.value}` })
          .post('/v1/chat/completions', chatBody(model));
      // The replica has the old policy in memory.
      expect((await onReplica('openai/gpt-4o-mini')).status).toBe(200);
      expectError(await onReplica('openai/gpt-4o'), 403, 'model_blocked');
      await adoptFields(query, profile.id, next.id, ['provider_configs']);
      await propagated(admin, profile.id, { fields: ['provider_configs'] });
      expectError(await onReplica('openai/gpt-4o-mini'), 403, 'model_blocked');
      expect((await onReplica('openai/gpt-4o')).status).toBe(200);
    });
  });
});

describe(`access profile propagation as a job (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  let query: Query;

  beforeAll(async () => {
    // No wait: every propagate call answers 202 and the job is followed through its status.
    gw = await startTestApp({
      config: { setup_token: SETUP_TOKEN, edition: 'enterprise', access_profiles: { propagation_wait: '0s' } },
    });
    admin = gw.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
    query = (text, params) => sql(gw, text, params);
    await useToolGroups(admin);
  });
  afterAll(() => gw?.close());

  /**
   * Enough holders for the job to outlast the next requests (users go in batches: the embedded database takes about
   * a millisecond a user, Postgres a fraction of that).
   */
  const HOLDERS = RUN_MODE === 'embedded' ? 1500 : 5000;

  it('answers 202 with the job, reports progress, refuses a second run of the profile until it finished', async () => {
    const profile = await createProfile(admin, { name: 'bulk', ...V1 });
    const next = await createProfile(admin, { name: 'bulk-next', ...V2 });
    const users = await seedUsers(query, HOLDERS, 'bulk');
    await seedCopies(query, profile.id, 'bulk');
    await adoptFields(query, profile.id, next.id, SIX_FIELDS);

    const started = await propagate(admin, profile.id, { fields: [...SIX_FIELDS] });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toEqual({ job_id: expect.stringMatching(UUID) });
    const jobId = started.body.job_id as string;

    expectError(await propagate(admin, profile.id, { fields: ['budgets'] }), 409, 'propagation_in_progress');
    expectError(
      await admin.post(`/api/access-profiles/${profile.id}/propagate`, { fields: ['budgets'] }),
      409,
      'propagation_in_progress',
    );
    // A dry run takes no lock.
    const preview = await propagate(admin, profile.id, { fields: ['budgets'], dry_run: true });
    expect(preview.status).toBe(200);

    const seen: number[] = [];
    const done = await pollStatus(admin, jobId, (st) => {
      seen.push(st.processed);
      expect(st).toMatchObject({ job_id: jobId, access_profile_id: profile.id });
      return st.status !== 'running';
    });
    expect(done).toEqual({
      job_id: jobId,
      access_profile_id: profile.id,
      status: 'completed',
      processed: HOLDERS,
      total: HOLDERS,
      result: {
        affected_users: HOLDERS,
        failed_users: 0,
        skipped_users: 0,
        user_ids: users,
        fields: [...SIX_FIELDS],
        applied: true,
        vk_sync_errors: [],
      },
      created_at: expect.any(String),
      finished_at: expect.any(String),
    });
    expect(seen.every((n, i) => i === 0 || n >= seen[i - 1]!)).toBe(true);
    const [synced] = await query(
      'SELECT count(*)::int AS n FROM access_profile_propagation_users WHERE propagation_id = $1 AND key_synced',
      [jobId],
    );
    expect(synced.n).toBe(HOLDERS);

    // The lock is released: the next run starts (and skips everyone: nothing differs).
    const again = await propagate(admin, profile.id, { fields: ['budgets'] });
    expect(again.status).toBe(202);
    const second = await pollStatus(admin, again.body.job_id, (st) => st.status !== 'running');
    expect(second.result).toMatchObject({ affected_users: 0, skipped_users: HOLDERS });
  });
});

describe('access profile propagation in the open-source edition', () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
  });
  afterAll(() => gw?.close());

  it('every propagation route answers 404 enterprise_only', async () => {
    const admin = gw.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
    expectError(await propagate(admin, 1, { fields: ['budgets'] }), 404, 'enterprise_only');
    expectError(await admin.post('/api/access-profiles/1/propagate', { fields: ['budgets'] }), 404, 'enterprise_only');
    expectError(await admin.get(`${PROFILES}/propagations/${crypto.randomUUID()}`), 404, 'enterprise_only');
  });
});
