import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CounterStore } from '../../src/core/redis/counter.store.js';
import { budgetCounterKey, counterWindowOf } from '../../src/modules/governance/limits/governed-levels.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { expectError, OSS_CONFIG, ossClient, sql, UUID } from './governance-test-kit.js';

const VKS = '/api/governance/virtual-keys';
const MISSING_ID = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';
/** MCP grants name clients by id (enforced by the MCP catalog: test/access-profiles/mcp-grants.e2e-spec.ts). */
const MCP_CLIENT_A = '0b7e4c1a-5d2f-4e8a-9c3b-1a2b3c4d5e6f';
const MCP_CLIENT_B = 'c0ffee00-1234-4abc-8def-0123456789ab';
const MCP_CLIENT_C = '7d9e2f10-aaaa-4bbb-8ccc-dddddddddddd';

const rows = async (gw: TestApp) => ({
  keys: (await sql(gw, 'SELECT count(*)::int AS n FROM virtual_keys'))[0].n,
  configs: (await sql(gw, 'SELECT count(*)::int AS n FROM virtual_key_provider_configs'))[0].n,
  budgets: (await sql(gw, 'SELECT count(*)::int AS n FROM budgets'))[0].n,
  limits: (await sql(gw, 'SELECT count(*)::int AS n FROM rate_limits'))[0].n,
});

describe(`virtual key policies (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  let teamId: string;
  let customerId: string;
  let openaiKeyId: string;

  beforeAll(async () => {
    gw = await startTestApp({ config: OSS_CONFIG });
    api = ossClient(gw);
    teamId = (await api.post('/api/governance/teams', { name: 'team' })).body.team.id;
    customerId = (await api.post('/api/governance/customers', { name: 'customer' })).body.customer.id;
    expect((await api.post('/api/providers', { provider: 'openai' })).status).toBe(201);
    const key = await api.post('/api/providers/openai/keys', { name: 'k1', value: 'sk-test-1' });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    openaiKeyId = key.body.id;
  });
  afterAll(() => gw?.close());

  it('creates a key with provider configs, budgets, a rate limit and mcp_configs; shows and replaces them', async () => {
    const res = await api.post(VKS, {
      name: 'governed',
      team_id: teamId,
      provider_configs: [
        {
          provider: 'openai',
          weight: 0.7,
          allowed_models: ['gpt-4o', 'gpt-4o-mini'],
          blacklisted_models: ['gpt-4o-mini'],
          key_ids: [openaiKeyId],
          budgets: [{ max_limit: 10, reset_duration: '1d' }],
          rate_limit: { request_max_limit: 5, request_reset_duration: '1m' },
        },
        { provider: 'anthropic' },
      ],
      budgets: [
        { max_limit: 50, reset_duration: '1w', calendar_aligned: true },
        { max_limit: 500, reset_duration: '1Y' },
      ],
      rate_limit: { token_max_limit: 1000, token_reset_duration: '1h' },
      mcp_configs: [
        { mcp_client_id: MCP_CLIENT_A, tools_to_execute: ['*'] },
        { mcp_client_id: MCP_CLIENT_B.toUpperCase(), tools_to_execute: ['read', 'read', 'list'] },
        { mcp_client_id: MCP_CLIENT_C },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const vk = res.body.virtual_key;
    expect(vk.value).toMatch(/^sk-gw-/);
    expect(vk).toMatchObject({ team_id: teamId, customer_id: null });
    // Stored normalised: ids lower-cased, tools deduplicated, an absent list is every tool.
    expect(vk.mcp_configs).toEqual([
      { mcp_client_id: MCP_CLIENT_A, tools_to_execute: ['*'] },
      { mcp_client_id: MCP_CLIENT_B, tools_to_execute: ['read', 'list'] },
      { mcp_client_id: MCP_CLIENT_C, tools_to_execute: ['*'] },
    ]);
    expect(vk.provider_configs).toHaveLength(2);
    const [anthropic, openai] = vk.provider_configs;
    expect(anthropic).toEqual({
      id: expect.stringMatching(UUID),
      provider: 'anthropic',
      weight: 1,
      allowed_models: ['*'],
      blacklisted_models: [],
      key_ids: ['*'],
      budgets: [],
      rate_limit: null,
    });
    expect(openai).toMatchObject({
      provider: 'openai',
      weight: 0.7,
      allowed_models: ['gpt-4o', 'gpt-4o-mini'],
      blacklisted_models: ['gpt-4o-mini'],
      key_ids: [openaiKeyId],
    });
    expect(openai.budgets).toEqual([
      expect.objectContaining({ max_limit: 10, reset_duration: '1d', current_usage: 0 }),
    ]);
    expect(openai.rate_limit).toMatchObject({ request_max_limit: 5, request_reset_duration: '1m' });
    expect(vk.budgets.map((b: any) => b.reset_duration)).toEqual(['1w', '1Y']);
    expect(vk.rate_limit).toMatchObject({ token_max_limit: 1000, token_reset_duration: '1h', request_max_limit: null });
    expect(await rows(gw)).toEqual({ keys: 1, configs: 2, budgets: 3, limits: 2 });
    const stored = await sql(gw, 'SELECT provider_config_id FROM budgets WHERE max_limit = 10');
    expect(stored).toEqual([{ provider_config_id: openai.id }]);

    // The same through GET and the list.
    const got = await api.get(`${VKS}/${vk.id}`);
    expect(got.body.provider_configs).toEqual(vk.provider_configs);
    expect(got.body.budgets).toEqual(vk.budgets);
    const list = await api.get(VKS);
    expect(list.body.virtual_keys[0].provider_configs).toHaveLength(2);

    // Usage charged to the provider config's budget survives a replacement that keeps the provider.
    await gw.app.get(CounterStore).increment(budgetCounterKey(openai.budgets[0].id), 2.5, counterWindowOf('1d', false));
    const upd = await api.put(`${VKS}/${vk.id}`, {
      provider_configs: [{ provider: 'openai', weight: null, budgets: [{ max_limit: 20, reset_duration: '24h' }] }],
      rate_limit: null,
      mcp_configs: [],
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const updated = upd.body.virtual_key;
    expect(updated.provider_configs).toEqual([
      expect.objectContaining({
        id: openai.id,
        provider: 'openai',
        weight: null,
        allowed_models: ['*'],
        key_ids: ['*'],
        rate_limit: null,
        budgets: [expect.objectContaining({ id: openai.budgets[0].id, max_limit: 20, current_usage: 2.5 })],
      }),
    ]);
    expect(updated.rate_limit).toBeNull();
    expect(updated.mcp_configs).toEqual([]);
    expect(updated.budgets).toHaveLength(2);
    expect(await rows(gw)).toEqual({ keys: 1, configs: 1, budgets: 3, limits: 0 });

    // reset_usage zeroes the key's and its provider configs' counters.
    const reset = await api.put(`${VKS}/${vk.id}`, { reset_usage: true });
    expect(reset.body.virtual_key.provider_configs[0].budgets[0].current_usage).toBe(0);

    // Deleting the key takes everything hanging off it.
    expect((await api.delete(`${VKS}/${vk.id}`)).status).toBe(200);
    expect(await rows(gw)).toEqual({ keys: 0, configs: 0, budgets: 0, limits: 0 });
  });

  it('team XOR customer, known owners, providers and keys: 400 naming the field, nothing written', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ team_id: teamId, customer_id: customerId }, 'customer_id'],
      [{ team_id: MISSING_ID }, 'team_id'],
      [{ customer_id: MISSING_ID }, 'customer_id'],
      [{ provider_configs: [{ provider: 'nope' }] }, 'provider_configs[0].provider'],
      [{ provider_configs: [{}] }, 'provider_configs[0].provider'],
      [{ provider_configs: [{ provider: 'openai' }, { provider: 'openai' }] }, 'provider_configs[1].provider'],
      [{ provider_configs: [{ provider: 'openai', key_ids: [MISSING_ID] }] }, 'provider_configs[0].key_ids[0]'],
      [{ provider_configs: [{ provider: 'openai', key_ids: ['*', openaiKeyId] }] }, 'provider_configs[0].key_ids'],
      [{ provider_configs: [{ provider: 'anthropic', key_ids: [openaiKeyId] }] }, 'provider_configs[0].key_ids[0]'],
      [{ provider_configs: [{ provider: 'openai', weight: -1 }] }, 'provider_configs[0].weight'],
      [{ provider_configs: [{ provider: 'openai', allowed_models: [''] }] }, 'provider_configs[0].allowed_models[0]'],
      [
        { provider_configs: [{ provider: 'openai', budgets: [{ max_limit: -2, reset_duration: '1d' }] }] },
        'provider_configs[0].budgets[0].max_limit',
      ],
      [
        {
          provider_configs: [
            {
              provider: 'openai',
              budgets: [
                { max_limit: 1, reset_duration: '1d' },
                { max_limit: 2, reset_duration: '24h' },
              ],
            },
          ],
        },
        'provider_configs[0].budgets[1].reset_duration',
      ],
      [
        { provider_configs: [{ provider: 'openai', rate_limit: { request_max_limit: 1 } }] },
        'provider_configs[0].rate_limit.request_reset_duration',
      ],
      [
        {
          budgets: [
            { max_limit: 1, reset_duration: '1m' },
            { max_limit: 1, reset_duration: '1m' },
          ],
        },
        'budgets[1].reset_duration',
      ],
      [{ rate_limit: { token_max_limit: -1, token_reset_duration: '1h' } }, 'rate_limit.token_max_limit'],
      [{ mcp_configs: ['files'] }, 'mcp_configs'],
      [{ mcp_configs: [{ mcp_client_name: 'files' }] }, 'mcp_configs[0].mcp_client_name'],
      [{ mcp_configs: [{ mcp_client_id: 'files' }] }, 'mcp_configs[0].mcp_client_id'],
      [{ mcp_configs: [{ mcp_client_id: MCP_CLIENT_A, tools_to_execute: 'read' }] }, 'mcp_configs[0].tools_to_execute'],
      [
        { mcp_configs: [{ mcp_client_id: MCP_CLIENT_A, tools_to_execute: ['ok', ''] }] },
        'mcp_configs[0].tools_to_execute[1]',
      ],
      [
        { mcp_configs: [{ mcp_client_id: MCP_CLIENT_A, tools_to_execute: ['*', 'read'] }] },
        'mcp_configs[0].tools_to_execute',
      ],
      [
        { mcp_configs: [{ mcp_client_id: MCP_CLIENT_A }, { mcp_client_id: MCP_CLIENT_A.toUpperCase() }] },
        'mcp_configs[1].mcp_client_id',
      ],
    ];
    for (const [extra, param] of cases) {
      expectError(await api.post(VKS, { name: 'refused', ...extra }), 400, 'validation_failed', param);
    }
    expect(await rows(gw)).toEqual({ keys: 0, configs: 0, budgets: 0, limits: 0 });

    // Updates: the stored owner counts; a refused update leaves the key as it was.
    const vk = (
      await api.post(VKS, { name: 'owned', customer_id: customerId, budgets: [{ max_limit: 1, reset_duration: '1d' }] })
    ).body.virtual_key;
    expectError(await api.put(`${VKS}/${vk.id}`, { team_id: teamId }), 400, 'validation_failed', 'team_id');
    expectError(
      await api.put(`${VKS}/${vk.id}`, { name: 'renamed', provider_configs: [{ provider: 'nope' }] }),
      400,
      'validation_failed',
      'provider_configs[0].provider',
    );
    expectError(
      await api.put(`${VKS}/${vk.id}`, { name: 'renamed', budgets: [], team_id: MISSING_ID, customer_id: null }),
      400,
      'validation_failed',
      'team_id',
    );
    const after = (await api.get(`${VKS}/${vk.id}`)).body;
    expect(after).toMatchObject({ name: 'owned', customer_id: customerId, team_id: null });
    expect(after.budgets).toHaveLength(1);
    const moved = await api.put(`${VKS}/${vk.id}`, { team_id: teamId, customer_id: null });
    expect(moved.status).toBe(200);
    expect(moved.body.virtual_key).toMatchObject({ team_id: teamId, customer_id: null });
    await api.delete(`${VKS}/${vk.id}`);
  });

  it('budget overrides: forever and for cycles, refused input, only the key’s own budgets', async () => {
    const vk = (
      await api.post(VKS, {
        name: 'override',
        budgets: [
          { max_limit: 10, reset_duration: '1d' },
          { max_limit: 100, reset_duration: '1M', calendar_aligned: true },
        ],
        provider_configs: [{ provider: 'openai', budgets: [{ max_limit: 3, reset_duration: '1h' }] }],
      })
    ).body.virtual_key;
    const [daily, monthly] = vk.budgets;
    const path = (budgetId: string, keyId = vk.id) => `${VKS}/${keyId}/budgets/${budgetId}/override`;

    const forever = await api.put(path(daily.id), { amount: 5, mode: 'forever' });
    expect(forever.status, JSON.stringify(forever.body)).toBe(200);
    expect(forever.body.effective_max_limit).toBe(15);
    expect(forever.body.budget).toMatchObject({
      id: daily.id,
      max_limit: 10,
      effective_max_limit: 15,
      override: { amount: 5, mode: 'forever', cycles: null, expires_at: null },
    });

    const cycles = await api.put(path(monthly.id), { amount: 50, mode: 'cycles', cycles: 2 });
    expect(cycles.status).toBe(200);
    expect(cycles.body.effective_max_limit).toBe(150);
    // Two calendar months: the current one and the next; it ends on the first day of the month after.
    const now = new Date();
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
    expect(cycles.body.budget.override).toEqual({
      amount: 50,
      mode: 'cycles',
      cycles: 2,
      expires_at: end.toISOString(),
    });

    const pcBudget = vk.provider_configs[0].budgets[0];
    expect((await api.put(path(pcBudget.id), { amount: 1, mode: 'forever' })).body.effective_max_limit).toBe(4);

    for (const [body, param] of [
      [{ amount: 0, mode: 'forever' }, 'amount'],
      [{ amount: -1, mode: 'forever' }, 'amount'],
      [{ amount: 1, mode: 'sometimes' }, 'mode'],
      [{ amount: 1, mode: 'cycles' }, 'cycles'],
      [{ amount: 1, mode: 'cycles', cycles: 0 }, 'cycles'],
      [{ amount: 1, mode: 'forever', cycles: 2 }, 'cycles'],
    ] as const) {
      expectError(await api.put(path(daily.id), body), 400, 'validation_failed', param);
    }
    const other = (await api.post(VKS, { name: 'other', budgets: [{ max_limit: 1, reset_duration: '1d' }] })).body
      .virtual_key;
    expectError(await api.put(path(other.budgets[0].id), { amount: 1, mode: 'forever' }), 404, 'budget_not_found');
    expectError(
      await api.put(path(daily.id, MISSING_ID), { amount: 1, mode: 'forever' }),
      404,
      'virtual_key_not_found',
    );
    expectError(await api.delete(path(MISSING_ID)), 404, 'budget_not_found');

    const cleared = await api.delete(path(daily.id));
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ effective_max_limit: 10, budget: { id: daily.id, override: null } });
    const stored = await sql(gw, 'SELECT override_amount, override_mode FROM budgets WHERE id = $1', [daily.id]);
    expect(stored).toEqual([{ override_amount: null, override_mode: null }]);
  });

  it('an override raced by a PUT replacing the key’s budgets answers 200 or 404, never 500', async () => {
    // The fuzz found it: the budget vanished between the override's check and its re-read.
    const vk = (await api.post(VKS, { name: 'raced', budgets: [{ max_limit: 10, reset_duration: '1d' }] })).body
      .virtual_key;
    let budgetId: string = vk.budgets[0].id;
    const statuses = new Set<number>();
    for (let round = 0; round < 12; round++) {
      const path = `${VKS}/${vk.id}/budgets/${budgetId}/override`;
      const [replaced, ...overrides] = await Promise.all([
        // A new window length makes a new budget: the one the overrides name is deleted.
        api.put(`${VKS}/${vk.id}`, { budgets: [{ max_limit: 10, reset_duration: round % 2 ? '1d' : '1h' }] }),
        api.put(path, { amount: 5, mode: 'forever' }),
        api.delete(path),
        api.put(path, { amount: 7, mode: 'forever' }),
        api.delete(path),
      ]);
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
      for (const answer of overrides) {
        expect([200, 404], JSON.stringify(answer.body)).toContain(answer.status);
        statuses.add(answer.status);
      }
      budgetId = replaced.body.virtual_key.budgets[0].id;
    }
    // Both sides of the race were seen: some overrides won, some found the budget gone.
    expect([...statuses].sort()).toEqual([200, 404]);
  });
});
