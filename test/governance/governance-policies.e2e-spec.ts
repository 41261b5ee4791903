import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CounterStore } from '../../src/core/redis/counter.store.js';
import {
  budgetCounterKey,
  counterWindowOf,
  GovernancePolicies,
  requestCounterKey,
  type GovernanceSnapshot,
  type GovernedLevel,
} from '../../src/modules/governance/limits/governed-levels.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { adminClient, ENTERPRISE_CONFIG, expectError, sql } from './governance-test-kit.js';

const MISSING_ID = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';
const PROVIDERS = '/api/governance/providers';
const MODEL_CONFIGS = '/api/governance/model-configs';

const snapshotOf = async (gw: TestApp): Promise<GovernanceSnapshot> => gw.app.get(GovernancePolicies).snapshot();
/** A level without its frozen-ness, for comparisons. */
const plain = (level: GovernedLevel | undefined) => JSON.parse(JSON.stringify(level ?? null));

describe(`governance policies snapshot and objects (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  beforeAll(async () => {
    gw = await startTestApp({ config: ENTERPRISE_CONFIG });
    api = adminClient(gw);
  });
  afterAll(() => gw?.close());

  it('the snapshot holds every level that covers a key, built from objects created over HTTP', async () => {
    const team = (
      await api.post('/api/governance/teams', {
        name: 'research',
        budgets: [{ max_limit: 100, reset_duration: '1M', calendar_aligned: true }],
        rate_limit: { request_max_limit: 10, request_reset_duration: '1m' },
      })
    ).body.team;
    const acme = (
      await api.post('/api/governance/customers', {
        name: 'acme',
        budgets: [{ max_limit: 1000, reset_duration: '1Y' }],
      })
    ).body.customer;
    const globex = (await api.post('/api/governance/customers', { name: 'globex' })).body.customer;
    const teamKey = (
      await api.post('/api/governance/virtual-keys', {
        name: 'team-key',
        team_id: team.id,
        budgets: [{ max_limit: 5, reset_duration: '1d' }],
        rate_limit: { token_max_limit: 500, token_reset_duration: '1h' },
        provider_configs: [
          {
            provider: 'openai',
            weight: 2,
            allowed_models: ['gpt-4o'],
            budgets: [{ max_limit: 1, reset_duration: '1h' }],
          },
          { provider: 'anthropic', weight: null, key_ids: [], blacklisted_models: ['claude-x'] },
        ],
      })
    ).body.virtual_key;
    const customerKey = (await api.post('/api/governance/virtual-keys', { name: 'customer-key', customer_id: acme.id }))
      .body.virtual_key;
    const plainKey = (await api.post('/api/governance/virtual-keys', { name: 'plain-key' })).body.virtual_key;

    let snapshot = await snapshotOf(gw);
    const policy = snapshot.virtualKey(teamKey.id)!;
    expect(policy).toBeDefined();
    expect(policy.name).toBe('team-key');
    expect(plain(policy.level)).toEqual({
      kind: 'virtual_key',
      id: teamKey.id,
      name: 'team-key',
      budgets: [
        {
          id: teamKey.budgets[0].id,
          limit: 5,
          resetDuration: '1d',
          window: { kind: 'fixed', ms: 86_400_000 },
        },
      ],
      rateLimit: {
        id: teamKey.rate_limit.id,
        tokens: { limit: 500, resetDuration: '1h', window: { kind: 'fixed', ms: 3_600_000 } },
      },
    });
    expect(plain(policy.team)).toEqual({
      kind: 'team',
      id: team.id,
      name: 'research',
      budgets: [
        { id: team.budgets[0].id, limit: 100, resetDuration: '1M', window: { kind: 'calendar', unit: 'month' } },
      ],
      rateLimit: {
        id: team.rate_limit.id,
        requests: { limit: 10, resetDuration: '1m', window: { kind: 'fixed', ms: 60_000 } },
      },
    });
    // No customer linked yet.
    expect(policy.customers).toEqual([]);
    expect(policy.providerConfigs.map((pc) => pc.provider)).toEqual(['anthropic', 'openai']);
    const [anthropic, openai] = policy.providerConfigs;
    expect(anthropic).toMatchObject({
      provider: 'anthropic',
      weight: null,
      allowedModels: ['*'],
      blacklistedModels: ['claude-x'],
      keyIds: [],
    });
    expect(openai).toMatchObject({ provider: 'openai', weight: 2, allowedModels: ['gpt-4o'], keyIds: '*' });
    expect(plain(openai!.level)).toMatchObject({
      kind: 'provider_config',
      id: teamKey.provider_configs[1].id,
      name: 'openai',
      budgets: [{ limit: 1, resetDuration: '1h' }],
    });
    expect(Object.isFrozen(policy)).toBe(true);

    // A team key is covered by every customer linked to its team (a change rebuilds the snapshot at once).
    await api.post(`/api/governance/teams/${team.id}/customers`, { customer_id: acme.id });
    await api.post(`/api/governance/teams/${team.id}/customers`, { customer_id: globex.id });
    snapshot = await snapshotOf(gw);
    const linked = snapshot.virtualKey(teamKey.id)!;
    expect(linked.customers.map((c) => c.name).sort()).toEqual(['acme', 'globex']);
    expect(plain(linked.customers.find((c) => c.id === acme.id))).toMatchObject({
      kind: 'customer',
      name: 'acme',
      budgets: [{ limit: 1000, resetDuration: '1Y', window: { kind: 'fixed', ms: 365 * 86_400_000 } }],
    });
    // A customer key by its customer, a key of neither by nothing.
    expect(snapshot.virtualKey(customerKey.id)!.customers.map((c) => c.id)).toEqual([acme.id]);
    expect(snapshot.virtualKey(customerKey.id)!.team).toBeUndefined();
    const bare = snapshot.virtualKey(plainKey.id)!;
    expect(bare.team).toBeUndefined();
    expect(bare.customers).toEqual([]);
    expect(bare.providerConfigs).toEqual([]);
    expect(plain(bare.level)).toEqual({ kind: 'virtual_key', id: plainKey.id, name: 'plain-key', budgets: [] });
    expect(snapshot.virtualKey(MISSING_ID)).toBeUndefined();

    // An override raises the limit in the snapshot; detaching a customer drops it from the key's levels.
    await api.put(`/api/governance/virtual-keys/${teamKey.id}/budgets/${teamKey.budgets[0].id}/override`, {
      amount: 2.5,
      mode: 'forever',
    });
    await api.delete(`/api/governance/teams/${team.id}/customers/${globex.id}`);
    snapshot = await snapshotOf(gw);
    expect(snapshot.virtualKey(teamKey.id)!.level.budgets[0]!.limit).toBe(7.5);
    expect(snapshot.virtualKey(teamKey.id)!.customers.map((c) => c.id)).toEqual([acme.id]);
    // Deleting the team detaches its keys.
    await api.delete(`/api/governance/teams/${team.id}`);
    snapshot = await snapshotOf(gw);
    expect(snapshot.virtualKey(teamKey.id)!.team).toBeUndefined();
    expect(snapshot.virtualKey(teamKey.id)!.customers).toEqual([]);
  });

  it('provider governance: put, budgets omitted / replaced / removed, calendar alignment, delete', async () => {
    expectError(await api.put(`${PROVIDERS}/nope`, {}), 400, 'validation_failed', 'provider');
    const put = await api.put(`${PROVIDERS}/openai`, {
      budgets: [{ max_limit: 300, reset_duration: '1M' }],
      rate_limit: { request_max_limit: 1000, request_reset_duration: '1h' },
      calendar_aligned: true,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.provider).toMatchObject({ provider: 'openai', calendar_aligned: true });
    expect(put.body.provider.budgets).toEqual([
      expect.objectContaining({ max_limit: 300, reset_duration: '1M', calendar_aligned: true }),
    ]);
    const budgetId = put.body.provider.budgets[0].id;
    expect(plain((await snapshotOf(gw)).provider('openai'))).toMatchObject({
      kind: 'provider',
      id: 'openai',
      name: 'openai',
      budgets: [{ id: budgetId, limit: 300, window: { kind: 'calendar', unit: 'month' } }],
      rateLimit: { requests: { limit: 1000 } },
    });
    expect((await snapshotOf(gw)).provider('anthropic')).toBeUndefined();

    // Omitted budgets stay; turning alignment off applies to them.
    const unaligned = await api.put(`${PROVIDERS}/openai`, { calendar_aligned: false });
    expect(unaligned.body.provider.budgets).toEqual([
      expect.objectContaining({ id: budgetId, max_limit: 300, calendar_aligned: false }),
    ]);
    expect(unaligned.body.provider.rate_limit).not.toBeNull();
    // reset_usage zeroes the provider's counters.
    const counters = gw.app.get(CounterStore);
    await counters.increment(budgetCounterKey(budgetId), 7, counterWindowOf('1M', false));
    await counters.increment(requestCounterKey(put.body.provider.rate_limit.id), 9, counterWindowOf('1h', false));
    const used = (await api.get(PROVIDERS)).body.providers[0];
    expect(used.budgets[0].current_usage).toBe(7);
    expect(used.rate_limit.request_current_usage).toBe(9);
    const reset = await api.put(`${PROVIDERS}/openai`, { reset_usage: true });
    expect(reset.body.provider.budgets[0]).toMatchObject({ id: budgetId, current_usage: 0 });
    expect(reset.body.provider.rate_limit.request_current_usage).toBe(0);
    // A list replaces them; [] removes them.
    const replaced = await api.put(`${PROVIDERS}/openai`, { budgets: [{ max_limit: 10, reset_duration: '1d' }] });
    expect(replaced.body.provider.budgets.map((b: any) => b.max_limit)).toEqual([10]);
    const removed = await api.put(`${PROVIDERS}/openai`, { budgets: [] });
    expect(removed.body.provider.budgets).toEqual([]);
    expectError(
      await api.put(`${PROVIDERS}/openai`, {
        budgets: [
          { max_limit: 1, reset_duration: '1w' },
          { max_limit: 1, reset_duration: '7d' },
        ],
      }),
      400,
      'validation_failed',
      'budgets[1].reset_duration',
    );
    expect((await api.get(PROVIDERS)).body).toEqual({
      providers: [expect.objectContaining({ provider: 'openai', budgets: [] })],
      count: 1,
    });

    const del = await api.delete(`${PROVIDERS}/openai`);
    expect(del.status).toBe(200);
    expect(del.body.message).toEqual(expect.any(String));
    expectError(await api.delete(`${PROVIDERS}/openai`), 404, 'provider_governance_not_found');
    expect((await snapshotOf(gw)).provider('openai')).toBeUndefined();
    expect(await sql(gw, 'SELECT * FROM rate_limits WHERE provider IS NOT NULL')).toEqual([]);
  });

  it('model configs: create, scope rules, duplicates, the snapshot matches by model, provider and key', async () => {
    const vk = (await api.post('/api/governance/virtual-keys', { name: 'mc-key' })).body.virtual_key;
    const all = await api.post(MODEL_CONFIGS, {
      model_name: '*',
      budgets: [{ max_limit: 1000, reset_duration: '1M' }],
    });
    expect(all.status, JSON.stringify(all.body)).toBe(201);
    expect(all.body.model_config).toMatchObject({
      model_name: '*',
      provider: null,
      scope: 'global',
      scope_id: null,
      calendar_aligned: false,
      rate_limit: null,
    });
    const gpt = (
      await api.post(MODEL_CONFIGS, {
        model_name: 'gpt-4o',
        provider: 'openai',
        rate_limit: { request_max_limit: 3, request_reset_duration: '1m' },
      })
    ).body.model_config;
    const scoped = (
      await api.post(MODEL_CONFIGS, {
        model_name: 'gpt-4o',
        scope: 'virtual_key',
        scope_id: vk.id,
        budgets: [{ max_limit: 2, reset_duration: '1d' }],
      })
    ).body.model_config;

    const bad: Array<[Record<string, unknown>, string]> = [
      [{}, 'model_name'],
      [{ model_name: 'x', provider: 'nope' }, 'provider'],
      [{ model_name: 'x', scope: 'team' }, 'scope'],
      [{ model_name: 'x', scope: 'virtual_key' }, 'scope_id'],
      [{ model_name: 'x', scope: 'virtual_key', scope_id: MISSING_ID }, 'scope_id'],
      [{ model_name: 'x', scope: 'user', scope_id: MISSING_ID }, 'scope_id'],
      [{ model_name: 'x', scope_id: vk.id }, 'scope_id'],
      [{ model_name: 'x', budgets: [{ max_limit: -1, reset_duration: '1d' }] }, 'budgets[0].max_limit'],
    ];
    for (const [body, param] of bad) expectError(await api.post(MODEL_CONFIGS, body), 400, 'validation_failed', param);
    expectError(await api.post(MODEL_CONFIGS, { model_name: 'gpt-4o', provider: 'openai' }), 409, 'already_exists');
    expectError(await api.put(`${MODEL_CONFIGS}/${gpt.id}`, { scope: 'global' }), 400, 'validation_failed', 'scope');
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM model_configs'))[0].n).toBe(3);

    const snapshot = await snapshotOf(gw);
    const ids = (levels: readonly GovernedLevel[]) => levels.map((l) => l.id);
    expect(ids(snapshot.modelConfigs('gpt-4o', 'openai', undefined))).toEqual([all.body.model_config.id, gpt.id]);
    expect(ids(snapshot.modelConfigs('gpt-4o', 'openai', vk.id))).toEqual([
      all.body.model_config.id,
      gpt.id,
      scoped.id,
    ]);
    expect(ids(snapshot.modelConfigs('gpt-4o', 'azure', vk.id))).toEqual([all.body.model_config.id, scoped.id]);
    expect(ids(snapshot.modelConfigs('claude', 'anthropic', vk.id))).toEqual([all.body.model_config.id]);
    expect(snapshot.modelConfigs('gpt-4o', 'openai', undefined)[1]).toMatchObject({
      kind: 'model_config',
      name: 'openai/gpt-4o',
      rateLimit: { requests: { limit: 3 } },
    });

    const upd = await api.put(`${MODEL_CONFIGS}/${gpt.id}`, { model_name: 'gpt-4.1', provider: null });
    expect(upd.status).toBe(200);
    expect(upd.body.model_config).toMatchObject({ model_name: 'gpt-4.1', provider: null });
    expect((await api.get(MODEL_CONFIGS)).body.count).toBe(3);
    expect((await api.get(`${MODEL_CONFIGS}/${gpt.id}`)).body.model_name).toBe('gpt-4.1');
    // A user-scoped config: stored and listed, not part of any key's levels; it goes with its user.
    const user = await api.post('/api/governance/users', {
      name: 'Ada',
      email: 'ada@example.com',
      role_id: '00000000-0000-4000-8000-000000000003',
    });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const userScoped = await api.post(MODEL_CONFIGS, { model_name: 'gpt-4o', scope: 'user', scope_id: user.body.id });
    expect(userScoped.status).toBe(201);
    expect(ids((await snapshotOf(gw)).modelConfigs('gpt-4o', 'azure', undefined))).toEqual([all.body.model_config.id]);
    await api.delete(`/api/governance/users/${user.body.id}`);
    expectError(await api.get(`${MODEL_CONFIGS}/${userScoped.body.model_config.id}`), 404, 'model_config_not_found');
    // Deleting the key takes its scoped configs.
    await api.delete(`/api/governance/virtual-keys/${vk.id}`);
    expectError(await api.get(`${MODEL_CONFIGS}/${scoped.id}`), 404, 'model_config_not_found');
    expect((await api.delete(`${MODEL_CONFIGS}/${gpt.id}`)).status).toBe(200);
    expectError(await api.delete(`${MODEL_CONFIGS}/${gpt.id}`), 404, 'model_config_not_found');
  });

  it('lists every budget and rate limit with its owner and the usage enforcement charged', async () => {
    const team = (
      await api.post('/api/governance/teams', {
        name: 'listed-team',
        budgets: [{ max_limit: 9, reset_duration: '1w' }],
        rate_limit: { request_max_limit: 4, request_reset_duration: '1h' },
      })
    ).body.team;
    const vk = (
      await api.post('/api/governance/virtual-keys', {
        name: 'listed-key',
        provider_configs: [{ provider: 'mistral', budgets: [{ max_limit: 1, reset_duration: '1d' }] }],
      })
    ).body.virtual_key;
    const counters = gw.app.get(CounterStore);
    await counters.increment(budgetCounterKey(team.budgets[0].id), 0.75, counterWindowOf('1w', false));
    await counters.increment(requestCounterKey(team.rate_limit.id), 2, counterWindowOf('1h', false));

    const budgets = await api.get('/api/governance/budgets');
    expect(budgets.status).toBe(200);
    expect(budgets.body.count).toBe(budgets.body.budgets.length);
    const teamBudget = budgets.body.budgets.find((b: any) => b.id === team.budgets[0].id);
    expect(teamBudget).toMatchObject({
      max_limit: 9,
      current_usage: 0.75,
      owner: { kind: 'team', id: team.id, name: 'listed-team', virtual_key_id: null },
    });
    const pcBudget = budgets.body.budgets.find((b: any) => b.id === vk.provider_configs[0].budgets[0].id);
    expect(pcBudget.owner).toEqual({
      kind: 'provider_config',
      id: vk.provider_configs[0].id,
      name: 'mistral',
      virtual_key_id: vk.id,
    });
    const limits = await api.get('/api/governance/rate-limits');
    expect(limits.status).toBe(200);
    expect(limits.body.rate_limits.find((r: any) => r.id === team.rate_limit.id)).toMatchObject({
      request_max_limit: 4,
      request_current_usage: 2,
      token_current_usage: 0,
      owner: { kind: 'team', id: team.id, name: 'listed-team' },
    });
    expect(limits.body.count).toBe(limits.body.rate_limits.length);
  });
});

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)(`a change on one replica reaches the other (${RUN_MODE})`, () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ config: ENTERPRISE_CONFIG, keepDatabase: true });
    second = await startTestApp({
      config: ENTERPRISE_CONFIG,
      databaseUrl: first.databaseUrl,
      redisPrefix: first.config.redis_prefix,
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('the other replica’s snapshot shows a new budget within a second', async () => {
    const api = adminClient(first);
    const vk = (await api.post('/api/governance/virtual-keys', { name: 'replicated' })).body.virtual_key;
    // The second replica builds its snapshot (and caches it) before the change.
    expect((await snapshotOf(second)).virtualKey(vk.id)!.level.budgets).toEqual([]);
    const upd = await api.put(`/api/governance/virtual-keys/${vk.id}`, {
      budgets: [{ max_limit: 42, reset_duration: '1d' }],
    });
    expect(upd.status).toBe(200);
    const deadline = Date.now() + 1000;
    let limits: number[] = [];
    while (Date.now() < deadline) {
      limits = (await snapshotOf(second)).virtualKey(vk.id)!.level.budgets.map((b) => b.limit);
      if (limits.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(limits).toEqual([42]);
  });
});
