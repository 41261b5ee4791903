// The request-log writer under a burst: chat completions offered at --rate req/s (default 5,000, open loop over
// --connections sockets) for N seconds through the built gateway, then every request sent is looked for in the logs
// (one the load generator gave up on was still received, and is logged with status 499). Nothing may be lost silently: rows written + rows counted as dropped (GET /api/logs/dropped) must
// equal the requests answered. Run twice: with the default writer settings (expected: nothing dropped), and with a
// writer of --small-buffer rows (an INSERT every few requests, 1 s flush), where any row dropped must be counted.
// What the gateway achieves is limited by this machine (the load generator and the simulator share its cores); the
// achieved rate is printed beside the offered one.
//
// Usage: npm run build && node bench/log-burst.mjs [seconds=10] [--rate 5000] [--connections 256]
//          [--small-buffer 5] [--scale-out]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { manage, startGateway } from './lib/gateway.mjs';
import { chatBody, isChatCompletion, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { runLoad } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rate: { type: 'string', default: '5000' },
    connections: { type: 'string', default: '256' },
    'small-buffer': { type: 'string', default: '5' },
    'scale-out': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 10);
const rate = Number(values.rate);
const connections = Number(values.connections);
const scaleOut = values['scale-out'] || scaleOutRequested();

/**
 * Rows of the logs once the gateway is done: a read flushes the writer, but requests the load generator gave up on
 * may still be running (their rows come when they end), so the count is read until it holds still for 2 s.
 */
async function rowCount(gw) {
  const read = async () => (await manage(gw, 'GET', '/api/logs?limit=1')).pagination.total_count;
  let last = await read();
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 2000));
    const now = await read();
    if (now === last) return now;
    last = now;
  }
  return last;
}

await runBench(
  async () => {
    console.log(machineLine());
    const sim = await spawnSimulator();
    const runs = [
      { name: 'default writer', config: {} },
      {
        name: `writer of ${values['small-buffer']} rows`,
        config: { append_log: { max_buffered_rows: Number(values['small-buffer']), flush_interval: '1s' } },
      },
    ];
    const lines = [];
    for (const run of runs) {
      const dir = mkdtempSync(join(tmpdir(), 'gw-bench-config-'));
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify(run.config));
      const env = { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' };
      if (scaleOut) Object.assign(env, (await createScratchScaleOut()).env);
      const gw = await startGateway({ env, args: ['--config', file], label: run.name });
      const target = await wireGateway(gw, sim);
      const body = chatBody({ model: target.model });
      const r = await runLoad({
        url: target.url,
        method: 'POST',
        headers: target.headers,
        body,
        check: isChatCompletion,
        connections,
        durationMs: seconds * 1000,
        rate,
      });
      // A request the load generator gave up on (its timeout) was still received, and is logged (status 499).
      const answered = r.requests + r.errors;
      const rows = await rowCount(gw);
      const dropped = await manage(gw, 'GET', '/api/logs/dropped');
      const exact = rows + dropped.dropped === answered;
      const line =
        `| ${run.name} | ${rate} | ${r.rps.toFixed(0)} | ${answered} | ${rows} | ${dropped.dropped} ` +
        `(buffer_full ${dropped.buffer_full}, write_failed ${dropped.write_failed}) | ${exact ? 'yes' : '**NO**'} |`;
      console.log(
        `${run.name}: offered ${rate} req/s, sent ${answered} (${r.rps.toFixed(0)} req/s answered, ${r.errors} errors, ` +
          `${r.bad} refused), rows ${rows}, dropped ${dropped.dropped}: ${exact ? 'every request accounted for' : 'MISMATCH'}`,
      );
      lines.push(line);
      await gw.stop();
      if (!exact) process.exitCode = 1;
    }
    console.log(
      `\n| ${seconds} s burst | offered req/s | answered req/s | requests sent | rows | dropped | rows + dropped = requests sent |`,
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const line of lines) console.log(line);
  },
  { maxSeconds: 400 + 2 * seconds },
);
