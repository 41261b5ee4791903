import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, type GatewayProcess } from '../helpers/gateway-process.js';
import { runModeEnv, startSpawned } from '../helpers/spawned-gateway.js';
import { RUN_MODE, TEST_DATABASE_URL } from '../helpers/test-env.js';

const running: GatewayProcess[] = [];

async function stop(gw: GatewayProcess) {
  gw.child.kill('SIGTERM');
  return gw.exit;
}

function setupLockLines(gw: GatewayProcess): Array<Record<string, unknown>> {
  return gw.stdout.filter((l) => l.includes('setup lock')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe.skipIf(!existsSync(MAIN_JS))(`first run: how to get in (${RUN_MODE})`, () => {
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  beforeAll(async () => {
    ({ env, cleanUp } = await runModeEnv());
  });
  afterAll(async () => {
    for (const gw of running) if (gw.child.exitCode === null) gw.child.kill('SIGKILL');
    await cleanUp?.();
  });

  it.skipIf(!!TEST_DATABASE_URL)(
    'embedded, no setup token, no dashboard auth: a token is generated into <app-dir>/setup-token (0600), its path printed, reused on the next start',
    async () => {
      const appDir = join(mkdtempSync(join(tmpdir(), 'gw-first-run-')), 'fresh', 'data');
      const first = await startSpawned(env, { appDir });
      running.push(first.gw);
      const path = join(appDir, 'setup-token');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(appDir).mode & 0o777).toBe(0o700);
      const token = readFileSync(path, 'utf8').trim();
      expect(token.length).toBeGreaterThanOrEqual(32);

      // The listening line stays first; the next line says where the token is, and never the token.
      await first.gw.waitForLine(/setup lock/);
      expect(JSON.parse(first.gw.stdout[0]!).msg).toMatch(/^gateway listening/);
      const lines = setupLockLines(first.gw);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'warn', setup_lock: 'generated', path });
      expect(lines[0]!.msg).toContain(path);
      expect(lines[0]!.msg).toContain('X-Gateway-Setup-Token');
      expect(lines[0]!.msg).toContain('GATEWAY_SETUP_TOKEN');

      // The dashboard's unlock page says where the token is (the file), never the token or the path.
      const status = await first.http.get('/api/session/is-auth-enabled');
      expect(status.body).toMatchObject({ setup_required: true, setup_token_source: 'file' });
      expect(status.text).not.toContain(token);
      expect(status.text).not.toContain(appDir);

      const unlocked = await first.http.post(
        '/api/governance/virtual-keys',
        { name: 'first-run' },
        { headers: { 'X-Gateway-Setup-Token': token } },
      );
      expect(unlocked.status).toBe(201);
      const wrong = await first.http.get('/api/governance/virtual-keys', {
        headers: { 'X-Gateway-Setup-Token': 'not-the-generated-token' },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('setup_token_invalid');
      expect((await stop(first.gw)).code).toBe(0);
      expect(first.gw.stdout.join('\n')).not.toContain(token);
      expect(first.gw.stderr()).not.toContain(token);

      const second = await startSpawned(env, { appDir });
      running.push(second.gw);
      expect(readFileSync(path, 'utf8').trim()).toBe(token);
      await second.gw.waitForLine(/setup lock/);
      expect(setupLockLines(second.gw)).toEqual([expect.objectContaining({ setup_lock: 'file', path })]);
      const listed = await second.http.get('/api/governance/virtual-keys', {
        headers: { 'X-Gateway-Setup-Token': token },
      });
      expect(listed.status).toBe(200);
      expect(listed.body.virtual_keys.map((k: { name: string }) => k.name)).toContain('first-run');
      expect(second.gw.stdout.join('\n')).not.toContain(token);
      expect((await stop(second.gw)).code).toBe(0);
    },
    120_000,
  );

  it.skipIf(!TEST_DATABASE_URL)(
    'scale-out, no setup token, no dashboard auth: no per-host token, one line saying what to set',
    async () => {
      const started = await startSpawned(env);
      running.push(started.gw);
      await started.gw.waitForLine(/setup lock/);
      const lines = setupLockLines(started.gw);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'warn', setup_lock: 'none' });
      expect(lines[0]!.msg).toMatch(/GATEWAY_SETUP_TOKEN.*GATEWAY_AUTH_ENABLED/);
      expect(existsSync(join(started.appDir, 'setup-token'))).toBe(false);
      expect((await stop(started.gw)).code).toBe(0);
    },
    90_000,
  );

  it('a configured setup token or dashboard auth prints no setup-lock line and writes no token file', async () => {
    const withToken = await startSpawned({ ...env, GATEWAY_SETUP_TOKEN: 'configured-setup-token-123' });
    running.push(withToken.gw);
    const withAuth = await startSpawned({
      ...env,
      GATEWAY_AUTH_ENABLED: 'true',
      GATEWAY_ADMIN_USERNAME: 'admin',
      GATEWAY_ADMIN_PASSWORD: 'first-run-admin-password',
    });
    running.push(withAuth.gw);
    // GET / sends a browser to the dashboard (public, no credentials; relative, for a proxy's path prefix).
    const root = await fetch(`http://127.0.0.1:${withAuth.port}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('ui/');
    const page = await fetch(`http://127.0.0.1:${withAuth.port}/`);
    expect(page.url).toBe(`http://127.0.0.1:${withAuth.port}/ui/`);
    expect(await page.text()).toContain('<div id="root">');
    expect((await stop(withToken.gw)).code).toBe(0);
    expect((await stop(withAuth.gw)).code).toBe(0);
    // Checked after exit, when every line the processes printed has arrived.
    for (const started of [withToken, withAuth]) {
      expect(setupLockLines(started.gw)).toEqual([]);
      expect(existsSync(join(started.appDir, 'setup-token'))).toBe(false);
    }
  }, 120_000);
});
