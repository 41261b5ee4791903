// The runner of the log query benches (request logs, MCP tool logs): the built gateway in the scale-out mode on a
// scratch database of the shared Postgres (the migrations make the schema), `--rows` synthetic rows seeded straight in
// SQL by the bench's `seed`, then each of its queries through HTTP with the setup token, one request at a time: run
// `--warmups` times unmeasured, then `--runs` times; prints p50/p95/max per query, the rows it matched, whether p95
// meets its target (list pages < 50 ms, aggregates < 200 ms) and a markdown table.
// Options: [--rows 1000000] [--runs 20] [--warmups 2] [--batch 100000] [--only <regexp>] [--keep-database]
//          [--database <name>]
// `--keep-database` leaves the seeded scratch database in place (its name is printed) and `--database <name>` runs the
// queries on such a database again without seeding (pending migrations run at the gateway's start): for EXPLAIN
// (ANALYZE, BUFFERS) on the same rows, and for measuring a change without seeding again. Drop it by hand afterwards.
import pg from 'pg';
import { parseArgs } from 'node:util';
import { runBench, throwIfStopping } from './cleanup.mjs';
import { startGateway } from './gateway.mjs';
import { percentile } from './load.mjs';
import { machineLine } from './report.mjs';
import { benchScaleOut } from './scale-out.mjs';

export const LIST_TARGET_MS = 50;
export const AGGREGATE_TARGET_MS = 200;

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
  if (body.total_executions !== undefined) return body.total_executions;
  if (body.buckets) return body.buckets.reduce((s, b) => s + b.count, 0);
  return undefined;
}

const fmt = (ms) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
const count = (n) => (n === undefined ? '' : n.toLocaleString('en-US'));

/**
 * Runs one log query bench. `seed(client, { rows, batch, log })` loads the rows and returns its timings;
 * `size(client)` returns `{ n, last, line }` (row count, newest timestamp, a line describing the tables);
 * `queries(now)` returns `[label, path, query]` triples (times relative to `now`, just after the newest row);
 * `listPath` is the path whose queries have the list target.
 */
export async function runLogQueryBench({ seed, size, queries, listPath }) {
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

  await runBench(
    async () => {
      console.log(machineLine('start'));
      const scratch = await benchScaleOut({ database: values.database, keepDatabase: values['keep-database'] });
      // On a kept database the gateway's start may run a migration over its million rows first.
      const gw = await startGateway({ env: scratch.env, logLevel: 'warn', healthTimeoutMs: 900_000 });
      const client = new pg.Client({ connectionString: scratch.env.DATABASE_URL });
      await client.connect();
      try {
        if (!values.database) {
          console.log(`seeding ${rows.toLocaleString('en-US')} rows into ${scratch.databaseName}`);
          const t = await seed(client, { rows, batch: Number(values.batch), log: console.log });
          console.log(
            `  seeded in ${((t.dropMs + t.insertMs + t.indexMs + t.vacuumMs) / 1000).toFixed(0)} s: inserts ` +
              `${(t.insertMs / 1000).toFixed(0)} s, index builds ${(t.indexMs / 1000).toFixed(0)} s, vacuum and ` +
              `analyze ${(t.vacuumMs / 1000).toFixed(0)} s`,
          );
        }
        const described = await size(client);
        console.log(
          `${described.n.toLocaleString('en-US')} rows; ${described.line} (with indexes); ${runs} runs per query ` +
            `after ${warmups} warm-ups, one request at a time`,
        );
        if (values['keep-database']) console.log(`database kept: ${scratch.databaseName}`);

        const results = [];
        for (const [label, path, query] of queries(new Date(described.last).getTime() + 1000)) {
          if (only && !only.test(label)) continue;
          throwIfStopping();
          for (let i = 0; i < warmups; i++) await timed(gw, path, query);
          const times = [];
          let body;
          for (let i = 0; i < runs; i++) ({ ms: times[i], body } = await timed(gw, path, query));
          times.sort((a, b) => a - b);
          const target = path === listPath ? LIST_TARGET_MS : AGGREGATE_TARGET_MS;
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
}
