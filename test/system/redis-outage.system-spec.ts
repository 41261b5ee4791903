import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../helpers/databases.js';
import { expectGatewayError } from '../helpers/gateway-error.js';
import { MAIN_JS } from '../helpers/gateway-process.js';
import type { HttpClient } from '../helpers/http.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import {
  CHAT,
  eventually,
  loadLoop,
  postJson,
  sleep,
  startOutageGateway,
  virtualKey,
  type Answer,
  type OutageGateway,
} from './outage-kit.js';
import { IS_LONG } from './profile.js';
import { startPrivateRedis, type PrivateRedis } from './services.js';

const OUTAGE_MS = IS_LONG ? 10_000 : 5_000;
const COUNTER_TIMEOUT_MS = 300;
/** Every request is answered within this: the counter timeout plus a wide margin for a busy 2-core machine. */
const ANSWER_BOUND_MS = COUNTER_TIMEOUT_MS + 4_700;
const ASYNC_PATH = '/v1/async/chat/completions';
/** A limit far above what the suite sends: a governed key whose every request does counter work, never refused. */
const GOVERNED = { rate_limit: { request_max_limit: 1_000_000, request_reset_duration: '1h' } };

type Key = { id: string; value: string; client: HttpClient };

/**
 * Issue 18 §3: Redis stopped under load, then started. Two gateway processes on one private Redis (the machine's
 * shared one is never stopped) and a scratch database on the shared Postgres: one with `redis_failure_mode: closed`,
 * one with `open`. Governed requests follow the mode while Redis is down (503 `gateway_limits_unavailable`, or served),
 * ungoverned ones are served, nothing waits past the counter timeout and a margin, governed requests are served again
 * once Redis is back, and every async job accepted before, during and after the outage completes: BullMQ reconnects
 * and none is lost. Scale-out only.
 */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL || !existsSync(MAIN_JS))('Redis outage under load', () => {
  let sim: Simulator;
  let redis: PrivateRedis;
  let dropDatabase: (() => Promise<void>) | undefined;
  let closed: OutageGateway;
  let open: OutageGateway;
  let closedKey: Key;
  let openKey: Key;
  let freeKey: Key;

  beforeAll(async () => {
    sim = await startSimulator({ maxCaptured: 0 });
    redis = await startPrivateRedis();
    const scratch = await createScratchDatabase(TEST_DATABASE_URL!);
    dropDatabase = scratch.drop;
    // Two replicas of one deployment (one database, one Redis prefix), started side by side: the second reads the
    // provider the first configures through the invalidation bus.
    const prefix = `gwt-${randomBytes(5).toString('hex')}`;
    const shared = {
      GATEWAY_GOVERNANCE_COUNTER_TIMEOUT: `${COUNTER_TIMEOUT_MS}ms`,
      GATEWAY_REDIS_PREFIX: prefix,
      GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    [closed, open] = await Promise.all([
      startOutageGateway(sim, scratch.url, redis.url, { ...shared, GATEWAY_GOVERNANCE_REDIS_FAILURE_MODE: 'closed' }),
      startOutageGateway(
        sim,
        scratch.url,
        redis.url,
        { ...shared, GATEWAY_GOVERNANCE_REDIS_FAILURE_MODE: 'open' },
        { configured: true },
      ),
    ]);
    closedKey = await virtualKey(closed, 'governed-closed', GOVERNED);
    openKey = await virtualKey(closed, 'governed-open', GOVERNED);
    freeKey = await virtualKey(closed, 'ungoverned');
    // Keys are snapshots on every replica: wait until the second one knows them.
    await eventually(
      async () =>
        (await open.http.post('/v1/chat/completions', CHAT, { headers: { authorization: `Bearer ${openKey.value}` } }))
          .status === 200,
      10_000,
      'the open replica knows the keys',
    );
  });

  afterAll(async () => {
    for (const gateway of [closed, open]) {
      if (gateway && gateway.gw.child.exitCode === null) {
        gateway.gw.child.kill('SIGKILL');
        await gateway.gw.exit;
      }
    }
    await redis?.close();
    await dropDatabase?.();
    await sim?.close();
  });

  it('follows redis_failure_mode, never hangs, serves governed requests again, loses no async job', async () => {
    const jobs: Array<{ id: string; phase: string }> = [];
    const submits: Answer[] = [];
    const submit = async (phase: string) => {
      const startedAt = Date.now();
      try {
        const res = await freeKey.client.request('POST', ASYNC_PATH, {
          body: CHAT,
          signal: AbortSignal.timeout(ANSWER_BOUND_MS * 3),
        });
        submits.push({ status: res.status, startedAt, ms: Date.now() - startedAt, body: res.text });
        if (res.status === 202) jobs.push({ id: (res.body as { id: string }).id, phase });
      } catch (err) {
        submits.push({ status: 0, startedAt, ms: Date.now() - startedAt, body: '', error: String(err) });
      }
    };
    for (let i = 0; i < 3; i++) await submit('before');

    const timeoutMs = ANSWER_BOUND_MS * 3;
    const loads = {
      closed: loadLoop((signal) => postJson(closedKey.client, '/v1/chat/completions', CHAT, signal), {
        clients: 4,
        maxMs: OUTAGE_MS + 60_000,
        timeoutMs,
      }),
      open: loadLoop(
        (signal) =>
          postJson(open.http, '/v1/chat/completions', CHAT, signal, { authorization: `Bearer ${openKey.value}` }),
        { clients: 3, maxMs: OUTAGE_MS + 60_000, timeoutMs },
      ),
      free: loadLoop((signal) => postJson(freeKey.client, '/v1/chat/completions', CHAT, signal), {
        clients: 3,
        maxMs: OUTAGE_MS + 60_000,
        timeoutMs,
      }),
    };
    await sleep(1_000);
    await redis.stop();
    const downAt = Date.now();
    while (Date.now() - downAt < OUTAGE_MS - 500) {
      await submit('during');
      await sleep(500);
    }
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - downAt)));
    await redis.start();
    const upAt = Date.now();

    // Governed requests on the closed replica are served again once Redis is back.
    const back = await eventually(
      async () => {
        const res = await closedKey.client.post('/v1/chat/completions', CHAT);
        return res.status === 200 ? Date.now() : undefined;
      },
      20_000,
      'closed-mode governed request served after recovery',
    );
    await sleep(1_500);
    for (let i = 0; i < 3; i++) await submit('after');
    for (const load of Object.values(loads)) load.stop();
    const [closedAnswers, openAnswers, freeAnswers] = await Promise.all(Object.values(loads).map((load) => load.done));

    // No request hangs: every one answered, within the bound.
    const sets = { closed: closedAnswers!, open: openAnswers!, ungoverned: freeAnswers!, async: submits };
    for (const [name, answers] of Object.entries(sets)) {
      const slow = answers.filter((a) => a.status === 0 || a.ms > ANSWER_BOUND_MS);
      const at = (a: Answer) => `${a.status} ${a.ms} ms at ${a.startedAt - downAt} ms from the stop`;
      expect(slow.map(at).slice(0, 5), `${name}: ${summary(answers)}`).toEqual([]);
    }

    // closed: served, or 503 gateway_limits_unavailable while Redis is down; refused at least once during it.
    const closedDuring = closedAnswers!.filter((a) => a.startedAt >= downAt && a.startedAt < upAt);
    const refused = closedAnswers!.filter((a) => a.status !== 200);
    expect(refused.length, summary(closedAnswers!)).toBeGreaterThan(0);
    expect(closedDuring.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.status, answer.body).toBe(503);
      const body = JSON.parse(answer.body) as { extra_fields: { error_type?: string } };
      expectGatewayError(body, 503, 'gateway_limits_unavailable');
      expect(body.extra_fields.error_type).toBe('gateway_internal');
      // Only while Redis was down (and the moment it takes the replica to reconnect).
      expect(answer.startedAt).toBeGreaterThanOrEqual(downAt - 1_000);
      expect(answer.startedAt).toBeLessThan(back);
    }
    // After recovery: all served.
    expect(closedAnswers!.filter((a) => a.startedAt > back).every((a) => a.status === 200)).toBe(true);

    // open: every governed request served; ungoverned: every request served.
    expect(openAnswers!.filter((a) => a.status !== 200).slice(0, 3), summary(openAnswers!)).toEqual([]);
    expect(freeAnswers!.filter((a) => a.status !== 200).slice(0, 3), summary(freeAnswers!)).toEqual([]);
    expect(openAnswers!.filter((a) => a.startedAt >= downAt && a.startedAt < upAt).length).toBeGreaterThan(0);

    // Async: every submit accepted or refused with a GatewayError; every accepted job completes, none lost.
    for (const answer of submits.filter((a) => a.status !== 202)) {
      expect(answer.status, answer.body).toBe(503);
      expectGatewayError(JSON.parse(answer.body), 503, 'service_unavailable');
    }
    expect(jobs.filter((j) => j.phase === 'before')).toHaveLength(3);
    expect(jobs.filter((j) => j.phase === 'after')).toHaveLength(3);
    const finished = await eventually(
      async () => {
        const polls = await Promise.all(jobs.map((job) => freeKey.client.get(`${ASYNC_PATH}/${job.id}`)));
        return polls.every((p) => p.status === 200) ? polls : undefined;
      },
      60_000,
      `every async job of ${jobs.length} finished`,
    );
    for (const poll of finished) {
      expect(poll.body.status, poll.text).toBe('completed');
      expect(poll.body.result.choices[0].message.content).toBe('echo: still there');
    }

    for (const gateway of [closed, open]) expect(gateway.gw.child.exitCode).toBeNull();
    console.log(
      `redis outage ${OUTAGE_MS} ms: closed ${closedAnswers!.length} (${refused.length} refused), open ` +
        `${openAnswers!.length}, ungoverned ${freeAnswers!.length}, async jobs ${jobs.length} of ${submits.length} ` +
        `submits (${jobs.filter((j) => j.phase === 'during').length} during), governed served again ` +
        `${back - upAt} ms after Redis restarted`,
    );
  });

  it('exits 0 at once on SIGTERM while Redis is down, one warning per client instead of stderr noise', async () => {
    await redis.stop();
    try {
      // Each replica notices the outage (its health says so) before the signal: SIGTERM meets reconnecting clients.
      await eventually(
        async () => (await open.http.get('/health')).status === 503,
        10_000,
        'the replica sees Redis down',
      );
      const signalledAt = Date.now();
      open.gw.child.kill('SIGTERM');
      const exit = await open.gw.exit;
      const ms = Date.now() - signalledAt;
      // Before: BullMQ's QUIT and the subscribers' waited in their offline queues until the 25 s drain timeout, exit 1.
      expect(exit, open.gw.stderr()).toEqual({ code: 0, signal: null });
      expect(ms).toBeLessThan(10_000);
      expect(open.gw.stdout.join('\n')).toContain('shutdown complete');
      expect(open.gw.stderr()).not.toContain('[ioredis] Unhandled error event');
    } finally {
      await redis.start();
    }
  });
});

function summary(answers: Answer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(String(a.status), (counts.get(String(a.status)) ?? 0) + 1);
  const bad = answers.find((a) => a.status !== 200 && a.status !== 202);
  const slowest = answers.reduce((max, a) => Math.max(max, a.ms), 0);
  return `${JSON.stringify(Object.fromEntries(counts))}, slowest ${slowest} ms; first failure: ${bad ? `${bad.status} ${bad.error ?? ''} ${bad.body.slice(0, 300)}` : 'none'}`;
}
