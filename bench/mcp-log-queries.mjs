// MCP tool log queries at scale (issue 13): the built gateway in the scale-out mode on a scratch database of the
// shared Postgres, `--rows` synthetic tool log rows seeded straight in SQL (lib/mcp-log-seed.mjs describes their
// distributions), then every read of `/api/mcp-logs` through HTTP with the setup token, one request at a time: each
// filter alone with a realistic value, a few combinations, every sort both ways, deep pages, `content_search` with a
// rare, a mid and a common term, stats, histograms and filterdata (runner and options: lib/log-query-bench.mjs).
// Usage: npm run build && node bench/mcp-log-queries.mjs [--rows 1000000] [--runs 20] [--warmups 2] [--batch 100000]
//          [--only <regexp>] [--keep-database] [--database <name>]
import { runLogQueryBench } from './lib/log-query-bench.mjs';
import { MID_TOPIC, requestOf, seedMcpLogs, SERVERS, toolOf, vkOf } from './lib/mcp-log-seed.mjs';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const PATH = '/api/mcp-logs';

/** The queries, each `[label, path, query]`; times relative to `now` (just after the newest row). */
function queries(now) {
  const ago = (ms) => new Date(now - ms).toISOString();
  const last24h = { start_time: ago(DAY), end_time: ago(0) };
  const last7d = { start_time: ago(7 * DAY), end_time: ago(0) };
  const list = (label, query = {}) => [`list: ${label}`, PATH, query];
  return [
    list('no filter (newest 50 of all)'),
    list('last 24 h', last24h),
    list('one hour a week ago', { start_time: ago(7 * DAY + HOUR), end_time: ago(7 * DAY) }),
    list(`tool_names=${toolOf(3, 2)} (~0.5 %)`, { tool_names: toolOf(3, 2) }),
    list(`server_labels=${SERVERS[1]} (~13 %)`, { server_labels: SERVERS[1] }),
    list('status=error (8.5 %)', { status: 'error' }),
    list('virtual_key_ids=1 key (~0.2 %)', { virtual_key_ids: vkOf(50) }),
    list('llm_request_ids=1 request (3 rows)', { llm_request_ids: requestOf(123456) }),
    list('min_latency=3000 (~1 %)', { min_latency: 3000 }),
    list('max_latency=20 (~0.1 %)', { max_latency: 20 }),
    list('server + status=error, last 24 h', { server_labels: SERVERS[0], status: 'error', ...last24h }),
    list('virtual key + tool, last 7 d', { virtual_key_ids: vkOf(3), tool_names: toolOf(0, 0), ...last7d }),
    list('server + min_latency=2000, by latency desc', {
      server_labels: SERVERS[2],
      min_latency: 2000,
      sort_by: 'latency',
    }),
    ...['timestamp', 'latency', 'cost'].flatMap((sort) =>
      ['desc', 'asc'].map((order) => list(`sort ${sort} ${order}`, { sort_by: sort, order })),
    ),
    list('sort latency desc, last 24 h', { sort_by: 'latency', ...last24h }),
    list('sort cost desc, last 7 d', { sort_by: 'cost', ...last7d }),
    list(`sort cost desc, server_labels=${SERVERS[1]}`, { sort_by: 'cost', server_labels: SERVERS[1] }),
    list('offset 1,000', { offset: 1000 }),
    list('offset 10,000', { offset: 10_000 }),
    list('offset 10,000, sort latency desc', { offset: 10_000, sort_by: 'latency' }),
    list('content_search rare (ORD-04213, ~2 rows)', { content_search: 'ORD-04213' }),
    list(`content_search mid (${MID_TOPIC}, ~0.6 %)`, { content_search: MID_TOPIC }),
    list('content_search common (please, ~24 %)', { content_search: 'please' }),
    list('content_search common, last 24 h', { content_search: 'please', ...last24h }),
    list('content_search mid + server', { content_search: MID_TOPIC, server_labels: SERVERS[0] }),
    ['stats: no filter', `${PATH}/stats`, {}],
    ['stats: last 24 h', `${PATH}/stats`, last24h],
    ['stats: last 7 d', `${PATH}/stats`, last7d],
    [`stats: server_labels=${SERVERS[1]}`, `${PATH}/stats`, { server_labels: SERVERS[1] }],
    ['stats: status=error', `${PATH}/stats`, { status: 'error' }],
    ['histogram: default (24 h)', `${PATH}/histogram`, {}],
    ['histogram: 7 d', `${PATH}/histogram`, last7d],
    ['histogram: 30 d', `${PATH}/histogram`, { start_time: ago(30 * DAY), end_time: ago(0) }],
    ['histogram: 7 d, one server', `${PATH}/histogram`, { server_labels: SERVERS[3], ...last7d }],
    ['filterdata', `${PATH}/filterdata`, {}],
  ];
}

await runLogQueryBench({
  seed: seedMcpLogs,
  size: async (client) => {
    const { rows } = await client.query(
      `SELECT (SELECT count(*) FROM mcp_tool_logs)::int AS n, max(timestamp) AS last,
         pg_size_pretty(pg_total_relation_size('mcp_tool_logs')) AS logs FROM mcp_tool_logs`,
    );
    const r = rows[0];
    return { n: r.n, last: r.last, line: `mcp_tool_logs ${r.logs}` };
  },
  queries,
  listPath: PATH,
});
