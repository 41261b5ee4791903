import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_CAPPED_HEADER } from '../../src/core/http/paging.dto.js';
import { McpToolLogStore } from '../../src/modules/mcp/logs/mcp-tool-log.store.js';
import { McpToolLogWriter } from '../../src/modules/mcp/mcp-contract.js';
import { SETUP_HEADER, SETUP_TOKEN } from '../auth/auth-helpers.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { rangeCases as cutRanges } from '../helpers/log-ranges.js';
import { RUN_MODE } from '../helpers/test-env.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A fixed "now" off the hour (so ranges ending at it cut an hour), recent enough for the pending-log sweeper. */
const NOW = Math.floor(Date.now() / HOUR) * HOUR - 17 * 60_000 - 23_456;
const at = (msAgo: number) => new Date(NOW - msAgo);

/**
 * Issue 13, tool log queries at scale: counts over a time range and statuses come from the hourly rollup kept by
 * triggers (whole hours) plus the log rows (the edges), and must equal counting the rows themselves, through every
 * kind of write: writer inserts, a start and its end merged in two flushes (an update that moves the status), plain
 * SQL, deletes by id and by retention, truncation. A `content_search` list counts matches up to 1,000 past the page.
 */
describe(`MCP tool log counts from the hourly rollup (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  let db: DataSource;
  let writer: McpToolLogWriter;
  let store: McpToolLogStore;

  /** Rows spread over 40 days, minutes apart in a pattern that leaves some hours empty; a few still processing. */
  async function seed(): Promise<void> {
    for (let i = 0; i < 400; i++) {
      const id = randomUUID();
      writer.started({
        id,
        timestamp: at((i * 2_437_000) % (40 * DAY)),
        tool_name: `srv-tool${i % 7}`,
        server_label: i % 3 ? 'srv' : 'other',
        arguments: { text: i % 5 ? 'ordinary words' : 'needle in here' },
      });
      // Every third end is written in a later flush: an upsert that updates the row's status.
      if (i % 3 === 0) continue;
      writer.finished(id, { status: i % 4 ? 'success' : 'error', latency: i, cost: 0.001 });
    }
    await store.flush();
    const later = await db.query<Array<{ id: string }>>(
      `SELECT id FROM mcp_tool_logs WHERE status = 'processing' ORDER BY id LIMIT 100`,
    );
    for (const [n, { id }] of later.entries()) {
      if (n % 4 !== 3) writer.finished(id, { status: n % 2 ? 'success' : 'error', latency: 5, cost: 0.002 });
    }
    await store.flush();
  }

  /** The count the rows themselves give. */
  async function exact(where: string, params: unknown[]): Promise<number> {
    const rows = await db.query<Array<{ n: string | number }>>(
      `SELECT count(*) AS n FROM mcp_tool_logs WHERE ${where}`,
      params,
    );
    return Number(rows[0]!.n);
  }

  /** The rollup equals grouping the rows by UTC hour and status, with every measure stats reads. */
  async function expectRollupExact(): Promise<void> {
    type Row = {
      hour: Date;
      status: string;
      calls: unknown;
      latency_sum: unknown;
      latency_calls: unknown;
      cost_sum: unknown;
    };
    // Both reads in one snapshot: the pending-log sweeper may fail a `processing` call between two separate reads.
    const [rollup, grouped] = await db.transaction('REPEATABLE READ', async (tx) => [
      await tx.query<Row[]>(
        `SELECT hour, status, calls, latency_sum, latency_calls, cost_sum FROM mcp_tool_log_hourly ` +
          `WHERE calls <> 0 ORDER BY 1, 2`,
      ),
      await tx.query<Row[]>(
        `SELECT date_bin('1 hour', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00') AS hour, status, ` +
          `count(*) AS calls, COALESCE(sum(latency::numeric), 0) AS latency_sum, count(latency) AS latency_calls, ` +
          `COALESCE(sum(cost::numeric), 0) AS cost_sum FROM mcp_tool_logs GROUP BY 1, 2 ORDER BY 1, 2`,
      ),
    ]);
    const view = (rows: Row[]) =>
      rows.map(
        (r) =>
          `${new Date(r.hour).toISOString()} ${r.status} ${Number(r.calls)} ${Number(r.latency_sum)} ` +
          `${Number(r.latency_calls)} ${Number(r.cost_sum)}`,
      );
    expect(view(rollup)).toEqual(view(grouped));
    // An hour whose calls all moved or went keeps nothing of them: the numeric sums cancel exactly.
    const emptied = await db.query<Row[]>(
      `SELECT * FROM mcp_tool_log_hourly WHERE calls = 0 AND (latency_sum <> 0 OR latency_calls <> 0 OR cost_sum <> 0)`,
    );
    expect(emptied).toEqual([]);
  }

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    admin = gw.http.withHeaders(SETUP_HEADER);
    db = gw.app.get(DataSource);
    writer = gw.app.get(McpToolLogWriter);
    store = gw.app.get(McpToolLogStore);
    await seed();
  });
  afterAll(() => gw?.close());

  it('the triggers keep the rollup equal to the rows through inserts and status-changing upserts', async () => {
    const statuses = await db.query<Array<{ status: string }>>(`SELECT DISTINCT status FROM mcp_tool_logs`);
    // Calls still `processing` may meanwhile be failed by the sweeper (they are older than the pending-log TTL): one
    // more UPDATE the rollup has to follow, so either way the check below covers moved statuses.
    expect(statuses.map((s) => s.status)).toEqual(expect.arrayContaining(['error', 'success']));
    await expectRollupExact();
  });

  const rangeCases = () => cutRanges(NOW, [undefined, 'success', 'error,processing']);

  it('list total_count over ranges, cut anywhere, and statuses equals counting the rows', async () => {
    for (const { query, where, params } of rangeCases()) {
      const res = await admin.get('/api/mcp-logs', { query: { ...query, limit: '1' } });
      expect(res.status, res.text).toBe(200);
      const label = JSON.stringify(query);
      expect(res.body.pagination.total_count, label).toBe(await exact(where, params));
      expect(res.headers.get(TOTAL_COUNT_CAPPED_HEADER), label).toBeNull();
    }
    const all = await exact('true', []);
    expect(all).toBe(400);
  });

  it('stats over ranges, cut anywhere, and statuses equal computing them from the rows', async () => {
    for (const { query, where, params } of rangeCases()) {
      const res = await admin.get('/api/mcp-logs/stats', { query });
      expect(res.status, res.text).toBe(200);
      const [row] = await db.query<Array<Record<string, string | number | null>>>(
        `SELECT count(*) AS total, count(*) FILTER (WHERE status = 'success') AS success, ` +
          `count(*) FILTER (WHERE status = 'error') AS error, avg(latency) AS latency, sum(cost) AS cost ` +
          `FROM mcp_tool_logs WHERE ${where}`,
        params,
      );
      const finished = Number(row!.success) + Number(row!.error);
      const label = JSON.stringify(query);
      expect(res.body.total_executions, label).toBe(Number(row!.total));
      expect(res.body.success_rate, label).toBeCloseTo(finished ? (Number(row!.success) / finished) * 100 : 0, 9);
      expect(res.body.average_latency, label).toBeCloseTo(Number(row!.latency ?? 0), 9);
      expect(res.body.total_cost, label).toBeCloseTo(Number(row!.cost ?? 0), 12);
    }
    const all = await admin.get('/api/mcp-logs/stats');
    expect(all.body.total_executions).toBe(400);
    expect(all.body.average_latency).toBeGreaterThan(0);
    expect(all.body.total_cost).toBeGreaterThan(0);
  });

  it("a key's calls to one tool or server are counted from the key's index alone, and rightly", async () => {
    const [{ id: keyId } = { id: '' }] = await db.query<Array<{ id: string }>>(
      `INSERT INTO mcp_tool_logs (id, timestamp, tool_name, server_label, virtual_key_id, status, latency, created_at) ` +
        `SELECT 'vk-drill-' || g, $1::timestamptz - g * interval '1 minute', 'srv-tool' || (g % 3), 'srv', 'vk-drill', ` +
        `'success', g, now() FROM generate_series(1, 30) AS g RETURNING virtual_key_id AS id`,
      [at(0)],
    );
    const res = await admin.get('/api/mcp-logs', {
      query: { virtual_key_ids: keyId, tool_names: 'srv-tool1', start_time: at(DAY).toISOString(), limit: '1' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.pagination.total_count).toBe(10);
    // The plan the count gets when the table is large (here forced: a tiny table is read whole instead).
    const plan = await db.transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      await m.query('SET LOCAL enable_bitmapscan = off');
      return m.query<Array<Record<string, string>>>(
        `EXPLAIN SELECT count(*) FROM mcp_tool_logs WHERE virtual_key_id = ANY($1::varchar[]) ` +
          `AND tool_name = ANY($2::varchar[]) AND server_label = ANY($3::varchar[]) AND timestamp >= $4`,
        [[keyId], ['srv-tool1'], ['srv'], at(DAY)],
      );
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain(
      'Index Only Scan using idx_mcp_tool_logs_virtual_key_timestamp',
    );
    await db.query(`DELETE FROM mcp_tool_logs WHERE virtual_key_id = 'vk-drill'`);
  });

  it('histograms over 7 and 30 days (whole-hour buckets) equal bucketing the rows', async () => {
    for (const [days, status] of [
      [7, undefined],
      [30, undefined],
      [30, 'error'],
    ] as const) {
      const query: Record<string, string> = {
        start_time: at(days * DAY + 777).toISOString(),
        end_time: at(0).toISOString(),
      };
      if (status) query.status = status;
      const res = await admin.get('/api/mcp-logs/histogram', { query });
      expect(res.status, res.text).toBe(200);
      const width = res.body.bucket_size_seconds as number;
      expect(width % 3600).toBe(0);
      const rows = await db.query<
        Array<{ bucket: Date; count: string; success: string; error: string; processing: string }>
      >(
        `SELECT date_bin($1::interval, timestamp, $2::timestamptz) AS bucket, count(*) AS count, ` +
          `count(*) FILTER (WHERE status = 'success') AS success, count(*) FILTER (WHERE status = 'error') AS error, ` +
          `count(*) FILTER (WHERE status = 'processing') AS processing FROM mcp_tool_logs ` +
          `WHERE timestamp >= $3 AND timestamp <= $4 ${status ? `AND status = '${status}'` : ''} GROUP BY 1`,
        [`${width} seconds`, res.body.buckets[0].timestamp, query.start_time, query.end_time],
      );
      const expected = new Map(rows.map((r) => [new Date(r.bucket).toISOString(), r]));
      let total = 0;
      for (const b of res.body.buckets) {
        const row = expected.get(b.timestamp);
        expect(b, b.timestamp).toEqual({
          timestamp: b.timestamp,
          count: Number(row?.count ?? 0),
          success: Number(row?.success ?? 0),
          error: Number(row?.error ?? 0),
          processing: Number(row?.processing ?? 0),
        });
        total += b.count;
      }
      expect(total).toBeGreaterThan(0);
    }
  });

  it('deletes (by id, and by SQL) and truncation keep the rollup exact', async () => {
    const some = await db.query<Array<{ id: string }>>(`SELECT id FROM mcp_tool_logs ORDER BY timestamp LIMIT 25`);
    const del = await admin.delete('/api/mcp-logs', { body: { ids: some.map((r) => r.id) } });
    expect(del.status, del.text).toBe(200);
    await db.query(`DELETE FROM mcp_tool_logs WHERE tool_name = 'srv-tool6'`);
    await expectRollupExact();
    const listed = await admin.get('/api/mcp-logs', { query: { limit: '1' } });
    expect(listed.body.pagination.total_count).toBe(await exact('true', []));
    expect(listed.body.pagination.total_count).toBeLessThan(400 - 25);
    await db.query(`TRUNCATE mcp_tool_logs`);
    expect(await db.query(`SELECT * FROM mcp_tool_log_hourly`)).toEqual([]);
    const empty = await admin.get('/api/mcp-logs', { query: { start_time: at(30 * DAY).toISOString() } });
    expect(empty.body.pagination.total_count).toBe(0);
  });

  it('content_search counts matches up to 1,000 past the page, and says so when there are more', async () => {
    const insert = (n: number, text: string) =>
      db.query(
        `INSERT INTO mcp_tool_logs (id, timestamp, tool_name, server_label, arguments, status, created_at) ` +
          `SELECT 'bulk-' || $2 || '-' || g, $3::timestamptz - g * interval '1 second', 'bulk-tool', 'bulk', ` +
          `jsonb_build_object('text', $2::text), 'success', now() FROM generate_series(1, $1) AS g`,
        [n, text, at(0)],
      );
    await insert(1_060, 'haystack needle-many');
    await insert(30, 'haystack needle-few');
    await expectRollupExact();

    const many = await admin.get('/api/mcp-logs', { query: { content_search: 'needle-many', limit: '50' } });
    expect(many.status, many.text).toBe(200);
    expect(many.body.logs).toHaveLength(50);
    expect(many.body.pagination.total_count).toBe(1_050);
    expect(many.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
    // A later page raises the bound with it: every match is counted up to 1,000 past the page's end.
    const deep = await admin.get('/api/mcp-logs', {
      query: { content_search: 'needle-many', limit: '10', offset: '40' },
    });
    expect(deep.body.pagination.total_count).toBe(1_050);
    expect(deep.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
    // The page is the 41st to 50th match in its order (g = 1 is the newest), whole rows, however they were found.
    const bulkIds = (text: string, from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `bulk-${text}-${from + i}`);
    expect(deep.body.logs.map((l: { id: string }) => l.id)).toEqual(bulkIds('haystack needle-many', 41, 50));
    expect(deep.body.logs[0]).toMatchObject({ tool_name: 'bulk-tool', arguments: { text: 'haystack needle-many' } });
    const oldest = await admin.get('/api/mcp-logs', {
      query: { content_search: 'needle-many', limit: '3', order: 'asc' },
    });
    expect(oldest.body.logs.map((l: { id: string }) => l.id)).toEqual(
      bulkIds('haystack needle-many', 1058, 1060).reverse(),
    );
    expect(oldest.body.pagination.total_count).toBe(1_003);
    expect(oldest.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
    const past = await admin.get('/api/mcp-logs', { query: { content_search: 'needle-few', offset: '40' } });
    expect(past.body.logs).toEqual([]);
    expect(past.body.pagination.total_count).toBe(30);
    const all = await admin.get('/api/mcp-logs', { query: { content_search: 'needle-many', limit: '100' } });
    expect(all.body.pagination.total_count).toBe(1_060);
    expect(all.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBeNull();

    const few = await admin.get('/api/mcp-logs', { query: { content_search: 'needle-few' } });
    expect(few.body.pagination.total_count).toBe(30);
    expect(few.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBeNull();
    // Stats stay exact whatever the list counted.
    const stats = await admin.get('/api/mcp-logs/stats', { query: { content_search: 'haystack' } });
    expect(stats.body.total_executions).toBe(1_090);
  });

  it('a search reads search_text: the lowercased arguments and result, kept by Postgres through a later end', async () => {
    const id = randomUUID();
    writer.started({
      id,
      timestamp: at(5_000),
      tool_name: 'case-tool',
      server_label: 'case',
      arguments: { query: 'Quarterly REVENUE Report' },
    });
    await store.flush();
    // The end in a later flush: an upsert whose result the stored text must then hold too.
    writer.finished(id, {
      status: 'success',
      latency: 7,
      result: { content: [{ type: 'text', text: 'Found 3 ROWS' }] },
    });
    await store.flush();
    const [row] = await db.query<Array<{ search_text: string; rendered: string }>>(
      `SELECT search_text, lower(COALESCE(arguments::text, '') || ' ' || COALESCE(result::text, '')) AS rendered ` +
        `FROM mcp_tool_logs WHERE id = $1`,
      [id],
    );
    expect(row!.search_text).toBe(row!.rendered);
    expect(row!.search_text).toContain('quarterly revenue report');
    expect(row!.search_text).toContain('found 3 rows');
    for (const term of ['revenue REPORT', 'found 3 rows', 'FOUND 3']) {
      const res = await admin.get('/api/mcp-logs', { query: { content_search: term } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.logs.map((l: { id: string }) => l.id)).toEqual([id]);
      expect(res.body.logs[0]).not.toHaveProperty('search_text');
    }
    // Where pg_trgm exists, the search's candidates come from the trigram index on the stored column.
    const trigrams = await db.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
    if (RUN_MODE === 'postgres') expect(trigrams).toHaveLength(1);
    if (!trigrams.length) return;
    const plan = await db.transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      return m.query<Array<Record<string, string>>>(
        `EXPLAIN SELECT id FROM mcp_tool_logs WHERE search_text LIKE lower($1) ESCAPE '\\'`,
        ['%Revenue%'],
      );
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain(
      'Bitmap Index Scan on idx_mcp_tool_logs_search_trgm',
    );
  });
});
