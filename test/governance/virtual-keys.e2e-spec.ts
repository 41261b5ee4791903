import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VirtualKeysService } from '../../src/modules/governance/virtual-keys/virtual-keys.service.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import { expectError, OSS_CONFIG, ossClient, RFC3339_UTC, sql, UUID } from './governance-test-kit.js';

const VKS = '/api/governance/virtual-keys';
const QUOTA = `${VKS}/quota`;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MISSING_ID = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';

/** The quota route, authenticated by a virtual key only. */
function quota(gw: TestApp, value: string, header: 'bearer' | 'x-api-key' | 'x-gateway-vk' = 'x-gateway-vk') {
  const headers = header === 'bearer' ? { Authorization: `Bearer ${value}` } : { [header]: value };
  return gw.http.get(QUOTA, { headers });
}

describe(`virtual keys (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  const create = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post(VKS, { name, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.virtual_key as { id: string; value: string; name: string };
  };
  beforeAll(async () => {
    gw = await startTestApp({ config: OSS_CONFIG });
    api = ossClient(gw);
  });
  afterAll(() => gw?.close());

  it('create shows the value once and stores only its hash; get, update, delete', async () => {
    const team = await api.post('/api/governance/teams', { name: 'team-a' });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const team_id = team.body.team.id as string;
    const res = await api.post(VKS, { name: 'team-a', description: 'Team A prod', team_id });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Virtual key created successfully');
    const vk = res.body.virtual_key;
    expect(vk.value).toMatch(/^sk-gw-[A-Za-z0-9_-]{32}$/);
    expect(vk).toMatchObject({
      name: 'team-a',
      description: 'Team A prod',
      is_active: true,
      expires_at: null,
      team_id,
      customer_id: null,
    });
    expect(vk.id).toMatch(UUID);
    expect(vk.created_at).toMatch(RFC3339_UTC);

    const stored = await sql(gw, 'SELECT value_hash FROM virtual_key_credentials WHERE virtual_key_id = $1', [vk.id]);
    expect(stored).toEqual([{ value_hash: sha256(vk.value) }]);
    const everything = JSON.stringify([
      await sql(gw, 'SELECT * FROM virtual_keys'),
      await sql(gw, 'SELECT * FROM virtual_key_credentials'),
    ]);
    expect(everything).not.toContain(vk.value.slice(6));

    const got = await api.get(`${VKS}/${vk.id}`);
    expect(got.status).toBe(200);
    expect(got.body.value).toBeUndefined();
    expect(got.body).toMatchObject({ id: vk.id, name: 'team-a' });

    const expires_at = new Date(Date.now() + 3_600_000).toISOString();
    const upd = await api.put(`${VKS}/${vk.id}`, { description: 'changed', expires_at, team_id: null });
    expect(upd.status).toBe(200);
    expect(upd.body.message).toEqual(expect.any(String));
    expect(upd.body.virtual_key).toMatchObject({ description: 'changed', expires_at, team_id: null, name: 'team-a' });
    expect(upd.body.virtual_key.value).toBeUndefined();

    expect((await quota(gw, vk.value)).status).toBe(200);
    const del = await api.delete(`${VKS}/${vk.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: expect.any(String) });
    expectError(await api.get(`${VKS}/${vk.id}`), 404, 'virtual_key_not_found');
    expectError(await api.delete(`${VKS}/${vk.id}`), 404, 'virtual_key_not_found');
    expectError(await api.put(`${VKS}/not-an-id`, { name: 'x' }), 404, 'virtual_key_not_found');
    // Deleted: refused at once, although the lookup was cached.
    expectError(await quota(gw, vk.value), 401, 'invalid_credentials');
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM virtual_key_credentials'))[0].n).toBe(0);
    expect(gw.logs.text()).not.toContain(vk.value);
  });

  it('validates input and refuses duplicate names', async () => {
    expectError(await api.post(VKS, {}), 400, 'validation_failed', 'name');
    expectError(await api.post(VKS, { name: 'x', is_active: 'yes' }), 400, 'validation_failed', 'is_active');
    expectError(await api.post(VKS, { name: 'x', customer_id: 'c1' }), 400, 'validation_failed', 'customer_id');
    expectError(
      await api.post(VKS, { name: 'x', expires_at: '2020-01-01T00:00:00Z' }),
      400,
      'validation_failed',
      'expires_at',
    );
    expectError(await api.post(VKS, { name: 'x', expires_at: '2099-01-01' }), 400, 'validation_failed', 'expires_at');
    expectError(await api.post(VKS, { name: 'x', value: 'sk-gw-mine' }), 400, 'validation_failed', 'value');
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM virtual_keys'))[0].n).toBe(0);
    const a = await create('dup');
    expectError(await api.post(VKS, { name: 'dup' }), 409, 'already_exists', 'name');
    const b = await create('dup-2');
    expectError(await api.put(`${VKS}/${b.id}`, { name: 'dup' }), 409, 'already_exists');
    expectError(
      await api.put(`${VKS}/${a.id}`, { expires_at: '2001-01-01T00:00:00Z' }),
      400,
      'validation_failed',
      'expires_at',
    );
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM virtual_key_credentials'))[0].n).toBe(2);
  });

  it('lists with paging', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) await create(name);
    const total = (await sql(gw, 'SELECT count(*)::int AS n FROM virtual_keys'))[0].n;
    const first = await api.get(VKS, { query: { limit: 2, offset: 0, sort_by: 'name', order: 'asc' } });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(2);
    expect(first.body.pagination).toEqual({ total_count: total, limit: 2, offset: 0, sort_by: 'name', order: 'asc' });
    const all = await api.get(VKS, { query: { sort_by: 'name', order: 'asc' } });
    expect(all.body.pagination.limit).toBe(50);
    const names = all.body.virtual_keys.map((k: any) => k.name);
    expect(names).toEqual([...names].sort());
    expect(first.body.virtual_keys.map((k: any) => k.name)).toEqual(names.slice(0, 2));
    const next = await api.get(VKS, { query: { limit: 2, offset: 2, sort_by: 'name', order: 'asc' } });
    expect(next.body.virtual_keys.map((k: any) => k.name)).toEqual(names.slice(2, 4));
    expect(all.text).not.toContain('sk-gw-');
    const byDefault = await api.get(VKS);
    expect(byDefault.body.pagination).toMatchObject({ sort_by: 'created_at', order: 'desc', offset: 0 });
    expectError(await api.get(VKS, { query: { limit: 0 } }), 400, 'validation_failed', 'limit');
    expectError(await api.get(VKS, { query: { limit: 1001 } }), 400, 'validation_failed', 'limit');
    expectError(await api.get(VKS, { query: { limit: 'ten' } }), 400, 'validation_failed', 'limit');
    expectError(await api.get(VKS, { query: { offset: -1 } }), 400, 'validation_failed', 'offset');
    expectError(await api.get(VKS, { query: { sort_by: 'value' } }), 400, 'validation_failed', 'sort_by');
  });

  it('searches by a case-insensitive part of the name, paged on the matches', async () => {
    for (const name of ['Search-Alpha', 'search-beta', 'other-100%_x']) await create(name);
    const found = await api.get(VKS, { query: { search: 'SEARCH-', sort_by: 'name', order: 'asc' } });
    expect(found.status).toBe(200);
    expect(found.body.virtual_keys.map((k: any) => k.name)).toEqual(['Search-Alpha', 'search-beta']);
    expect(found.body.pagination.total_count).toBe(2);
    const paged = await api.get(VKS, {
      query: { search: 'search', limit: 1, offset: 1, sort_by: 'name', order: 'asc' },
    });
    expect(paged.body.virtual_keys.map((k: any) => k.name)).toEqual(['search-beta']);
    expect(paged.body.pagination.total_count).toBe(2);
    // LIKE's wildcards are matched as typed.
    const literal = await api.get(VKS, { query: { search: '100%_' } });
    expect(literal.body.virtual_keys.map((k: any) => k.name)).toEqual(['other-100%_x']);
    expect((await api.get(VKS, { query: { search: '%' } })).body.virtual_keys.map((k: any) => k.name)).toEqual([
      'other-100%_x',
    ]);
    expect((await api.get(VKS, { query: { search: 'no-such-key' } })).body).toMatchObject({
      virtual_keys: [],
      count: 0,
      pagination: { total_count: 0 },
    });
    expectError(await api.get(VKS, { query: { search: 'x'.repeat(257) } }), 400, 'validation_failed', 'search');
  });

  it('the management quota route shows a key what its own quota route shows it', async () => {
    const vk = await create('quota-by-id', {
      budgets: [{ max_limit: 5, reset_duration: '1d' }],
      rate_limit: { request_max_limit: 10, request_reset_duration: '1m' },
    });
    const own = await quota(gw, vk.value);
    expect(own.status).toBe(200);
    const managed = await api.get(`${VKS}/${vk.id}/quota`);
    expect(managed.status).toBe(200);
    // An unused window starts when it is read: the reset times move with the clock, the rest is the same.
    const settled = (view: any) =>
      JSON.parse(JSON.stringify(view, (name, value: unknown) => (name.endsWith('reset_at') ? undefined : value)));
    expect(settled(managed.body)).toEqual(settled(own.body));
    expect(managed.body.budgets).toEqual([
      expect.objectContaining({ level: 'virtual_key', level_id: vk.id, max_limit: 5, current_usage: 0 }),
    ]);
    expect(managed.body.budgets[0].reset_at).toMatch(RFC3339_UTC);
    expect(managed.body.rate_limits).toEqual([
      expect.objectContaining({ level: 'virtual_key', request_max_limit: 10, request_current_usage: 0 }),
    ]);
    expectError(await api.get(`${VKS}/${MISSING_ID}/quota`), 404, 'virtual_key_not_found');
    expectError(await gw.http.get(`${VKS}/${vk.id}/quota`), 401, 'setup_token_required');
    // A virtual key reads its own quota at /quota, never another's through the management route.
    expectError(
      await gw.http.get(`${VKS}/${vk.id}/quota`, { headers: { 'x-gateway-vk': vk.value } }),
      401,
      'virtual_key_not_accepted',
    );
  });

  it('quota answers the calling key only, by any virtual key header', async () => {
    const vk = await create('quota-key');
    for (const header of ['bearer', 'x-api-key', 'x-gateway-vk'] as const) {
      const res = await quota(gw, vk.value, header);
      expect(res.status, header).toBe(200);
      expect(res.body).toEqual({ virtual_key_id: vk.id, name: 'quota-key', budgets: [], rate_limits: [] });
    }
    expectError(await gw.http.get(QUOTA), 401, 'missing_credentials');
    expectError(await quota(gw, 'sk-gw-' + 'A'.repeat(32)), 401, 'invalid_credentials');
    expectError(await quota(gw, 'sk-gw-' + 'A'.repeat(32)), 401, 'invalid_credentials');
    // Management credentials are not a virtual key.
    expectError(await api.get(QUOTA), 401, 'missing_credentials');
    // A virtual key is not a management credential.
    expectError(await gw.http.get(VKS, { headers: { 'x-gateway-vk': vk.value } }), 401, 'virtual_key_not_accepted');
  });

  it('an inactive key is blocked at once (cache invalidated), and unblocked on reactivation', async () => {
    const vk = await create('toggle');
    expect((await quota(gw, vk.value)).status).toBe(200);
    expect((await api.put(`${VKS}/${vk.id}`, { is_active: false })).status).toBe(200);
    const blocked = await quota(gw, vk.value);
    expectError(blocked, 403, 'virtual_key_blocked');
    expect(blocked.body.extra_fields.error_type).toBe('policy_access_denied');
    expect((await api.put(`${VKS}/${vk.id}`, { is_active: true })).status).toBe(200);
    expect((await quota(gw, vk.value)).status).toBe(200);
    // Created inactive.
    const off = await create('born-off', { is_active: false });
    expectError(await quota(gw, off.value), 403, 'virtual_key_blocked');
  });

  it('expiry is checked at use time, not only when the lookup is cached', async () => {
    const vk = await create('expiring', { expires_at: new Date(Date.now() + 1500).toISOString() });
    expect((await quota(gw, vk.value)).status).toBe(200);
    await sleep(1600);
    const res = await quota(gw, vk.value);
    expectError(res, 403, 'virtual_key_blocked');
    expect(res.body.error.message).toContain('expired');
  });

  it('rotation without a grace period retires the old value at once', async () => {
    const vk = await create('rotate-now');
    expect((await quota(gw, vk.value)).status).toBe(200);
    const res = await api.post(`${VKS}/${vk.id}/rotate`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Virtual key rotated successfully');
    const rotated = res.body.virtual_key;
    expect(rotated).toMatchObject({ id: vk.id, name: 'rotate-now' });
    expect(rotated.value).toMatch(/^sk-gw-[A-Za-z0-9_-]{32}$/);
    expect(rotated.value).not.toBe(vk.value);
    expectError(await quota(gw, vk.value), 401, 'invalid_credentials');
    expect((await quota(gw, rotated.value)).body.virtual_key_id).toBe(vk.id);
    expect((await api.get(`${VKS}/${vk.id}`)).body.value).toBeUndefined();
    const hashes = await sql(gw, 'SELECT value_hash FROM virtual_key_credentials WHERE virtual_key_id = $1', [vk.id]);
    expect(hashes).toEqual([{ value_hash: sha256(rotated.value) }]);
  });

  it('rotation with a grace period keeps the old value working until it ends', async () => {
    const vk = await create('rotate-grace');
    const res = await api.post(`${VKS}/${vk.id}/rotate`, { grace_period: '2s' });
    expect(res.status).toBe(200);
    const fresh = res.body.virtual_key.value;
    expect((await quota(gw, vk.value)).status).toBe(200);
    expect((await quota(gw, fresh)).status).toBe(200);
    await sleep(2100);
    expectError(await quota(gw, vk.value), 401, 'invalid_credentials');
    expect((await quota(gw, fresh)).status).toBe(200);

    expectError(
      await api.post(`${VKS}/${vk.id}/rotate`, { grace_period: 'soon' }),
      400,
      'validation_failed',
      'grace_period',
    );
    expectError(await api.post(`${VKS}/${MISSING_ID}/rotate`), 404, 'virtual_key_not_found');
    expect((await quota(gw, fresh)).status).toBe(200);
  });

  it('bulk rotation is all or nothing', async () => {
    const a = await create('bulk-a');
    const b = await create('bulk-b');
    const before = await sql(gw, 'SELECT value_hash FROM virtual_key_credentials ORDER BY value_hash');

    const failed = await api.post(`${VKS}/rotate`, { ids: [a.id, MISSING_ID, b.id] });
    expectError(failed, 404, 'virtual_key_not_found');
    expect(failed.body.error.message).toContain(MISSING_ID);
    expect(await sql(gw, 'SELECT value_hash FROM virtual_key_credentials ORDER BY value_hash')).toEqual(before);
    expect((await quota(gw, a.value)).status).toBe(200);

    expectError(await api.post(`${VKS}/rotate`, { ids: [] }), 400, 'validation_failed', 'ids');
    expectError(await api.post(`${VKS}/rotate`, { ids: [a.id, 5] }), 400, 'validation_failed', 'ids[1]');
    expectError(await api.post(`${VKS}/rotate`, { ids: [a.id, a.id] }), 400, 'validation_failed', 'ids');

    const ok = await api.post(`${VKS}/rotate`, { ids: [b.id, a.id] });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toEqual(expect.any(String));
    expect(ok.body.virtual_keys.map((k: any) => k.id)).toEqual([b.id, a.id]);
    const [newB, newA] = ok.body.virtual_keys.map((k: any) => k.value);
    expectError(await quota(gw, a.value), 401, 'invalid_credentials');
    expectError(await quota(gw, b.value), 401, 'invalid_credentials');
    expect((await quota(gw, newA)).body.virtual_key_id).toBe(a.id);
    expect((await quota(gw, newB)).body.virtual_key_id).toBe(b.id);
  });

  it('findExistingIds returns the ids that exist', async () => {
    const a = await create('exists-a');
    const found = await gw.app.get(VirtualKeysService).findExistingIds([a.id, MISSING_ID, 'junk', a.id]);
    expect(found).toEqual([a.id]);
    expect(await gw.app.get(VirtualKeysService).findExistingIds([])).toEqual([]);
  });
});

describe.skipIf(!TEST_REDIS_URL || RUN_MODE !== 'postgres')(`virtual key cache across replicas (${RUN_MODE})`, () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ config: OSS_CONFIG, keepDatabase: true });
    second = await startTestApp({
      config: OSS_CONFIG,
      databaseUrl: first.databaseUrl,
      redisPrefix: first.config.redis_prefix,
    });
  });
  afterAll(async () => {
    // The first keeps the database; the second drops it.
    await first?.close();
    await second?.close();
  });

  it('a change on one replica invalidates the cache of the other', async () => {
    const created = await ossClient(first).post(VKS, { name: 'shared' });
    const vk = created.body.virtual_key;
    expect((await quota(second, vk.value)).status).toBe(200);
    expect((await ossClient(first).put(`${VKS}/${vk.id}`, { is_active: false })).status).toBe(200);
    // The second replica cached the key as active for a minute; only the Redis message can refuse it this soon.
    await vi.waitFor(async () => expectError(await quota(second, vk.value), 403, 'virtual_key_blocked'), {
      timeout: 2000,
      interval: 25,
    });
    const rotated = await ossClient(first).post(`${VKS}/${vk.id}/rotate`);
    await ossClient(first).put(`${VKS}/${vk.id}`, { is_active: true });
    await vi.waitFor(async () => expect((await quota(second, rotated.body.virtual_key.value)).status).toBe(200), {
      timeout: 2000,
      interval: 25,
    });
    await vi.waitFor(async () => expectError(await quota(second, vk.value), 401, 'invalid_credentials'), {
      timeout: 2000,
      interval: 25,
    });
  });
});
