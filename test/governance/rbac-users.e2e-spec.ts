import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/core/auth/permissions.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  adminClient,
  bearerClient,
  ENTERPRISE_CONFIG,
  expectError,
  OSS_CONFIG,
  ossClient,
  RFC3339_UTC,
  sql,
  UUID,
} from './governance-test-kit.js';

const ROLES = '/api/governance/rbac/roles';
const USERS = '/api/governance/users';

describe(`RBAC roles and users (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  beforeAll(async () => {
    gw = await startTestApp({ config: OSS_CONFIG });
    api = ossClient(gw);
  });
  afterAll(() => gw?.close());

  it('seeds the built-in roles with their permission sets', async () => {
    const res = await api.get(ROLES);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    const byName = Object.fromEntries(res.body.roles.map((r: any) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['admin', 'developer', 'viewer']);
    for (const role of res.body.roles) {
      expect(role).toMatchObject({ is_builtin: true });
      expect(role.id).toMatch(UUID);
      expect(role.created_at).toMatch(RFC3339_UTC);
    }
    expect(byName.admin.permissions).toEqual([...ALL_PERMISSIONS].sort());
    expect(byName.viewer.permissions).toEqual(ALL_PERMISSIONS.filter((p) => p.endsWith(':View')).sort());
    const dev: string[] = byName.developer.permissions;
    expect(dev).toContain('AgentGateway:Create');
    expect(dev).toContain('Settings:View');
    expect(dev).not.toContain('Settings:Update');
    for (const p of ['RBAC:View', 'Users:Create', 'APIKeys:View', 'AuditLogs:View']) expect(dev).not.toContain(p);
    expect(dev).toHaveLength(ALL_PERMISSIONS.length - 4 * 4 - 1);
  });

  it('built-in roles cannot be changed or deleted', async () => {
    const admin = (await api.get(ROLES)).body.roles.find((r: any) => r.name === 'admin');
    expectError(await api.delete(`${ROLES}/${admin.id}`), 403, 'permission_denied');
    expectError(await api.put(`${ROLES}/${admin.id}`, { permissions: ['Logs:View'] }), 403, 'permission_denied');
    const after = await api.get(`${ROLES}/${admin.id}`);
    expect(after.status).toBe(200);
    expect(after.body.permissions).toHaveLength(ALL_PERMISSIONS.length);
  });

  it('creates, reads, updates and deletes a custom role', async () => {
    const created = await api.post(ROLES, {
      name: 'agent-operator',
      description: 'Runs agents',
      permissions: ['AgentGateway:View', 'AgentGateway:Create', 'AgentGateway:View'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'agent-operator',
      description: 'Runs agents',
      permissions: ['AgentGateway:Create', 'AgentGateway:View'],
      is_builtin: false,
    });
    const id = created.body.id;
    expect(id).toMatch(UUID);
    const [row] = await sql(gw, 'SELECT permissions FROM roles WHERE id = $1', [id]);
    // Stored as (resource, operation) pairs, not merged strings.
    expect(row.permissions).toEqual(expect.arrayContaining([{ resource: 'AgentGateway', operation: 'Create' }]));

    expect((await api.get(`${ROLES}/${id}`)).body.name).toBe('agent-operator');
    const updated = await api.put(`${ROLES}/${id}`, { permissions: ['Logs:View'], description: 'Reads logs' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'agent-operator',
      description: 'Reads logs',
      permissions: ['Logs:View'],
    });
    expect((await api.get(ROLES)).body.count).toBe(4);

    const deleted = await api.delete(`${ROLES}/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toEqual(expect.any(String));
    expectError(await api.get(`${ROLES}/${id}`), 404, 'role_not_found');
    expectError(await api.delete(`${ROLES}/${id}`), 404, 'role_not_found');
    expectError(await api.get(`${ROLES}/not-a-uuid`), 404, 'role_not_found');
  });

  it('validates roles: unknown permission, missing fields, duplicate name', async () => {
    expectError(
      await api.post(ROLES, { name: 'x', permissions: ['Logs:View', 'Logs:Destroy'] }),
      400,
      'validation_failed',
      'permissions[1]',
    );
    expectError(
      await api.post(ROLES, { name: 'x', permissions: ['Nope:View'] }),
      400,
      'validation_failed',
      'permissions[0]',
    );
    expectError(await api.post(ROLES, { name: 'x', permissions: [7] }), 400, 'validation_failed', 'permissions[0]');
    expectError(await api.post(ROLES, { permissions: [] }), 400, 'validation_failed', 'name');
    expectError(await api.post(ROLES, { name: 'x' }), 400, 'validation_failed', 'permissions');
    expectError(await api.post(ROLES, { name: 'x', permissions: [], extra: 1 }), 400, 'validation_failed', 'extra');
    expectError(await api.post(ROLES, { name: 'admin', permissions: [] }), 409, 'already_exists', 'name');
    const a = await api.post(ROLES, { name: 'dup-a', permissions: [] });
    expect(a.status).toBe(201);
    const b = await api.post(ROLES, { name: 'dup-b', permissions: [] });
    expectError(await api.put(`${ROLES}/${b.body.id}`, { name: 'dup-a' }), 409, 'already_exists');
    expectError(
      await api.put(`${ROLES}/${a.body.id}`, { permissions: ['x'] }),
      400,
      'validation_failed',
      'permissions[0]',
    );
    // Nothing was written by the failures.
    expect((await api.get(`${ROLES}/${a.body.id}`)).body.permissions).toEqual([]);
    const names = (await sql(gw, 'SELECT name FROM roles ORDER BY name')).map((r) => r.name);
    expect(names).toEqual(['admin', 'developer', 'dup-a', 'dup-b', 'viewer']);
  });

  it('users: CRUD, password write-only and stored as an scrypt hash', async () => {
    const viewer = (await api.get(ROLES)).body.roles.find((r: any) => r.name === 'viewer');
    const created = await api.post(USERS, {
      name: 'Ada',
      email: 'Ada@Example.com',
      role_id: viewer.id,
      password: 'correct horse battery',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(
      ['created_at', 'email', 'id', 'name', 'role_id', 'team_id', 'updated_at'].sort(),
    );
    expect(created.body).toMatchObject({ name: 'Ada', email: 'ada@example.com', role_id: viewer.id, team_id: null });
    expect(created.text).not.toContain('correct horse battery');
    expect(created.text).not.toContain('password');
    const id = created.body.id;

    const [row] = await sql(gw, 'SELECT password_hash FROM users WHERE id = $1', [id]);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(row.password_hash).not.toContain('correct horse battery');

    const list = await api.get(USERS);
    expect(list.body).toMatchObject({ count: 1, users: [{ id, email: 'ada@example.com' }] });
    expect(list.text).not.toContain('password');
    expect((await api.get(`${USERS}/${id}`)).text).not.toContain('scrypt');

    const team = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';
    const updated = await api.put(`${USERS}/${id}`, { name: 'Ada L.', team_id: team, password: 'another password' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Ada L.', team_id: team, email: 'ada@example.com' });
    const [row2] = await sql(gw, 'SELECT password_hash FROM users WHERE id = $1', [id]);
    expect(row2.password_hash).not.toBe(row.password_hash);
    expect((await api.put(`${USERS}/${id}`, { team_id: null })).body.team_id).toBeNull();

    // A role held by a user cannot be deleted.
    const custom = await api.post(ROLES, { name: 'held', permissions: ['Logs:View'] });
    await api.put(`${USERS}/${id}`, { role_id: custom.body.id });
    expectError(await api.delete(`${ROLES}/${custom.body.id}`), 409, 'in_use');

    expect((await api.delete(`${USERS}/${id}`)).status).toBe(200);
    expectError(await api.get(`${USERS}/${id}`), 404, 'user_not_found');
    expectError(await api.put(`${USERS}/${id}`, { name: 'x' }), 404, 'user_not_found');
    expect((await api.delete(`${ROLES}/${custom.body.id}`)).status).toBe(200);
  });

  it('validates users: role must exist, email format and uniqueness, password length', async () => {
    const viewer = (await api.get(ROLES)).body.roles.find((r: any) => r.name === 'viewer');
    const base = { name: 'Bob', email: 'bob@example.com', role_id: viewer.id };
    expectError(
      await api.post(USERS, { ...base, role_id: '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11' }),
      400,
      'validation_failed',
      'role_id',
    );
    expectError(await api.post(USERS, { ...base, role_id: 'nope' }), 400, 'validation_failed', 'role_id');
    expectError(await api.post(USERS, { ...base, email: 'not-an-email' }), 400, 'validation_failed', 'email');
    expectError(await api.post(USERS, { ...base, password: 'short' }), 400, 'validation_failed', 'password');
    expectError(await api.post(USERS, { ...base, team_id: 'team-1' }), 400, 'validation_failed', 'team_id');
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM users'))[0].n).toBe(0);

    expect((await api.post(USERS, base)).status).toBe(201);
    expectError(await api.post(USERS, { ...base, email: 'BOB@example.com' }), 409, 'already_exists', 'email');
    const other = await api.post(USERS, { ...base, email: 'other@example.com' });
    expectError(await api.put(`${USERS}/${other.body.id}`, { email: 'bob@example.com' }), 409, 'already_exists');
    expectError(
      await api.put(`${USERS}/${other.body.id}`, { role_id: '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11' }),
      400,
      'validation_failed',
      'role_id',
    );
  });

  it('pages users oldest first, searches names and emails, filters by role; roles count their holders', async () => {
    const role = (await api.post(ROLES, { name: 'pager', permissions: ['Logs:View'] })).body;
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) {
      const made = await api.post(USERS, { name: `Pager ${n}`, email: `pager-${n}@Paged.test`, role_id: role.id });
      expect(made.status).toBe(201);
      ids.push(made.body.id);
    }
    const page = await api.get(`${USERS}?role_id=${role.id}&limit=2&offset=1`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ count: 2, total_count: 5 });
    expect(page.body.users.map((u: any) => u.id)).toEqual(ids.slice(1, 3));
    const byEmail = await api.get(`${USERS}?search=PAGED.TEST&limit=50`);
    expect(byEmail.body.total_count).toBe(5);
    expect(
      (await api.get(`${USERS}?search=${encodeURIComponent('pager 4')}`)).body.users.map((u: any) => u.id),
    ).toEqual([ids[3]]);
    // `%` and `_` are the text typed, not patterns.
    expect((await api.get(`${USERS}?search=${encodeURIComponent('pager%')}`)).body).toMatchObject({
      count: 0,
      total_count: 0,
    });
    // Without `limit`, every user, as before paging existed.
    const whole = await api.get(USERS);
    const [{ n: stored }] = await sql(gw, 'SELECT count(*)::int AS n FROM users');
    expect(whole.body).toMatchObject({ count: stored, total_count: stored });
    expectError(await api.get(`${USERS}?limit=0`), 400, 'validation_failed', 'limit');
    expectError(await api.get(`${USERS}?limit=ten`), 400, 'validation_failed', 'limit');
    expectError(await api.get(`${USERS}?role_id=nope`), 400, 'validation_failed', 'role_id');

    const roles = (await api.get(ROLES)).body.roles;
    const held = await sql(gw, 'SELECT role_id, count(*)::int AS n FROM users GROUP BY role_id');
    expect(roles.find((r: any) => r.id === role.id).user_count).toBe(5);
    for (const r of roles) expect(r.user_count).toBe(held.find((h: any) => h.role_id === r.id)?.n ?? 0);
    for (const id of ids) expect((await api.delete(`${USERS}/${id}`)).status).toBe(200);
    expect((await api.get(ROLES)).body.roles.find((r: any) => r.id === role.id).user_count).toBe(0);
  });

  it('GET /users/me/permissions: the setup caller holds everything in oss', async () => {
    const res = await api.get(`${USERS}/me/permissions`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      principal: { kind: 'setup', auth_method: 'setup_token', id: null, name: 'setup' },
      permissions: [...ALL_PERMISSIONS].sort(),
      is_admin: true,
    });
  });

  it('management routes refuse callers without credentials', async () => {
    expect((await gw.http.get(ROLES)).status).toBe(401);
    expect((await gw.http.get(USERS)).status).toBe(401);
    expect((await gw.http.get(`${USERS}/me/permissions`)).status).toBe(401);
  });
});

describe(`users signing in, enterprise edition (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  beforeAll(async () => {
    gw = await startTestApp({ config: ENTERPRISE_CONFIG });
    admin = adminClient(gw);
  });
  afterAll(() => gw?.close());

  it('a user logs in with email and password and holds its role’s permissions, re-read on every request', async () => {
    const roles = (await admin.get(ROLES)).body.roles;
    const viewer = roles.find((r: any) => r.name === 'viewer');
    const developer = roles.find((r: any) => r.name === 'developer');
    const user = await admin.post(USERS, {
      name: 'Grace',
      email: 'grace@example.com',
      role_id: viewer.id,
      password: 'grace-password-1',
    });
    expect(user.status).toBe(201);

    expectError(
      await gw.http.post('/api/session/login', { username: 'grace@example.com', password: 'wrong-password' }),
      401,
      'invalid_credentials',
    );
    expectError(
      await gw.http.post('/api/session/login', { username: 'nobody@example.com', password: 'grace-password-1' }),
      401,
      'invalid_credentials',
    );
    const login = await gw.http.post('/api/session/login', {
      username: 'Grace@Example.com',
      password: 'grace-password-1',
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const grace = bearerClient(gw, login.body.token);

    const mine = await grace.get(`${USERS}/me/permissions`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      principal: { kind: 'user', auth_method: 'session', id: user.body.id, name: user.body.name },
      permissions: viewer.permissions,
      is_admin: false,
    });
    expect((await grace.get(ROLES)).status).toBe(200);
    expectError(await grace.post(ROLES, { name: 'nope', permissions: [] }), 403, 'permission_denied');

    // The role changes: the next request sees the new permissions; RBAC:View is gone for a developer.
    expect((await admin.put(`${USERS}/${user.body.id}`, { role_id: developer.id })).status).toBe(200);
    expect((await grace.get(`${USERS}/me/permissions`)).body.permissions).toEqual(developer.permissions);
    expectError(await grace.get(ROLES), 403, 'permission_denied');

    // A deleted user's session stops working.
    expect((await admin.delete(`${USERS}/${user.body.id}`)).status).toBe(200);
    expect((await grace.get(`${USERS}/me/permissions`)).status).toBe(401);
    expect(gw.logs.text()).not.toContain('grace-password-1');
  });
});
