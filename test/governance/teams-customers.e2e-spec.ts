import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CounterStore } from '../../src/core/redis/counter.store.js';
import {
  budgetCounterKey,
  counterWindowOf,
  requestCounterKey,
  tokenCounterKey,
} from '../../src/modules/governance/limits/governed-levels.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  adminClient,
  ENTERPRISE_CONFIG,
  expectError,
  OSS_CONFIG,
  ossClient,
  RFC3339_UTC,
  sql,
  UUID,
} from './governance-test-kit.js';

const TEAMS = '/api/governance/teams';
const CUSTOMERS = '/api/governance/customers';
const MISSING_ID = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';

const count = async (gw: TestApp, table: string) =>
  (await sql(gw, `SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

describe(`teams and customers (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  beforeAll(async () => {
    gw = await startTestApp({ config: OSS_CONFIG });
    api = ossClient(gw);
  });
  afterAll(() => gw?.close());

  it('creates a team with budgets and a rate limit, shows them with usage, updates and deletes it', async () => {
    const res = await api.post(TEAMS, {
      name: 'research',
      budgets: [
        { max_limit: 100, reset_duration: '1M', calendar_aligned: true },
        { max_limit: 5.5, reset_duration: '1d' },
      ],
      rate_limit: {
        request_max_limit: 60,
        request_reset_duration: '1m',
        token_max_limit: 10_000,
        token_reset_duration: '1h',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Team created successfully');
    const team = res.body.team;
    expect(team.id).toMatch(UUID);
    expect(team).toMatchObject({ name: 'research', customer_ids: [] });
    expect(team.budgets).toHaveLength(2);
    const [daily, monthly] = team.budgets; // shortest window first
    expect(monthly).toMatchObject({
      max_limit: 100,
      reset_duration: '1M',
      calendar_aligned: true,
      current_usage: 0,
      effective_max_limit: 100,
      override: null,
    });
    expect(monthly.id).toMatch(UUID);
    expect(monthly.last_reset).toMatch(RFC3339_UTC);
    // Its window started when it was created (the calendar month began earlier).
    expect(Date.parse(monthly.last_reset)).toBeGreaterThan(Date.now() - 60_000);
    expect(daily).toMatchObject({ max_limit: 5.5, reset_duration: '1d', calendar_aligned: false });
    expect(team.rate_limit).toEqual({
      id: expect.stringMatching(UUID),
      request_max_limit: 60,
      request_reset_duration: '1m',
      token_max_limit: 10_000,
      token_reset_duration: '1h',
      request_current_usage: 0,
      token_current_usage: 0,
    });
    const stored = await sql(
      gw,
      'SELECT team_id, max_limit::float8 AS max_limit, reset_duration FROM budgets ORDER BY max_limit',
    );
    expect(stored).toEqual([
      { team_id: team.id, max_limit: 5.5, reset_duration: '1d' },
      { team_id: team.id, max_limit: 100, reset_duration: '1M' },
    ]);

    // Usage is what the request path charged in the CounterStore, under the shared keys and windows.
    const counters = gw.app.get(CounterStore);
    await counters.increment(budgetCounterKey(monthly.id), 12.25, counterWindowOf('1M', true));
    await counters.increment(requestCounterKey(team.rate_limit.id), 3, counterWindowOf('1m', false));
    await counters.increment(tokenCounterKey(team.rate_limit.id), 420, counterWindowOf('1h', false));
    const got = await api.get(`${TEAMS}/${team.id}`);
    expect(got.status).toBe(200);
    expect(got.body.budgets[1].current_usage).toBe(12.25);
    expect(got.body.budgets[0].current_usage).toBe(0);
    expect(got.body.rate_limit).toMatchObject({ request_current_usage: 3, token_current_usage: 420 });

    // A budget with the window length of a stored one keeps its id and usage; the others go.
    const upd = await api.put(`${TEAMS}/${team.id}`, {
      name: 'research-2',
      budgets: [{ max_limit: 200, reset_duration: '1M', calendar_aligned: true }],
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.message).toBe('Team updated successfully');
    expect(upd.body.team.name).toBe('research-2');
    expect(upd.body.team.budgets).toEqual([
      expect.objectContaining({ id: monthly.id, max_limit: 200, current_usage: 12.25 }),
    ]);
    expect(upd.body.team.rate_limit.id).toBe(team.rate_limit.id);
    expect(await count(gw, 'budgets')).toBe(1);

    // reset_usage zeroes every counter of the owner.
    const reset = await api.put(`${TEAMS}/${team.id}`, { reset_usage: true });
    expect(reset.status).toBe(200);
    expect(reset.body.team.budgets[0].current_usage).toBe(0);
    expect(reset.body.team.rate_limit).toMatchObject({ request_current_usage: 0, token_current_usage: 0 });

    // rate_limit: null removes it; budgets: [] removes them all.
    const cleared = await api.put(`${TEAMS}/${team.id}`, { rate_limit: null, budgets: [] });
    expect(cleared.body.team).toMatchObject({ budgets: [], rate_limit: null });
    expect(await count(gw, 'budgets')).toBe(0);
    expect(await count(gw, 'rate_limits')).toBe(0);

    const list = await api.get(TEAMS);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ teams: [expect.objectContaining({ id: team.id })], count: 1 });

    const del = await api.delete(`${TEAMS}/${team.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Team deleted successfully' });
    expectError(await api.get(`${TEAMS}/${team.id}`), 404, 'team_not_found');
    expectError(await api.delete(`${TEAMS}/${team.id}`), 404, 'team_not_found');
    expectError(await api.put(`${TEAMS}/not-an-id`, { name: 'x' }), 404, 'team_not_found');
  });

  it('customers: the same operations, deleting takes the budgets and detaches the keys', async () => {
    const res = await api.post(CUSTOMERS, { name: 'acme', budgets: [{ max_limit: 1000, reset_duration: '1Q' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Customer created successfully');
    const customer = res.body.customer;
    expect(customer).toMatchObject({ name: 'acme', rate_limit: null });
    expect(customer.budgets).toEqual([expect.objectContaining({ max_limit: 1000, reset_duration: '1Q' })]);
    const vk = await api.post('/api/governance/virtual-keys', { name: 'acme-key', customer_id: customer.id });
    expect(vk.status, JSON.stringify(vk.body)).toBe(201);

    const list = await api.get(CUSTOMERS);
    expect(list.body).toEqual({ customers: [expect.objectContaining({ id: customer.id, name: 'acme' })], count: 1 });
    const upd = await api.put(`${CUSTOMERS}/${customer.id}`, {
      rate_limit: { token_max_limit: 5, token_reset_duration: '1d' },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.customer.rate_limit).toMatchObject({ token_max_limit: 5, request_max_limit: null });
    expect(upd.body.customer.budgets).toHaveLength(1);

    expect((await api.delete(`${CUSTOMERS}/${customer.id}`)).body).toEqual({
      message: 'Customer deleted successfully',
    });
    expect(await sql(gw, 'SELECT * FROM budgets')).toEqual([]);
    expect(await count(gw, 'rate_limits')).toBe(0);
    const key = await api.get(`/api/governance/virtual-keys/${vk.body.virtual_key.id}`);
    expect(key.body.customer_id).toBeNull();
    expectError(await api.get(`${CUSTOMERS}/${MISSING_ID}`), 404, 'customer_not_found');
    await api.delete(`/api/governance/virtual-keys/${vk.body.virtual_key.id}`);
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{}, 'name'],
      [{ name: 'x', budgets: [{ max_limit: -1, reset_duration: '1d' }] }, 'budgets[0].max_limit'],
      [{ name: 'x', budgets: [{ max_limit: 1 }] }, 'budgets[0].reset_duration'],
      [{ name: 'x', budgets: [{ max_limit: 1, reset_duration: '30s' }] }, 'budgets[0].reset_duration'],
      [{ name: 'x', budgets: [{ max_limit: 1, reset_duration: '2Y' }] }, 'budgets[0].reset_duration'],
      [{ name: 'x', budgets: [{ max_limit: 1, reset_duration: 'monthly' }] }, 'budgets[0].reset_duration'],
      [
        {
          name: 'x',
          budgets: [
            { max_limit: 1, reset_duration: '1h' },
            { max_limit: 2, reset_duration: '1d' },
            { max_limit: 3, reset_duration: '60m' },
          ],
        },
        'budgets[2].reset_duration',
      ],
      [
        {
          name: 'x',
          budgets: [
            { max_limit: 1, reset_duration: '1d' },
            { max_limit: 2, reset_duration: '1d' },
          ],
        },
        'budgets[1].reset_duration',
      ],
      [
        { name: 'x', rate_limit: { request_max_limit: -5, request_reset_duration: '1m' } },
        'rate_limit.request_max_limit',
      ],
      [
        { name: 'x', rate_limit: { request_max_limit: 1.5, request_reset_duration: '1m' } },
        'rate_limit.request_max_limit',
      ],
      [{ name: 'x', rate_limit: { request_max_limit: 5 } }, 'rate_limit.request_reset_duration'],
      [{ name: 'x', rate_limit: { token_reset_duration: '1h' } }, 'rate_limit.token_max_limit'],
      [
        { name: 'x', rate_limit: { request_max_limit: 5, request_reset_duration: '1Q' } },
        'rate_limit.request_reset_duration',
      ],
      [{ name: 'x', rate_limit: {} }, 'rate_limit'],
      [{ name: 'x', budgets: { max_limit: 1 } }, 'budgets'],
      [{ name: 'x', customer_ids: [] }, 'customer_ids'],
    ];
    for (const [body, param] of bad) {
      expectError(await api.post(TEAMS, body), 400, 'validation_failed', param);
      expectError(await api.post(CUSTOMERS, body), 400, 'validation_failed', param);
    }
    expect(await sql(gw, 'SELECT name FROM teams')).toEqual([]);
    expect(await count(gw, 'customers')).toBe(0);
    expect(await count(gw, 'budgets')).toBe(0);

    const team = (await api.post(TEAMS, { name: 'dup', budgets: [{ max_limit: 1, reset_duration: '1w' }] })).body.team;
    expectError(await api.post(TEAMS, { name: 'dup' }), 409, 'already_exists', 'name');
    // A refused update changes nothing: not the name, not the budgets.
    expectError(
      await api.put(`${TEAMS}/${team.id}`, {
        name: 'renamed',
        budgets: [
          { max_limit: 9, reset_duration: '1w' },
          { max_limit: 9, reset_duration: '7d' },
        ],
      }),
      400,
      'validation_failed',
      'budgets[1].reset_duration',
    );
    const after = (await api.get(`${TEAMS}/${team.id}`)).body;
    expect(after.name).toBe('dup');
    expect(after.budgets).toEqual([expect.objectContaining({ id: team.budgets[0].id, max_limit: 1 })]);
    const other = (await api.post(TEAMS, { name: 'other' })).body.team;
    expectError(await api.put(`${TEAMS}/${other.id}`, { name: 'dup' }), 409, 'already_exists', 'name');
  });

  it('team and customer links are enterprise-only in oss', async () => {
    const team = (await api.post(TEAMS, { name: 'oss-team' })).body.team;
    const customer = (await api.post(CUSTOMERS, { name: 'oss-customer' })).body.customer;
    for (const res of [
      await api.get(`${TEAMS}/${team.id}/customers`),
      await api.post(`${TEAMS}/${team.id}/customers`, { customer_id: customer.id }),
      await api.delete(`${TEAMS}/${team.id}/customers/${customer.id}`),
      await api.get(`${CUSTOMERS}/${customer.id}/teams`),
      await api.delete(`/api/teams/${team.id}/customers/${customer.id}`),
    ]) {
      expectError(res, 404, 'enterprise_only');
      expect(res.body.error.message).toContain('enterprise edition');
    }
    expect(await count(gw, 'team_customers')).toBe(0);
    // The deprecated path says so on refusals too.
    const old = await api.delete(`/api/teams/${team.id}/customers/${customer.id}`);
    expect(old.headers.get('deprecation')).toBe('true');
    expect(old.headers.get('link')).toBe(
      `</api/governance/teams/${team.id}/customers/${customer.id}>; rel="successor-version"`,
    );
    const unauthenticated = await gw.http.delete(`/api/teams/${team.id}/customers/${customer.id}`);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('deprecation')).toBe('true');
  });
});

describe(`team and customer links, enterprise (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  beforeAll(async () => {
    gw = await startTestApp({ config: ENTERPRISE_CONFIG });
    api = adminClient(gw);
  });
  afterAll(() => gw?.close());

  it('links, lists both ways and detaches; the deprecated path behaves the same with deprecation headers', async () => {
    const team = (await api.post(TEAMS, { name: 'platform' })).body.team;
    const acme = (await api.post(CUSTOMERS, { name: 'acme' })).body.customer;
    const globex = (await api.post(CUSTOMERS, { name: 'globex' })).body.customer;

    const link = await api.post(`${TEAMS}/${team.id}/customers`, { customer_id: acme.id });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body.team.customer_ids).toEqual([acme.id]);
    expect((await api.post(`${TEAMS}/${team.id}/customers`, { customer_id: globex.id })).status).toBe(200);
    expectError(await api.post(`${TEAMS}/${team.id}/customers`, { customer_id: acme.id }), 409, 'already_exists');
    expectError(
      await api.post(`${TEAMS}/${team.id}/customers`, { customer_id: MISSING_ID }),
      400,
      'validation_failed',
      'customer_id',
    );
    expectError(
      await api.post(`${TEAMS}/${team.id}/customers`, { customer_id: 'x' }),
      400,
      'validation_failed',
      'customer_id',
    );
    expectError(await api.post(`${TEAMS}/${MISSING_ID}/customers`, { customer_id: acme.id }), 404, 'team_not_found');

    const customers = await api.get(`${TEAMS}/${team.id}/customers`);
    expect(customers.status).toBe(200);
    expect(customers.body.count).toBe(2);
    expect(customers.body.customers.map((c: any) => c.name).sort()).toEqual(['acme', 'globex']);
    const teams = await api.get(`${CUSTOMERS}/${acme.id}/teams`);
    expect(teams.body).toEqual({ teams: [expect.objectContaining({ id: team.id, name: 'platform' })], count: 1 });
    expect((await api.get(`${TEAMS}/${team.id}`)).body.customer_ids.sort()).toEqual([acme.id, globex.id].sort());
    expectError(await api.get(`${CUSTOMERS}/${MISSING_ID}/teams`), 404, 'customer_not_found');

    const detach = await api.delete(`${TEAMS}/${team.id}/customers/${acme.id}`);
    expect(detach.status).toBe(200);
    expect(detach.body).toEqual({ message: 'Customer detached from team' });
    expect(detach.headers.get('deprecation')).toBeNull();
    expectError(await api.delete(`${TEAMS}/${team.id}/customers/${acme.id}`), 404, 'customer_not_found');

    const old = await api.delete(`/api/teams/${team.id}/customers/${globex.id}`);
    expect(old.status).toBe(200);
    expect(old.body).toEqual({ message: 'Customer detached from team' });
    expect(old.headers.get('deprecation')).toBe('true');
    expect(old.headers.get('link')).toBe(
      `</api/governance/teams/${team.id}/customers/${globex.id}>; rel="successor-version"`,
    );
    const oldAgain = await api.delete(`/api/teams/${team.id}/customers/${globex.id}`);
    expectError(oldAgain, 404, 'customer_not_found');
    expect(oldAgain.headers.get('deprecation')).toBe('true');
    expect(await sql(gw, 'SELECT * FROM team_customers')).toEqual([]);

    // Deleting a customer removes its links.
    await api.post(`${TEAMS}/${team.id}/customers`, { customer_id: acme.id });
    await api.delete(`${CUSTOMERS}/${acme.id}`);
    expect((await api.get(`${TEAMS}/${team.id}`)).body.customer_ids).toEqual([]);
  });
});
