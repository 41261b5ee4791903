import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_DATABASE_URL } from '../helpers/test-env.js';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  authEnabledConfig,
  bearer,
  dataSourceOf,
  expectError,
} from '../auth/auth-helpers.js';
import { migratedAppDir } from '../helpers/databases.js';

const USERS = '/api/governance/users';
const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

async function loginToken(gw: TestApp, username: string, password: string): Promise<string> {
  const res = await gw.http.post('/api/session/login', { username, password });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

const permissions = (gw: TestApp, token: string) =>
  gw.http.get('/api/governance/users/me/permissions', { headers: bearer(token) });

describe(`a password change revokes the account's sessions (${RUN_MODE})`, () => {
  it("the admin's sessions survive a restart with the same password and die with a new admin_password", async () => {
    // The same database across restarts: the app dir on the embedded default, a kept database on Postgres.
    const appDir = TEST_DATABASE_URL ? undefined : migratedAppDir({}, 'gw-revoke-');
    const config = (password: string) =>
      authEnabledConfig({
        encryption_key: ENCRYPTION_KEY,
        auth_config: { is_enabled: true, admin_username: ADMIN_USERNAME, admin_password: password },
      });
    const first = await startTestApp({ config: config(ADMIN_PASSWORD), appDir, keepDatabase: true });
    const token = await loginToken(first, ADMIN_USERNAME, ADMIN_PASSWORD);
    const stored = await dataSourceOf(first).query('SELECT credential_stamp FROM dashboard_sessions');
    expect(stored).toHaveLength(1);
    expect(stored[0].credential_stamp).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(ADMIN_PASSWORD);
    await first.close();

    const same = await startTestApp({
      config: config(ADMIN_PASSWORD),
      appDir,
      databaseUrl: first.databaseUrl,
      keepDatabase: true,
    });
    expect((await permissions(same, token)).status).toBe(200);
    await same.close();

    const changed = await startTestApp({
      config: config('a-brand-new-password'),
      appDir,
      databaseUrl: first.databaseUrl,
    });
    try {
      expectError(await permissions(changed, token), 401, 'invalid_credentials');
      // The dead session is gone from the table, and the new password opens a new one.
      expect(await dataSourceOf(changed).query('SELECT id FROM dashboard_sessions')).toHaveLength(0);
      const fresh = await loginToken(changed, ADMIN_USERNAME, 'a-brand-new-password');
      expect((await permissions(changed, fresh)).status).toBe(200);
    } finally {
      await changed.close();
    }
  }, 120_000);

  describe('users', () => {
    let gw: TestApp;
    beforeAll(async () => {
      gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }) });
    });
    afterAll(() => gw?.close());

    async function createUser(email: string, password: string): Promise<string> {
      const roles = (await gw.http.get('/api/governance/rbac/roles', { headers: ADMIN_BASIC })).body.roles;
      const viewer = roles.find((r: any) => r.name === 'viewer');
      const res = await gw.http.post(
        USERS,
        { name: email, email, role_id: viewer.id, password },
        { headers: ADMIN_BASIC },
      );
      expect(res.status).toBe(201);
      return res.body.id as string;
    }

    it("PUT …/users/{id} with a new password ends that user's sessions, and only theirs", async () => {
      const ada = await createUser('ada@example.com', 'ada-password-1');
      await createUser('bob@example.com', 'bob-password-1');
      const adaPhone = await loginToken(gw, 'ada@example.com', 'ada-password-1');
      const adaLaptop = await loginToken(gw, 'ada@example.com', 'ada-password-1');
      const bob = await loginToken(gw, 'bob@example.com', 'bob-password-1');
      const admin = await loginToken(gw, ADMIN_USERNAME, ADMIN_PASSWORD);

      // A change that is not the password keeps the sessions.
      expect((await gw.http.put(`${USERS}/${ada}`, { name: 'Ada L.' }, { headers: ADMIN_BASIC })).status).toBe(200);
      expect((await permissions(gw, adaPhone)).status).toBe(200);

      expect(
        (await gw.http.put(`${USERS}/${ada}`, { password: 'ada-password-2' }, { headers: ADMIN_BASIC })).status,
      ).toBe(200);
      expectError(await permissions(gw, adaPhone), 401, 'invalid_credentials');
      expectError(await permissions(gw, adaLaptop), 401, 'invalid_credentials');
      const rows = await dataSourceOf(gw).query('SELECT user_id FROM dashboard_sessions WHERE user_id = $1', [ada]);
      expect(rows).toHaveLength(0);
      expect((await permissions(gw, bob)).status).toBe(200);
      expect((await permissions(gw, admin)).status).toBe(200);
      // The new password signs in; the old one does not.
      expect(
        (await gw.http.post('/api/session/login', { username: 'ada@example.com', password: 'ada-password-1' })).status,
      ).toBe(401);
      expect((await permissions(gw, await loginToken(gw, 'ada@example.com', 'ada-password-2'))).status).toBe(200);
    });
  });
});
