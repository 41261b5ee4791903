import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrigramSample } from '../../src/core/persistence/trigram-sample.js';
import { SEARCH_COUNT_MARGIN } from '../../src/core/persistence/search-page.js';
import { McpToolLogQuery } from '../../src/modules/mcp/logs/mcp-tool-log.query.js';
import { SETUP_HEADER, SETUP_TOKEN } from '../auth/auth-helpers.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';

const ROWS = 3000;

/**
 * Issue 13, `content_search` at scale: a term whose trigrams are mostly common (`topic040`: every row names a topic)
 * hands the trigram index only its rare part, chosen from a sample of the rows, and every candidate is checked for
 * the whole term. The choice changes how fast, never which rows: each search here must return exactly the rows SQL
 * over the whole text gives, near misses (rows holding the rare part but not the term) left out.
 */
describe(`MCP tool log search with a narrowed index term (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  let db: DataSource;

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    admin = gw.http.withHeaders(SETUP_HEADER);
    db = gw.app.get(DataSource);
    // Every row says "topic"; topic040 is in one row of 500, and in the result of one row of 997. Near misses, one
    // row of 1,000 each: "abc040" and "topic04 0" (they hold the term's rare part, not the term). Three servers;
    // latencies 0–99 ms, one row in seven still unknown.
    await db.query(
      `INSERT INTO mcp_tool_logs (id, timestamp, tool_name, server_label, arguments, result, status, latency, ` +
        `created_at) ` +
        `SELECT 'row-' || g, now() - g * interval '1 second', 'srv-search', 'srv-' || (g % 3), ` +
        `jsonb_build_object('query', CASE WHEN g % 500 = 0 THEN 'find Topic040 now' ` +
        `WHEN g % 1000 = 1 THEN 'find abc040 topic' WHEN g % 1000 = 2 THEN 'find topic04 0' ` +
        `ELSE 'find topic' || lpad((g % 37 + 100)::text, 3, '0') END), ` +
        `CASE WHEN g % 997 = 0 THEN jsonb_build_object('text', 'see TOPIC040 in the result') END, ` +
        `'success', CASE WHEN g % 7 <> 0 THEN (g * 37) % 100 END, now() FROM generate_series(1, $1) AS g`,
      [ROWS],
    );
    await db.query('ANALYZE mcp_tool_logs');
  });
  afterAll(() => gw?.close());

  /**
   * The ids SQL gives for a term over the whole text of each row, newest first (or by latency, descending, unknown
   * last), optionally of one server and a least latency.
   */
  async function exact(term: string, only: { server?: string; minLatency?: number; byLatency?: boolean } = {}) {
    const rows = await db.query<Array<{ id: string }>>(
      `SELECT id FROM mcp_tool_logs WHERE strpos(lower(COALESCE(arguments::text, '') || ' ' || ` +
        `COALESCE(result::text, '')), lower($1)) > 0 AND ($2::text IS NULL OR server_label = $2) ` +
        `AND ($3::int IS NULL OR latency >= $3) ` +
        `ORDER BY ${only.byLatency ? 'latency DESC NULLS LAST, id DESC' : 'timestamp DESC, id DESC'}`,
      [term, only.server ?? null, only.minLatency ?? null],
    );
    return rows.map((r) => r.id);
  }

  it('a sample of the rows picks the rare part of a term, and nothing for a term with no common part', async () => {
    const sample = new TrigramSample(db, { table: 'mcp_tool_logs', text: 'search_text' });
    expect(sample.search('topic040')).toBeUndefined(); // no sample yet: the whole term
    await sample.refresh();
    const narrowed = sample.search('Topic040')?.indexTerm;
    expect(narrowed, 'a substring of the term').toBeDefined();
    expect('Topic040').toContain(narrowed);
    expect(narrowed!.length).toBeGreaterThanOrEqual(3);
    expect(narrowed!.toLowerCase()).not.toMatch(/top|opi|pic/);
    expect(sample.search('zqxwv')?.indexTerm).toBeUndefined(); // no sampled row holds any of it: nothing to drop
    expect(sample.search('a%_')?.indexTerm).toBeUndefined(); // no run of three letters or digits
  });

  it("the sample estimates the index's candidates in the table: few for a rare part, all for no trigram", async () => {
    const sample = new TrigramSample(db, { table: 'mcp_tool_logs', text: 'search_text', rows: 1000 });
    await sample.refresh();
    // Rows holding the narrowed part: the 6 topic040 queries, 3 abc040, 3 results, the topic04 0 near misses maybe.
    const rare = sample.search('topic040')!;
    expect(rare.candidates).toBeGreaterThan(0);
    expect(rare.candidates).toBeLessThan(ROWS / 20);
    // "find" is in every row; a term without three letters or digits gives the index nothing: every row.
    expect(sample.search('find')!.candidates).toBeGreaterThan(ROWS * 0.9);
    expect(sample.search('a%_')!.candidates).toBe(ROWS);
  });

  it('searches return exactly the rows holding the whole term, near misses left out', async () => {
    const query = gw.app.get(McpToolLogQuery);
    await query.searchSample.refresh();
    expect(query.searchSample.search('topic040')?.indexTerm).toBeDefined();
    for (const term of ['topic040', 'TOPIC040', 'c040', 'find topic04', 'topic04 0', 'see topic040 in']) {
      const expected = await exact(term);
      const res = await admin.get('/api/mcp-logs', { query: { content_search: term, limit: '100' } });
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.logs.map((l: { id: string }) => l.id),
        term,
      ).toEqual(expected.slice(0, 100));
      expect(res.body.pagination.total_count, term).toBe(expected.length);
      const stats = await admin.get('/api/mcp-logs/stats', { query: { content_search: term } });
      expect(stats.body.total_executions, term).toBe(expected.length);
    }
    // The term's rows: the 6 "Topic040" queries and the 3 results saying "TOPIC040", never "abc040" or "topic04 0".
    expect(await exact('topic040')).toHaveLength(9);
    expect(await exact('040')).toHaveLength(12);
  });

  // Read candidates first (every term of a 3,000-row table is rare enough) and through the planner's own choice.
  for (const candidatesFirstMax of [10_000, -1]) {
    it(`the other filters and sorts apply to a search's rows (${candidatesFirstMax < 0 ? 'planner' : 'candidates first'})`, async () => {
      const query = gw.app.get(McpToolLogQuery);
      await query.searchSample.refresh();
      const before = query.candidatesFirstMax;
      query.candidatesFirstMax = candidatesFirstMax;
      try {
        const cases = [
          { term: 'topic040', server: 'srv-1' },
          { term: 'find', server: 'srv-2', minLatency: 90 },
          { term: 'topic1', minLatency: 50, byLatency: true },
          { term: 'c040', byLatency: true },
        ];
        for (const c of cases) {
          const expected = await exact(c.term, c);
          expect(expected.length, `${c.term}: the case has rows`).toBeGreaterThan(0);
          const q: Record<string, string> = { content_search: c.term, limit: '20', offset: '2' };
          if (c.server) q.server_labels = c.server;
          if (c.minLatency !== undefined) q.min_latency = String(c.minLatency);
          if (c.byLatency) q.sort_by = 'latency';
          const res = await admin.get('/api/mcp-logs', { query: q });
          expect(res.status, res.text).toBe(200);
          const label = JSON.stringify(c);
          expect(
            res.body.logs.map((l: { id: string }) => l.id),
            label,
          ).toEqual(expected.slice(2, 22));
          // Counted to SEARCH_COUNT_MARGIN past the page's end.
          expect(res.body.pagination.total_count, label).toBe(Math.min(expected.length, 22 + SEARCH_COUNT_MARGIN));
          for (const log of res.body.logs) {
            if (c.server) expect(log.server_label).toBe(c.server);
            if (c.minLatency !== undefined) expect(log.latency).toBeGreaterThanOrEqual(c.minLatency);
          }
        }
      } finally {
        query.candidatesFirstMax = before;
      }
    });
  }
});
