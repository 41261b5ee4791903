import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  SETUP_HEADER,
  SETUP_TOKEN,
  authEnabledConfig,
  bearer,
  eventually,
  expectError,
} from './auth-helpers.js';

async function auditRows(gw: TestApp, query: Record<string, string | number> = {}) {
  const res = await gw.http.get('/api/audit-logs', { headers: ADMIN_BASIC, query });
  expect(res.status).toBe(200);
  return res.body as { audit_logs: any[]; count: number; pagination: any };
}

describe(`audit log, enterprise (${RUN_MODE})`, () => {
  let gw: TestApp;
  let limitedKey: string;
  beforeAll(async () => {
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }) });
    const key = await gw.http.post(
      '/api/management-keys',
      { name: 'metrics-only', scopes: ['Metrics:View'] },
      { headers: ADMIN_BASIC },
    );
    expect(key.status).toBe(201);
    limitedKey = key.body.value;
    // A write's row is stamped in Fastify's onResponse hook, which can run after the client already has the answer:
    // the tests below count rows from their own start, so this row must be stamped (and seen) before any of them.
    await eventually(async () => {
      const rows = (await auditRows(gw)).audit_logs;
      expect(rows.some((r) => r.route === '/api/management-keys' && r.status_code === 201)).toBe(true);
    });
  });
  afterAll(() => gw?.close());

  it('records allowed and refused writes with actor, method, route, permission, status', async () => {
    const started = new Date().toISOString();
    // Refused without credentials (401, nobody), refused without the permission (403, the key), allowed (201).
    expectError(await gw.http.post('/api/management-keys', { name: 'x', scopes: [] }), 401, 'missing_credentials');
    expectError(
      await gw.http.post('/api/management-keys', { name: 'x', scopes: [] }, { headers: bearer(limitedKey) }),
      403,
      'permission_denied',
    );
    const created = await gw.http.post(
      '/api/management-keys',
      { name: 'audited', scopes: ['Logs:View'] },
      { headers: ADMIN_BASIC },
    );
    expect(created.status).toBe(201);
    const deleted = await gw.http.delete(`/api/management-keys/${created.body.id}`, { headers: ADMIN_BASIC });
    expect(deleted.status).toBeLessThan(300);
    // A handler error (404) is recorded as well.
    const missing = await gw.http.delete('/api/management-keys/00000000-0000-4000-8000-00000000dead', {
      headers: ADMIN_BASIC,
    });
    expect(missing.status).toBe(404);

    const page = await eventually(async () => {
      const body = await auditRows(gw, { start_time: started });
      expect(body.count).toBe(5);
      return body;
    });
    // Rows in one millisecond may tie on created_at: pick them by content, not position.
    const rows = page.audit_logs;
    const anonymous = rows.find((r) => r.status_code === 401);
    const forbidden = rows.find((r) => r.status_code === 403);
    const ok = rows.find((r) => r.status_code === 201);
    const del = rows.find((r) => r.method === 'DELETE' && r.status_code < 300);
    const notFound = rows.find((r) => r.status_code === 404);
    expect(anonymous).toMatchObject({
      actor: null,
      auth_method: null,
      permission: 'APIKeys:Create',
      method: 'POST',
      route: '/api/management-keys',
      path: '/api/management-keys',
      target_id: null,
      status_code: 401,
      client_address: '127.0.0.1',
    });
    expect(forbidden).toMatchObject({
      actor: 'metrics-only',
      auth_method: 'management_key',
      permission: 'APIKeys:Create',
      status_code: 403,
    });
    expect(ok).toMatchObject({ actor: ADMIN_USERNAME, auth_method: 'basic', status_code: 201 });
    expect(del).toMatchObject({
      method: 'DELETE',
      route: '/api/management-keys/:id',
      path: `/api/management-keys/${created.body.id}`,
      target_id: created.body.id,
      permission: 'APIKeys:Delete',
    });
    expect(notFound).toMatchObject({ status_code: 404, target_id: '00000000-0000-4000-8000-00000000dead' });
    for (const row of page.audit_logs) {
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(row.created_at)).toBeGreaterThanOrEqual(Date.parse(started));
    }
    // Reads are not audited.
    expect(page.audit_logs.every((r) => r.method !== 'GET')).toBe(true);
  });

  it('records logins without the password, and the session token never reaches a row', async () => {
    const started = new Date().toISOString();
    expectError(
      await gw.http.post('/api/session/login', { username: ADMIN_USERNAME, password: 'bad-password-x' }),
      401,
      'invalid_credentials',
    );
    const ok = await gw.http.post('/api/session/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(ok.status).toBe(200);
    const page = await eventually(async () => {
      const body = await auditRows(gw, { start_time: started, method: 'POST' });
      expect(body.audit_logs.filter((r) => r.route === '/api/session/login')).toHaveLength(2);
      return body;
    });
    const text = JSON.stringify(page);
    expect(text).not.toContain('bad-password-x');
    expect(text).not.toContain(ADMIN_PASSWORD);
    expect(text).not.toContain(ok.body.token);
    expect(page.audit_logs.map((r) => r.status_code)).toEqual(expect.arrayContaining([401, 200]));
    expect(page.audit_logs.find((r) => r.route === '/api/session/login')).toMatchObject({ permission: null });
  });

  it('filters and pages', async () => {
    await eventually(async () => expect((await auditRows(gw)).pagination.total_count).toBeGreaterThanOrEqual(7));
    const all = await auditRows(gw);
    expect(all.pagination).toMatchObject({ limit: 50, offset: 0, sort_by: 'created_at', order: 'desc' });
    const byStatus = await auditRows(gw, { status_code: 403 });
    expect(byStatus.audit_logs.length).toBeGreaterThan(0);
    expect(byStatus.audit_logs.every((r) => r.status_code === 403)).toBe(true);
    const byActor = await auditRows(gw, { actor: 'metrics-only' });
    expect(byActor.audit_logs.every((r) => r.actor === 'metrics-only')).toBe(true);
    expect(byActor.count).toBeGreaterThan(0);
    const byMethod = await auditRows(gw, { method: 'DELETE' });
    expect(byMethod.audit_logs.every((r) => r.method === 'DELETE')).toBe(true);
    expect(byMethod.count).toBe(2);
    const byPermission = await auditRows(gw, { permission: 'APIKeys:Delete' });
    expect(byPermission.count).toBe(2);
    const future = await auditRows(gw, { start_time: new Date(Date.now() + 60_000).toISOString() });
    expect(future.count).toBe(0);
    const past = await auditRows(gw, { end_time: '2000-01-01T00:00:00Z' });
    expect(past.count).toBe(0);

    const first = await auditRows(gw, { limit: 2 });
    const second = await auditRows(gw, { limit: 2, offset: 2 });
    expect(first.count).toBe(2);
    expect(second.pagination).toMatchObject({ limit: 2, offset: 2, total_count: all.pagination.total_count });
    expect(second.audit_logs[0].id).toBe(all.audit_logs[2].id);

    for (const [param, value] of [
      ['limit', 1001],
      ['limit', 0],
      ['offset', -1],
      ['status_code', 'abc'],
      ['start_time', 'yesterday'],
      ['method', 'GET'],
    ] as const) {
      const res = await gw.http.get('/api/audit-logs', { headers: ADMIN_BASIC, query: { [param]: value } });
      expectError(res, 400, 'validation_failed');
      expect(res.body.error.param).toBe(param);
    }
  });

  it('needs AuditLogs:View', async () => {
    const res = await gw.http.get('/api/audit-logs', { headers: bearer(limitedKey) });
    expectError(res, 403, 'permission_denied');
    expect(res.body.error.message).toContain('AuditLogs:View');
  });
});

describe(`audit log under the setup lock (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
  });
  afterAll(() => gw?.close());

  it('records setup exchanges and refused writes, never the setup token', async () => {
    expectError(
      await gw.http.post('/api/session/setup', undefined, { headers: { 'x-gateway-setup-token': 'wrong-token-1' } }),
      403,
      'setup_token_invalid',
    );
    expect((await gw.http.post('/api/session/setup', undefined, { headers: SETUP_HEADER })).status).toBe(200);
    expectError(await gw.http.post('/api/management-keys', { name: 'k', scopes: [] }), 401, 'setup_token_required');
    const ok = await gw.http.post('/api/management-keys', { name: 'k', scopes: [] }, { headers: SETUP_HEADER });
    expect(ok.status).toBe(201);
    const page = await eventually(async () => {
      const res = await gw.http.get('/api/audit-logs', { headers: SETUP_HEADER });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      return res.body;
    });
    const summary = page.audit_logs.map((r: any) => [r.route, r.status_code, r.actor, r.auth_method]);
    expect(summary.sort()).toEqual(
      [
        ['/api/management-keys', 201, 'setup', 'setup_token'],
        ['/api/management-keys', 401, null, null],
        ['/api/session/setup', 200, null, null],
        ['/api/session/setup', 403, null, null],
      ].sort(),
    );
    const text = JSON.stringify(page);
    expect(text).not.toContain(SETUP_TOKEN);
    expect(text).not.toContain('wrong-token-1');
    expect(text).not.toContain(ok.body.value);
    expect(gw.logs.text()).not.toContain(SETUP_TOKEN);
    expect(gw.logs.text()).not.toContain(ok.body.value);
  });
});
