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
import pg from 'pg';
import { parseArgs } from 'node:util';
import { runBench, throwIfStopping } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import { percentile } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';
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
import { createScratchScaleOut, DEFAULT_DATABASE_URL } from './lib/scale-out.mjs';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    warmups: { type: 'string', default: '2' },
    batch: { type: 'string', default: '100000' },
    only: { type: 'string' },
    'keep-database': { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const rows = Number(values.rows);
const runs = Number(values.runs);
const warmups = Number(values.warmups);
const only = values.only ? new RegExp(values.only) : undefined;

const LIST_TARGET_MS = 50;
const AGGREGATE_TARGET_MS = 200;
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
    ['stats: no filter', '/api/logs/stats', {}],
    ['stats: last 24 h', '/api/logs/stats', last24h],
    ['stats: last 7 d', '/api/logs/stats', last7d],
    [`stats: providers=${PROVIDERS[1]}`, '/api/logs/stats', { providers: PROVIDERS[1] }],
    ['stats: status=error', '/api/logs/stats', { status: 'error' }],
    ['stats: content_search common', '/api/logs/stats', { content_search: 'please' }],
    ['histogram: requests, default (24 h)', '/api/logs/histogram', {}],
    ['histogram: requests, 30 d', '/api/logs/histogram', { start_time: ago(30 * DAY), end_time: ago(0) }],
    ['histogram: tokens, 7 d', '/api/logs/histogram/tokens', last7d],
    ['histogram: cost, 30 d', '/api/logs/histogram/cost', { start_time: ago(30 * DAY), end_time: ago(0) }],
    ['histogram: latency, 24 h', '/api/logs/histogram/latency', last24h],
    ['histogram: latency, 7 d', '/api/logs/histogram/latency', last7d],
    ['filterdata', '/api/logs/filterdata', {}],
  ];
}

async function timed(gw, path, query) {
  const url = new URL(path, gw.base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const t = performance.now();
  const res = await fetch(url, { headers: { 'x-gateway-setup-token': gw.setupToken } });
  const body = await res.text();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`${url.pathname}${url.search}: ${res.status} ${body}`);
  return { ms, body: JSON.parse(body) };
}

/** What a response says it matched: the list's total_count, the stats' total, the histogram's count. */
function matched(body) {
  if (body.pagination) return body.pagination.total_count;
  if (body.total_requests !== undefined) return body.total_requests;
  if (body.buckets) return body.buckets.reduce((s, b) => s + b.count, 0);
  return undefined;
}

const fmt = (ms) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
const count = (n) => (n === undefined ? '' : n.toLocaleString('en-US'));

await runBench(
  async () => {
    console.log(machineLine('start'));
    const scratch = values.database
      ? {
          databaseName: values.database,
          env: {
            DATABASE_URL: Object.assign(new URL(process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL), {
              pathname: `/${values.database}`,
            }).toString(),
            REDIS_URL: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
          },
        }
      : await createScratchScaleOut({ keepDatabase: values['keep-database'] });
    // On a kept database the gateway's start may run a migration over its million rows first.
    const gw = await startGateway({ env: scratch.env, logLevel: 'warn', healthTimeoutMs: 900_000 });
    const client = new pg.Client({ connectionString: scratch.env.DATABASE_URL });
    await client.connect();
    try {
      if (!values.database) {
        console.log(`seeding ${rows.toLocaleString('en-US')} rows into ${scratch.databaseName}`);
        const t = await seedRequestLogs(client, { rows, batch: Number(values.batch), log: console.log });
        console.log(
          `  seeded in ${((t.dropMs + t.insertMs + t.indexMs + t.vacuumMs) / 1000).toFixed(0)} s: inserts ` +
            `${(t.insertMs / 1000).toFixed(0)} s, index builds ${(t.indexMs / 1000).toFixed(0)} s, vacuum and ` +
            `analyze ${(t.vacuumMs / 1000).toFixed(0)} s`,
        );
      }
      const { rows: sizes } = await client.query(
        `SELECT (SELECT count(*) FROM request_logs)::int AS n, max(timestamp) AS last,
           pg_size_pretty(pg_total_relation_size('request_logs')) AS logs,
           pg_size_pretty(pg_total_relation_size('request_log_contents')) AS contents FROM request_logs`,
      );
      const size = sizes[0];
      console.log(
        `${size.n.toLocaleString('en-US')} rows; request_logs ${size.logs}, request_log_contents ${size.contents} ` +
          `(with indexes); ${runs} runs per query after ${warmups} warm-ups, one request at a time`,
      );
      if (values['keep-database']) console.log(`database kept: ${scratch.databaseName}`);

      const results = [];
      for (const [label, path, query] of queries(new Date(size.last).getTime() + 1000)) {
        if (only && !only.test(label)) continue;
        throwIfStopping();
        for (let i = 0; i < warmups; i++) await timed(gw, path, query);
        const times = [];
        let body;
        for (let i = 0; i < runs; i++) ({ ms: times[i], body } = await timed(gw, path, query));
        times.sort((a, b) => a - b);
        const target = path === '/api/logs' ? LIST_TARGET_MS : AGGREGATE_TARGET_MS;
        const r = { label, target, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) };
        r.matched = matched(body);
        r.ok = r.p95 < target;
        results.push(r);
        console.log(
          `  ${label.padEnd(50)} p50 ${fmt(r.p50).padStart(5)} ms  p95 ${fmt(r.p95).padStart(5)} ms  ` +
            `max ${fmt(r.max).padStart(5)} ms  matched ${count(r.matched).padStart(9)}  ` +
            `${r.ok ? 'ok' : 'MISSED'} (< ${target} ms)`,
        );
      }
      const missed = results.filter((r) => !r.ok);
      console.log(`\n${results.length - missed.length} of ${results.length} queries meet their target`);
      console.log('\n| query | matched | p50 ms | p95 ms | target |');
      console.log('| --- | ---: | ---: | ---: | --- |');
      for (const r of results) {
        console.log(
          `| ${r.label} | ${count(r.matched)} | ${fmt(r.p50)} | ${r.ok ? fmt(r.p95) : `**${fmt(r.p95)}**`} | ` +
            `< ${r.target} ${r.ok ? 'ok' : 'missed'} |`,
        );
      }
      console.log(machineLine('end'));
    } finally {
      await client.end();
      await gw.stop();
    }
  },
  { maxSeconds: 3 * 3600 },
);
