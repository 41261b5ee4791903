// gatewayctl logs export at scale (issue 48 figures): --rows request log rows seeded straight in SQL (the request log
// queries bench's seed, lib/request-log-seed.mjs) on a scratch Postgres database, the built gateway on it, then
// `gatewayctl logs export --out <file>` as a process: rows per second (target >= 20,000) and the CLI's RSS sampled every
// 50 ms through the run (target: flat, <= 120 MB), checked against the row count of the file. Scale-out mode (the 1M-row
// figures of the logs API are taken there); `--embedded` seeds the gateway's PGlite data dir instead.
// `--database <name>` exports a database a run kept (`--keep-database`, or the dashboard bench's) without seeding it.
// Usage: node bench/logs-export.mjs [--rows 1000000] [--format jsonl|csv] [--embedded] [--keep-database]
//          [--database <name>]
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runBench } from './lib/cleanup.mjs';
import { cpuMs, runGatewayctl } from './lib/cli.mjs';
import { startGateway } from './lib/gateway.mjs';
import { machineLine } from './lib/report.mjs';
import { seedRequestLogs } from './lib/request-log-seed.mjs';
import { benchScaleOut } from './lib/scale-out.mjs';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    format: { type: 'string', default: 'jsonl' },
    embedded: { type: 'boolean', default: false },
    'keep-database': { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const ROWS = Number(values.rows);

async function countLines(path) {
  let n = 0;
  for await (const _ of createInterface({ input: createReadStream(path) })) n += 1;
  return n;
}

await runBench(
  async () => {
    console.log(machineLine());
    let env = {};
    let appDir;
    const log = (line) => console.log(line);
    if (values.embedded) {
      const { PGlite } = await import('@electric-sql/pglite');
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      // A first start migrates the data dir; then the rows go in with the gateway stopped (PGlite has one owner).
      const first = await startGateway({ logLevel: 'warn', appDir: mkdtempSync(join(tmpdir(), 'gw-bench-export-')) });
      appDir = first.appDir;
      await first.stopProcess();
      const db = await PGlite.create({ dataDir: join(appDir, 'pgdata'), extensions: { pg_trgm } });
      const t = performance.now();
      await seedRequestLogs(db, { rows: ROWS, batch: 50_000, log });
      console.log(`seeded ${ROWS} rows in ${((performance.now() - t) / 1000).toFixed(0)} s (PGlite)`);
      await db.close();
    } else if (values.database) {
      env = (await benchScaleOut({ database: values.database })).env;
    } else {
      const scratch = await benchScaleOut({ keepDatabase: values['keep-database'] });
      env = scratch.env;
      if (values['keep-database']) console.log(`database kept: ${scratch.databaseName}`);
      // The schema first: a gateway start migrates the scratch database.
      const first = await startGateway({ env, logLevel: 'warn' });
      await first.stop();
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      const t = performance.now();
      await seedRequestLogs(client, { rows: ROWS, log });
      await client.end();
      console.log(`seeded ${ROWS} rows in ${((performance.now() - t) / 1000).toFixed(0)} s on ${scratch.databaseName}`);
    }
    const gw = await startGateway({ env, logLevel: 'warn', appDir });
    const out = join(mkdtempSync(join(tmpdir(), 'gw-bench-export-out-')), `logs.${values.format}`);
    let lastProgress = '';
    const gatewayCpuBefore = cpuMs(gw.pid);
    const run = await runGatewayctl(
      ['logs', 'export', '--out', out, '--format', values.format, '--progress'],
      { GATEWAY_URL: gw.base, GATEWAY_SETUP_TOKEN: gw.setupToken },
      { onStderr: (text) => (lastProgress = text.trim().split('\n').at(-1) ?? lastProgress) },
    );
    if (run.code !== 0) throw new Error(`export failed (${run.code}): ${run.stderr.slice(-2000)}`);
    const gatewayCpu = cpuMs(gw.pid) - gatewayCpuBefore;
    // What the database holds now: a kept seed loses its oldest rows to the 30-day retention once they age past it.
    let expected = ROWS;
    if (env.DATABASE_URL) {
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      expected = Number((await client.query('SELECT count(*) FROM request_logs')).rows[0].count);
      await client.end();
    }
    const lines = await countLines(out);
    const rows = values.format === 'csv' ? lines - 1 : lines;
    const seconds = run.wallMs / 1000;
    const samples = run.rssSamples;
    const early = samples.slice(0, Math.max(1, Math.floor(samples.length / 10)));
    const late = samples.slice(-Math.max(1, Math.floor(samples.length / 10)));
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`last progress line: ${lastProgress}`);
    console.log(
      `exported ${rows} rows (${rows === expected ? 'all the database holds' : `EXPECTED ${expected}`}), ${(statSync(out).size / 1e6).toFixed(0)} MB ` +
        `in ${seconds.toFixed(1)} s: ${Math.round(rows / seconds)} rows/s (target >= 20,000)`,
    );
    console.log(
      `gateway: CPU ${(gatewayCpu / 1000).toFixed(1)} s (${((gatewayCpu * 1000) / rows).toFixed(1)} us/row, the database's ` +
        `own CPU not counted); CLI: CPU ${(run.cpuMs / 1000).toFixed(1)} s (${((run.cpuMs * 1000) / rows).toFixed(1)} us/row), RSS peak ` +
        `${run.peakRssMb.toFixed(0)} MB (target <= 120), first tenth mean ${mean(early).toFixed(0)} MB, last tenth mean ` +
        `${mean(late).toFixed(0)} MB, ${samples.length} samples`,
    );
    rmSync(out, { force: true });
    await gw.stop();
    console.log(machineLine('end'));
  },
  { maxSeconds: 3600 },
);
