// What the plugin chain costs the request path when no plugin acts (issue 17: <= 3 % of req/s): two gateways of this
// build side by side in front of one provider simulator, and the simulator called directly, in one run.
//   - "plugins on": every built-in plugin enabled (logging, telemetry, jsonparser; `--enable cache,...` adds others),
//     none of them acting on these requests (no otel endpoint, no JSON mode, a cache would miss);
//   - "plugins off": every plugin with hooks disabled (the chain is skipped: no per-request allocation);
//   - "direct": the same requests to the simulator itself (the upstream alone).
// Request logging stays on in both gateways: it is a plugin switch, but its own cost is bench/logging-cost.mjs's.
// Rounds alternate the order so machine noise hits every variant alike; each round reports req/s and, for the
// gateways, the CPU the serving process spent per request (from /proc). Unary, then streaming.
//
// Usage: npm run build && node bench/plugin-chain.mjs [seconds=8] [rounds=4] [--connections 50] [--enable cache]
//   [--scale-out]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { manage, startGateway } from './lib/gateway.mjs';
import {
  chatBody,
  cpuMs,
  isChatCompletion,
  isCompleteStream,
  MODEL,
  PROVIDER_KEY,
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
    enable: { type: 'string', default: '' },
    'scale-out': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 8);
const rounds = Number(positionals[1] ?? 4);
const connections = Number(values.connections);
const extra = values.enable.split(',').filter(Boolean);
const scaleOut = values['scale-out'] || scaleOutRequested();
const HOOKED = ['telemetry', 'jsonparser', ...extra];
const TARGET = 0.97;

function settings(enabled) {
  return Object.fromEntries([['logging', { enabled: true }], ...HOOKED.map((name) => [name, { enabled }])]);
}

await runBench(
  async () => {
    console.log(machineLine());
    const sim = await spawnSimulator();
    const gateways = [
      { name: 'plugins on', plugins: settings(true) },
      { name: 'plugins off', plugins: settings(false) },
    ];
    for (const v of gateways) {
      const dir = mkdtempSync(join(tmpdir(), 'gw-bench-config-'));
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ plugins: { settings: v.plugins } }));
      const env = { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' };
      if (scaleOut) Object.assign(env, (await createScratchScaleOut()).env);
      v.gw = await startGateway({ env, args: ['--config', file], label: v.name });
      v.target = await wireGateway(v.gw, sim);
      const listed = await manage(v.gw, 'GET', '/api/plugins');
      const on = listed.plugins.filter((p) => p.enabled).map((p) => p.name);
      console.log(`${v.name}: enabled ${on.join(', ') || 'none'}`);
    }
    const direct = {
      name: 'direct',
      target: { url: `${sim.openaiBase}/chat/completions`, headers: { authorization: `Bearer ${PROVIDER_KEY}` } },
    };
    const variants = [...gateways, direct];
    const rows = [];
    for (const stream of [false, true]) {
      const check = stream ? isCompleteStream : isChatCompletion;
      const bodies = {
        gateway: chatBody({ model: gateways[0].target.model, stream }),
        direct: chatBody({ model: MODEL, stream }),
      };
      const load = (v, ms) =>
        runLoad({
          url: v.target.url,
          method: 'POST',
          headers: v.target.headers,
          body: v.gw ? bodies.gateway : bodies.direct,
          check,
          connections,
          durationMs: ms,
        });
      const kind = stream ? 'streaming' : 'unary';
      console.log(`${kind} chat completions, ${connections} connections, ${rounds} x ${seconds} s`);
      for (const v of variants) await load(v, 3000);
      const totals = variants.map(() => ({ cpu: 0, requests: 0, rps: [], p50: [] }));
      for (let round = 0; round < rounds; round++) {
        const order = variants.map((_, i) => i);
        for (const i of round % 2 ? order.reverse() : order) {
          const v = variants[i];
          const before = v.gw ? cpuMs(v.gw.pid) : 0;
          const r = await load(v, seconds * 1000);
          if (r.errors || r.bad) throw new Error(`${v.name}: ${r.errors} errors, ${r.bad} refused (${r.firstBad})`);
          const cpu = v.gw ? cpuMs(v.gw.pid) - before : 0;
          totals[i].cpu += cpu;
          totals[i].requests += r.requests;
          totals[i].rps.push(r.rps);
          totals[i].p50.push(r.p50);
          const cpuText = v.gw ? `, CPU ${(cpu / r.requests).toFixed(3)} ms/req` : '';
          console.log(
            `  round ${round + 1} ${v.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms${cpuText}`,
          );
        }
      }
      const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const [on, off, up] = totals.map((t) => ({ rps: mean(t.rps), p50: mean(t.p50), cpu: t.cpu / t.requests }));
      rows.push({ kind, on, off, up });
    }
    console.log(
      `\n| at ${connections} connections${scaleOut ? ', Postgres + Redis' : ', embedded'} | plugins on | plugins off | direct | on / off | CPU per request, on / off |`,
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const { kind, on, off, up } of rows) {
      console.log(
        `| ${kind} | ${on.rps.toFixed(0)} req/s (p50 ${on.p50.toFixed(2)} ms) | ${off.rps.toFixed(0)} req/s (p50 ${off.p50.toFixed(2)} ms) | ` +
          `${up.rps.toFixed(0)} req/s (p50 ${up.p50.toFixed(2)} ms) | **${(on.rps / off.rps).toFixed(3)}x** | ` +
          `${on.cpu.toFixed(3)} / ${off.cpu.toFixed(3)} ms |`,
      );
    }
    const worst = Math.min(...rows.map((r) => r.on.rps / r.off.rps));
    console.log(
      `\ntarget: plugins on >= ${TARGET}x of off; worst ${worst.toFixed(3)}x ${worst >= TARGET ? '(met)' : '(NOT met)'}`,
    );
  },
  { maxSeconds: 300 + 2 * 3 * rounds * (seconds + 5) },
);
