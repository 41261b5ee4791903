import { Injectable, Module } from '@nestjs/common';
import pino from 'pino';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpiredRowsRegistry } from '../../src/core/maintenance/expired-rows.service.js';
import { jobNames, jobSettings, JOBS } from '../../src/core/queue/job-catalogue.js';
import { JobHandler } from '../../src/core/queue/job-handler.decorator.js';
import { JobHandlerRegistry } from '../../src/core/queue/job-handler.registry.js';
import { InProcessQueueDriver } from '../../src/core/queue/in-process.driver.js';
import { runJobAttempt } from '../../src/core/queue/job-runner.js';
import type { JobView } from '../../src/core/queue/job-view.js';
import { QueueService } from '../../src/core/queue/queue.service.js';
import { REDIS } from '../../src/core/redis/redis.module.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';

const MODE = `${RUN_MODE}${TEST_REDIS_URL ? '+redis' : ''}`;
const PURGE = jobSettings(JOBS.purgeExpired);

/** A table with `expired` rows in the past, `live` rows in the future and one row that never expires. */
async function createExpiringTable(db: DataSource, table: string, expired: number, live: number): Promise<void> {
  await db.query(`CREATE TABLE "${table}" (id serial PRIMARY KEY, expires_at timestamptz)`);
  await db.query(
    `INSERT INTO "${table}" (expires_at) SELECT now() - interval '1 hour' - g * interval '1 second' ` +
      `FROM generate_series(1, ${expired}) g`,
  );
  await db.query(
    `INSERT INTO "${table}" (expires_at) SELECT now() + interval '1 hour' FROM generate_series(1, ${live}) g`,
  );
  await db.query(`INSERT INTO "${table}" (expires_at) VALUES (NULL)`);
}

async function counts(db: DataSource, table: string): Promise<{ total: number; expired: number }> {
  const rows: Array<{ total: number; expired: number }> = await db.query(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE expires_at < now()))::int AS expired FROM "${table}"`,
  );
  return rows[0]!;
}

async function waitFor(queue: QueueService, id: string, ok: (v: JobView) => boolean, ms = 15_000): Promise<JobView> {
  const deadline = Date.now() + ms;
  for (;;) {
    const view = await queue.getJob(id);
    if (view && ok(view)) return view;
    if (Date.now() > deadline) throw new Error(`job ${id} never reached the expected state: ${JSON.stringify(view)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Waits for the schedule's first run, which starts with the workers: later assertions about which job purged which
 * rows must not race it.
 */
async function scheduleRan(gw: TestApp): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const run = gw.logs.records().find((l) => l.msg === 'purged expired rows' && l.reason === 'schedule');
    if (run) return run;
    if (Date.now() > deadline) throw new Error('the scheduled purge never ran');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Stand-ins for the jobs other modules own, for the registry checks that are not about them. */
function otherHandlers(): Array<{ name: string; owner: string; fn: () => Promise<unknown> }> {
  return jobNames()
    .filter((name) => name !== JOBS.purgeExpired)
    .map((name) => ({ name, owner: `Other.${name}`, fn: () => Promise.resolve(null) }));
}

@Injectable()
class SecondPurgeHandler {
  @JobHandler(JOBS.purgeExpired)
  purge(): Promise<unknown> {
    return Promise.resolve({ deleted: {} });
  }
}
@Module({ providers: [SecondPurgeHandler] })
class DuplicateHandlerModule {}

const SETUP_TOKEN = 'queue-setup-token-1';

describe(`queue (${MODE})`, () => {
  let gw: TestApp;
  let queue: QueueService;
  let registry: ExpiredRowsRegistry;
  let db: DataSource;

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    queue = gw.app.get(QueueService);
    registry = gw.app.get(ExpiredRowsRegistry);
    db = gw.app.get<DataSource>(getDataSourceToken());
    await scheduleRan(gw);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('uses BullMQ when REDIS_URL is set and the in-process queue otherwise', () => {
    expect(queue.driverKind).toBe(TEST_REDIS_URL ? 'bullmq' : 'in-process');
  });

  it('runs the purge on its schedule from start-up', async () => {
    expect(PURGE.repeatEveryMs).toBe(10 * 60 * 1000);
    const run = await scheduleRan(gw);
    expect(run).toMatchObject({ attempt: 1, failures: [] });
    expect(run.deleted).toBeTypeOf('object');
    const view = await queue.getJob(run.job_id as string);
    expect(view).toMatchObject({ name: 'maintenance.purge-expired', state: 'completed', attempts_made: 1 });
  });

  it('purges expired rows of a registered table in batches and keeps the live ones', async () => {
    await createExpiringTable(db, 'qt_sessions', 2_345, 3);
    registry.register({ name: 'qt_sessions', table: 'qt_sessions', column: 'expires_at' });
    try {
      const { id, deduplicated } = await queue.enqueue(JOBS.purgeExpired, { reason: 'test' });
      expect(deduplicated).toBe(false);
      const view = await queue.waitForCompletion(id, 20_000);
      expect(view).toMatchObject({
        id,
        name: 'maintenance.purge-expired',
        state: 'completed',
        attempts_made: 1,
        progress: 100,
        result: { deleted: { qt_sessions: 2_345 } },
      });
      expect(view.error).toBeUndefined();
      expect(Date.parse(view.finished_at!)).toBeGreaterThanOrEqual(Date.parse(view.created_at));
      expect(await counts(db, 'qt_sessions')).toEqual({ total: 4, expired: 0 });
      const logged = gw.logs.records().find((l) => l.msg === 'purged expired rows' && l.job_id === id);
      expect(logged?.deleted).toMatchObject({ qt_sessions: 2_345 });

      // Nothing left to delete the second time.
      const again = await queue.enqueue(JOBS.purgeExpired, {});
      expect((await queue.waitForCompletion(again.id, 20_000)).result).toMatchObject({ deleted: { qt_sessions: 0 } });
    } finally {
      registry.unregister('qt_sessions');
    }
  });

  it('makes enqueue idempotent by job id while the job exists', async () => {
    const first = await queue.enqueue(JOBS.purgeExpired, { reason: 'one' }, { jobId: 'purge-idem-1' });
    const second = await queue.enqueue(JOBS.purgeExpired, { reason: 'two' }, { jobId: 'purge-idem-1' });
    expect(first).toEqual({ id: 'purge-idem-1', deduplicated: false });
    expect(second).toEqual({ id: 'purge-idem-1', deduplicated: true });
    const done = await queue.waitForCompletion('purge-idem-1', 20_000);
    expect(done.state).toBe('completed');
    // Kept after completion (keepCompletedMs), so still the same job.
    expect(await queue.enqueue(JOBS.purgeExpired, {}, { jobId: 'purge-idem-1' })).toEqual({
      id: 'purge-idem-1',
      deduplicated: true,
    });
    expect((await queue.getJob('purge-idem-1'))?.attempts_made).toBe(1);
    // One run, with the first payload: the duplicates were not queued.
    const runs = gw.logs.records().filter((l) => l.msg === 'purged expired rows' && l.job_id === 'purge-idem-1');
    expect(runs.map((l) => l.reason)).toEqual(['one']);
    const a = await queue.enqueue(JOBS.purgeExpired, {});
    const b = await queue.enqueue(JOBS.purgeExpired, {});
    expect(a.id).not.toBe(b.id);
    expect(await queue.getJob('no-such-job')).toBeNull();
    await expect(queue.enqueue(JOBS.purgeExpired, {}, { jobId: 'has:colon' })).rejects.toThrow(/invalid job id/);
  });

  it('retries a failing job with the table backoff and fails it after the last attempt', async () => {
    expect(PURGE.attempts).toBe(3);
    expect(PURGE.backoff).toEqual({ type: 'exponential', delayMs: 1_000 });
    registry.register({ name: 'qt_missing', table: 'qt_missing', column: 'expires_at' });
    try {
      const { id } = await queue.enqueue(JOBS.purgeExpired, { reason: 'doomed' });
      const afterFirst = await waitFor(queue, id, (v) => v.attempts_made >= 1);
      expect(afterFirst.state).toBe('delayed');
      expect(afterFirst.error).toMatch(/qt_missing/);
      const view = await queue.waitForCompletion(id, 20_000);
      expect(view).toMatchObject({ state: 'failed', attempts_made: 3 });
      expect(view.error).toMatch(/purge failed for qt_missing: .*qt_missing/);
      expect(view.result).toBeUndefined();
      // Backoff 1 s then 2 s between the three attempts.
      expect(Date.parse(view.finished_at!) - Date.parse(view.created_at)).toBeGreaterThanOrEqual(2_900);
      const attempts = gw.logs
        .records()
        .filter((l) => l.msg === 'purged expired rows' && l.job_id === id)
        .map((l) => l.attempt);
      expect(attempts).toEqual([1, 2, 3]);
    } finally {
      registry.unregister('qt_missing');
    }
  });

  it('succeeds on a retry once the cause of the failure is gone', async () => {
    registry.register({ name: 'qt_late', table: 'qt_late', column: 'expires_at' });
    try {
      const { id } = await queue.enqueue(JOBS.purgeExpired, { reason: 'late' });
      const failedOnce = await waitFor(queue, id, (v) => v.attempts_made >= 1);
      // Waiting out its 1 s backoff, or (a loaded machine polling late) already in its second attempt.
      expect(failedOnce.attempts_made).toBe(1);
      expect(['delayed', 'waiting', 'active']).toContain(failedOnce.state);
      await createExpiringTable(db, 'qt_late', 5, 2);
      const view = await queue.waitForCompletion(id, 20_000);
      expect(view).toMatchObject({ state: 'completed', result: { deleted: { qt_late: 5 } } });
      // The second attempt, or the third when the second had started before the table existed.
      expect([2, 3]).toContain(view.attempts_made);
      expect(view.error).toBeUndefined();
      expect(Date.parse(view.finished_at!) - Date.parse(view.created_at)).toBeGreaterThanOrEqual(900);
      expect(await counts(db, 'qt_late')).toEqual({ total: 3, expired: 0 });
    } finally {
      registry.unregister('qt_late');
    }
  });

  it('delays jobs and returns the current view when waitForCompletion times out', async () => {
    const { id } = await queue.enqueue(
      JOBS.purgeExpired,
      { reason: 'later' },
      { jobId: 'purge-delayed', delayMs: 60_000 },
    );
    const started = Date.now();
    const view = await queue.waitForCompletion(id, 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(view).toMatchObject({ id, state: 'delayed', attempts_made: 0, progress: 0 });
    expect(view.finished_at).toBeUndefined();
  });

  it('reports unfinished jobs by queue and state on /metrics, read at scrape time', async () => {
    const depth = async (state: string): Promise<number> => {
      const res = await gw.http.get('/metrics', { headers: { 'X-Gateway-Setup-Token': SETUP_TOKEN } });
      expect(res.status).toBe(200);
      const line = res.text
        .split('\n')
        .find((l) => l.startsWith(`gateway_queue_jobs{queue="gateway-maintenance",state="${state}"}`));
      expect(line, state).toBeDefined();
      return Number(line!.split(' ').at(-1));
    };
    const before = await depth('delayed');
    await queue.enqueue(JOBS.purgeExpired, { reason: 'depth' }, { jobId: 'purge-depth', delayMs: 60_000 });
    expect(await depth('delayed')).toBe(before + 1);
    expect(await depth('waiting')).toBeGreaterThanOrEqual(0);
    expect(await depth('active')).toBeGreaterThanOrEqual(0);
  });

  it('validates registered table identifiers', () => {
    expect(() => registry.register({ name: 'x', table: 'bad-name', column: 'expires_at' })).toThrow(/table "bad-name"/);
    expect(() => registry.register({ name: 'x', table: 'ok', column: 'a; DROP TABLE y' })).toThrow(/column/);
    expect(() => registry.register({ name: 'X', table: 'ok', column: 'expires_at' })).toThrow(/name "X"/);
    registry.register({ name: 'qt_dup', table: 'qt_a', column: 'expires_at' });
    expect(() => registry.register({ name: 'qt_dup', table: 'qt_b', column: 'expires_at' })).toThrow(/already/);
    registry.unregister('qt_dup');
    expect(registry.list().map((t) => t.name)).not.toContain('qt_dup');
  });

  it('rejects a handler set where a job has no handler or an unknown job', () => {
    const check = new JobHandlerRegistry(null as never, null as never, null as never);
    expect(() => check.load(otherHandlers())).toThrow('no @JobHandler for job(s): maintenance.purge-expired');
    expect(() => check.load([])).toThrow(/no @JobHandler for job\(s\): .*maintenance\.purge-expired/);
    const fn = () => Promise.resolve(null);
    expect(() =>
      check.load([
        ...otherHandlers(),
        { name: 'maintenance.purge-expired', owner: 'A.purge', fn },
        { name: 'billing.nope', owner: 'B.nope', fn },
      ]),
    ).toThrow(/@JobHandler\(billing\.nope\) on B\.nope/);
    check.load([...otherHandlers(), { name: 'maintenance.purge-expired', owner: 'A.purge', fn }]);
    expect(check.get('maintenance.purge-expired')).toBeTypeOf('function');
  });

  it('fails start-up when a job has two handlers, naming the job', async () => {
    // Reuses this suite's database: a failed start-up never returns an app whose close() would drop a new one.
    const outcome = await startTestApp({ extraModules: [DuplicateHandlerModule], databaseUrl: gw.databaseUrl }).then(
      async (started) => {
        await started.close();
        return 'started';
      },
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    expect(outcome).toMatch(/^job maintenance\.purge-expired has 2 handlers: .*SecondPurgeHandler\.purge/);
  });

  it.skipIf(!TEST_REDIS_URL)('keeps BullMQ jobs in Redis under the app redis_prefix', async () => {
    const { id } = await queue.enqueue(JOBS.purgeExpired, { reason: 'redis' }, { jobId: 'purge-in-redis' });
    expect((await queue.waitForCompletion(id, 20_000)).state).toBe('completed');
    const redis = gw.app.get<Redis>(REDIS);
    const prefix = gw.config.redis_prefix;
    expect(prefix).toMatch(/^gwt-/);
    const job = await redis.hgetall(`${prefix}:gateway-maintenance:${id}`);
    expect(job.name).toBe('maintenance.purge-expired');
    expect(JSON.parse(job.data!)).toEqual({ reason: 'redis' });
    expect(JSON.parse(job.returnvalue!)).toMatchObject({ deleted: {} });
    // The 10-minute schedule is stored in Redis too.
    expect(await redis.zrange(`${prefix}:gateway-maintenance:repeat`, 0, -1)).toContain('maintenance.purge-expired');
  });
});

describe(`queue roles and shutdown (${MODE})`, () => {
  it('only enqueues in the api role', async () => {
    const api = await startTestApp({ config: { role: 'api' } });
    try {
      const queue = api.app.get(QueueService);
      const { id } = await queue.enqueue(JOBS.purgeExpired, { reason: 'api' });
      const view = await queue.waitForCompletion(id, 500);
      expect(view).toMatchObject({ state: 'waiting', attempts_made: 0 });
    } finally {
      await api.close();
    }
  });

  it.skipIf(!TEST_REDIS_URL)('runs jobs enqueued by an api replica on a worker replica', async () => {
    const worker = await startTestApp({ config: { role: 'worker' } });
    const api = await startTestApp({
      config: { role: 'api' },
      redisPrefix: worker.config.redis_prefix,
      databaseUrl: worker.databaseUrl,
      keepDatabase: true,
    });
    try {
      const db = worker.app.get<DataSource>(getDataSourceToken());
      await scheduleRan(worker);
      await createExpiringTable(db, 'qt_replica', 3, 2);
      worker.app.get(ExpiredRowsRegistry).register({ name: 'qt_replica', table: 'qt_replica', column: 'expires_at' });
      const apiQueue = api.app.get(QueueService);
      const { id } = await apiQueue.enqueue(JOBS.purgeExpired, { reason: 'replica' });
      const view = await apiQueue.waitForCompletion(id, 20_000);
      expect(view).toMatchObject({ state: 'completed', result: { deleted: { qt_replica: 3 } } });
      expect(worker.logs.records().some((l) => l.msg === 'purged expired rows' && l.job_id === id)).toBe(true);
      expect(api.logs.records().some((l) => l.msg === 'purged expired rows')).toBe(false);
      expect(await counts(db, 'qt_replica')).toEqual({ total: 3, expired: 0 });
    } finally {
      await api.close();
      await worker.close();
    }
  });

  it('lets the active job finish before close() resolves', async () => {
    const gw = await startTestApp();
    const queue = gw.app.get(QueueService);
    const db = gw.app.get<DataSource>(getDataSourceToken());
    await scheduleRan(gw);
    // Every deleted row takes 0.4 s, so the job is still running when close() is called; two tables mean the job
    // still needs the database after the statement running at close() (a shutdown that did not wait would fail it).
    await db.query(
      `CREATE FUNCTION qt_slow_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.4); RETURN OLD; END $$`,
    );
    for (const table of ['qt_slow_a', 'qt_slow_b']) {
      await createExpiringTable(db, table, 1, 1);
      await db.query(
        `CREATE TRIGGER ${table}_slow BEFORE DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION qt_slow_delete()`,
      );
      gw.app.get(ExpiredRowsRegistry).register({ name: table, table, column: 'expires_at' });
    }
    const { id } = await queue.enqueue(JOBS.purgeExpired, { reason: 'drain' });
    await waitFor(queue, id, (v) => v.state === 'active');
    const closing = Date.now();
    await gw.close();
    const elapsed = Date.now() - closing;
    const logs = gw.logs.records();
    const purged = logs.findIndex((l) => l.msg === 'purged expired rows' && l.job_id === id);
    const drained = logs.findIndex((l) => l.msg === 'queue drained');
    expect(purged).toBeGreaterThanOrEqual(0);
    expect(logs[purged]).toMatchObject({ deleted: { qt_slow_a: 1, qt_slow_b: 1 }, failures: [] });
    expect(drained).toBeGreaterThan(purged);
    expect(logs.some((l) => l.msg === 'job failed' || l.msg === 'job failed, retrying')).toBe(false);
    expect(elapsed).toBeGreaterThanOrEqual(300);
  });
});

describe('in-process driver drain', () => {
  // The embedded database serialises every statement, so an app's close() can look drained even when the queue
  // did not wait; this checks the driver itself, with the real registry and a handler that is slow outside the DB.
  it('waits for the active job, stops schedules and refuses new jobs', async () => {
    const registry = new JobHandlerRegistry(null as never, null as never, null as never);
    const runs: string[] = [];
    registry.load([
      ...otherHandlers(),
      {
        name: JOBS.purgeExpired,
        owner: 'Test.slowPurge',
        fn: async (payload) => {
          const reason = (payload as { reason?: string }).reason ?? '';
          runs.push(`start ${reason}`);
          await new Promise((r) => setTimeout(r, 300));
          runs.push(`end ${reason}`);
          return { deleted: {} };
        },
      },
    ]);
    const driver = new InProcessQueueDriver(registry, pino({ level: 'silent' }));
    await driver.startWorkers();
    const { id } = await driver.enqueue(JOBS.purgeExpired, { reason: 'slow' }, { jobId: 'drain-me' });
    const deadline = Date.now() + 5_000;
    while ((await driver.getJob(id))?.state !== 'active' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    // Concurrency 1 on the maintenance queue: this one waits behind the active job and must not start during drain.
    const queued = await driver.enqueue(JOBS.purgeExpired, { reason: 'queued' }, { jobId: 'drain-queued' });
    await driver.drain();
    expect(runs).toEqual(['start schedule', 'end schedule', 'start slow', 'end slow']);
    expect(await driver.getJob(id)).toMatchObject({ state: 'completed', attempts_made: 1 });
    expect(await driver.getJob(queued.id)).toMatchObject({ state: 'waiting', attempts_made: 0 });
    await expect(driver.enqueue(JOBS.purgeExpired, {}, { jobId: 'too-late' })).rejects.toThrow(/shut down/);
  });
});

describe('job attempt timeout', () => {
  it('aborts the signal and fails the attempt after timeoutMs', async () => {
    const registry = new JobHandlerRegistry(null as never, null as never, null as never);
    let seen: AbortSignal | undefined;
    registry.load([
      ...otherHandlers(),
      {
        name: JOBS.purgeExpired,
        owner: 'Test.hang',
        fn: (_payload, context) => {
          seen = context.signal;
          return new Promise(() => undefined);
        },
      },
    ]);
    const context = { jobId: 'j', attempt: 1, updateProgress: () => Promise.resolve() };
    const started = Date.now();
    await expect(runJobAttempt(registry, JOBS.purgeExpired, {}, context, 50)).rejects.toThrow(
      'job maintenance.purge-expired timed out after 50 ms',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(seen?.aborted).toBe(true);
    // Without a timeout the handler's own result comes back untouched.
    registry.load([...otherHandlers(), { name: JOBS.purgeExpired, owner: 'Test.ok', fn: () => Promise.resolve(7) }]);
    expect(await runJobAttempt(registry, JOBS.purgeExpired, {}, context, undefined)).toBe(7);
  });
});
