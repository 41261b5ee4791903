import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, migratedAppDir } from '../helpers/databases.js';
import { freePort, MAIN_JS, spawnGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { HttpClient } from '../helpers/http.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';

const SETUP = { 'X-Gateway-Setup-Token': 'setup-token-123456' };
const running: GatewayProcess[] = [];

async function startProcess(args: string[], env: Record<string, string>, cwd?: string) {
  const port = await freePort();
  const gw = spawnGateway(
    ['--port', String(port), ...args],
    { GATEWAY_SETUP_TOKEN: SETUP['X-Gateway-Setup-Token'], ...env },
    cwd,
  );
  running.push(gw);
  // A first start on a fresh app dir runs initdb and every migration: ~10 s on a quiet machine, 30 s beside the other
  // test worker's suites on 2 cores.
  const first = await gw.waitForLine(/gateway listening/, 60_000);
  return {
    gw,
    port,
    first: JSON.parse(first) as Record<string, unknown>,
    http: new HttpClient(`http://127.0.0.1:${port}`),
  };
}

async function stop(gw: GatewayProcess) {
  gw.child.kill('SIGTERM');
  return gw.exit;
}

describe.skipIf(!existsSync(MAIN_JS))('the gateway process (npm start)', () => {
  afterAll(async () => {
    for (const gw of running) if (gw.child.exitCode === null) gw.child.kill('SIGKILL');
  });

  it('a bad config stops the process with a non-zero exit and one line per problem naming the key', async () => {
    const gw = spawnGateway(['--port', 'eighty'], { GATEWAY_EDITION: 'platinum', LOG_LEVEL: 'loud' });
    const { code } = await gw.exit;
    expect(code).toBe(2);
    const lines = gw.stderr().trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^config: edition: /),
        expect.stringMatching(/^config: port: /),
        expect.stringMatching(/^config: log_level: /),
      ]),
    );
    expect(lines).toHaveLength(3);
  });

  it('a bad encryption_key exits 2 with one config line naming the key, no stack trace', async () => {
    const gw = spawnGateway(['--app-dir', mkdtempSync(join(tmpdir(), 'gw-badkey-'))], {
      GATEWAY_ENCRYPTION_KEY: 'not-a-32-byte-key',
    });
    expect((await gw.exit).code).toBe(2);
    expect(gw.stderr().trim().split('\n')).toEqual([
      'config: encryption_key: must be 32 bytes encoded as base64 (44 characters) or hex (64 characters)',
    ]);
    expect(gw.stderr()).not.toContain('not-a-32-byte-key');
  });

  it('a bad encryption key file in the app dir exits 2 with a config line naming the file', async () => {
    const appDir = mkdtempSync(join(tmpdir(), 'gw-badkeyfile-'));
    writeFileSync(join(appDir, 'encryption.key'), 'garbage\n');
    const gw = spawnGateway(['--port', String(await freePort()), '--app-dir', appDir], {
      GATEWAY_SETUP_TOKEN: SETUP['X-Gateway-Setup-Token'],
    });
    expect((await gw.exit).code).toBe(2);
    const lines = gw.stderr().trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^config: encryption_key file .*encryption\.key must be 32 bytes/)]);
    expect(gw.stderr()).not.toMatch(/^\s+at /m);
  });

  it('dashboard auth enabled without its credentials exits 2 naming each missing key', async () => {
    const gw = spawnGateway([], { GATEWAY_AUTH_ENABLED: 'true', GATEWAY_ADMIN_USERNAME: 'admin' });
    expect((await gw.exit).code).toBe(2);
    expect(gw.stderr().trim().split('\n')).toEqual([
      'config: auth_config.admin_password: is required when auth_config.is_enabled is true (or GATEWAY_ADMIN_PASSWORD)',
    ]);
    const both = spawnGateway([], { GATEWAY_AUTH_ENABLED: 'true' });
    expect((await both.exit).code).toBe(2);
    expect(both.stderr()).toMatch(/^config: auth_config\.admin_username: is required/m);
    expect(both.stderr()).toMatch(/^config: auth_config\.admin_password: is required/m);
  });

  it('--port 0 logs the port the OS bound, not 0', async () => {
    const gw = spawnGateway(['--port', '0', '--app-dir', migratedAppDir({}, 'gw-port0-')], {
      GATEWAY_SETUP_TOKEN: SETUP['X-Gateway-Setup-Token'],
    });
    running.push(gw);
    const line = JSON.parse(await gw.waitForLine(/gateway listening/, 60_000)) as Record<string, unknown>;
    expect(line.port).toEqual(expect.any(Number));
    expect(line.port).toBeGreaterThan(0);
    expect(line.address).toBe(`http://127.0.0.1:${String(line.port)}`);
    expect(line.msg).toContain(`http://127.0.0.1:${String(line.port)} `);
    expect((await fetch(`http://127.0.0.1:${String(line.port)}/health`)).status).toBe(200);
    expect((await stop(gw)).code).toBe(0);
  }, 60_000);

  // Each test starts a fresh embedded gateway (about 11 s quiet, over twice that under CI's load).
  // The embedded run of `npm test` covers this part; the Postgres + Redis run would start the same processes again.
  describe.skipIf(TEST_DATABASE_URL)('embedded default (no DATABASE_URL, no REDIS_URL)', { timeout: 90_000 }, () => {
    let cwd: string;
    beforeAll(() => {
      cwd = mkdtempSync(join(tmpdir(), 'gw-proc-'));
    });

    it('starts with ./data, logs address, edition, database and queue first, serves /health, keeps data across a restart', async () => {
      const first = await startProcess([], {}, cwd);
      expect(first.first.msg).toMatch(/^gateway listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(first.first).toMatchObject({
        edition: 'oss',
        queue: 'in-process',
        database: `pglite:${join(cwd, 'data', 'pgdata')}`,
      });
      // The first line the process prints is this one.
      expect(JSON.parse(first.gw.stdout[0]!).msg).toBe(first.first.msg);
      expect(existsSync(join(cwd, 'data', 'pgdata'))).toBe(true);
      const health = await first.http.get('/health');
      expect(health.status).toBe(200);
      expect(health.body.components.database.kind).toBe('pglite');

      const created = await first.http.post(
        '/api/governance/virtual-keys',
        { name: 'survives-restart' },
        { headers: SETUP },
      );
      expect(created.status).toBe(201);
      expect((await stop(first.gw)).code).toBe(0);

      const second = await startProcess([], {}, cwd);
      const listed = await second.http.get('/api/governance/virtual-keys', { headers: SETUP });
      expect(listed.status).toBe(200);
      expect(listed.body.virtual_keys.map((k: { name: string }) => k.name)).toContain('survives-restart');
      expect((await stop(second.gw)).code).toBe(0);
    }, 90_000);

    it("a first start on a fresh app dir unpacks the build's database template: peak memory under 500 MB", async () => {
      // initdb grows PGlite's WASM memory to about 600 MB for the process's peak (VmHWM 703 MB with npm start's node
      // flags); the template unpacked by the serving instance peaks near 384 MB (docs/benchmarks.md).
      const script = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')).scripts
        .start as string;
      const nodeFlags = script.split(' ').filter((word) => word.startsWith('--'));
      const appDir = mkdtempSync(join(tmpdir(), 'gw-first-start-'));
      const gw = spawnGateway(
        ['--port', String(await freePort()), '--app-dir', appDir],
        { GATEWAY_SETUP_TOKEN: SETUP['X-Gateway-Setup-Token'] },
        undefined,
        nodeFlags,
      );
      running.push(gw);
      await gw.waitForLine(/gateway listening/, 60_000);
      const status = readFileSync(`/proc/${gw.child.pid}/status`, 'utf8');
      const peakMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024;
      expect(existsSync(join(appDir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(peakMb).toBeLessThan(500);
      expect((await stop(gw)).code).toBe(0);
    });

    it('SIGTERM drains an in-flight request, then exits 0', async () => {
      const { gw, port } = await startProcess([], {}, cwd);
      // Send the headers and half of a body, signal, then finish the body: the request must still be answered.
      const body = JSON.stringify({ username: 'someone', password: 'not-the-password' });
      const answered = new Promise<number>((ok, fail) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/session/login',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => ok(res.statusCode ?? 0));
          },
        );
        req.on('error', fail);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          gw.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(10)), 300);
        }, 200);
      });
      const status = await answered;
      expect(status).toBeGreaterThanOrEqual(200);
      expect(status).toBeLessThan(500);
      const { code } = await gw.exit;
      expect(code).toBe(0);
      expect(gw.stdout.some((l) => l.includes('shutdown complete'))).toBe(true);
    });

    it('--role worker runs without HTTP', async () => {
      const port = await freePort();
      const gw = spawnGateway(
        ['--role', 'worker', '--port', String(port), '--app-dir', migratedAppDir({}, 'gw-worker-')],
        {},
      );
      running.push(gw);
      const line = JSON.parse(await gw.waitForLine(/gateway worker started/)) as Record<string, unknown>;
      expect(line).toMatchObject({ role: 'worker', queue: 'in-process' });
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
      expect((await stop(gw)).code).toBe(0);
    });
  });

  describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('scale-out (DATABASE_URL and REDIS_URL)', () => {
    it('uses Postgres and Redis when configured', async () => {
      const scratch = await createScratchDatabase(TEST_DATABASE_URL!);
      try {
        const { gw, first, http } = await startProcess(['--app-dir', mkdtempSync(join(tmpdir(), 'gw-scale-'))], {
          DATABASE_URL: scratch.url,
          REDIS_URL: TEST_REDIS_URL!,
          GATEWAY_REDIS_PREFIX: `gwt-proc-${process.pid}`,
          GATEWAY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
        });
        expect(first).toMatchObject({
          queue: 'bullmq',
          database: expect.stringMatching(/^postgres:\/\/127\.0\.0\.1:5432\/gw_test_/),
        });
        const health = await http.get('/health');
        expect(health.status).toBe(200);
        expect(health.body.components).toMatchObject({
          database: { kind: 'postgres', status: 'ok' },
          redis: { kind: 'redis', status: 'ok' },
        });
        expect((await stop(gw)).code).toBe(0);
      } finally {
        await scratch.drop();
      }
    });
  });
});
