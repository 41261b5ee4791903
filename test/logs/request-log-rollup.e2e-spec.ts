import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_HEADER, SETUP_TOKEN } from '../auth/auth-helpers.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { rangeCases } from '../helpers/log-ranges.js';
import { RUN_MODE } from '../helpers/test-env.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A fixed "now" off the hour, so ranges ending at it cut an hour. */
const NOW = Math.floor(Date.now() / HOUR) * HOUR - 11 * 60_000 - 4_321;
const at = (msAgo: number) => new Date(NOW - msAgo);

type Stats = {
  total_requests: number;
  success_rate: number;
  average_latency: number;
  total_tokens: number;
  total_cost: number;
};

/**
 * Issue 10, request log queries at scale: stats, counts and whole-hour histograms over a time range and statuses are
 * the hourly rollup (kept by triggers) plus the edge hours' rows, and equal what the rows themselves give, through
 * inserts, an update that moves rows between hours and statuses, deletes and truncation.
 */
describe(`request log stats from the hourly rollup (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  let db: DataSource;

  /** 600 rows over 40 days: statuses, latencies, tokens and costs (some unknown) in patterns. */
  async function seed(): Promise<void> {
    await db.query(
      `INSERT INTO request_logs (id, timestamp, object, provider, model, status, status_code, latency, prompt_tokens, ` +
        `completion_tokens, total_tokens, cost) ` +
        `SELECT gen_random_uuid(), $1::timestamptz - ((g::bigint * 5791013) % (40 * 86400000::bigint)) * interval '1 millisecond', ` +
        `'chat.completion', CASE WHEN g % 4 = 0 THEN 'anthropic' ELSE 'openai' END, 'm' || (g % 3), ` +
        `CASE WHEN g % 7 = 0 THEN 'error' ELSE 'success' END, CASE WHEN g % 7 = 0 THEN 500 ELSE 200 END, ` +
        `(g % 97) * 1.25, CASE WHEN g % 11 = 0 THEN NULL ELSE g % 50 END, ` +
        `CASE WHEN g % 11 = 0 THEN NULL ELSE g % 30 END, CASE WHEN g % 11 = 0 THEN NULL ELSE g % 50 + g % 30 END, ` +
        `CASE WHEN g % 5 = 0 THEN NULL ELSE (g % 13) * 0.000125 END FROM generate_series(1, 600) AS g`,
      [at(0)],
    );
  }

  async function exactStats(where: string, params: unknown[]): Promise<Stats> {
    const [r] = await db.query<Array<Record<string, string | number | null>>>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE status = 'success') AS s, avg(latency) AS l, ` +
        `sum(total_tokens) AS t, sum(cost) AS c FROM request_logs WHERE ${where}`,
      params,
    );
    const n = Number(r!.n);
    return {
      total_requests: n,
      success_rate: n ? (Number(r!.s) / n) * 100 : 0,
      average_latency: Number(r!.l ?? 0),
      total_tokens: Number(r!.t ?? 0),
      total_cost: Number(r!.c ?? 0),
    };
  }

  /** Sums match to floating-point rounding (the rollup adds and subtracts in another order than a scan). */
  function expectStats(got: Stats, want: Stats, label: string): void {
    expect(got.total_requests, label).toBe(want.total_requests);
    expect(got.total_tokens, label).toBe(want.total_tokens);
    expect(got.success_rate, label).toBeCloseTo(want.success_rate, 9);
    expect(got.average_latency, label).toBeCloseTo(want.average_latency, 9);
    expect(got.total_cost, label).toBeCloseTo(want.total_cost, 12);
  }

  async function expectRollupExact(): Promise<void> {
    const view = (rows: Array<Record<string, unknown>>) =>
      rows.map(
        (r) =>
          `${new Date(r.hour as string).toISOString()} ${String(r.status)} ${Number(r.requests)} ` +
          `${Number(r.prompt_tokens)} ${Number(r.completion_tokens)} ${Number(r.total_tokens)} ` +
          `${Number(r.latency_sum).toFixed(6)} ${Number(r.cost_sum).toFixed(9)}`,
      );
    // Both reads in one snapshot: a background write (the retention purge) must not fall between them.
    const [rollup, grouped] = await db.transaction('REPEATABLE READ', async (tx) => [
      await tx.query<Array<Record<string, unknown>>>(
        `SELECT * FROM request_log_hourly WHERE requests <> 0 ORDER BY hour, status`,
      ),
      await tx.query<Array<Record<string, unknown>>>(
        `SELECT date_bin('1 hour', timestamp, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS hour, status, ` +
          `count(*) AS requests, COALESCE(sum(prompt_tokens), 0) AS prompt_tokens, ` +
          `COALESCE(sum(completion_tokens), 0) AS completion_tokens, COALESCE(sum(total_tokens), 0) AS total_tokens, ` +
          `sum(latency) AS latency_sum, COALESCE(sum(cost), 0) AS cost_sum FROM request_logs GROUP BY 1, 2 ORDER BY 1, 2`,
      ),
    ]);
    expect(view(rollup)).toEqual(view(grouped));
  }

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    admin = gw.http.withHeaders(SETUP_HEADER);
    db = gw.app.get(DataSource);
    await seed();
  });
  afterAll(() => gw?.close());

  it('the triggers keep the rollup equal to the rows', async () => {
    await expectRollupExact();
  });

  it('list total_count and stats, and /stats, over ranges cut anywhere and statuses equal the rows', async () => {
    for (const { query: range, where, params } of rangeCases(NOW, [undefined, 'error', 'success,error'])) {
      const query = { ...range, limit: '1' };
      const want = await exactStats(where, params);
      const label = JSON.stringify(query);
      const list = await admin.get('/api/logs', { query });
      expect(list.status, list.text).toBe(200);
      expect(list.body.pagination.total_count, label).toBe(want.total_requests);
      expectStats(list.body.stats, want, label);
      const stats = await admin.get('/api/logs/stats', { query: range });
      expect(stats.status, stats.text).toBe(200);
      expectStats(stats.body, want, label);
    }
    // A filter the rollup cannot answer reads the rows, and agrees too.
    const anthropic = await admin.get('/api/logs/stats', { query: { providers: 'anthropic' } });
    expectStats(anthropic.body, await exactStats(`provider = 'anthropic'`, []), 'providers=anthropic');
  });

  it('request, token and cost histograms over 30 days equal bucketing the rows', async () => {
    const query = { start_time: at(30 * DAY + 999).toISOString(), end_time: at(0).toISOString() };
    for (const [kind, measures] of [
      [
        '',
        `count(*) AS count, count(*) FILTER (WHERE status = 'success') AS success, count(*) FILTER (WHERE status = 'error') AS error`,
      ],
      [
        '/tokens',
        `count(*) AS count, COALESCE(sum(prompt_tokens), 0) AS prompt_tokens, COALESCE(sum(completion_tokens), 0) AS completion_tokens, COALESCE(sum(total_tokens), 0) AS total_tokens`,
      ],
      ['/cost', `count(*) AS count, COALESCE(sum(cost), 0) AS cost`],
    ] as const) {
      const res = await admin.get(`/api/logs/histogram${kind}`, { query });
      expect(res.status, res.text).toBe(200);
      const width = res.body.bucket_size_seconds as number;
      expect(width % 3600).toBe(0);
      const rows = await db.query<Array<Record<string, unknown>>>(
        `SELECT date_bin($1::interval, timestamp, $2::timestamptz) AS bucket, ${measures} FROM request_logs ` +
          `WHERE timestamp >= $3 AND timestamp <= $4 GROUP BY 1`,
        [`${width} seconds`, res.body.buckets[0].timestamp, query.start_time, query.end_time],
      );
      const want = new Map(rows.map((r) => [new Date(r.bucket as string).toISOString(), r]));
      let total = 0;
      for (const b of res.body.buckets as Array<Record<string, number | string>>) {
        const row = want.get(b.timestamp as string);
        for (const [k, v] of Object.entries(b)) {
          if (k === 'timestamp') continue;
          expect(v as number, `${kind} ${String(b.timestamp)} ${k}`).toBeCloseTo(Number(row?.[k] ?? 0), 12);
        }
        total += b.count as number;
      }
      expect(total).toBeGreaterThan(400);
    }
  });

  it('an update moving rows, deletes and truncation keep the rollup exact', async () => {
    await db.query(
      `UPDATE request_logs SET status = 'error', timestamp = timestamp - interval '90 minutes', cost = 0.5 ` +
        `WHERE id IN (SELECT id FROM request_logs ORDER BY timestamp DESC LIMIT 40)`,
    );
    await expectRollupExact();
    const some = await db.query<Array<{ id: string }>>(`SELECT id FROM request_logs ORDER BY timestamp LIMIT 30`);
    const del = await admin.delete('/api/logs', { body: { ids: some.map((r) => r.id) } });
    expect(del.status, del.text).toBe(200);
    await expectRollupExact();
    const list = await admin.get('/api/logs', { query: { limit: '1' } });
    expect(list.body.pagination.total_count).toBe(570);
    expectStats(list.body.stats, await exactStats('true', []), 'after update and delete');
    await db.query(`TRUNCATE request_logs CASCADE`);
    expect(await db.query(`SELECT * FROM request_log_hourly`)).toEqual([]);
  });
});
