import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminClient,
  ENTERPRISE_CONFIG,
  expectError,
  OSS_CONFIG,
  ossClient,
  RFC3339_UTC,
  sql,
} from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { assignProfile, createProfile, createToolGroup, createUser, PROFILES } from './access-profiles-kit.js';

const count = async (gw: TestApp, table: string): Promise<number> =>
  (await sql(gw, `SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

const EVERY_FIELD = {
  name: 'full',
  description: 'every field set',
  is_active: false,
  tags: ['eng', 'beta'],
  provider_configs: [
    {
      provider_name: 'openai',
      all_models_allowed: false,
      allowed_models: ['gpt-4o-mini'],
      blacklisted_models: ['gpt-4o'],
      weight: 2,
      budgets: [{ max_limit: 5, reset_duration: '1d', calendar_aligned: true }],
      rate_limit: { request_max_limit: 10, request_reset_duration: '1m' },
    },
    { provider_name: 'anthropic', weight: null },
  ],
  budgets: [
    { max_limit: 100, reset_duration: '1M' },
    { max_limit: 20, reset_duration: '1w', scope: 'provider:anthropic' },
  ],
  rate_limit: { token_max_limit: 1000, token_reset_duration: '1h' },
  calendar_aligned: true,
  mcp_tool_groups: [{ tool_group_id: 'set in beforeAll' }],
  mcp_servers: [{ mcp_server_id: 'files' }],
  mcp_tool_overrides: [
    { mcp_client_id: 'search', tool_name: 'web', action: 'include' },
    { mcp_client_id: 'search', tool_name: 'images', action: 'exclude' },
  ],
};

/** The stored form of EVERY_FIELD (defaults filled in). */
const EVERY_FIELD_STORED = {
  name: 'full',
  description: 'every field set',
  is_active: false,
  version: 1,
  tags: ['eng', 'beta'],
  provider_configs: [
    {
      provider_name: 'openai',
      all_models_allowed: false,
      allowed_models: ['gpt-4o-mini'],
      blacklisted_models: ['gpt-4o'],
      weight: 2,
      budgets: [{ max_limit: 5, reset_duration: '1d', calendar_aligned: true }],
      rate_limit: {
        request_max_limit: 10,
        request_reset_duration: '1m',
        token_max_limit: null,
        token_reset_duration: null,
      },
    },
    {
      provider_name: 'anthropic',
      all_models_allowed: true,
      allowed_models: [],
      blacklisted_models: [],
      weight: null,
      budgets: [],
      rate_limit: null,
    },
  ],
  budgets: [
    { max_limit: 100, reset_duration: '1M', scope: 'total' },
    { max_limit: 20, reset_duration: '1w', scope: 'provider:anthropic' },
  ],
  rate_limit: {
    request_max_limit: null,
    request_reset_duration: null,
    token_max_limit: 1000,
    token_reset_duration: '1h',
  },
  calendar_aligned: true,
  mcp_tool_groups: [{ tool_group_id: 'set in beforeAll' }],
  mcp_servers: [{ mcp_server_id: 'files' }],
  mcp_tool_overrides: [
    { mcp_client_id: 'search', tool_name: 'web', action: 'include' },
    { mcp_client_id: 'search', tool_name: 'images', action: 'exclude' },
  ],
};

const many = <T>(n: number, item: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => item(i));

/** Bodies refused with 400 and the field each names: the DTOs' checks, then profile-fields.rules.ts. */
const INVALID: Array<[string, Record<string, unknown>, string]> = [
  ['unknown field', { foo: 1 }, 'foo'],
  ['empty name', { name: '  ' }, 'name'],
  ['long name', { name: 'n'.repeat(256) }, 'name'],
  ['name not a string', { name: 5 }, 'name'],
  ['description null', { description: null }, 'description'],
  ['long description', { description: 'd'.repeat(4097) }, 'description'],
  ['is_active not boolean', { is_active: 'yes' }, 'is_active'],
  ['51 tags', { tags: many(51, (i) => `t${i}`) }, 'tags'],
  ['tag not a string', { tags: [7] }, 'tags[0]'],
  ['101 provider configs', { provider_configs: many(101, () => ({ provider_name: 'openai' })) }, 'provider_configs'],
  ['unknown provider', { provider_configs: [{ provider_name: 'nope' }] }, 'provider_configs[0].provider_name'],
  ['negative weight', { provider_configs: [{ provider_name: 'openai', weight: -1 }] }, 'provider_configs[0].weight'],
  [
    'all_models_allowed not boolean',
    { provider_configs: [{ provider_name: 'openai', all_models_allowed: 'x' }] },
    'provider_configs[0].all_models_allowed',
  ],
  [
    'provider budget negative',
    { provider_configs: [{ provider_name: 'openai', budgets: [{ max_limit: -1, reset_duration: '1d' }] }] },
    'provider_configs[0].budgets[0].max_limit',
  ],
  ['101 budgets', { budgets: many(101, (i) => ({ max_limit: 1, reset_duration: `${i + 1}m` })) }, 'budgets'],
  ['bad budget window', { budgets: [{ max_limit: 1, reset_duration: '2 days' }] }, 'budgets[0].reset_duration'],
  ['bad budget scope', { budgets: [{ max_limit: 1, reset_duration: '1d', scope: 'team:x' }] }, 'budgets[0].scope'],
  ['rate_limit not an object', { rate_limit: 'x' }, 'rate_limit'],
  [
    'negative request limit',
    { rate_limit: { request_max_limit: -1, request_reset_duration: '1m' } },
    'rate_limit.request_max_limit',
  ],
  ['calendar_aligned not boolean', { calendar_aligned: 1 }, 'calendar_aligned'],
  ['empty tool group id', { mcp_tool_groups: [{ tool_group_id: '' }] }, 'mcp_tool_groups[0].tool_group_id'],
  ['missing mcp server id', { mcp_servers: [{}] }, 'mcp_servers[0].mcp_server_id'],
  [
    'bad override action',
    { mcp_tool_overrides: [{ mcp_client_id: 'c', tool_name: 't', action: 'maybe' }] },
    'mcp_tool_overrides[0].action',
  ],
  // profile-fields.rules.ts: checked on the complete result.
  [
    'provider configured twice',
    { provider_configs: [{ provider_name: 'openai' }, { provider_name: 'openai' }] },
    'provider_configs[1].provider_name',
  ],
  [
    'provider budgets share a window',
    {
      provider_configs: [
        {
          provider_name: 'openai',
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
    'provider rate limit without its window',
    { provider_configs: [{ provider_name: 'openai', rate_limit: { request_max_limit: 5 } }] },
    'provider_configs[0].rate_limit.request_reset_duration',
  ],
  [
    'scoped budget names an unlisted provider',
    { budgets: [{ max_limit: 1, reset_duration: '1d', scope: 'provider:openai' }] },
    'budgets[0].scope',
  ],
  [
    'total budgets share a window',
    {
      budgets: [
        { max_limit: 1, reset_duration: '1h' },
        { max_limit: 2, reset_duration: '60m' },
      ],
    },
    'budgets[1].reset_duration',
  ],
  [
    'scoped budget overlaps the provider config’s own',
    {
      provider_configs: [{ provider_name: 'openai', budgets: [{ max_limit: 1, reset_duration: '1d' }] }],
      budgets: [{ max_limit: 2, reset_duration: '1d', scope: 'provider:openai' }],
    },
    'budgets[0].reset_duration',
  ],
  ['rate limit sets nothing', { rate_limit: {} }, 'rate_limit'],
  ['token limit without its window', { rate_limit: { token_max_limit: 5 } }, 'rate_limit.token_reset_duration'],
  [
    'tool group repeated',
    { mcp_tool_groups: [{ tool_group_id: 'g' }, { tool_group_id: 'g' }] },
    'mcp_tool_groups[1].tool_group_id',
  ],
  [
    'mcp server repeated',
    { mcp_servers: [{ mcp_server_id: 's' }, { mcp_server_id: 's' }] },
    'mcp_servers[1].mcp_server_id',
  ],
  [
    'override repeated',
    {
      mcp_tool_overrides: [
        { mcp_client_id: 'c', tool_name: 't', action: 'include' },
        { mcp_client_id: 'c', tool_name: 't', action: 'exclude' },
      ],
    },
    'mcp_tool_overrides[1].tool_name',
  ],
  [
    'exclude on a client granted whole',
    {
      mcp_servers: [{ mcp_server_id: 'files' }],
      mcp_tool_overrides: [{ mcp_client_id: 'files', tool_name: 'rm', action: 'exclude' }],
    },
    'mcp_tool_overrides[0].action',
  ],
];

describe(`access profile templates (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;

  beforeAll(async () => {
    gw = await startTestApp({ config: ENTERPRISE_CONFIG });
    admin = adminClient(gw);
    // A referenced tool group must exist (400 naming it otherwise).
    const group = [{ tool_group_id: await createToolGroup(admin, 'g1') }];
    EVERY_FIELD.mcp_tool_groups = group;
    EVERY_FIELD_STORED.mcp_tool_groups = group;
  });
  afterAll(() => gw?.close());

  const versions = async (id: number) => {
    const res = await admin.get(`${PROFILES}/${id}/versions`);
    expect(res.status, res.text).toBe(200);
    return res.body.versions as any[];
  };

  it('creates with defaults, stores version 1 and shows it', async () => {
    const res = await admin.post(PROFILES, { name: '  defaults  ' });
    expect(res.status, res.text).toBe(201);
    const p = res.body.access_profile;
    expect(p).toEqual({
      id: expect.any(Number),
      name: 'defaults',
      description: '',
      is_active: true,
      version: 1,
      tags: [],
      provider_configs: [],
      budgets: [],
      rate_limit: null,
      calendar_aligned: false,
      mcp_tool_groups: [],
      mcp_servers: [],
      mcp_tool_overrides: [],
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const detail = await admin.get(`${PROFILES}/${p.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({ access_profile: p, roles: [], user_count: 0 });

    const [v1, ...rest] = await versions(p.id);
    expect(rest).toEqual([]);
    expect(v1).toEqual({
      id: expect.any(Number),
      access_profile_id: p.id,
      version: 1,
      name: 'defaults',
      description: '',
      snapshot: JSON.stringify(p),
      changed_by: 'admin',
      created_at: expect.stringMatching(RFC3339_UTC),
    });
  });

  it('creates with every field, filling the defaults of nested entries', async () => {
    const p = await createProfile(admin, EVERY_FIELD);
    expect(p).toMatchObject(EVERY_FIELD_STORED);
    expect((await admin.get(`${PROFILES}/${p.id}`)).body.access_profile).toEqual(p);
    expect(JSON.parse((await versions(p.id))[0].snapshot)).toEqual(p);
  });

  it.each(INVALID)('refuses %s with 400 naming the field, writing nothing', async (_case, body, param) => {
    const before = await count(gw, 'access_profiles');
    const create = await admin.post(PROFILES, { name: 'invalid', ...body });
    expectError(create, 400, 'validation_failed', param);
    expect(await count(gw, 'access_profiles')).toBe(before);

    // The same body on an update: 400 naming the same field, the template and its versions unchanged.
    const target = await createProfile(admin, { name: `target ${param} ${_case}`.slice(0, 255) });
    const update = await admin.put(`${PROFILES}/${target.id}`, body);
    expectError(update, 400, 'validation_failed', param);
    expect((await admin.get(`${PROFILES}/${target.id}`)).body.access_profile).toEqual(target);
    expect(await versions(target.id)).toHaveLength(1);
    expect((await admin.delete(`${PROFILES}/${target.id}`)).status).toBe(200);
  });

  it('refuses a missing name and a taken one', async () => {
    expectError(await admin.post(PROFILES, {}), 400, 'validation_failed', 'name');
    await createProfile(admin, { name: 'taken' });
    expectError(await admin.post(PROFILES, { name: 'taken' }), 409, 'already_exists', 'name');
  });

  it('updates partially: omitted fields kept, null clears rate_limit, a version per update', async () => {
    const p = await createProfile(admin, { ...EVERY_FIELD, name: 'partial' });
    const res = await admin.put(`${PROFILES}/${p.id}`, {
      description: 'changed',
      rate_limit: null,
      budgets: [{ max_limit: 50, reset_duration: '1d' }],
    });
    expect(res.status, res.text).toBe(200);
    const v2 = res.body.access_profile;
    expect(v2).toEqual({
      ...p,
      description: 'changed',
      rate_limit: null,
      budgets: [{ max_limit: 50, reset_duration: '1d', scope: 'total' }],
      version: 2,
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    expect((await admin.get(`${PROFILES}/${p.id}`)).body.access_profile).toEqual(v2);

    // An omitted rate_limit is kept; a new one is validated against the rest of the stored fields.
    const rateLimited = await admin.put(`${PROFILES}/${p.id}`, {
      rate_limit: { request_max_limit: 3, request_reset_duration: '1m' },
    });
    expect(rateLimited.body.access_profile).toMatchObject({ version: 3, description: 'changed' });
    const kept = await admin.put(`${PROFILES}/${p.id}`, { name: 'renamed', tags: [] });
    expect(kept.status).toBe(200);
    const v4 = kept.body.access_profile;
    expect(v4).toMatchObject({ name: 'renamed', tags: [], version: 4 });
    expect(v4.rate_limit).toEqual(rateLimited.body.access_profile.rate_limit);
    // A scoped budget needs its provider among the stored configs: dropping the config breaks it.
    expectError(
      await admin.put(`${PROFILES}/${p.id}`, {
        provider_configs: [{ provider_name: 'openai' }],
        budgets: [{ max_limit: 1, reset_duration: '1d', scope: 'provider:anthropic' }],
      }),
      400,
      'validation_failed',
      'budgets[0].scope',
    );
    // An empty update is an update too.
    expect((await admin.put(`${PROFILES}/${p.id}`, {})).body.access_profile.version).toBe(5);

    const list = await versions(p.id);
    expect(list.map((v) => [v.version, v.name, v.description])).toEqual([
      [1, 'partial', 'every field set'],
      [2, 'partial', 'changed'],
      [3, 'partial', 'changed'],
      [4, 'renamed', 'changed'],
      [5, 'renamed', 'changed'],
    ]);
    const snapshot2 = JSON.parse(list[1].snapshot);
    expect(snapshot2).toEqual(v2);
    expect(JSON.parse(list[3].snapshot)).toEqual(v4);
    const one = await admin.get(`${PROFILES}/${p.id}/versions/2`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ version: list[1] });
    const stored = await sql(
      gw,
      'SELECT version, changed_by FROM access_profile_versions WHERE access_profile_id = $1 ORDER BY version',
      [p.id],
    );
    expect(stored).toEqual(list.map((v) => ({ version: v.version, changed_by: 'admin' })));
  });

  it('refuses renaming onto a taken name, and unknown profiles', async () => {
    const a = await createProfile(admin, { name: 'first name' });
    await createProfile(admin, { name: 'second name' });
    expectError(await admin.put(`${PROFILES}/${a.id}`, { name: 'second name' }), 409, 'already_exists', 'name');
    expect(await versions(a.id)).toHaveLength(1);
    for (const id of ['999999', 'abc', '0', '99999999999']) {
      expectError(await admin.put(`${PROFILES}/${id}`, { description: 'x' }), 404, 'access_profile_not_found');
      expectError(await admin.delete(`${PROFILES}/${id}`), 404, 'access_profile_not_found');
      expectError(await admin.put(`${PROFILES}/${id}/activate`), 404, 'access_profile_not_found');
      expectError(await admin.put(`${PROFILES}/${id}/deactivate`), 404, 'access_profile_not_found');
      expectError(await admin.post(`${PROFILES}/${id}/clone`, { name: `c${id}` }), 404, 'access_profile_not_found');
      expectError(await admin.get(`${PROFILES}/${id}/versions`), 404, 'access_profile_not_found');
      expectError(await admin.get(`${PROFILES}/${id}/versions/1`), 404, 'access_profile_not_found');
    }
    for (const version of ['2', '0', 'x', '99999999999']) {
      expectError(await admin.get(`${PROFILES}/${a.id}/versions/${version}`), 404, 'access_profile_version_not_found');
    }
  });

  it('deletes a template with its versions, but not while a user holds a copy', async () => {
    const p = await createProfile(admin, { name: 'held', provider_configs: [{ provider_name: 'openai' }] });
    await admin.put(`${PROFILES}/${p.id}`, { description: 'v2' });
    const userId = await createUser(admin);
    await assignProfile(admin, userId, p.id);
    const refused = await admin.delete(`${PROFILES}/${p.id}`);
    expectError(refused, 409, 'in_use');
    expect(refused.body.error.message).toContain('1 user(s)');
    expect((await admin.get(`${PROFILES}/${p.id}`)).body.user_count).toBe(1);
    expect(await versions(p.id)).toHaveLength(2);

    // The copy goes with its user; then the template can go.
    expect((await admin.delete(`/api/governance/users/${userId}`)).status).toBe(200);
    const res = await admin.delete(`${PROFILES}/${p.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: 'Access profile deleted' });
    expectError(await admin.get(`${PROFILES}/${p.id}`), 404, 'access_profile_not_found');
    const left = await sql(gw, 'SELECT count(*)::int AS n FROM access_profile_versions WHERE access_profile_id = $1', [
      p.id,
    ]);
    expect(left[0].n).toBe(0);
    expectError(await admin.delete(`${PROFILES}/${p.id}`), 404, 'access_profile_not_found');
  });

  it('activates and deactivates idempotently, keeping copies; a change of state is a version', async () => {
    const p = await createProfile(admin, { name: 'toggled' });
    const userId = await createUser(admin);
    await assignProfile(admin, userId, p.id);

    const off = await admin.put(`${PROFILES}/${p.id}/deactivate`);
    expect(off.status, off.text).toBe(200);
    expect(off.body.message).toBe('Access profile deactivated');
    expect(off.body.access_profile).toMatchObject({ id: p.id, is_active: false, version: 2 });
    const again = await admin.put(`${PROFILES}/${p.id}/deactivate`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(off.body);
    // Copies stay; an inactive template cannot be assigned.
    expect((await admin.get(`${PROFILES}/${p.id}`)).body.user_count).toBe(1);
    expect(await count(gw, `access_profile_copies WHERE parent_profile_id = ${p.id}`)).toBe(1);
    const other = await createUser(admin);
    expectError(
      await admin.post(`/api/governance/users/${other}/access-profiles`, { profile_id: p.id }),
      400,
      'validation_failed',
      'profile_id',
    );

    const on = await admin.put(`${PROFILES}/${p.id}/activate`);
    expect(on.body).toMatchObject({ message: 'Access profile activated', access_profile: { is_active: true } });
    expect(on.body.access_profile.version).toBe(3);
    expect((await admin.put(`${PROFILES}/${p.id}/activate`)).body.access_profile.version).toBe(3);
    expect((await versions(p.id)).map((v) => JSON.parse(v.snapshot).is_active)).toEqual([true, false, true]);
    await assignProfile(admin, other, p.id);
  });

  it('clones fields and tags under a new name at version 1, without copies', async () => {
    const source = await createProfile(admin, { ...EVERY_FIELD, name: 'clone source' });
    await admin.put(`${PROFILES}/${source.id}`, { description: 'source v2' });
    const userId = await createUser(admin);
    await admin.put(`${PROFILES}/${source.id}/activate`);
    await assignProfile(admin, userId, source.id);

    const res = await admin.post(`${PROFILES}/${source.id}/clone`, { name: 'the clone' });
    expect(res.status, res.text).toBe(201);
    const clone = res.body.access_profile;
    const { id, name, description, version, created_at, updated_at, ...fields } = clone;
    const current = (await admin.get(`${PROFILES}/${source.id}`)).body.access_profile;
    expect(fields).toEqual({
      is_active: current.is_active,
      tags: current.tags,
      provider_configs: current.provider_configs,
      budgets: current.budgets,
      rate_limit: current.rate_limit,
      calendar_aligned: current.calendar_aligned,
      mcp_tool_groups: current.mcp_tool_groups,
      mcp_servers: current.mcp_servers,
      mcp_tool_overrides: current.mcp_tool_overrides,
    });
    expect(id).not.toBe(source.id);
    expect({ name, description, version }).toEqual({ name: 'the clone', description: 'source v2', version: 1 });
    expect(await admin.get(`${PROFILES}/${id}`).then((r) => r.body)).toMatchObject({ roles: [], user_count: 0 });
    expect(await versions(id)).toMatchObject([{ version: 1, name: 'the clone', changed_by: 'admin' }]);
    expect(created_at).toMatch(RFC3339_UTC);
    expect(updated_at).toMatch(RFC3339_UTC);

    const described = await admin.post(`${PROFILES}/${source.id}/clone`, { name: 'clone 2', description: 'mine' });
    expect(described.body.access_profile).toMatchObject({ name: 'clone 2', description: 'mine' });
    expectError(
      await admin.post(`${PROFILES}/${source.id}/clone`, { name: 'the clone' }),
      409,
      'already_exists',
      'name',
    );
    expectError(await admin.post(`${PROFILES}/${source.id}/clone`, {}), 400, 'validation_failed', 'name');
    expectError(
      await admin.post(`${PROFILES}/${source.id}/clone`, { name: 'x', tags: [] }),
      400,
      'validation_failed',
      'tags',
    );
  });

  it('answers versions on the deprecated path with Deprecation and Link', async () => {
    const p = await createProfile(admin, { name: 'old path' });
    await admin.put(`${PROFILES}/${p.id}`, { tags: ['x'] });
    const res = await admin.get(`/api/access-profiles/${p.id}/versions`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ versions: await versions(p.id) });
    expect(res.body.versions).toHaveLength(2);
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toBe(`</api/governance/access-profiles/${p.id}/versions>; rel="successor-version"`);
    const missing = await admin.get('/api/access-profiles/999999/versions');
    expectError(missing, 404, 'access_profile_not_found');
    expect(missing.headers.get('deprecation')).toBe('true');
    const current = await admin.get(`${PROFILES}/${p.id}/versions`);
    expect(current.headers.get('deprecation')).toBeNull();
  });

  it('records every template action in the audit log', async () => {
    const p = await createProfile(admin, { name: 'audited' });
    await admin.put(`${PROFILES}/${p.id}`, { description: 'x' });
    await admin.put(`${PROFILES}/${p.id}/deactivate`);
    await admin.put(`${PROFILES}/${p.id}/activate`);
    const clone = (await admin.post(`${PROFILES}/${p.id}/clone`, { name: 'audited clone' })).body.access_profile;
    await admin.delete(`${PROFILES}/${clone.id}`);
    const res = await admin.get('/api/audit-logs', { query: { limit: 1000 } });
    expect(res.status, res.text).toBe(200);
    const rows = (res.body.audit_logs as any[])
      .filter((r) => r.route.startsWith(PROFILES))
      .map((r) => `${r.method} ${r.path} ${r.permission} ${r.status_code} ${r.actor}`);
    expect(rows).toEqual(
      expect.arrayContaining([
        `POST ${PROFILES} AccessProfiles:Create 201 admin`,
        `PUT ${PROFILES}/${p.id} AccessProfiles:Update 200 admin`,
        `PUT ${PROFILES}/${p.id}/deactivate AccessProfiles:Update 200 admin`,
        `PUT ${PROFILES}/${p.id}/activate AccessProfiles:Update 200 admin`,
        `POST ${PROFILES}/${p.id}/clone AccessProfiles:Create 201 admin`,
        `DELETE ${PROFILES}/${clone.id} AccessProfiles:Delete 200 admin`,
      ]),
    );
  });

  describe('list', () => {
    let ids: Record<string, number>;
    const names = (res: { body: any }) => (res.body.access_profiles as any[]).map((p) => p.name);

    beforeAll(async () => {
      // Its own names, so the other tests' templates are told apart by the `lst-` search.
      ids = {};
      for (const [name, body] of [
        ['lst-alpha', { description: 'The FIRST one', tags: ['red', 'blue'] }],
        ['lst-beta', { description: 'second', tags: ['blue'], is_active: false }],
        ['lst-gamma', { description: '100%_done', tags: ['green'] }],
        ['lst-delta', { description: '', tags: [] }],
      ] as const) {
        ids[name] = (await createProfile(admin, { name, ...body })).id;
      }
    });

    const list = (query: Record<string, string | number | boolean>) => admin.get(PROFILES, { query });

    it('pages by id with counts', async () => {
      const all = await list({ search: 'lst-' });
      expect(all.status, all.text).toBe(200);
      expect(all.body).toMatchObject({ count: 4, total_count: 4, limit: 50, offset: 0 });
      expect(names(all)).toEqual(['lst-alpha', 'lst-beta', 'lst-gamma', 'lst-delta']);
      expect(all.body.access_profiles[0]).toEqual(
        (await admin.get(`${PROFILES}/${ids['lst-alpha']}`)).body.access_profile,
      );
      const page = await list({ search: 'lst-', limit: 2, offset: 1 });
      expect(page.body).toMatchObject({ count: 2, total_count: 4, limit: 2, offset: 1 });
      expect(names(page)).toEqual(['lst-beta', 'lst-gamma']);
      const past = await list({ search: 'lst-', offset: 10 });
      expect(past.body).toMatchObject({ access_profiles: [], count: 0, total_count: 4 });
      const everything = await list({ limit: 1000 });
      const everyId = (everything.body.access_profiles as any[]).map((p) => p.id);
      expect(everyId).toEqual([...everyId].sort((a, b) => a - b));
      expect(everything.body.total_count).toBe(await count(gw, 'access_profiles'));
    });

    it('filters by search (name or description, any case, literal), tags (any) and is_active', async () => {
      expect(names(await list({ search: 'LST-GA' }))).toEqual(['lst-gamma']);
      expect(names(await list({ search: 'first ONE' }))).toEqual(['lst-alpha']);
      expect(names(await list({ search: '0%_' }))).toEqual(['lst-gamma']);
      expect(names(await list({ search: '%' }))).toEqual(['lst-gamma']);
      expect(names(await list({ search: 'lst-', tags: 'blue' }))).toEqual(['lst-alpha', 'lst-beta']);
      expect(names(await list({ search: 'lst-', tags: 'green, red' }))).toEqual(['lst-alpha', 'lst-gamma']);
      expect(names(await list({ search: 'lst-', tags: 'BLUE' }))).toEqual([]);
      expect(names(await list({ search: 'lst-', is_active: false }))).toEqual(['lst-beta']);
      expect(names(await list({ search: 'lst-', is_active: true, tags: 'blue' }))).toEqual(['lst-alpha']);
      const filtered = await list({ search: 'lst-', is_active: true, limit: 1 });
      expect(filtered.body).toMatchObject({ count: 1, total_count: 3 });
    });

    it.each([
      ['limit', '0'],
      ['limit', '1001'],
      ['limit', 'ten'],
      ['offset', '-1'],
      ['offset', '1.5'],
      ['is_active', 'yes'],
      ['search', 's'.repeat(257)],
      ['tags', 't'.repeat(8193)],
      ['unknown', '1'],
    ])('refuses a bad %s with 400 naming it', async (param, value) => {
      expectError(await list({ [param]: value }), 400, 'validation_failed', param);
    });
  });
});

describe(`access profile routes in the open-source edition (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: OSS_CONFIG });
  });
  afterAll(() => gw?.close());

  it('answers 404 enterprise_only on every access profile route', async () => {
    const api = ossClient(gw);
    const answers = [
      await api.get(PROFILES),
      await api.post(PROFILES, { name: 'x' }),
      await api.get(`${PROFILES}/1`),
      await api.put(`${PROFILES}/1`, { name: 'x' }),
      await api.delete(`${PROFILES}/1`),
      await api.put(`${PROFILES}/1/activate`),
      await api.put(`${PROFILES}/1/deactivate`),
      await api.post(`${PROFILES}/1/clone`, { name: 'y' }),
      await api.get(`${PROFILES}/1/versions`),
      await api.get(`${PROFILES}/1/versions/1`),
      await api.get('/api/access-profiles/1/versions'),
      await api.post('/api/governance/users/3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11/access-profiles', { profile_id: 1 }),
    ];
    for (const res of answers) expectError(res, 404, 'enterprise_only');
    expect(await count(gw, 'access_profiles')).toBe(0);
  });
});
