// Request log queries at scale (issue 10): the built gateway in the scale-out mode on a scratch database of the shared
// Postgres (the migrations make the schema), `--rows` synthetic log rows seeded straight in SQL (lib/request-log-seed.mjs:
// their distributions are described there), then every read of the logs API through HTTP with the setup token, one
// request at a time: each filter alone with a realistic value, a few combinations, every sort both ways, deep pages,
// `content_search` with a rare, a mid and a common term, `/api/logs/stats`, each histogram and `/filterdata`. Each
// query runs `--warmups` times unmeasured, then `--runs` times; prints p50/p95/max per query, the rows it matched,
// whether p95 meets its target (list pages < 50 ms, stats, histograms and filterdata < 200 ms) and a markdown table.
// Usage: npm run build && node bench/request-log-queries.mjs [--rows 1000000] [--runs 20] [--warmups 2]
//          [--batch 100000] [--only <regexp>] [--keep-database] [--database <name>]
// `--keep-database` leaves the seeded scratch database in place (its name is printed) and `--database <name>` runs the
// queries on such a database again without seeding (pending migrations run at the gateway's start): for EXPLAIN
// (ANALYZE, BUFFERS) on the same rows, and for measuring a change without seeding again. Drop it by hand afterwards.
import { runLogQueryBench } from './lib/log-query-bench.mjs';
import {
  customerOf,
  keyOf,
  MID_TOPIC,
  modelOf,
  PROVIDERS,
  ruleOf,
  seedRequestLogs,
  teamOf,
  vkOf,
} from './lib/request-log-seed.mjs';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The queries, each `[label, path, query]`; times relative to `now` (the seed's rows end at its start). */
function queries(now) {
  const ago = (ms) => new Date(now - ms).toISOString();
  const last24h = { start_time: ago(DAY), end_time: ago(0) };
  const last7d = { start_time: ago(7 * DAY), end_time: ago(0) };
  const list = (label, query = {}) => [`list: ${label}`, '/api/logs', query];
  return [
    list('no filter (newest 50 of all)'),
    list('last 24 h', last24h),
    list('one hour a week ago', { start_time: ago(7 * DAY + HOUR), end_time: ago(7 * DAY) }),
    list(`providers=${PROVIDERS[1]} (~13 %)`, { providers: PROVIDERS[1] }),
    list(`models=${modelOf(3, 1)} (~1 %)`, { models: modelOf(3, 1) }),
    list('status=error (4.5 %)', { status: 'error' }),
    list('objects=embedding (7 %)', { objects: 'embedding' }),
    list('selected_key_ids=1 key (~0.3 %)', { selected_key_ids: keyOf(0, 5) }),
    list('virtual_key_ids=1 key (~0.2 %)', { virtual_key_ids: vkOf(50) }),
    list('team_ids=1 team (~2 %)', { team_ids: teamOf(7) }),
    list('customer_ids=1 customer (~0.5 %)', { customer_ids: customerOf(9) }),
    list('routing_rule_ids=1 rule (~0.8 %)', { routing_rule_ids: ruleOf(3) }),
    list('min_latency=5000 (~1 %)', { min_latency: 5000 }),
    list('max_latency=50 (~3 %)', { max_latency: 50 }),
    list('min_tokens=5000 (~1 %)', { min_tokens: 5000 }),
    list('max_tokens=50 (~5 %)', { max_tokens: 50 }),
    list('min_cost=0.05 (~2 %)', { min_cost: 0.05 }),
    list('max_cost=0.0001 (~4 %)', { max_cost: 0.0001 }),
    list('missing_cost_only (~18 %)', { missing_cost_only: true }),
    list('provider + status=error, last 24 h', { providers: PROVIDERS[0], status: 'error', ...last24h }),
    list('virtual key + model, last 7 d', { virtual_key_ids: vkOf(3), models: modelOf(0, 0), ...last7d }),
    list('team + min_latency=2000, by latency desc', { team_ids: teamOf(1), min_latency: 2000, sort_by: 'latency' }),
    list('provider + missing_cost_only, last 7 d', { providers: PROVIDERS[2], missing_cost_only: true, ...last7d }),
    ...['timestamp', 'latency', 'tokens', 'cost'].flatMap((sort) =>
      ['desc', 'asc'].map((order) => list(`sort ${sort} ${order}`, { sort_by: sort, order })),
    ),
    list('sort latency desc, last 24 h', { sort_by: 'latency', ...last24h }),
    list('sort cost desc, last 24 h', { sort_by: 'cost', ...last24h }),
    list('sort tokens asc, last 7 d', { sort_by: 'tokens', order: 'asc', ...last7d }),
    list(`sort cost desc, providers=${PROVIDERS[1]}`, { sort_by: 'cost', providers: PROVIDERS[1] }),
    list('offset 1,000', { offset: 1000 }),
    list('offset 10,000', { offset: 10_000 }),
    list('offset 10,000, sort latency desc', { offset: 10_000, sort_by: 'latency' }),
    list('content_search rare (ORD-04213, ~2 rows)', { content_search: 'ORD-04213' }),
    list(`content_search mid (${MID_TOPIC}, ~0.6 %)`, { content_search: MID_TOPIC }),
    list('content_search common (please, ~17 %)', { content_search: 'please' }),
    list('content_search common, last 24 h', { content_search: 'please', ...last24h }),
    list('content_search mid + provider', { content_search: MID_TOPIC, providers: PROVIDERS[0] }),
    // One or two characters: no trigram; the newest 20,000 rows of the time range (SHORT_SEARCH_WINDOW), filters applied.
    list('content_search 1 char, common (e, ~100 %)', { content_search: 'e' }),
    list('content_search 2 chars, absent (zq): the whole window (20,000 rows)', { content_search: 'zq' }),
    list(`content_search 2 chars, absent, providers=${PROVIDERS[1]}`, {
      content_search: 'zq',
      providers: PROVIDERS[1],
    }),
    list('content_search 2 chars, absent, last 24 h', { content_search: 'zq', ...last24h }),
    ['stats: no filter', '/api/logs/stats', {}],
    ['stats: last 24 h', '/api/logs/stats', last24h],
    ['stats: last 7 d', '/api/logs/stats', last7d],
    [`stats: providers=${PROVIDERS[1]}`, '/api/logs/stats', { providers: PROVIDERS[1] }],
    ['stats: status=error', '/api/logs/stats', { status: 'error' }],
    ['stats: content_search common', '/api/logs/stats', { content_search: 'please' }],
    ['stats: content_search 2 chars (exact: every row read)', '/api/logs/stats', { content_search: 'zq' }],
    ['histogram: requests, default (24 h)', '/api/logs/histogram', {}],
    ['histogram: requests, 30 d', '/api/logs/histogram', { start_time: ago(30 * DAY), end_time: ago(0) }],
    ['histogram: tokens, 7 d', '/api/logs/histogram/tokens', last7d],
    ['histogram: cost, 30 d', '/api/logs/histogram/cost', { start_time: ago(30 * DAY), end_time: ago(0) }],
    ['histogram: latency, 24 h', '/api/logs/histogram/latency', last24h],
    ['histogram: latency, 7 d', '/api/logs/histogram/latency', last7d],
    ['filterdata', '/api/logs/filterdata', {}],
  ];
}

await runLogQueryBench({
  seed: seedRequestLogs,
  size: async (client) => {
    const { rows } = await client.query(
      `SELECT (SELECT count(*) FROM request_logs)::int AS n, max(timestamp) AS last,
         pg_size_pretty(pg_total_relation_size('request_logs')) AS logs,
         pg_size_pretty(pg_total_relation_size('request_log_contents')) AS contents FROM request_logs`,
    );
    const r = rows[0];
    return { n: r.n, last: r.last, line: `request_logs ${r.logs}, request_log_contents ${r.contents}` };
  },
  queries,
  listPath: '/api/logs',
});
