import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppendLogWriter } from '../../src/core/append-log/append-log.writer.js';
import { MetricsService } from '../../src/core/metrics/metrics.service.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';

const SETUP_TOKEN = 'setup-token-123456';
const MGMT = { headers: { 'X-Gateway-Setup-Token': SETUP_TOKEN } };
/** A value that must never reach a log line. */
const SECRET_NOTE = 'sk-row-content-never-logged';

function db(gw: TestApp): DataSource {
  return gw.app.get<DataSource>(getDataSourceToken());
}

/**
 * A bare table for test rows, and a statement-level trigger counting the INSERT statements that reach it, so a test
 * sees how many writes its rows took.
 */
async function createRowsTable(gw: TestApp, table: string): Promise<void> {
  await db(gw).query(
    `CREATE TABLE "${table}" (id serial PRIMARY KEY, n integer NOT NULL CHECK (n >= 0), note text, ` +
      `created_at timestamptz NOT NULL DEFAULT now())`,
  );
  await db(gw).query(`CREATE TABLE IF NOT EXISTS al_statements (tbl text NOT NULL, at timestamptz DEFAULT now())`);
  await db(gw).query(
    `CREATE OR REPLACE FUNCTION al_count_statement() RETURNS trigger LANGUAGE plpgsql AS ` +
      `$$ BEGIN INSERT INTO al_statements (tbl) VALUES (TG_TABLE_NAME); RETURN NULL; END $$`,
  );
  await db(gw).query(
    `CREATE TRIGGER ${table}_statements AFTER INSERT ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION al_count_statement()`,
  );
}

async function counts(gw: TestApp, table: string): Promise<{ rows: number; statements: number }> {
  const [row] = await db(gw).query<Array<{ rows: number; statements: number }>>(
    `SELECT (SELECT count(*)::int FROM "${table}") AS rows, ` +
      `(SELECT count(*)::int FROM al_statements WHERE tbl = $1) AS statements`,
    [table],
  );
  return row!;
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The value of one series of `/metrics`, or undefined when the series is absent. */
async function metric(gw: TestApp, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const res = await gw.http.get('/metrics', MGMT);
  expect(res.status).toBe(200);
  for (const line of res.text.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe(`append log: batches, drops, failures (${RUN_MODE})`, () => {
  let gw: TestApp;
  let writer: AppendLogWriter;

  beforeAll(async () => {
    // Only size and explicit flushes: the interval is out of the way.
    gw = await startTestApp({
      config: { setup_token: SETUP_TOKEN, append_log: { batch_size: 50, max_buffered_rows: 60, flush_interval: '1h' } },
    });
    writer = gw.app.get(AppendLogWriter);
    await createRowsTable(gw, 'al_batched');
    writer.register('test_batched', { target: 'al_batched', columns: ['n', 'note'] });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('writes a full batch as one INSERT as soon as batch_size rows wait, the rest on flush', async () => {
    for (let n = 0; n < 50; n++) writer.append('test_batched', { n, note: `row ${n}` });
    // The size trigger, long before the one-hour interval.
    expect(
      await until(
        () => counts(gw, 'al_batched'),
        (c) => c.rows === 50,
      ),
    ).toEqual({ rows: 50, statements: 1 });
    for (let n = 50; n < 70; n++) writer.append('test_batched', { n, note: `row ${n}` });
    // 20 rows wait (below the batch size) for the interval or a flush.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await counts(gw, 'al_batched')).toEqual({ rows: 50, statements: 1 });
    expect(writer.pending()).toMatchObject({ test_batched: 20 });
    expect(await metric(gw, 'gateway_append_log_buffered_rows', { kind: 'test_batched' })).toBe(20);
    await writer.flush('test_batched');
    expect(await counts(gw, 'al_batched')).toEqual({ rows: 70, statements: 2 });
    const stored = await db(gw).query<Array<{ n: number; note: string }>>(`SELECT n, note FROM al_batched ORDER BY id`);
    expect(stored.map((r) => r.n)).toEqual(Array.from({ length: 70 }, (_, i) => i));
    expect(stored[69]).toEqual({ n: 69, note: 'row 69' });
    expect(await metric(gw, 'gateway_append_log_written_total', { kind: 'test_batched' })).toBe(70);
    expect(await metric(gw, 'gateway_append_log_buffered_rows', { kind: 'test_batched' })).toBe(0);
  });

  it('drops rows beyond max_buffered_rows and counts them on /metrics', async () => {
    const before = await counts(gw, 'al_batched');
    expect(await metric(gw, 'gateway_append_log_dropped_total', { kind: 'test_batched', reason: 'buffer_full' })).toBe(
      0,
    );
    // All in one tick: the write the 50th row triggers starts after the loop, so rows 61 to 100 find the buffer full.
    for (let n = 0; n < 100; n++) writer.append('test_batched', { n, note: SECRET_NOTE });
    expect(writer.pending()).toMatchObject({ test_batched: 60 });
    await writer.flush('test_batched');
    const after = await counts(gw, 'al_batched');
    expect(after.rows - before.rows).toBe(60);
    expect(await metric(gw, 'gateway_append_log_dropped_total', { kind: 'test_batched', reason: 'buffer_full' })).toBe(
      40,
    );
    expect(await metric(gw, 'gateway_append_log_dropped_total', { kind: 'test_batched', reason: 'write_failed' })).toBe(
      0,
    );
    const warning = gw.logs.records().find((l) => l.msg === 'append log rows dropped' && l.reason === 'buffer_full');
    expect(warning).toMatchObject({ kind: 'test_batched', rows: 40 });
  });

  it('retries a failed write once, then drops and counts its rows without logging them', async () => {
    // No such table: every attempt fails the same way.
    writer.register('test_missing', { target: 'al_missing', columns: ['n', 'note'] });
    for (let n = 0; n < 3; n++) writer.append('test_missing', { n, note: SECRET_NOTE });
    const started = Date.now();
    await writer.flush('test_missing');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(await metric(gw, 'gateway_append_log_dropped_total', { kind: 'test_missing', reason: 'write_failed' })).toBe(
      3,
    );
    expect(await metric(gw, 'gateway_append_log_written_total', { kind: 'test_missing' })).toBe(0);
    const warnings = gw.logs.records().filter((l) => l.msg === 'append log rows dropped' && l.kind === 'test_missing');
    expect(warnings).toEqual([expect.objectContaining({ rows: 3, reason: 'write_failed', error_code: '42P01' })]);
    expect(gw.logs.text()).not.toContain(SECRET_NOTE);
  });

  it('loses only the rows the database refuses when a batch holds a bad one', async () => {
    const before = await counts(gw, 'al_batched');
    const droppedBefore = await metric(gw, 'gateway_append_log_dropped_total', {
      kind: 'test_batched',
      reason: 'write_failed',
    });
    for (let n = 0; n < 10; n++) writer.append('test_batched', { n: n === 4 ? -1 : 1000 + n, note: SECRET_NOTE });
    await writer.flush('test_batched');
    const stored = await db(gw).query<Array<{ n: number }>>(`SELECT n FROM al_batched WHERE n >= 1000 ORDER BY n`);
    expect(stored.map((r) => r.n)).toEqual([1000, 1001, 1002, 1003, 1005, 1006, 1007, 1008, 1009]);
    expect((await counts(gw, 'al_batched')).rows - before.rows).toBe(9);
    expect(await metric(gw, 'gateway_append_log_dropped_total', { kind: 'test_batched', reason: 'write_failed' })).toBe(
      droppedBefore! + 1,
    );
    const warning = gw.logs
      .records()
      .find((l) => l.msg === 'append log rows dropped' && l.kind === 'test_batched' && l.reason === 'write_failed');
    expect(warning).toMatchObject({ rows: 1, error_code: '23514' });
    expect(gw.logs.text()).not.toContain(SECRET_NOTE);
  });

  it('shows every registered kind on /metrics from the start', async () => {
    for (const kind of ['agent_history', 'audit_logs']) {
      expect(await metric(gw, 'gateway_append_log_written_total', { kind }), kind).toBeGreaterThanOrEqual(0);
      expect(await metric(gw, 'gateway_append_log_dropped_total', { kind, reason: 'buffer_full' }), kind).toBe(0);
      expect(await metric(gw, 'gateway_append_log_dropped_total', { kind, reason: 'write_failed' }), kind).toBe(0);
      expect(await metric(gw, 'gateway_append_log_buffered_rows', { kind }), kind).toBeGreaterThanOrEqual(0);
    }
  });

  it('refuses unknown kinds and conflicting registrations', () => {
    expect(() => writer.append('nope', { n: 1 })).toThrow('append log kind nope is not registered');
    expect(() => writer.register('Bad-Kind', { target: 'al_batched', columns: ['n'] })).toThrow(/must match/);
    expect(() => writer.register('test_batched', { target: 'al_other', columns: ['n'] })).toThrow(/already registered/);
    expect(() => writer.register('test_nocolumns', { target: 'al_batched' })).toThrow(/needs its columns/);
  });
});

describe(`append log: interval flush (${RUN_MODE})`, () => {
  let gw: TestApp;

  beforeAll(async () => {
    gw = await startTestApp({ config: { append_log: { batch_size: 500, flush_interval: '400ms' } } });
    await createRowsTable(gw, 'al_interval');
    gw.app.get(AppendLogWriter).register('test_interval', { target: 'al_interval', columns: ['n'] });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('writes rows below the batch size once flush_interval has passed, in one INSERT', async () => {
    const writer = gw.app.get(AppendLogWriter);
    const started = Date.now();
    for (let n = 0; n < 3; n++) writer.append('test_interval', { n });
    expect(await counts(gw, 'al_interval')).toEqual({ rows: 0, statements: 0 });
    expect(
      await until(
        () => counts(gw, 'al_interval'),
        (c) => c.rows === 3,
      ),
    ).toEqual({ rows: 3, statements: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });
});

/** Appends one row from its onApplicationShutdown hook, as a late writer (a draining job, a closing stream) would. */
@Injectable()
class LateWriter implements OnApplicationShutdown {
  constructor(private readonly writer: AppendLogWriter) {
    writer.register('test_late', { target: 'al_restart', columns: ['n', 'note'] });
  }

  onApplicationShutdown(): void {
    this.writer.append('test_late', { n: 999, note: 'appended during shutdown' });
  }
}
@Module({ providers: [LateWriter] })
class LateWriterModule {}

describe(`append log: shutdown (${RUN_MODE})`, () => {
  it('writes every buffered row before the database closes', async () => {
    const appDir = mkdtempSync(join(tmpdir(), 'gw-append-'));
    const first = await startTestApp({
      appDir,
      keepDatabase: true,
      extraModules: [LateWriterModule],
      config: { setup_token: SETUP_TOKEN, append_log: { flush_interval: '1h' } },
    });
    await createRowsTable(first, 'al_restart');
    const writer = first.app.get(AppendLogWriter);
    writer.register('test_restart', { target: 'al_restart', columns: ['n', 'note'] });
    for (let n = 0; n < 25; n++) writer.append('test_restart', { n, note: 'before close' });
    // A real kind too: the audit row of a management write.
    const created = await first.http.post('/api/governance/virtual-keys', { name: 'shutdown-flush' }, MGMT);
    expect(created.status).toBe(201);
    await until(
      () => Promise.resolve(writer.pending().audit_logs ?? 0),
      (n) => n >= 1,
    );
    expect(await counts(first, 'al_restart')).toEqual({ rows: 0, statements: 0 });
    const audited = await db(first).query(`SELECT 1 FROM audit_logs WHERE route = '/api/governance/virtual-keys'`);
    expect(audited).toHaveLength(0);
    await first.close();
    expect(first.logs.records().filter((l) => l.msg === 'append log rows dropped')).toEqual([]);
    // After the last write, appends are refused without an error for the caller, and counted.
    writer.append('test_restart', { n: 1000, note: 'too late' });
    writer.append('test_restart', { n: 1001, note: 'too late' });
    expect(await first.app.get(MetricsService).render()).toContain(
      'gateway_append_log_dropped_total{kind="test_restart",reason="write_failed"} 2',
    );
    expect(first.logs.records().filter((l) => l.msg?.toString().startsWith('append log closed'))).toEqual([
      expect.objectContaining({ kind: 'test_restart', level: 'warn' }),
    ]);

    const second = await startTestApp({ appDir, databaseUrl: first.databaseUrl, config: { setup_token: SETUP_TOKEN } });
    try {
      const rows = await db(second).query<Array<{ n: number; note: string }>>(
        `SELECT n, note FROM al_restart ORDER BY id`,
      );
      expect(rows.slice(0, 25).map((r) => r.n)).toEqual(Array.from({ length: 25 }, (_, i) => i));
      // The row appended from an onApplicationShutdown hook went out with the last flush.
      expect(rows.slice(25)).toEqual([{ n: 999, note: 'appended during shutdown' }]);
      const audit = await second.http.get('/api/audit-logs', { ...MGMT, query: { method: 'POST' } });
      const routes = audit.body.audit_logs.map((r: any) => [r.route, r.status_code]);
      expect(routes).toContainEqual(['/api/governance/virtual-keys', 201]);
    } finally {
      await second.close();
    }
  });
});
