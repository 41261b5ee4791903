import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, deleteRedisPrefix } from '../helpers/databases.js';
import { freePort } from '../helpers/gateway-process.js';
import { HttpClient } from '../helpers/http.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import {
  eventually,
  IMAGE,
  IMAGE_SKIP_ENV,
  removeAll,
  runContainer,
  uniqueName,
  waitForLog,
  waitHealthy,
} from './podman.js';

/** The host's Postgres server and Redis (CI's), where this suite makes its own database and key prefix. */
const POSTGRES = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const SETUP = 'image-scale-out-setup';
const CHAT = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] };

/**
 * Two gateway containers (role api: HTTP only) and one worker container on the host's Postgres and Redis, as the
 * chart and docker/compose.yaml run them: what is set through one replica holds on the other, and a job queued on a
 * replica is run by the worker (no api replica runs jobs).
 */
describe.skipIf(!IMAGE)(`the image scaled out${IMAGE ? '' : ` (skipped: ${process.env[IMAGE_SKIP_ENV]})`}`, () => {
  const names = { a: uniqueName('api-a'), b: uniqueName('api-b'), worker: uniqueName('worker') };
  const prefix = `gwt-${randomBytes(5).toString('hex')}`;
  let dropDatabase: (() => Promise<void>) | undefined;
  let sim: Simulator;
  let a: HttpClient;
  let b: HttpClient;

  beforeAll(async () => {
    sim = await startSimulator();
    // An empty database: the three containers start together and migrate it once, under the advisory lock.
    const database = await createScratchDatabase(POSTGRES, { empty: true });
    dropDatabase = database.drop;
    const shared = {
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: REDIS,
      GATEWAY_REDIS_PREFIX: prefix,
      GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true',
    };
    const [portA, portB] = [await freePort(), await freePort()];
    const api = (port: number) => ({ ...shared, GATEWAY_ROLE: 'api', PORT: String(port), GATEWAY_SETUP_TOKEN: SETUP });
    await Promise.all([
      runContainer({ name: names.a, env: api(portA) }),
      runContainer({ name: names.b, env: api(portB) }),
      runContainer({ name: names.worker, env: { ...shared, GATEWAY_ROLE: 'worker' } }),
    ]);
    a = new HttpClient(`http://127.0.0.1:${portA}`, { 'X-Gateway-Setup-Token': SETUP });
    b = new HttpClient(`http://127.0.0.1:${portB}`, { 'X-Gateway-Setup-Token': SETUP });
    const [health] = await Promise.all([
      waitHealthy(a.baseUrl, names.a),
      waitHealthy(b.baseUrl, names.b),
      waitForLog(names.worker, /"msg":"gateway worker started"/),
    ]);
    expect(health).toMatchObject({
      components: { database: { status: 'ok', kind: 'postgres' }, redis: { status: 'ok', kind: 'redis' } },
    });
    expect((await a.post('/api/providers', { provider: 'openai', base_url: `${sim.url}/openai/v1` })).status).toBe(201);
    expect((await a.post('/api/providers/openai/keys', { name: 'main', value: 'sk-scale-out' })).status).toBe(201);
  });

  afterAll(async () => {
    await removeAll(Object.values(names));
    await dropDatabase?.();
    await deleteRedisPrefix(REDIS, prefix);
    await sim?.close();
  });

  it('limits requests through one replica by a budget set through the other', async () => {
    // The first request is admitted (its worst case, 16 output tokens, fits) and the answer's usage, 100,000 input
    // tokens ($0.015 on gpt-4o-mini), spends the budget.
    sim.scenario({ match: { family: 'openai' }, responses: [{ ok: true, usage: { input_tokens: 100_000 } }] });
    const created = await a.post('/api/governance/virtual-keys', {
      name: 'budgeted',
      budgets: [{ max_limit: 0.001, reset_duration: '1h' }],
    });
    expect(created.status, created.text).toBe(201);
    const bearer = { Authorization: `Bearer ${created.body.virtual_key.value as string}` };
    const first = await a.post('/v1/chat/completions', { ...CHAT, max_tokens: 16 }, { headers: bearer });
    expect(first.status, first.text).toBe(200);
    expect(Number(first.headers.get('x-gateway-cost-usd'))).toBeGreaterThan(0.001);

    // Replica B learns of the key from the invalidation bus and reads the spend from the shared counters.
    const refused = await eventually(async () => {
      const res = await b.post('/v1/chat/completions', { ...CHAT, max_tokens: 16 }, { headers: bearer });
      return res.status === 401 ? undefined : res;
    });
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body.error.code).toBe('budget_exceeded');
    expect(refused.body.error.message).toMatch(/^Virtual key 'budgeted' budget exceeded/);
    expect(sim.requests({ family: 'openai' })).toHaveLength(1);
  });

  it('runs a job queued on one replica on the worker, and answers its result on the other', async () => {
    const created = await b.post('/api/governance/virtual-keys', { name: 'async' });
    expect(created.status, created.text).toBe(201);
    const bearer = { Authorization: `Bearer ${created.body.virtual_key.value as string}` };
    const queued = await eventually(async () => {
      const res = await a.post('/v1/async/chat/completions', CHAT, { headers: bearer });
      return res.status === 401 ? undefined : res;
    });
    expect(queued.status, queued.text).toBe(202);
    const done = await eventually(async () => {
      const res = await b.get(`/v1/async/chat/completions/${queued.body.id as string}`, { headers: bearer });
      return res.status === 202 ? undefined : res;
    }, 60_000);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', status_code: 200 });
    expect(done.body.result.choices[0].message.content).toBe('echo: hello');
  });
});
