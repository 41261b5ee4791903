import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, type GatewayProcess } from '../helpers/gateway-process.js';
import { heldRequest, runModeEnv, startSpawned } from '../helpers/spawned-gateway.js';
import { RUN_MODE } from '../helpers/test-env.js';

const SETUP_TOKEN = 'shutdown-setup-token-123456';
const running: GatewayProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Each test starts a gateway process: on the embedded default a fresh PGlite database (about 11 s on a quiet 2-core
// machine, over twice that with CI's suites alongside), so the default 30 s leaves no room.
describe.skipIf(!existsSync(MAIN_JS))(`shutdown of the gateway process (${RUN_MODE})`, { timeout: 90_000 }, () => {
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  beforeAll(async () => {
    ({ env, cleanUp } = await runModeEnv());
    env = { ...env, GATEWAY_SETUP_TOKEN: SETUP_TOKEN };
  });
  afterAll(async () => {
    for (const gw of running) if (gw.child.exitCode === null) gw.child.kill('SIGKILL');
    await cleanUp?.();
  });

  it('during the drain new requests get a 503 service_unavailable GatewayError with Connection: close, the in-flight one finishes, exit 0', async () => {
    const { gw, port, http } = await startSpawned(env);
    running.push(gw);
    const held = heldRequest(port, '/api/session/login', { username: 'someone', password: 'not-the-password' });
    await sleep(300);
    gw.child.kill('SIGTERM');
    const draining = JSON.parse(await gw.waitForLine(/shutting down/)) as Record<string, unknown>;
    expect(draining.in_flight_requests).toBe(1);

    // A new request on a new connection while the held one is still running.
    const refused = await http.get('/health');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.body).toMatchObject({
      is_gateway_error: true,
      status_code: 503,
      type: 'service_unavailable',
      error: { code: 'service_unavailable', event_id: refused.body.event_id },
    });
    const management = await http.get('/api/governance/virtual-keys', {
      headers: { 'X-Gateway-Setup-Token': SETUP_TOKEN },
    });
    expect(management.status).toBe(503);
    expect(management.body.error.code).toBe('service_unavailable');
    expect(gw.child.exitCode).toBeNull();

    held.finish();
    const answered = await held.answered;
    // Login with a wrong password: answered by the route (not cut off, not refused by the drain).
    expect(answered.status).toBeGreaterThanOrEqual(400);
    expect(answered.status).toBeLessThan(500);
    expect(JSON.parse(answered.body).error.code).not.toBe('service_unavailable');
    const exit = await gw.exit;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(gw.stdout.some((l) => l.includes('shutdown complete'))).toBe(true);
  });

  it('a second SIGTERM during the drain exits 1, not by signal', async () => {
    const { gw, port } = await startSpawned(env);
    running.push(gw);
    const held = heldRequest(port, '/api/session/login', { username: 'someone', password: 'x' });
    held.answered.catch(() => undefined);
    await sleep(300);
    gw.child.kill('SIGTERM');
    await gw.waitForLine(/shutting down/);
    const started = Date.now();
    gw.child.kill('SIGTERM');
    const exit = await gw.exit;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(gw.stdout.some((l) => l.includes('second signal'))).toBe(true);
    held.req.destroy();
  });
});
