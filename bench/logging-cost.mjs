// What request logging costs the request path: two gateways of this build side by side, one with `logs.enabled`
// (the default: a row per request, content captured, written in batches) and one with it off, each on its own fresh
// app dir (embedded default, or --scale-out), in front of one provider simulator. Rounds alternate (on off, off on, …)
// so machine noise hits both alike; each round reports req/s and the CPU the serving gateway spent per request (its
// own process, from /proc). Unary, then streaming. Target (issue 10): logging costs <= 5 % of req/s.
// At the end the logged gateway's rows are counted against the requests it served (none may be missing).
//
// Usage: npm run build && node bench/logging-cost.mjs [seconds=8] [rounds=4] [--connections 50] [--scale-out]
//        [--only unary|streaming]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { manage, startGateway } from './lib/gateway.mjs';
import {
  chatBody,
  sideBySide,
  isChatCompletion,
  isCompleteStream,
  spawnSimulator,
  wireGateway,
} from './lib/inference.mjs';
import { runLoad } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '50' },
    'scale-out': { type: 'boolean', default: false },
    // unary | streaming: one kind only (e.g. to profile it alone).
    only: { type: 'string' },
  },
});
const seconds = Number(positionals[0] ?? 8);
const rounds = Number(positionals[1] ?? 4);
const connections = Number(values.connections);
const scaleOut = values['scale-out'] || scaleOutRequested();
const TARGET = 0.95;

await runBench(
  async () => {
    console.log(machineLine());
    const sim = await spawnSimulator();
    const variants = [
      { name: 'logs on', logs: { enabled: true } },
      { name: 'logs off', logs: { enabled: false } },
    ];
    for (const v of variants) {
      const dir = mkdtempSync(join(tmpdir(), 'gw-bench-config-'));
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ logs: v.logs }));
      const env = { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' };
      if (scaleOut) Object.assign(env, (await createScratchScaleOut()).env);
      v.gw = await startGateway({ env, args: ['--config', file], label: v.name });
      v.target = await wireGateway(v.gw, sim);
    }
    const summary = [];
    const kinds = [false, true].filter((stream) => !values.only || values.only === (stream ? 'streaming' : 'unary'));
    for (const stream of kinds) {
      const body = chatBody({ model: variants[0].target.model, stream });
      const check = stream ? isCompleteStream : isChatCompletion;
      const load = async (v, ms) => {
        const r = await runLoad({
          url: v.target.url,
          method: 'POST',
          headers: v.target.headers,
          body,
          check,
          connections,
          durationMs: ms,
        });
        v.served = (v.served ?? 0) + r.requests + r.errors;
        return r;
      };
      const kind = stream ? 'streaming' : 'unary';
      console.log(`${kind} chat completions, ${connections} connections, ${rounds} x ${seconds} s`);
      const [on, off] = await sideBySide(variants, { rounds, seconds, load });
      const share = on.rps / off.rps;
      console.log(
        `${kind}: logs on ${on.rps.toFixed(0)} req/s (${on.cpu.toFixed(3)} ms CPU/req), ` +
          `off ${off.rps.toFixed(0)} req/s (${off.cpu.toFixed(3)} ms CPU/req): ${share.toFixed(3)}x ` +
          `(${share >= TARGET ? 'meets' : 'misses'} >= ${TARGET}x); CPU per request ${(on.cpu / off.cpu).toFixed(3)}x`,
      );
      summary.push(
        `| ${kind} | ${on.rps.toFixed(0)} | ${off.rps.toFixed(0)} | **${share.toFixed(2)}x** | ` +
          `${on.cpu.toFixed(3)} / ${off.cpu.toFixed(3)} ms |`,
      );
    }
    // Every request the logged gateway served has its row (none dropped, none lost).
    const [logged] = variants;
    const served = await manage(logged.gw, 'GET', '/api/logs?limit=1');
    const dropped = await manage(logged.gw, 'GET', '/api/logs/dropped');
    const rows = served.pagination.total_count;
    console.log(
      `logged gateway: ${logged.served} requests sent, ${rows} rows, dropped ${dropped.dropped}` +
        ` (${rows + dropped.dropped === logged.served ? 'every request accounted for' : 'MISMATCH'})`,
    );
    console.log(
      `\n| at ${connections} connections | logs on req/s | logs off req/s | on / off | CPU per request, on / off |`,
    );
    console.log('| --- | --- | --- | --- | --- |');
    for (const line of summary) console.log(line);
  },
  { maxSeconds: 300 + 4 * rounds * (seconds + 5) },
);
