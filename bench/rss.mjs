// Gateway memory, idle and under load, per run mode: embedded (PGlite, in-process queue) always, and scale-out
// (Postgres + Redis, on a scratch database and Redis prefix) with --scale-out or BENCH_DATABASE_URL/BENCH_REDIS_URL.
//
// Per mode: a built gateway's first start on a fresh app dir / scratch database (creates and migrates it; the bench
// agent is registered and a virtual key created), sampled once idle; then the measured run, a restart on the same
// app dir / database (what a deployment runs day to day: on the embedded default the first start also holds PGlite's
// initdb memory, hundreds of MB, until a full GC). On the restart: one warm-up of each route (A2A SendMessage and
// SendStreamingMessage through the gateway, the virtual-key route, /api/version), then
// - idle: settle `--settle` s (default 5), sample RSS (/proc/<pid>/status) and the gateway's /metrics memory gauges
// - load: A2A SendMessage (JSON-RPC) for `seconds`, then the virtual-key route for `seconds`, N connections each;
//   RSS sampled every 200 ms (peak kept), /metrics every second (peak of each gauge kept)
// - after: settle again and sample (what the load left behind)
// Columns: RSS; anon (heap, WASM and other private memory) and file (the node binary and libraries mapped) from
// the kernel; V8 heap used/total, `external` (Buffers and WebAssembly memory: PGlite's WASM heap is in there) and
// V8 code space from the gateway's metrics.
// Embedded only: after the gateway stops, PGlite alone opens its migrated data dir in a fresh process (PGlite's own
// share: the RSS it adds and its WASM linear memory).
//
// Usage: npm run build && node bench/rss.mjs [seconds=10] [connections=50] [--settle 5] [--log-level info] [--scale-out]
/* global AbortSignal */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_NAME, isRpcResult, rpcBody, timedPost, wireAgent } from './lib/a2a.mjs';
import { spawnBenchAgent } from './lib/a2a-agent.mjs';
import { onCleanup, runBench } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import { runLoad } from './lib/load.mjs';
import { gatewayMemoryMetrics, mb, procStatus, sampleMetrics, sampleRss } from './lib/memory.mjs';
import { probePglite } from './lib/pglite-probe.mjs';
import { guardDir } from './lib/reaper.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    settle: { type: 'string', default: '5' },
    'log-level': { type: 'string' },
    'scale-out': { type: 'boolean', default: false },
    // Only the scale-out mode (skips the embedded one).
    'scale-out-only': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 10);
const connections = Number(positionals[1] ?? 50);
const settleMs = Number(values.settle) * 1000;
const modes = values['scale-out-only']
  ? ['scale-out']
  : ['embedded', ...(values['scale-out'] || scaleOutRequested() ? ['scale-out'] : [])];
const maxSeconds = modes.length * (300 + 2 * seconds + (2 * settleMs) / 1000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function measureMode(mode, agent) {
  const db = mode === 'scale-out' ? await createScratchScaleOut() : undefined;
  const appDir = mkdtempSync(join(tmpdir(), 'gw-bench-rss-'));
  const unguardDir = guardDir(appDir);
  const removeAppDir = onCleanup(() => {
    rmSync(appDir, { recursive: true, force: true });
    unguardDir();
  });
  const start = (label) =>
    startGateway({
      appDir,
      logLevel: values['log-level'],
      env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true', ...db?.env },
      label: `gateway (${mode}, ${label})`,
    });
  // First start: creates the database (PGlite: initdb) and migrates. What a deployment runs day to day is a
  // restart on that app dir / database, measured below; the first start is only sampled once idle.
  const first = await start('first start');
  const { gateway, vk } = await wireAgent(first, agent);
  await sleep(settleMs);
  const firstStart = { proc: procStatus(first.pid), metrics: await gatewayMemoryMetrics(first) };
  await first.stop();

  const gw = await start('restart');
  // Same agent, key and routes as registered on the first start (the port changed).
  gateway.url = `${gw.base}/agents/a2a/${AGENT_NAME}/jsonrpc`;
  const vkRoute = {
    url: `${gw.base}/api/governance/virtual-keys/quota`,
    headers: { authorization: `Bearer ${vk.value}` },
  };

  // One warm-up of each route.
  for (const [method, prefix] of [
    ['SendMessage', 'task-'],
    ['SendStreamingMessage', 'stream-'],
  ]) {
    const r = await timedPost(gateway, rpcBody(method, prefix));
    if (r.status !== 200) throw new Error(`${mode}: warm-up ${method} answered ${r.status} ${r.text.slice(0, 300)}`);
  }
  for (const url of [vkRoute.url, `${gw.base}/api/version`]) {
    const r = await fetch(url, { headers: vkRoute.headers, signal: AbortSignal.timeout(10_000) });
    if (r.status !== 200) throw new Error(`${mode}: warm-up ${url} answered ${r.status}`);
    await r.arrayBuffer();
  }

  const snapshot = async () => ({ proc: procStatus(gw.pid), metrics: await gatewayMemoryMetrics(gw) });
  await sleep(settleMs);
  const idle = await snapshot();

  const underLoad = async (label, opts) => {
    const rss = sampleRss(gw.pid, 200);
    const metrics = sampleMetrics(gw, 1000);
    const r = await runLoad({ ...opts, connections, durationMs: seconds * 1000 });
    const peak = rss.stop();
    return { label, load: r, peak, metrics: await metrics.stop() };
  };
  const a2a = await underLoad('A2A SendMessage', {
    ...gateway,
    method: 'POST',
    body: () => rpcBody('SendMessage', 'task-'),
    check: isRpcResult,
  });
  const vkLoad = await underLoad('virtual-key route', { ...vkRoute, check: (s) => s === 200 });
  await sleep(settleMs);
  const after = await snapshot();
  const hwm = procStatus(gw.pid).hwm;

  await gw.stop();
  const probe =
    mode === 'embedded'
      ? await probePglite(join(appDir, 'pgdata')).catch((err) => ({ error: err.message }))
      : undefined;
  await removeAppDir();
  const dropped = await db?.drop();
  return { mode, db, dropped, firstStart, idle, loads: [a2a, vkLoad], after, hwm, probe };
}

function printMode(m) {
  const title =
    m.mode === 'embedded'
      ? 'embedded (PGlite in-process, in-process queue)'
      : `scale-out (Postgres + Redis; scratch database ${m.db.databaseName}, Redis prefix ${m.db.redisPrefix})`;
  console.log(`\n${title}, MB`);
  const head = ['', 'RSS', 'anon', 'file', 'heap used', 'heap total', 'external', 'code', 'load'];
  const rows = [head];
  const fromMetrics = (x) => [mb(x?.heapUsed), mb(x?.heapTotal), mb(x?.external), mb(x?.code)];
  const f = m.firstStart;
  rows.push(['first start, idle', mb(f.proc.rss), mb(f.proc.anon), mb(f.proc.file), ...fromMetrics(f.metrics), '']);
  rows.push([
    'restart: idle (warm-up, settled)',
    mb(m.idle.proc.rss),
    mb(m.idle.proc.anon),
    mb(m.idle.proc.file),
    ...fromMetrics(m.idle.metrics),
    '',
  ]);
  for (const l of m.loads) {
    const load = `${l.load.rps.toFixed(0)} req/s, ${l.load.errors + l.load.bad} failed`;
    rows.push([`peak under ${l.label}`, mb(l.peak.peak), mb(l.peak.peakAnon), '', ...fromMetrics(l.metrics), load]);
  }
  rows.push([
    'after load (settled)',
    mb(m.after.proc.rss),
    mb(m.after.proc.anon),
    mb(m.after.proc.file),
    ...fromMetrics(m.after.metrics),
    '',
  ]);
  const widths = head.map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const r of rows)
    console.log(
      `  ${r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')}`,
    );
  console.log(`  peak RSS of the restarted gateway (VmHWM, start-up included): ${mb(m.hwm)}`);
  if (m.mode === 'scale-out') {
    const peak = Math.max(...m.loads.map((l) => l.peak.peak));
    console.log(
      `  targets: idle ${mb(m.idle.proc.rss)} < 150 ${m.idle.proc.rss < 150 * 2 ** 20 ? 'met' : 'NOT met'}; ` +
        `under load ${mb(peak)} < 250 ${peak < 250 * 2 ** 20 ? 'met' : 'NOT met'}`,
    );
  }
  const i = m.idle.metrics;
  if (i) {
    const rest = m.idle.proc.rss - i.heapTotal - i.external - m.idle.proc.file;
    console.log(
      `  idle RSS = V8 heap ${mb(i.heapTotal)} + external ${mb(i.external)} + file-backed ${mb(m.idle.proc.file)} + other native ${mb(rest)} ` +
        `(approximate: not every reserved byte is resident)`,
    );
  }
  if (m.dropped)
    console.log(
      `  (dropped database ${m.db.databaseName}, deleted ${m.dropped.deletedKeys} Redis keys ${m.db.redisPrefix}*)`,
    );
  if (m.probe?.error) console.log(`  PGlite alone: probe failed: ${m.probe.error}`);
  else if (m.probe) {
    const p = m.probe;
    console.log(
      `  PGlite alone on this data dir (fresh process, ${p.tables} tables read): +${mb(p.after.rss - p.before.rss)} RSS, ` +
        `+${mb(p.after.external - p.before.external)} external, WASM linear memory ${p.wasmLinearMemory === null ? '?' : mb(p.wasmLinearMemory)}`,
    );
  }
}

await runBench(
  async () => {
    console.log(machineLine('start'));
    console.log(
      `gateway memory per run mode: idle after ${settleMs / 1000} s, then ${seconds} s of A2A SendMessage and ${seconds} s of the ` +
        `virtual-key route with ${connections} connections each; log level ${values['log-level'] ?? 'default (info)'}`,
    );
    const agent = await spawnBenchAgent();
    const results = [];
    for (const mode of modes) {
      const m = await measureMode(mode, agent);
      results.push(m);
      printMode(m);
    }
    const emb = results.find((r) => r.mode === 'embedded');
    const so = results.find((r) => r.mode === 'scale-out');
    console.log('\nPGlite share of the embedded gateway');
    if (emb?.idle.metrics)
      console.log(`  embedded idle external (WASM memory + Buffers): ${mb(emb.idle.metrics.external)} MB`);
    if (emb && so) {
      const d = (a, b) => mb(a - b);
      console.log(
        `  embedded minus scale-out, idle: RSS ${d(emb.idle.proc.rss, so.idle.proc.rss)} MB, external ` +
          `${d(emb.idle.metrics?.external, so.idle.metrics?.external)} MB, V8 heap ${d(emb.idle.metrics?.heapTotal, so.idle.metrics?.heapTotal)} MB`,
      );
      const peak = (m) => Math.max(...m.loads.map((l) => l.peak.peak));
      console.log(`  embedded minus scale-out, peak under load: RSS ${d(peak(emb), peak(so))} MB`);
    } else {
      console.log('  (run with --scale-out for the difference between the modes)');
    }
    console.log(`\n${machineLine('end')}`);
  },
  { maxSeconds },
);
