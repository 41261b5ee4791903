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
 * Issue 12 §2–§3: two gateway processes (`node dist/src/main.js`) on one Postgres and one Redis. A circuit opened by a
 * signal answered through replica A diverts replica B's very next request (B's primary gets nothing), a circuit
 * closed by hand through B lets A call the primary again, and a policy created through A acts on B. Needs
 * `npm run build` and the Postgres + Redis run mode.
 */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL || !existsSync(MAIN_JS))('circuits across two replicas', () => {
  let sim: Simulator;
  let a: SpawnedGateway;
  let b: SpawnedGateway;
  let cleanUp: () => Promise<void>;
  let adminA: HttpClient;
  let adminB: HttpClient;
  let onA: HttpClient;
  let onB: HttpClient;

  beforeAll(async () => {
    sim = await startSimulator();
    const mode = await runModeEnv();
    cleanUp = mode.cleanUp;
    const env = {
      ...mode.env,
      GATEWAY_SETUP_TOKEN: SETUP_TOKEN,
      GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true',
      GATEWAY_EDITION: 'enterprise',
    };
    a = await startSpawned(env);
    b = await startSpawned(env);
    adminA = a.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
    adminB = b.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
    for (const [provider, base] of [
      ['openai', `${sim.url}/openai/v1`],
      ['anthropic', `${sim.url}/anthropic`],
    ] as const) {
      expect((await adminA.post('/api/providers', { provider, base_url: base })).status).toBe(201);
      expect(
        (await adminA.post(`/api/providers/${provider}/keys`, { name: provider, value: `sk-${provider}` })).status,
      ).toBe(201);
    }
    const created = await adminA.post('/api/governance/virtual-keys', { name: 'replicated' });
    expect(created.status, created.text).toBe(201);
    const auth = { authorization: `Bearer ${created.body.virtual_key.value}` };
    onA = a.http.withHeaders(auth);
    onB = b.http.withHeaders(auth);
    const policy = await adminA.post('/api/circuit-breaker/policies', {
      name: 'shared',
      primary_provider: 'openai',
      primary_model: 'gpt-4o-mini',
      fallback_provider: 'anthropic',
      fallback_model: 'claude-3-5-haiku-latest',
      condition: { signals: [{ source: 'response_header', header_name: 'x-overloaded', header_value: 'true' }] },
      default_cooldown: '5m',
    });
    expect(policy.status, policy.text).toBe(201);
  }, 120_000);

  afterAll(async () => {
    for (const replica of [a, b]) replica?.gw.child.kill('SIGTERM');
    await Promise.all([a, b].map((replica) => replica?.gw.exit));
    await cleanUp?.();
    await sim?.close();
  });

  const provider = (res: { headers: Headers }) => res.headers.get('x-gateway-routing-info-provider');

  it('a circuit opened through A diverts B: B calls only the fallback; closing it through B reopens A', async () => {
    // The policy created through A is in force on B: the primary serves while nothing is open.
    expect(provider(await onB.post('/v1/chat/completions', chat))).toBe('openai');
    sim.reset();
    sim.scenario({ match: { family: 'openai' }, responses: [{ ok: true, headers: { 'x-overloaded': 'true' } }] });
    const tripping = await onA.post('/v1/chat/completions', chat);
    expect(tripping.status, tripping.text).toBe(200);
    expect(provider(tripping)).toBe('openai');
    expect(sim.requests({ family: 'openai' })).toHaveLength(1);

    const diverted = await onB.post('/v1/chat/completions', chat);
    expect(diverted.status, diverted.text).toBe(200);
    expect(provider(diverted)).toBe('anthropic');
    expect(diverted.headers.get('x-gateway-routing-info-is-fallback')).toBe('true');
    expect(sim.requests({ family: 'openai' })).toHaveLength(1);
    for (const replica of [onA, onB])
      expect(provider(await replica.post('/v1/chat/completions', chat))).toBe('anthropic');
    expect(sim.requests({ family: 'openai' })).toHaveLength(1);

    // Both replicas report the same circuit (Redis holds it).
    const stateA = await adminA.get('/api/circuit-breaker/state');
    const stateB = await adminB.get('/api/circuit-breaker/state');
    expect(Object.keys(stateA.body.circuits)).toEqual(['shared']);
    expect(stateB.body.circuits).toEqual(stateA.body.circuits);

    expect((await adminB.delete('/api/circuit-breaker/state/shared')).status).toBe(200);
    expect(provider(await onA.post('/v1/chat/completions', chat))).toBe('openai');
    expect((await adminA.get('/api/circuit-breaker/state')).body.circuits).toEqual({});
  });

  it('deleting the policy through B: A stops diverting on its next request', async () => {
    sim.reset();
    sim.scenario({ match: { family: 'openai' }, responses: [{ ok: true, headers: { 'x-overloaded': 'true' } }] });
    await onB.post('/v1/chat/completions', chat);
    expect(provider(await onA.post('/v1/chat/completions', chat))).toBe('anthropic');
    expect((await adminB.delete('/api/circuit-breaker/policies/shared')).status).toBe(200);
    expect(provider(await onA.post('/v1/chat/completions', chat))).toBe('openai');
    expect((await adminA.get('/api/circuit-breaker/state')).body.circuits).toEqual({});
  });
});
