import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpiredRowsRegistry, ExpiredRowsService } from '../../src/core/maintenance/expired-rows.service.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  SETUP_TOKEN,
  authEnabledConfig,
  basic,
  bearer,
  dataSourceOf,
  expectError,
  readSetCookie,
  sha256Hex,
} from '../auth/auth-helpers.js';

const VIEWER_ROLE_ID = '00000000-0000-4000-8000-000000000003';

async function login(gw: TestApp, username: string, password: string) {
  return gw.http.post('/api/session/login', { username, password });
}

describe(`sessions and management schemes (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }) });
  });
  afterAll(() => gw?.close());

  it('BasicAuth with the admin password; wrong password or user is 401', async () => {
    expect((await gw.http.get('/metrics', { headers: ADMIN_BASIC })).status).toBe(200);
    expectError(await gw.http.get('/metrics', { headers: basic(ADMIN_USERNAME, 'nope') }), 401, 'invalid_credentials');
    expectError(await gw.http.get('/metrics', { headers: basic('root', ADMIN_PASSWORD) }), 401, 'invalid_credentials');
    expectError(await gw.http.get('/metrics', { headers: { authorization: 'Basic !!!' } }), 401, 'invalid_credentials');
    expectError(await gw.http.get('/metrics'), 401, 'missing_credentials');
  });

  it('legacy bearer: base64 of admin-username:admin-password', async () => {
    const legacy = Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString('base64');
    expect((await gw.http.get('/metrics', { headers: bearer(legacy) })).status).toBe(200);
    const wrong = Buffer.from(`${ADMIN_USERNAME}:wrong`).toString('base64');
    expectError(await gw.http.get('/metrics', { headers: bearer(wrong) }), 401, 'invalid_credentials');
    expectError(await gw.http.get('/metrics', { headers: bearer('gwm_unknownkey') }), 401, 'invalid_credentials');
  });

  it('virtual keys and x-api-key are refused on management routes', async () => {
    for (const headers of [{ 'x-api-key': 'anything' }, bearer('sk-gw-whatever'), { 'x-gateway-vk': 'sk-gw-x' }]) {
      expectError(await gw.http.get('/metrics', { headers }), 401, 'virtual_key_not_accepted');
    }
    // ... even beside valid admin credentials.
    expectError(
      await gw.http.get('/metrics', { headers: { ...ADMIN_BASIC, 'x-api-key': 'sk-gw-x' } }),
      401,
      'virtual_key_not_accepted',
    );
  });

  it('login issues an opaque token stored hashed, a strict HttpOnly cookie, and 24 h expiry by default', async () => {
    const res = await login(gw, ADMIN_USERNAME, ADMIN_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: expect.any(String),
      token: expect.any(String),
      expires_at: expect.any(String),
    });
    const { token, expires_at } = res.body;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
    expect(res.text).not.toContain(ADMIN_PASSWORD);

    const cookie = readSetCookie(res.headers, 'gateway_session');
    expect(cookie.value).toBe(token);
    expect(cookie.attrs).toHaveProperty('httponly');
    expect(cookie.attrs.samesite?.toLowerCase()).toBe('strict');
    expect(cookie.attrs.path).toBe('/');
    expect(cookie.attrs).not.toHaveProperty('secure');

    const rows = await dataSourceOf(gw).query('SELECT token_hash FROM dashboard_sessions');
    expect(rows.map((r: any) => r.token_hash)).toContain(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    // The token works as Bearer and as the cookie; the admin's session bypasses permission checks.
    expect((await gw.http.get('/metrics', { headers: bearer(token) })).status).toBe(200);
    expect((await gw.http.get('/api/audit-logs', { headers: { cookie: `gateway_session=${token}` } })).status).toBe(
      200,
    );
    const status = await gw.http.get('/api/session/is-auth-enabled', { headers: bearer(token) });
    expect(status.body).toEqual({
      is_auth_enabled: true,
      has_valid_token: true,
      auth_type: 'password',
      setup_required: false,
      setup_token_source: null,
    });

    // Logout revokes the presenting session only.
    const other = (await login(gw, ADMIN_USERNAME, ADMIN_PASSWORD)).body.token as string;
    const out = await gw.http.post('/api/session/logout', undefined, { headers: bearer(token) });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: expect.any(String) });
    expect(readSetCookie(out.headers, 'gateway_session').value).toBe('');
    expectError(await gw.http.get('/metrics', { headers: bearer(token) }), 401, 'invalid_credentials');
    expectError(
      await gw.http.get('/metrics', { headers: { cookie: `gateway_session=${token}` } }),
      401,
      'invalid_credentials',
    );
    expect((await gw.http.get('/metrics', { headers: bearer(other) })).status).toBe(200);
    const after = await gw.http.get('/api/session/is-auth-enabled', { headers: bearer(token) });
    expect(after.body.has_valid_token).toBe(false);
    expect(gw.logs.text()).not.toContain(token);
    expect(gw.logs.text()).not.toContain(other);
  });

  it('wrong credentials are 401 invalid_credentials; bad bodies are 400', async () => {
    expectError(await login(gw, ADMIN_USERNAME, 'wrong-password'), 401, 'invalid_credentials');
    expectError(await login(gw, 'nobody@example.com', 'wrong-password'), 401, 'invalid_credentials');
    const bad = await gw.http.post('/api/session/login', { username: 'admin' });
    expectError(bad, 400, 'validation_failed');
    expect(bad.body.error.param).toBe('password');
  });

  it('a user logs in with email and password; the session carries the role (enterprise RBAC)', async () => {
    const created = await gw.http.post(
      '/api/governance/users',
      { name: 'Vera Viewer', email: 'vera@example.com', role_id: VIEWER_ROLE_ID, password: 'vera-password-1' },
      { headers: ADMIN_BASIC },
    );
    expect(created.status).toBe(201);
    const res = await login(gw, 'vera@example.com', 'vera-password-1');
    expect(res.status).toBe(200);
    const headers = bearer(res.body.token);
    expect((await gw.http.get('/metrics', { headers })).status).toBe(200);
    const denied = await gw.http.post('/api/management-keys', { name: 'k', scopes: [] }, { headers });
    expectError(denied, 403, 'permission_denied');
    expect(denied.body.error.message).toContain('APIKeys:Create');
    expectError(await login(gw, 'vera@example.com', 'not-her-password'), 401, 'invalid_credentials');
  });

  it('no secret reaches a log line', () => {
    const logs = gw.logs.text();
    expect(logs).not.toContain(ADMIN_PASSWORD);
    expect(logs).not.toContain('vera-password-1');
    expect(logs).not.toContain(SETUP_TOKEN);
    expect(logs).not.toContain(Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString('base64'));
  });
});

describe(`session expiry and login throttling (${RUN_MODE})`, () => {
  it('sessions expire after auth_config.session_ttl', async () => {
    const gw = await startTestApp({
      config: authEnabledConfig({
        auth_config: {
          is_enabled: true,
          admin_username: ADMIN_USERNAME,
          admin_password: ADMIN_PASSWORD,
          session_ttl: '1s',
        },
      }),
    });
    try {
      const res = await login(gw, ADMIN_USERNAME, ADMIN_PASSWORD);
      expect(res.status).toBe(200);
      expect(Date.parse(res.body.expires_at) - Date.now()).toBeLessThanOrEqual(1000);
      expect((await gw.http.get('/metrics', { headers: bearer(res.body.token) })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1300));
      expectError(await gw.http.get('/metrics', { headers: bearer(res.body.token) }), 401, 'invalid_credentials');

      // The maintenance purge deletes expired sessions (both tables are registered with it).
      const names = gw.app
        .get(ExpiredRowsRegistry)
        .list()
        .map((t) => t.table);
      expect(names).toEqual(expect.arrayContaining(['dashboard_sessions', 'setup_sessions']));
      const result = await gw.app
        .get(ExpiredRowsService)
        .purgeExpired({ reason: 'test' }, { jobId: 'test', attempt: 1, updateProgress: async () => undefined });
      expect(result.deleted).toHaveProperty('dashboard_sessions');
      expect(await dataSourceOf(gw).query('SELECT id FROM dashboard_sessions')).toEqual([]);
    } finally {
      await gw.close();
    }
  });

  it('5 failed logins for a username: 429 login_throttled with Retry-After, even with the right password', async () => {
    const gw = await startTestApp({ config: authEnabledConfig() });
    try {
      for (let i = 0; i < 5; i++)
        expectError(await login(gw, ADMIN_USERNAME, `wrong-${i}`), 401, 'invalid_credentials');
      const throttled = await login(gw, ADMIN_USERNAME, ADMIN_PASSWORD);
      expectError(throttled, 429, 'login_throttled');
      const retryAfter = Number(throttled.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
      // Basic checks the same password, so it shares the throttle (issue 8): the admin's Basic auth is throttled too.
      expectError(await gw.http.get('/metrics', { headers: ADMIN_BASIC }), 429, 'login_throttled');
      // Another username from the same address is not throttled yet.
      expectError(await login(gw, 'someone@example.com', 'x'), 401, 'invalid_credentials');
      expect(gw.logs.text()).not.toContain(ADMIN_PASSWORD);
    } finally {
      await gw.close();
    }
  });

  it('20 failed logins from one address: 429 for every username from it', async () => {
    const gw = await startTestApp({ config: authEnabledConfig() });
    try {
      for (let i = 0; i < 20; i++)
        expectError(await login(gw, `user${i}@example.com`, 'x'), 401, 'invalid_credentials');
      const throttled = await login(gw, ADMIN_USERNAME, ADMIN_PASSWORD);
      expectError(throttled, 429, 'login_throttled');
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await gw.close();
    }
  });

  it('a successful login clears the username counter', async () => {
    const gw = await startTestApp({ config: authEnabledConfig() });
    try {
      for (let i = 0; i < 4; i++) await login(gw, ADMIN_USERNAME, 'wrong');
      expect((await login(gw, ADMIN_USERNAME, ADMIN_PASSWORD)).status).toBe(200);
      for (let i = 0; i < 4; i++) expectError(await login(gw, ADMIN_USERNAME, 'wrong'), 401, 'invalid_credentials');
      expect((await login(gw, ADMIN_USERNAME, ADMIN_PASSWORD)).status).toBe(200);
    } finally {
      await gw.close();
    }
  });
});

describe.skipIf(!TEST_REDIS_URL)('login throttling with Redis (shared by replicas)', () => {
  it('failures counted on one replica throttle the other; counters live in Redis under the prefix', async () => {
    const prefix = `gwt-${randomBytes(5).toString('hex')}`;
    const a = await startTestApp({ config: authEnabledConfig(), redisPrefix: prefix });
    const b = await startTestApp({ config: authEnabledConfig(), redisPrefix: prefix });
    const redis = new Redis(TEST_REDIS_URL!);
    try {
      for (let i = 0; i < 5; i++) expectError(await login(a, ADMIN_USERNAME, `wrong-${i}`), 401, 'invalid_credentials');
      expectError(await login(b, ADMIN_USERNAME, ADMIN_PASSWORD), 429, 'login_throttled');
      const keys = await redis.keys(`${prefix}:login-failures:*`);
      expect(keys.length).toBe(2);
      expect(keys.join()).not.toContain(ADMIN_USERNAME);
      for (const k of keys) expect(await redis.pttl(k)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
      await a.close();
      await b.close();
    }
  });
});

describe(`admin password as a SecretValue reference (${RUN_MODE})`, () => {
  it('env.VAR is resolved at use time; the reference itself is not the password', async () => {
    process.env.GW_AUTH_TEST_ADMIN_PW = 'from-the-environment-42';
    const gw = await startTestApp({
      config: authEnabledConfig({
        auth_config: { is_enabled: true, admin_username: ADMIN_USERNAME, admin_password: 'env.GW_AUTH_TEST_ADMIN_PW' },
      }),
    });
    try {
      expect(
        (await gw.http.get('/metrics', { headers: basic(ADMIN_USERNAME, 'from-the-environment-42') })).status,
      ).toBe(200);
      expectError(
        await gw.http.get('/metrics', { headers: basic(ADMIN_USERNAME, 'env.GW_AUTH_TEST_ADMIN_PW') }),
        401,
        'invalid_credentials',
      );
      expect((await login(gw, ADMIN_USERNAME, 'from-the-environment-42')).status).toBe(200);
      expect(gw.logs.text()).not.toContain('from-the-environment-42');
    } finally {
      delete process.env.GW_AUTH_TEST_ADMIN_PW;
      await gw.close();
    }
  });
});
