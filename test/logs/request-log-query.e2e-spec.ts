import { randomUUID } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_CAPPED_HEADER } from '../../src/core/http/paging.dto.js';
import { foldForSearch } from '../../src/core/persistence/log-sql.js';
import { JOBS } from '../../src/core/queue/job-catalogue.js';
import { QueueService } from '../../src/core/queue/queue.service.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/** Fixed rows: every filter and sort below has a known answer. Times are minutes before BASE. */
const BASE = Date.parse('2026-11-20T12:00:00Z');
interface Seed {
  name: string;
  minutesAgo: number;
  provider: string;
  model: string;
  object: string;
  status: 'success' | 'error';
  latency: number;
  tokens: number | null;
  cost: number | null;
  key: string;
  vk: string | null;
  team: string | null;
  customer: string | null;
  rule: string | null;
  text: string;
}
const SEEDS: Seed[] = [
  {
    name: 'a',
    minutesAgo: 50,
    provider: 'openai',
    model: 'gpt-4o',
    object: 'chat_completion',
    status: 'success',
    latency: 120,
    tokens: 30,
    cost: 0.003,
    key: 'k1',
    vk: 'vk-1',
    team: 'team-1',
    customer: null,
    rule: 'rule-1',
    text: 'the quick brown fox',
  },
  {
    name: 'b',
    minutesAgo: 40,
    provider: 'openai',
    model: 'gpt-4o-mini',
    object: 'chat_completion',
    status: 'error',
    latency: 15,
    tokens: null,
    cost: null,
    key: 'k1',
    vk: 'vk-1',
    team: 'team-1',
    customer: null,
    rule: null,
    text: 'lazy dog sleeps',
  },
  {
    name: 'c',
    minutesAgo: 30,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    object: 'chat_completion',
    status: 'success',
    latency: 900,
    tokens: 500,
    cost: 0.05,
    key: 'k2',
    vk: 'vk-2',
    team: null,
    customer: 'cust-1',
    rule: null,
    text: 'Quick SUMMARY please',
  },
  {
    name: 'd',
    minutesAgo: 20,
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    object: 'embedding',
    status: 'success',
    latency: 40,
    tokens: 8,
    cost: null,
    key: 'k3',
    vk: null,
    team: null,
    customer: null,
    rule: null,
    text: '100% literal_match',
  },
  {
    name: 'e',
    minutesAgo: 10,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    object: 'responses',
    status: 'success',
    latency: 300,
    tokens: 100,
    cost: 0.01,
    key: 'k2',
    vk: 'vk-2',
    team: null,
    customer: 'cust-2',
    rule: 'rule-2',
    text: 'weather in paris',
  },
];

describe(`request log queries (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let db: DataSource;
  const ids: Record<string, string> = {};
  const at = (minutesAgo: number) => new Date(BASE - minutesAgo * 60_000).toISOString();
  const list = async (query: Record<string, string | number | boolean>) => {
    const res = await s.admin.get('/api/logs', { query: { start_time: at(120), end_time: at(0), ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const names = (body: any) => body.logs.map((r: any) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]);

  beforeAll(async () => {
    s = await startInferenceStack();
    db = s.gw.app.get<DataSource>(getDataSourceToken());
    for (const seed of SEEDS) {
      const id = randomUUID();
      ids[seed.name] = id;
      await db.query(
        `INSERT INTO request_logs (id, timestamp, object, provider, model, selected_key_id, selected_key_name,
           virtual_key_id, team_id, customer_id, routing_rule_id, status, status_code, latency, total_tokens, cost)
         VALUES ($1, $2, $3, $4, $5, $6, $6::varchar || '-name', $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [
          id,
          at(seed.minutesAgo),
          seed.object,
          seed.provider,
          seed.model,
          seed.key,
          seed.vk,
          seed.team,
          seed.customer,
          seed.rule,
          seed.status,
          seed.status === 'success' ? 200 : 500,
          seed.latency,
          seed.tokens,
          seed.cost,
        ],
      );
      await db.query(`UPDATE request_logs SET search_text = $2 WHERE id = $1`, [id, foldForSearch(seed.text)]);
      await db.query(`INSERT INTO request_log_contents (log_id, timestamp) VALUES ($1, $2)`, [id, at(seed.minutesAgo)]);
    }
  });
  afterAll(() => s?.close());

  it('lists newest first with pagination, stats and has_logs', async () => {
    const body = await list({});
    expect(names(body)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(body.pagination).toEqual({ total_count: 5, limit: 50, offset: 0, sort_by: 'timestamp', order: 'desc' });
    expect(body.has_logs).toBe(true);
    expect(body.stats).toMatchObject({ total_requests: 5, success_rate: 80, total_tokens: 638 });
    expect(body.stats.average_latency).toBeCloseTo((120 + 15 + 900 + 40 + 300) / 5, 9);
    expect(body.stats.total_cost).toBeCloseTo(0.063, 12);
    const page = await list({ limit: 2, offset: 1 });
    expect(names(page)).toEqual(['d', 'c']);
    expect(page.pagination.total_count).toBe(5);
    // An offset past a page's length reads the ids first, then the rows (pageSql); a shorter one, the rows at once.
    const deep = await list({ limit: 1, offset: 3 });
    expect(names(deep)).toEqual(['b']);
    expect(deep.pagination.total_count).toBe(5);
    const none = await list({ providers: 'mistral' });
    expect(none).toMatchObject({ logs: [], has_logs: true, pagination: { total_count: 0 } });
  });

  it('counts and adds up stats only to count_limit past the page, saying when more rows match', async () => {
    const get = (query: Record<string, string | number>) =>
      s.admin.get('/api/logs', { query: { start_time: at(120), end_time: at(0), ...query } });
    // The page's own rows: e and d of five.
    const own = await get({ limit: 2, count_limit: 0 });
    expect(own.status, own.text).toBe(200);
    expect(names(own.body)).toEqual(['e', 'd']);
    expect(own.body.pagination).toEqual({ total_count: 2, limit: 2, offset: 0, sort_by: 'timestamp', order: 'desc' });
    expect(own.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
    expect(own.body.stats).toMatchObject({ total_requests: 2, success_rate: 100, total_tokens: 108 });
    expect(own.body.stats.average_latency).toBeCloseTo((300 + 40) / 2, 9);
    expect(own.body.stats.total_cost).toBeCloseTo(0.01, 12);
    expect(own.body.has_logs).toBe(true);
    // One past a page that starts at 1: e, d, c counted.
    const past = await get({ limit: 1, offset: 1, count_limit: 1 });
    expect(names(past.body)).toEqual(['d']);
    expect(past.body.pagination.total_count).toBe(3);
    expect(past.body.stats).toMatchObject({ total_requests: 3, total_tokens: 608 });
    expect(past.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
    // A bound past every match is the exact count, without the header.
    const all = await get({ limit: 2, count_limit: 3 });
    expect(all.body.pagination.total_count).toBe(5);
    expect(all.body.stats).toMatchObject({ total_requests: 5, success_rate: 80, total_tokens: 638 });
    expect(all.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBeNull();
    // Counted in the list's own order, with its filters: anthropic by latency, e (300) before c (900).
    const sorted = await get({ providers: 'anthropic', sort_by: 'latency', order: 'asc', limit: 1, count_limit: 0 });
    expect(names(sorted.body)).toEqual(['e']);
    expect(sorted.body.stats).toMatchObject({ total_requests: 1, average_latency: 300, total_tokens: 100 });
    expect(sorted.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
    // With content_search it sets the search's bound (1,000 by default): quick matches c and a.
    const searched = await get({ content_search: 'quick', limit: 1, count_limit: 0 });
    expect(names(searched.body)).toEqual(['c']);
    expect(searched.body.pagination.total_count).toBe(1);
    expect(searched.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
    const none = await get({ providers: 'mistral', count_limit: 0 });
    expect(none.body).toMatchObject({ logs: [], has_logs: true, pagination: { total_count: 0 } });
    expect(none.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBeNull();
  });

  const FILTERS: Array<[Record<string, string | number | boolean>, string[]]> = [
    [{ providers: 'anthropic' }, ['e', 'c']],
    [{ providers: 'openai,gemini' }, ['d', 'b', 'a']],
    [{ models: 'gpt-4o-mini' }, ['b']],
    [{ status: 'error' }, ['b']],
    [{ status: 'success,processing' }, ['e', 'd', 'c', 'a']],
    [{ objects: 'embedding,responses' }, ['e', 'd']],
    [{ selected_key_ids: 'k2' }, ['e', 'c']],
    [{ virtual_key_ids: 'vk-1' }, ['b', 'a']],
    [{ team_ids: 'team-1' }, ['b', 'a']],
    [{ customer_ids: 'cust-2, cust-1' }, ['e', 'c']],
    [{ routing_rule_ids: 'rule-1,rule-2' }, ['e', 'a']],
    [{ start_time: at(35), end_time: at(15) }, ['d', 'c']],
    [{ min_latency: 100 }, ['e', 'c', 'a']],
    [{ max_latency: 40 }, ['d', 'b']],
    [{ min_latency: 100.5, max_latency: 300 }, ['e', 'a']],
    [{ min_tokens: 30 }, ['e', 'c', 'a']],
    [{ max_tokens: 30 }, ['d', 'a']],
    [{ min_cost: 0.005 }, ['e', 'c']],
    [{ max_cost: 0.003 }, ['a']],
    [{ missing_cost_only: true }, ['d', 'b']],
    [{ missing_cost_only: false }, ['e', 'd', 'c', 'b', 'a']],
    [{ content_search: 'quick' }, ['c', 'a']],
    [{ content_search: '100%' }, ['d']],
    [{ content_search: 'ick_br' }, []],
    [{ content_search: 'literal_match' }, ['d']],
    [{ content_search: 'quick', start_time: at(35), end_time: at(15) }, ['c']],
    [{ content_search: 'quick', end_time: at(45) }, ['a']],
  ];
  it.each(FILTERS)('filters %j', async (query, expected) => {
    const body = await list(query);
    expect(names(body)).toEqual(expected);
    expect(body.pagination.total_count).toBe(expected.length);
    expect(body.stats.total_requests).toBe(expected.length);
  });

  const SORTS: Array<[string, string, string[]]> = [
    ['latency', 'desc', ['c', 'e', 'a', 'd', 'b']],
    ['latency', 'asc', ['b', 'd', 'a', 'e', 'c']],
    ['tokens', 'desc', ['c', 'e', 'a', 'd', 'b']],
    ['tokens', 'asc', ['d', 'a', 'e', 'c', 'b']],
    ['cost', 'desc', ['c', 'e', 'a']],
    ['cost', 'asc', ['a', 'e', 'c']],
    ['timestamp', 'asc', ['a', 'b', 'c', 'd', 'e']],
  ];
  it.each(SORTS)('sorts by %s %s (unknown values last)', async (sortBy, order, expected) => {
    const body = await list({ sort_by: sortBy, order });
    expect(names(body).slice(0, expected.length)).toEqual(expected);
    expect(body.pagination).toMatchObject({ sort_by: sortBy, order });
  });

  const BAD: Array<[Record<string, string>, string]> = [
    [{ limit: '0' }, 'limit'],
    [{ limit: '1001' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ offset: '-1' }, 'offset'],
    [{ sort_by: 'model' }, 'sort_by'],
    [{ order: 'up' }, 'order'],
    [{ status: 'success,failed' }, 'status'],
    [{ objects: 'chat' }, 'objects'],
    [{ start_time: 'yesterday' }, 'start_time'],
    [{ end_time: '2026-13-01T00:00:00Z' }, 'end_time'],
    [{ start_time: '2026-11-20T12:00:00Z', end_time: '2026-11-20T11:00:00Z' }, 'start_time'],
    [{ min_latency: '-1' }, 'min_latency'],
    [{ max_latency: '1e3' }, 'max_latency'],
    [{ min_latency: '50', max_latency: '10' }, 'min_latency'],
    [{ min_tokens: '1.5' }, 'min_tokens'],
    [{ max_tokens: '-3' }, 'max_tokens'],
    [{ min_cost: 'cheap' }, 'min_cost'],
    [{ max_cost: '-0.1' }, 'max_cost'],
    [{ missing_cost_only: 'yes' }, 'missing_cost_only'],
    [{ missing_cost_only: 'true', min_cost: '1' }, 'missing_cost_only'],
    [{ content_search: 'x'.repeat(257) }, 'content_search'],
    [{ providers: 'a'.repeat(8200) }, 'providers'],
    [{ count_limit: '-1' }, 'count_limit'],
    [{ count_limit: '1000001' }, 'count_limit'],
    [{ count_limit: 'some' }, 'count_limit'],
  ];
  it.each(BAD.map(([query, param], i) => [param, i, query] as const))(
    '400 naming %s (case %i)',
    async (param, _i, query) => {
      for (const path of ['/api/logs', '/api/logs/stats', '/api/logs/histogram/latency']) {
        if (path !== '/api/logs' && ['limit', 'offset', 'sort_by', 'order', 'count_limit'].includes(param)) continue;
        const res = await s.admin.get(path, { query });
        expect(res.status, `${path} ${res.text}`).toBe(400);
        expect(res.body.error.param).toBe(param);
      }
    },
  );

  it('stats over the filters', async () => {
    const res = await s.admin.get('/api/logs/stats', {
      query: { start_time: at(120), end_time: at(0), providers: 'anthropic' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total_requests: 2,
      success_rate: 100,
      average_latency: 600,
      total_tokens: 600,
      total_cost: expect.closeTo(0.06, 12),
    });
  });

  it('histograms: buckets chosen from the range, empty ones included, per kind', async () => {
    const query = { start_time: at(60), end_time: at(0) };
    const requests = await s.admin.get('/api/logs/histogram', { query });
    expect(requests.status).toBe(200);
    expect(requests.body.bucket_size_seconds).toBe(60);
    expect(requests.body.buckets).toHaveLength(61);
    const nonEmpty = requests.body.buckets.filter((b: any) => b.count > 0);
    expect(nonEmpty.map((b: any) => b.timestamp)).toEqual([at(50), at(40), at(30), at(20), at(10)]);
    expect(nonEmpty.map((b: any) => [b.success, b.error])).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
      [1, 0],
      [1, 0],
    ]);

    const week = await s.admin.get('/api/logs/histogram/tokens', {
      query: { start_time: '2026-11-17T12:00:00Z', end_time: '2026-11-24T12:00:00Z' },
    });
    expect(week.body.bucket_size_seconds).toBe(10800);
    expect(week.body.buckets).toHaveLength(57);
    const tokenBuckets = week.body.buckets.filter((b: any) => b.count > 0);
    expect(tokenBuckets).toEqual([
      { timestamp: '2026-11-20T09:00:00.000Z', count: 5, prompt_tokens: 0, completion_tokens: 0, total_tokens: 638 },
    ]);

    const cost = await s.admin.get('/api/logs/histogram/cost', { query: { ...query, providers: 'anthropic' } });
    const costBuckets = cost.body.buckets.filter((b: any) => b.count > 0);
    expect(costBuckets.map((b: any) => b.cost)).toEqual([expect.closeTo(0.05, 12), expect.closeTo(0.01, 12)]);

    const latency = await s.admin.get('/api/logs/histogram/latency', {
      query: { start_time: '2026-11-20T11:00:00Z', end_time: '2026-11-20T12:00:00Z' },
    });
    expect(latency.body.bucket_size_seconds).toBe(60);
    const hour = await s.admin.get('/api/logs/histogram/latency', {
      query: { start_time: '2026-11-17T12:00:00Z', end_time: '2026-11-24T12:00:00Z' },
    });
    const filled = hour.body.buckets.filter((b: any) => b.count > 0);
    expect(filled).toHaveLength(1);
    expect(filled[0]).toMatchObject({ count: 5, avg: 275, p50: 120 });
    expect(filled[0].p99).toBeGreaterThan(800);
    expect(filled[0].p99).toBeLessThanOrEqual(900);
  });

  it('filterdata lists distinct values with names', async () => {
    const res = await s.admin.get('/api/logs/filterdata');
    expect(res.status).toBe(200);
    expect(res.body.providers).toEqual(expect.arrayContaining(['anthropic', 'gemini', 'openai']));
    expect(res.body.models).toEqual(
      expect.arrayContaining(['claude-sonnet-4-5', 'gemini-2.5-flash', 'gpt-4o', 'gpt-4o-mini']),
    );
    expect(res.body.objects).toEqual(expect.arrayContaining(['chat_completion', 'embedding', 'responses']));
    expect(res.body.selected_keys).toEqual(
      expect.arrayContaining([
        { id: 'k1', name: 'k1-name' },
        { id: 'k2', name: 'k2-name' },
      ]),
    );
    expect(res.body.virtual_keys.map((v: any) => v.id)).toEqual(expect.arrayContaining(['vk-1', 'vk-2']));
  });

  it('dropped counts what the writer wrote and gave up', async () => {
    const before = (await s.admin.get('/api/logs/dropped')).body;
    const res = await s.inference.post('/v1/chat/completions', {
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'count me' }],
    });
    expect(res.status).toBe(200);
    await s.admin.get(`/api/logs/${res.headers.get('x-request-id')}`);
    const after = await s.admin.get('/api/logs/dropped');
    expect(after.status).toBe(200);
    expect(after.body).toEqual({
      dropped: 0,
      buffer_full: 0,
      write_failed: 0,
      written: before.written + 1,
      pending: 0,
    });
    const metrics = await s.admin.get('/metrics');
    expect(metrics.text).toMatch(/gateway_append_log_dropped_total\{kind="request_logs",reason="buffer_full"\} 0/);
  });

  it('DELETE removes rows and their content; bad bodies are 400 naming ids', async () => {
    for (const [body, param] of [
      [{}, 'ids'],
      [{ ids: [] }, 'ids'],
      [{ ids: ['not-a-uuid'] }, 'ids'],
      [{ ids: [ids.a, ids.a] }, 'ids'],
    ] as const) {
      const bad = await s.admin.delete('/api/logs', { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.param).toBe(param);
    }
    const gone = await s.admin.delete('/api/logs', { body: { ids: [ids.a, ids.b, randomUUID()] } });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ message: '2 logs deleted', deleted: 2 });
    expect((await s.admin.get(`/api/logs/${ids.a}`)).status).toBe(404);
    const contents = await db.query(
      'SELECT count(*)::int AS n FROM request_log_contents WHERE log_id = ANY($1::uuid[])',
      [[ids.a, ids.b]],
    );
    expect(contents[0].n).toBe(0);
    expect(names(await list({}))).toEqual(['e', 'd', 'c']);
  });

  it('the retention job deletes rows and content older than logs.retention', async () => {
    const queue = s.gw.app.get(QueueService);
    await db.query(`UPDATE request_logs SET timestamp = now() - interval '31 days' WHERE id = $1`, [ids.c]);
    await db.query(`UPDATE request_log_contents SET timestamp = now() - interval '31 days' WHERE log_id = $1`, [ids.c]);
    await db.query(`UPDATE request_logs SET timestamp = now() - interval '29 days' WHERE id = $1`, [ids.d]);
    const { id } = await queue.enqueue(JOBS.purgeExpired, { reason: 'test' });
    const view = await queue.waitForCompletion(id, 20_000);
    expect(view.state, view.error).toBe('completed');
    expect((view.result as any).deleted).toMatchObject({ request_logs: 1, request_log_contents: 1 });
    expect((await s.admin.get(`/api/logs/${ids.c}`)).status).toBe(404);
    expect((await s.admin.get(`/api/logs/${ids.d}`)).status).toBe(200);
  });
});
