import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_WINDOW_HEADER, TOTAL_COUNT_CAPPED_HEADER } from '../../src/core/http/paging.dto.js';
import { foldForSearch } from '../../src/core/persistence/log-sql.js';
import { SEARCH_COUNT_MARGIN } from '../../src/core/persistence/search-page.js';
import { RequestLogQuery } from '../../src/modules/inference/logs/request-log.query.js';
import { SETUP_HEADER, SETUP_TOKEN } from '../auth/auth-helpers.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';

const ROWS = 3000;

interface Case {
  term: string;
  provider?: string;
  minLatency?: number;
  sort?: 'timestamp' | 'latency' | 'cost';
  order?: 'asc' | 'desc';
  range?: boolean;
}

/**
 * Issue 10, `content_search` on request logs at scale: a search's page, count and stats come from its first
 * `offset + limit + SEARCH_COUNT_MARGIN` matches in the page's order, marked with `x-gateway-total-count-capped` when
 * there are more; `/api/logs/stats` stays exact. Each is checked against SQL over the whole text, read both ways the
 * gateway can: candidates first (the trigram index's rows, then the other filters) and left to the planner.
 */
describe(`request log search (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  let db: DataSource;
  const base = Date.parse('2026-11-20T12:00:00Z');

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    admin = gw.http.withHeaders(SETUP_HEADER);
    db = gw.app.get(DataSource);
    // One row a minute; "please" in two rows of three, "Topic040" in one of 250 (and a near miss, "topic04 0", in
    // one of 300); three providers; latencies, tokens and costs varying so sorts and sums have known answers.
    await db.query(
      `INSERT INTO request_logs (id, timestamp, object, provider, model, status, status_code, latency, ` +
        `total_tokens, cost) SELECT md5('log-' || g)::uuid, $2::timestamptz - g * interval '1 minute', ` +
        `'chat.completion', 'p' || (g % 3), 'm', CASE WHEN g % 11 = 0 THEN 'error' ELSE 'success' END, ` +
        `CASE WHEN g % 11 = 0 THEN 500 ELSE 200 END, (g * 37) % 1000, CASE WHEN g % 5 <> 0 THEN g % 400 END, ` +
        `CASE WHEN g % 7 <> 0 THEN (g % 90) * 0.001 END FROM generate_series(1, $1) AS g`,
      [ROWS, new Date(base).toISOString()],
    );
    await db.query(
      `UPDATE request_logs l SET search_text = CASE WHEN g % 250 = 0 THEN 'look up topic040 now' ` +
        `WHEN g % 300 = 1 THEN 'look up topic04 0' ELSE 'look up topic' || lpad((g % 37 + 100)::text, 3, '0') END || ` +
        `CASE WHEN g % 3 <> 0 THEN ' please' ELSE '' END FROM generate_series(1, $1) AS g ` +
        `WHERE l.id = md5('log-' || g)::uuid`,
      [ROWS],
    );
    await db.query('ANALYZE request_logs');
  });
  afterAll(() => gw?.close());

  const rangeOf = { start_time: new Date(base - 1000 * 60_000).toISOString(), end_time: new Date(base).toISOString() };

  /** The matching rows in the page's order, from SQL over the whole text, with what the stats add up. */
  async function exact(c: Case) {
    const column = c.sort === 'latency' ? 'latency' : c.sort === 'cost' ? 'cost' : 'timestamp';
    const direction = c.order === 'asc' ? 'ASC' : 'DESC';
    const nulls = column === 'cost' ? ' NULLS LAST' : '';
    return db.query<Array<{ id: string; status: string; latency: number; total_tokens: number; cost: number }>>(
      `SELECT l.id, l.status, l.latency, l.total_tokens, l.cost FROM request_logs l ` +
        `WHERE strpos(lower(l.search_text), lower($1)) > 0 ` +
        `AND ($2::text IS NULL OR l.provider = $2) AND ($3::int IS NULL OR l.latency >= $3) ` +
        `AND ($4::timestamptz IS NULL OR l.timestamp >= $4) AND ($5::timestamptz IS NULL OR l.timestamp <= $5) ` +
        `ORDER BY l.${column} ${direction}${nulls}, l.id ${direction}`,
      [
        c.term,
        c.provider ?? null,
        c.minLatency ?? null,
        c.range ? rangeOf.start_time : null,
        c.range ? rangeOf.end_time : null,
      ],
    );
  }

  it("the sample narrows a term to its rare part and estimates the index's candidates", async () => {
    const query = gw.app.get(RequestLogQuery);
    await query.searchSample.refresh();
    const mid = query.searchSample.search('topic040')!;
    expect(mid.indexTerm, 'a substring without the common trigrams').toBeDefined();
    expect(mid.indexTerm!.toLowerCase()).not.toMatch(/top|opi|pic/);
    expect(mid.candidates).toBeLessThan(ROWS / 20);
    expect(query.searchSample.search('please')!.candidates).toBeGreaterThan(ROWS / 2);
  });

  for (const candidatesFirstMax of [10_000, -1]) {
    const how = candidatesFirstMax < 0 ? 'left to the planner' : 'candidates first';
    it(`pages, counts and stats come from the counted matches, the other filters applied (${how})`, async () => {
      const query = gw.app.get(RequestLogQuery);
      await query.searchSample.refresh();
      const before = query.candidatesFirstMax;
      query.candidatesFirstMax = candidatesFirstMax;
      try {
        const cases: Case[] = [
          { term: 'topic040' },
          { term: 'TOPIC040', provider: 'p1' },
          { term: 'topic040', sort: 'latency', minLatency: 300 },
          { term: 'topic040', order: 'asc', range: true },
          { term: 'please' },
          { term: 'please', provider: 'p2', sort: 'cost' },
          { term: 'please', range: true, order: 'asc' },
          { term: 'please', order: 'asc' }, // the oldest 1,022 of about 2,000 matches
        ];
        for (const c of cases) {
          const expected = await exact(c);
          const label = JSON.stringify(c);
          expect(expected.length, `${label}: the case has rows`).toBeGreaterThan(2);
          const q: Record<string, string> = { content_search: c.term, limit: '20', offset: '2' };
          if (c.provider) q.providers = c.provider;
          if (c.minLatency !== undefined) q.min_latency = String(c.minLatency);
          if (c.sort) q.sort_by = c.sort;
          if (c.order) q.order = c.order;
          if (c.range) Object.assign(q, rangeOf);
          const res = await admin.get('/api/logs', { query: q });
          expect(res.status, res.text).toBe(200);
          expect(
            res.body.logs.map((l: { id: string }) => l.id),
            label,
          ).toEqual(expected.slice(2, 22).map((r) => r.id));
          // Counted to SEARCH_COUNT_MARGIN past the page's end; the stats are those of the counted rows.
          const counted = expected.slice(0, 22 + SEARCH_COUNT_MARGIN);
          expect(res.body.pagination.total_count, label).toBe(counted.length);
          expect(res.headers.get(TOTAL_COUNT_CAPPED_HEADER), label).toBe(
            expected.length > counted.length ? 'true' : null,
          );
          const success = counted.filter((r) => r.status === 'success').length;
          expect(res.body.stats.total_requests, label).toBe(counted.length);
          expect(res.body.stats.success_rate, label).toBeCloseTo((success / counted.length) * 100, 9);
          expect(res.body.stats.average_latency, label).toBeCloseTo(
            counted.reduce((s, r) => s + Number(r.latency), 0) / counted.length,
            9,
          );
          expect(res.body.stats.total_tokens, label).toBe(counted.reduce((s, r) => s + Number(r.total_tokens), 0));
          expect(res.body.stats.total_cost, label).toBeCloseTo(
            counted.reduce((s, r) => s + Number(r.cost ?? 0), 0),
            9,
          );
        }
      } finally {
        query.candidatesFirstMax = before;
      }
    });
  }

  it('one- and two-character terms: a case-insensitive substring of the newest rows of the other filters', async () => {
    const query = gw.app.get(RequestLogQuery);
    // The whole table fits the window: exact, as any term.
    const cases: Case[] = [
      { term: 'PL' }, // "please": two rows of three
      { term: 'c0' }, // "topic040", "topic04 0": about one row in 140
      { term: 'c0', provider: 'p1' },
      { term: 'pl', sort: 'latency', minLatency: 300 },
      { term: '0', order: 'asc', range: true },
    ];
    for (const c of cases) {
      const expected = await exact(c);
      const label = JSON.stringify(c);
      expect(expected.length, `${label}: the case has rows`).toBeGreaterThan(2);
      const q: Record<string, string> = { content_search: c.term, limit: '20', offset: '2' };
      if (c.provider) q.providers = c.provider;
      if (c.minLatency !== undefined) q.min_latency = String(c.minLatency);
      if (c.sort) q.sort_by = c.sort;
      if (c.order) q.order = c.order;
      if (c.range) Object.assign(q, rangeOf);
      const res = await admin.get('/api/logs', { query: q });
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.logs.map((l: { id: string }) => l.id),
        label,
      ).toEqual(expected.slice(2, 22).map((r) => r.id));
      expect(res.body.pagination.total_count, label).toBe(Math.min(expected.length, 22 + SEARCH_COUNT_MARGIN));
      expect(res.headers.get(SEARCH_WINDOW_HEADER), label).toBeNull();
    }
    // A window smaller than the table: the newest 600 rows (of the time range) are searched, the other filters
    // applied to them, and the answer says so.
    const before = query.shortSearchWindow;
    query.shortSearchWindow = 600;
    try {
      const newest = await db.query<Array<{ id: string }>>(
        `SELECT id FROM (SELECT id, timestamp, provider, search_text FROM request_logs ` +
          `ORDER BY timestamp DESC, id DESC LIMIT 600) w WHERE provider = 'p1' AND strpos(search_text, 'c0') > 0 ` +
          `ORDER BY timestamp DESC, id DESC`,
      );
      expect(newest.length).toBeGreaterThan(0);
      expect(newest.length).toBeLessThan((await exact({ term: 'c0', provider: 'p1' })).length);
      const res = await admin.get('/api/logs', { query: { content_search: 'C0', providers: 'p1' } });
      expect(res.body.logs.map((l: { id: string }) => l.id)).toEqual(newest.map((r) => r.id));
      expect(res.body.pagination.total_count).toBe(newest.length);
      expect(res.headers.get(SEARCH_WINDOW_HEADER)).toBe('600');
      expect(res.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
      // An earlier end_time moves the window back: the 600 rows before it.
      const end = new Date(base - 600 * 60_000).toISOString();
      const older = await db.query<Array<{ id: string }>>(
        `SELECT id FROM (SELECT id, timestamp, search_text FROM request_logs WHERE timestamp <= $1 ` +
          `ORDER BY timestamp DESC, id DESC LIMIT 600) w WHERE strpos(search_text, 'c0') > 0 ` +
          `ORDER BY timestamp DESC, id DESC`,
        [end],
      );
      const back = await admin.get('/api/logs', { query: { content_search: 'c0', end_time: end } });
      expect(older.length).toBeGreaterThan(0);
      expect(back.body.logs.map((l: { id: string }) => l.id)).toEqual(older.map((r) => r.id));
    } finally {
      query.shortSearchWindow = before;
    }
    // The stats route stays exact over every match.
    const stats = await admin.get('/api/logs/stats', { query: { content_search: 'c0' } });
    expect(stats.body.total_requests).toBe((await exact({ term: 'c0' })).length);
  });

  it('terms are folded as the stored text is: any case, final sigma, accents', async () => {
    const [row] = await db.query<Array<{ id: string }>>(`SELECT md5('log-7')::uuid::text AS id`);
    const id = row!.id;
    await db.query(`UPDATE request_logs SET search_text = $2 WHERE id = $1`, [
      id,
      foldForSearch('Plan the ΟΔΟΣΟ route to the École first'),
    ]);
    for (const term of ['ΟΔΟΣ', 'οδος', 'ΟΔΟΣΟ', 'école', 'ÉCOLE', 'école FIRST']) {
      const res = await admin.get('/api/logs', { query: { content_search: term } });
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.logs.map((l: { id: string }) => l.id),
        term,
      ).toEqual([id]);
    }
  });

  it('the stats route stays exact over every match', async () => {
    for (const term of ['please', 'topic040']) {
      const expected = await exact({ term });
      const res = await admin.get('/api/logs/stats', { query: { content_search: term } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.total_requests, term).toBe(expected.length);
      expect(res.body.total_tokens, term).toBe(expected.reduce((s, r) => s + Number(r.total_tokens), 0));
    }
    // "please" is in two rows of three: more than a page and its margin.
    expect((await exact({ term: 'please' })).length).toBeGreaterThan(22 + SEARCH_COUNT_MARGIN);
  });
});
