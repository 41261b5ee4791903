import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  ADMIN_BASIC,
  SETUP_HEADER,
  SETUP_TOKEN,
  authEnabledConfig,
  dataSourceOf,
  expectError,
  readSetCookie,
  sha256Hex,
} from '../auth/auth-helpers.js';

describe(`setup lock (${RUN_MODE})`, () => {
  describe('open-source edition, setup token configured, dashboard auth off', () => {
    let gw: TestApp;
    beforeAll(async () => {
      gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    });
    afterAll(() => gw?.close());

    it('public routes need nothing', async () => {
      expect((await gw.http.get('/health')).status).toBe(200);
      expect((await gw.http.get('/api/version')).status).toBe(200);
      const status = await gw.http.get('/api/session/is-auth-enabled');
      expect(status.status).toBe(200);
      expect(status.body).toEqual({
        is_auth_enabled: false,
        has_valid_token: false,
        auth_type: 'none',
        setup_required: true,
        setup_token_source: 'config',
      });
    });

    it('missing header: 401 setup_token_required', async () => {
      const res = await gw.http.get('/metrics');
      expectError(res, 401, 'setup_token_required');
      expectError(await gw.http.get('/api/management-keys'), 401, 'setup_token_required');
      // Basic or bearer credentials do not open the lock: only the setup token does.
      expectError(await gw.http.get('/metrics', { headers: ADMIN_BASIC }), 401, 'setup_token_required');
      // HEAD (which Fastify derives from GET) is guarded the same way.
      expect((await gw.http.request('HEAD', '/metrics')).status).toBe(401);
      expect((await gw.http.request('HEAD', '/metrics', { headers: SETUP_HEADER })).status).toBe(200);
    });

    it('wrong header: 403 setup_token_invalid (also for a prefix or an extension of the token)', async () => {
      for (const wrong of ['nope', SETUP_TOKEN.slice(0, -1), `${SETUP_TOKEN}x`, 'setup-token-12345X']) {
        const res = await gw.http.get('/metrics', { headers: { 'x-gateway-setup-token': wrong } });
        expectError(res, 403, 'setup_token_invalid');
      }
    });

    it('right header: served', async () => {
      const res = await gw.http.get('/metrics', { headers: SETUP_HEADER });
      expect(res.status).toBe(200);
      expect(res.text).toContain('# HELP');
      const status = await gw.http.get('/api/session/is-auth-enabled', { headers: SETUP_HEADER });
      expect(status.body.has_valid_token).toBe(true);
    });

    it('virtual keys are refused on management routes even beside the setup token', async () => {
      expectError(
        await gw.http.get('/metrics', { headers: { 'x-api-key': 'sk-gw-abc' } }),
        401,
        'virtual_key_not_accepted',
      );
      expectError(
        await gw.http.get('/metrics', { headers: { ...SETUP_HEADER, authorization: 'Bearer sk-gw-abc' } }),
        401,
        'virtual_key_not_accepted',
      );
    });

    it('POST /api/session/setup: 401 without the header, 403 when wrong', async () => {
      expectError(await gw.http.post('/api/session/setup'), 401, 'setup_token_required');
      const wrong = await gw.http.post('/api/session/setup', undefined, { headers: { 'x-gateway-setup-token': 'x' } });
      expectError(wrong, 403, 'setup_token_invalid');
      expect(wrong.headers.getSetCookie()).toEqual([]);
    });

    it('POST /api/session/setup exchanges the token for an HttpOnly cookie stored hashed', async () => {
      const res = await gw.http.post('/api/session/setup', undefined, { headers: SETUP_HEADER });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String) });
      expect(res.text).not.toContain(SETUP_TOKEN);
      const cookie = readSetCookie(res.headers, 'gateway_setup_session');
      expect(cookie.value).not.toBe(SETUP_TOKEN);
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie.attrs).toHaveProperty('httponly');
      expect(cookie.attrs.samesite?.toLowerCase()).toBe('strict');
      expect(cookie.attrs.path).toBe('/');
      expect(cookie.attrs).not.toHaveProperty('secure'); // plain HTTP
      const maxAge = Number(cookie.attrs['max-age']);
      expect(maxAge).toBeGreaterThan(12 * 3600 - 60);
      expect(maxAge).toBeLessThanOrEqual(12 * 3600);

      const rows = await dataSourceOf(gw).query('SELECT token_hash, expires_at FROM setup_sessions');
      expect(rows.map((r: any) => r.token_hash)).toContain(sha256Hex(cookie.value));
      expect(JSON.stringify(rows)).not.toContain(cookie.value);

      const cookieHeader = { cookie: `gateway_setup_session=${cookie.value}` };
      expect((await gw.http.get('/metrics', { headers: cookieHeader })).status).toBe(200);
      const status = await gw.http.get('/api/session/is-auth-enabled', { headers: cookieHeader });
      expect(status.body.has_valid_token).toBe(true);

      // Logging out revokes the setup session: the cookie stops working.
      const out = await gw.http.post('/api/session/logout', undefined, { headers: cookieHeader });
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ message: expect.any(String) });
      expectError(await gw.http.get('/metrics', { headers: cookieHeader }), 401, 'setup_token_required');
    });

    it('an unknown setup cookie is refused', async () => {
      const res = await gw.http.get('/metrics', { headers: { cookie: 'gateway_setup_session=forged' } });
      expectError(res, 401, 'setup_token_required');
    });

    it('login is refused while dashboard auth is off', async () => {
      const res = await gw.http.post('/api/session/login', { username: 'admin', password: 'whatever-it-is' });
      expect(res.status).toBe(403);
    });

    it('the setup token never appears in a log line', () => {
      expect(gw.logs.text()).not.toContain(SETUP_TOKEN);
    });
  });

  describe('open-source edition, no setup token configured', () => {
    let gw: TestApp;
    beforeAll(async () => {
      gw = await startTestApp();
    });
    afterAll(() => gw?.close());

    it('missing header 401, any header 403, and setup cannot be exchanged', async () => {
      expectError(await gw.http.get('/metrics'), 401, 'setup_token_required');
      expectError(await gw.http.get('/metrics', { headers: SETUP_HEADER }), 403, 'setup_token_invalid');
      expectError(
        await gw.http.post('/api/session/setup', undefined, { headers: SETUP_HEADER }),
        403,
        'setup_token_invalid',
      );
      expect((await gw.http.get('/health')).status).toBe(200);
    });
  });

  describe('open-source edition, dashboard auth enabled', () => {
    let gw: TestApp;
    beforeAll(async () => {
      gw = await startTestApp({ config: authEnabledConfig() });
    });
    afterAll(() => gw?.close());

    it('the setup header stops working', async () => {
      expectError(await gw.http.get('/metrics', { headers: SETUP_HEADER }), 401, 'missing_credentials');
      expectError(
        await gw.http.post('/api/session/setup', undefined, { headers: SETUP_HEADER }),
        403,
        'setup_token_invalid',
      );
      expect((await gw.http.get('/metrics', { headers: ADMIN_BASIC })).status).toBe(200);
      const status = await gw.http.get('/api/session/is-auth-enabled');
      expect(status.body).toEqual({
        is_auth_enabled: true,
        has_valid_token: false,
        auth_type: 'password',
        setup_required: false,
        setup_token_source: null,
      });
    });
  });

  describe('data plane is never behind the lock', () => {
    it('enterprise edition without dashboard auth: the setup lock applies, and its callers are local admins', async () => {
      const gw = await startTestApp({ config: { edition: 'enterprise', setup_token: 'setup-token-123456' } });
      try {
        expect((await gw.http.get('/metrics')).status).toBe(401);
        const wrong = await gw.http.get('/metrics', { headers: { 'X-Gateway-Setup-Token': 'wrong-token-000000' } });
        expect(wrong.status).toBe(403);
        expect(wrong.body.error.code).toBe('setup_token_invalid');
        const headers = { 'X-Gateway-Setup-Token': 'setup-token-123456' };
        expect((await gw.http.get('/metrics', { headers })).status).toBe(200);
        // No permission check for the setup caller: an RBAC route answers.
        expect((await gw.http.get('/api/governance/rbac/roles', { headers })).status).toBe(200);
        const status = await gw.http.get('/api/session/is-auth-enabled');
        expect(status.body).toMatchObject({ is_auth_enabled: false, setup_required: true });
      } finally {
        await gw.close();
      }
    });
  });
});
