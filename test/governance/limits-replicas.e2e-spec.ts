import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS } from '../helpers/gateway-process.js';
import type { HttpClient } from '../helpers/http.js';
import { runModeEnv, startSpawned, type SpawnedGateway } from '../helpers/spawned-gateway.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

const SETUP_TOKEN = 'setup-token-123456';
const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'which replica' }], max_tokens: 8 };

/**
 * Issue 11 §5: two gateway processes (`node dist/src/main.js`, as a user starts them) on one Postgres and one Redis.
 * Requests alternate between them at one key; the key's limit holds for the pair, and a change made through one is
 * enforced by the other within a second. Needs `npm run build` and the Postgres + Redis run mode.
 */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL || !existsSync(MAIN_JS))('limits across two replicas', () => {
  let sim: Simulator;
  let a: SpawnedGateway;
  let b: SpawnedGateway;
  let cleanUp: () => Promise<void>;
  let adminA: HttpClient;
  let keyId: string;
  let onA: HttpClient;
  let onB: HttpClient;

  beforeAll(async () => {
    sim = await startSimulator();
    const mode = await runModeEnv();
    cleanUp = mode.cleanUp;
    const env = { ...mode.env, GATEWAY_SETUP_TOKEN: SETUP_TOKEN, GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' };
    a = await startSpawned(env);
    b = await startSpawned(env);
    adminA = a.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
    expect((await adminA.post('/api/providers', { provider: 'openai', base_url: `${sim.url}/openai/v1` })).status).toBe(
      201,
    );
    expect((await adminA.post('/api/providers/openai/keys', { name: 'oa', value: 'sk-oa' })).status).toBe(201);
    expect(
      (await adminA.post('/api/providers', { provider: 'anthropic', base_url: `${sim.url}/anthropic` })).status,
    ).toBe(201);
    expect((await adminA.post('/api/providers/anthropic/keys', { name: 'an', value: 'sk-an' })).status).toBe(201);
    const created = await adminA.post('/api/governance/virtual-keys', {
      name: 'replicated',
      rate_limit: { request_max_limit: 20, request_reset_duration: '1h' },
    });
    expect(created.status, created.text).toBe(201);
    keyId = created.body.virtual_key.id;
    const auth = { authorization: `Bearer ${created.body.virtual_key.value}` };
    onA = a.http.withHeaders(auth);
    onB = b.http.withHeaders(auth);
  }, 120_000);

  afterAll(async () => {
    for (const replica of [a, b]) replica?.gw.child.kill('SIGTERM');
    await Promise.all([a, b].map((replica) => replica?.gw.exit));
    await cleanUp?.();
    await sim?.close();
  });

  /** Polls `check` every 25 ms; the time it took until it held (throws after `limitMs` × 3). */
  async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > limitMs * 3) throw new Error('not enforced in time');
      await new Promise((r) => setTimeout(r, 25));
    }
    return Date.now() - started;
  }

  it('alternating requests at one key: the limit holds for the pair', async () => {
    sim.reset();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await (i % 2 === 0 ? onA : onB).post('/v1/chat/completions', chat)).status);
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThanOrEqual(20);
    expect(served).toBeLessThanOrEqual(21);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
    expect(sim.requests().length).toBe(served);
    // Both replicas refuse now.
    expect((await onA.post('/v1/chat/completions', chat)).status).toBe(429);
    expect((await onB.post('/v1/chat/completions', chat)).status).toBe(429);
  });

  it('a change made on one replica is enforced by the other within a second', async () => {
    const raised = await adminA.put(`/api/governance/virtual-keys/${keyId}`, {
      rate_limit: { request_max_limit: 1000, request_reset_duration: '1h' },
    });
    expect(raised.status, raised.text).toBe(200);
    const served = await timeUntil(async () => (await onB.post('/v1/chat/completions', chat)).status === 200, 1_000);
    expect(served).toBeLessThan(1_000);

    const restricted = await adminA.put(`/api/governance/virtual-keys/${keyId}`, {
      provider_configs: [{ provider: 'anthropic', weight: 1, allowed_models: ['*'], key_ids: ['*'] }],
    });
    expect(restricted.status, restricted.text).toBe(200);
    const blocked = await timeUntil(async () => (await onB.post('/v1/chat/completions', chat)).status === 403, 1_000);
    expect(blocked).toBeLessThan(1_000);
  });
});
