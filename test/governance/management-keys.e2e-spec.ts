import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

const KEYS = '/api/management-keys';
const ROLES = '/api/governance/rbac/roles';
const USERS = '/api/governance/users';
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();

describe(`management API keys, open-source edition (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  beforeAll(async () => {
    gw = await startTestApp({ config: OSS_CONFIG });
    api = ossClient(gw);
  });
  afterAll(() => gw?.close());

  it('CRUD; the value is shown once and stored only as its SHA-256', async () => {
    const expires_at = inOneDay();
    const created = await api.post(KEYS, { name: 'ci', scopes: ['Logs:View', 'AgentGateway:Create'], expires_at });
    expect(created.status).toBe(201);
    const { value, id } = created.body;
    expect(value).toMatch(/^gwm_[A-Za-z0-9]{40}$/);
    expect(id).toMatch(UUID);
    expect(created.body).toMatchObject({
      name: 'ci',
      scopes: ['AgentGateway:Create', 'Logs:View'],
      expires_at: new Date(expires_at).toISOString(),
      last_used_at: null,
    });
    expect(created.body.created_at).toMatch(RFC3339_UTC);

    const got = await api.get(`${KEYS}/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.value).toBeUndefined();
    expect(got.text).not.toContain(value);
    const list = await api.get(KEYS);
    expect(list.body).toMatchObject({ count: 1, management_keys: [{ id, name: 'ci' }] });
    expect(list.text).not.toContain(value);

    const rows = await sql(gw, 'SELECT * FROM management_keys WHERE id = $1', [id]);
    expect(rows[0].key_hash).toBe(sha256(value));
    expect(JSON.stringify(rows)).not.toContain(value.slice(4));

    const updated = await api.put(`${KEYS}/${id}`, { name: 'ci-2', scopes: ['Logs:View'], expires_at: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'ci-2', scopes: ['Logs:View'], expires_at: null });
    expect(updated.body.value).toBeUndefined();

    expect((await api.delete(`${KEYS}/${id}`)).status).toBe(200);
    expectError(await api.get(`${KEYS}/${id}`), 404, 'management_key_not_found');
    expectError(await api.delete(`${KEYS}/${id}`), 404, 'management_key_not_found');
    expectError(await api.put(`${KEYS}/nope`, { name: 'x' }), 404, 'management_key_not_found');
    expect(gw.logs.text()).not.toContain(value);
  });

  it('validates keys', async () => {
    expectError(await api.post(KEYS, { scopes: [] }), 400, 'validation_failed', 'name');
    expectError(await api.post(KEYS, { name: 'k' }), 400, 'validation_failed', 'scopes');
    expectError(await api.post(KEYS, { name: 'k', scopes: 'Logs:View' }), 400, 'validation_failed', 'scopes');
    expectError(
      await api.post(KEYS, { name: 'k', scopes: ['Logs:View', 'Logs:Read'] }),
      400,
      'validation_failed',
      'scopes[1]',
    );
    expectError(
      await api.post(KEYS, { name: 'k', scopes: [], expires_at: '2020-01-01T00:00:00Z' }),
      400,
      'validation_failed',
      'expires_at',
    );
    expectError(
      await api.post(KEYS, { name: 'k', scopes: [], expires_at: 'tomorrow' }),
      400,
      'validation_failed',
      'expires_at',
    );
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM management_keys'))[0].n).toBe(0);
  });

  it('in oss a key may carry any scope (scopes are not enforced)', async () => {
    const created = await api.post(KEYS, { name: 'all', scopes: [...ALL_PERMISSIONS] });
    expect(created.status).toBe(201);
    expect(created.body.scopes).toHaveLength(ALL_PERMISSIONS.length);
  });
});

describe(`management API keys and escalation, enterprise edition (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  let limited: HttpClient;
  let limitedKey: { id: string; value: string };
  const LIMITED_SCOPES = [
    'APIKeys:Create',
    'APIKeys:Update',
    'APIKeys:View',
    'RBAC:Create',
    'RBAC:Update',
    'RBAC:View',
    'Users:Create',
    'Users:Update',
    'VirtualKeys:View',
  ];
  beforeAll(async () => {
    gw = await startTestApp({ config: ENTERPRISE_CONFIG });
    admin = adminClient(gw);
    const res = await admin.post(KEYS, { name: 'limited', scopes: LIMITED_SCOPES });
    expect(res.status).toBe(201);
    limitedKey = res.body;
    limited = bearerClient(gw, limitedKey.value);
  });
  afterAll(() => gw?.close());

  it('the admin may grant anything; me/permissions tells admin from key', async () => {
    const me = await admin.get(`${USERS}/me/permissions`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      principal: { kind: 'local_admin', auth_method: 'basic', id: 'admin', name: 'admin' },
      permissions: [...ALL_PERMISSIONS].sort(),
      is_admin: true,
    });
    const mine = await limited.get(`${USERS}/me/permissions`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      principal: { kind: 'management_key', auth_method: 'management_key', id: limitedKey.id, name: 'limited' },
      permissions: [...LIMITED_SCOPES].sort(),
      is_admin: false,
    });
  });

  it('a key authenticates, and its use is recorded in last_used_at', async () => {
    expect((await limited.get(KEYS)).status).toBe(200);
    await vi.waitFor(
      async () => {
        const got = await admin.get(`${KEYS}/${limitedKey.id}`);
        expect(got.body.last_used_at).toMatch(RFC3339_UTC);
      },
      { timeout: 3000, interval: 50 },
    );
  });

  it('key scopes are clamped to the creator’s own permissions', async () => {
    const ok = await limited.post(KEYS, { name: 'narrower', scopes: ['VirtualKeys:View'] });
    expect(ok.status).toBe(201);
    const denied = await limited.post(KEYS, { name: 'wider', scopes: ['VirtualKeys:View', 'VirtualKeys:Delete'] });
    expectError(denied, 403, 'permission_denied');
    expect(denied.body.error.message).toContain('VirtualKeys:Delete');
    expectError(
      await limited.post(KEYS, { name: 'bad', scopes: ['Nope:View'] }),
      400,
      'validation_failed',
      'scopes[0]',
    );
    expectError(await limited.put(`${KEYS}/${ok.body.id}`, { scopes: ['AuditLogs:View'] }), 403, 'permission_denied');
    const names = (await sql(gw, 'SELECT name FROM management_keys ORDER BY name')).map((r) => r.name);
    expect(names).toEqual(['limited', 'narrower']);
    // Enforced: the narrower key cannot even list keys.
    expectError(await bearerClient(gw, ok.body.value).get(KEYS), 403, 'permission_denied');
    expect((await bearerClient(gw, ok.body.value).get(`${USERS}/me/permissions`)).body.permissions).toEqual([
      'VirtualKeys:View',
    ]);
  });

  it('roles: a non-admin cannot grant a permission it does not hold', async () => {
    const ok = await limited.post(ROLES, { name: 'vk-reader', permissions: ['VirtualKeys:View'] });
    expect(ok.status).toBe(201);
    const denied = await limited.post(ROLES, { name: 'log-reader', permissions: ['Logs:View'] });
    expectError(denied, 403, 'permission_denied');
    expect(denied.body.error.message).toContain('Logs:View');
    expectError(
      await limited.put(`${ROLES}/${ok.body.id}`, { permissions: ['VirtualKeys:View', 'VirtualKeys:Delete'] }),
      403,
      'permission_denied',
    );
    expect((await admin.get(`${ROLES}/${ok.body.id}`)).body.permissions).toEqual(['VirtualKeys:View']);
    // The admin may.
    expect((await admin.post(ROLES, { name: 'log-reader', permissions: ['Logs:View'] })).status).toBe(201);
  });

  it('users: a non-admin cannot assign a role carrying more than it holds', async () => {
    const roles = (await admin.get(ROLES)).body.roles;
    const viewer = roles.find((r: any) => r.name === 'viewer');
    const vkReader = roles.find((r: any) => r.name === 'vk-reader');
    const denied = await limited.post(USERS, { name: 'Eve', email: 'eve@example.com', role_id: viewer.id });
    expectError(denied, 403, 'permission_denied');
    const ok = await limited.post(USERS, { name: 'Eve', email: 'eve@example.com', role_id: vkReader.id });
    expect(ok.status).toBe(201);
    expectError(await limited.put(`${USERS}/${ok.body.id}`, { role_id: viewer.id }), 403, 'permission_denied');
    expect((await admin.get(`${USERS}/${ok.body.id}`)).body.role_id).toBe(vkReader.id);

    // Nor take over a more privileged user by changing it (its password, say).
    const boss = await admin.post(USERS, { name: 'Boss', email: 'boss@example.com', role_id: viewer.id });
    const [before] = await sql(gw, 'SELECT password_hash FROM users WHERE id = $1', [boss.body.id]);
    expectError(
      await limited.put(`${USERS}/${boss.body.id}`, { password: 'taken-over-123' }),
      403,
      'permission_denied',
    );
    const [after] = await sql(gw, 'SELECT password_hash FROM users WHERE id = $1', [boss.body.id]);
    expect(after.password_hash).toBe(before.password_hash);
    expect((await limited.put(`${USERS}/${ok.body.id}`, { name: 'Eve 2' })).status).toBe(200);
  });

  it('expired and deleted keys are refused', async () => {
    const res = await admin.post(KEYS, { name: 'short-lived', scopes: ['VirtualKeys:View'], expires_at: inOneDay() });
    const client = bearerClient(gw, res.body.value);
    expect((await client.get('/api/governance/virtual-keys')).status).toBe(200);
    await sql(gw, "UPDATE management_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [res.body.id]);
    expectError(await client.get('/api/governance/virtual-keys'), 401, 'invalid_credentials');
    expect((await admin.delete(`${KEYS}/${res.body.id}`)).status).toBe(200);
    expectError(await client.get('/api/governance/virtual-keys'), 401, 'invalid_credentials');
    expectError(await bearerClient(gw, 'gwm_' + 'x'.repeat(40)).get(KEYS), 401, 'invalid_credentials');
  });
});
