// Where the gateway's memory goes, per run mode (issue 50 §5): embedded (PGlite, in-process queue) and, with
// --scale-out, Postgres + Redis on a scratch database and Redis prefix. Peaks are the kernel's VmHWM
// (/proc/<pid>/status), not samples: a start-up spike between two samples still counts.
//
// Per mode, the built gateway (`node <npm start's flags> dist/src/main.js`):
// 1. first start on a fresh app dir / scratch database (embedded: initdb and every migration): VmHWM once healthy;
// 2. a restart on the same app dir / database (what runs day to day), wired to the provider simulator (provider
//    `openai`, a virtual key): idle after a warm-up and `--settle` s; then `/v1/chat/completions` paced at `--rate`
//    req/s over 10 connections for `seconds`; then saturated (closed loop, `connections`) for `seconds`. VmHWM after
//    each phase (so the saturation figure is the process's peak over its whole life).
// Columns per sample: VmRSS, VmHWM, RssAnon, RssFile (kernel); V8 heap used / total and external of the main isolate
// (the gateway's /metrics). PGlite's worker thread (its own isolate, its WASM memory, at least 128 MB reserved of
// which only the touched pages are resident) is in anon and not in the V8 columns: anon - heap total - external is
// roughly PGlite's thread plus Node's native memory. The embedded first start's initdb child is reported on its own.
//
// Usage: npm run build && node bench/memory.mjs [seconds=10] [connections=50] [--rate 500] [--settle 3]
//        [--scale-out | --scale-out-only] [--node-args "<flags>"] (added after npm start's flags)
/* global AbortSignal */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { onCleanup, runBench } from './lib/cleanup.mjs';
import { flagWords, START_NODE_FLAGS, startGateway } from './lib/gateway.mjs';
import { chatBody, isChatCompletion, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { runLoad } from './lib/load.mjs';
import { gatewayMemoryMetrics, mb, procStatus, sampleRss } from './lib/memory.mjs';
import { guardDir } from './lib/reaper.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rate: { type: 'string', default: '500' },
    settle: { type: 'string', default: '3' },
    'scale-out': { type: 'boolean', default: false },
    'scale-out-only': { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
  },
});
const seconds = Number(positionals[0] ?? 10);
const connections = Number(positionals[1] ?? 50);
const rate = Number(values.rate);
const settleMs = Number(values.settle) * 1000;
const nodeArgs = flagWords(values['node-args']);
const modes = values['scale-out-only']
  ? ['scale-out']
  : ['embedded', ...(values['scale-out'] || scaleOutRequested() ? ['scale-out'] : [])];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Watches for the embedded first start's initdb child process (its argument names `dataDir`) until stop(); resolves
 * the last VmHWM read of it (bytes; 0 when none was seen), so its memory is reported beside the gateway's.
 */
function watchInitdbChild(dataDir) {
  let hwm = 0;
  const tick = () => {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (cmd.includes('pglite-initdb') && cmd.includes(dataDir)) hwm = Math.max(hwm, procStatus(pid).hwm);
      } catch {
        // gone
      }
    }
  };
  const timer = setInterval(tick, 100);
  return () => {
    clearInterval(timer);
    return hwm;
  };
}

async function sample(gw, label) {
  const proc = procStatus(gw.pid);
  return { label, proc, metrics: await gatewayMemoryMetrics(gw) };
}

async function measureMode(mode, sim) {
  const db = mode === 'scale-out' ? await createScratchScaleOut() : undefined;
  const appDir = mkdtempSync(join(tmpdir(), 'gw-bench-memory-'));
  const unguardDir = guardDir(appDir);
  const removeAppDir = onCleanup(() => {
    rmSync(appDir, { recursive: true, force: true });
    unguardDir();
  });
  const start = (label) =>
    startGateway({
      appDir,
      nodeArgs,
      healthTimeoutMs: 300_000,
      env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true', ...db?.env },
      label: `gateway (${mode}, ${label})`,
    });
  const rows = [];
  let initdbHwm = 0;

  const t0 = performance.now();
  const stopWatching = watchInitdbChild(join(appDir, 'pgdata'));
  const first = await start('first start').finally(() => (initdbHwm = stopWatching()));
  const startSeconds = (performance.now() - t0) / 1000;
  rows.push(await sample(first, `first start, healthy (${startSeconds.toFixed(1)} s)`));
  const route = await wireGateway(first, sim);
  await first.stop();

  const gw = await start('restart');
  rows.push(await sample(gw, 'restart, healthy'));
  const target = { url: `${gw.base}/v1/chat/completions`, headers: route.headers };
  const body = chatBody({ model: route.model });
  for (let i = 0; i < 5; i++) {
    const r = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await r.text();
    if (!isChatCompletion(r.status, text))
      throw new Error(`${mode}: warm-up answered ${r.status} ${text.slice(0, 300)}`);
  }
  await sleep(settleMs);
  rows.push(await sample(gw, 'restart, idle (warmed up, settled)'));

  const loads = [];
  const underLoad = async (label, opts) => {
    const rss = sampleRss(gw.pid, 200);
    const r = await runLoad({
      ...target,
      method: 'POST',
      body,
      check: isChatCompletion,
      durationMs: seconds * 1000,
      ...opts,
    });
    rss.stop();
    const s = await sample(gw, label);
    s.load = r;
    loads.push(s);
    rows.push(s);
  };
  await underLoad(`after ${seconds} s paced at ${rate} req/s, 10 connections`, { connections: 10, rate });
  await underLoad(`after ${seconds} s saturated, ${connections} connections`, { connections });
  await sleep(settleMs);
  rows.push(await sample(gw, 'after load, settled'));
  await gw.stop();
  await removeAppDir();
  const dropped = await db?.drop();
  return { mode, db, dropped, rows, loads, initdbHwm };
}

function printMode(m) {
  const title =
    m.mode === 'embedded'
      ? 'embedded (PGlite in a worker thread, in-process queue)'
      : `scale-out (Postgres + Redis; scratch database ${m.db.databaseName}, Redis prefix ${m.db.redisPrefix})`;
  console.log(`\n${title}, MB`);
  const head = ['', 'VmRSS', 'VmHWM', 'anon', 'file', 'heap used', 'heap total', 'external', 'load'];
  const table = [head];
  for (const r of m.rows) {
    const x = r.metrics;
    const load = r.load
      ? `${r.load.rps.toFixed(0)} req/s, p50 ${r.load.p50.toFixed(1)} ms, ${r.load.errors + r.load.bad} failed`
      : '';
    table.push([
      r.label,
      mb(r.proc.rss),
      mb(r.proc.hwm),
      mb(r.proc.anon),
      mb(r.proc.file),
      mb(x?.heapUsed),
      mb(x?.heapTotal),
      mb(x?.external),
      load,
    ]);
  }
  const widths = head.map((_, i) => Math.max(...table.map((r) => String(r[i]).length)));
  for (const r of table)
    console.log(
      `  ${r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')}`,
    );
  const firstHwm = m.rows[0].proc.hwm;
  const lastHwm = m.rows.at(-1).proc.hwm;
  const idle = m.rows.find((r) => r.label.startsWith('restart, idle')).proc.rss;
  const check = (v, limit) => `${mb(v)} MB ≤ ${limit} ${v <= limit * 2 ** 20 ? 'met' : 'NOT met'}`;
  if (m.initdbHwm)
    console.log(`  initdb child process (first start only, exits before the migrations): VmHWM ${mb(m.initdbHwm)} MB`);
  if (m.mode === 'embedded')
    console.log(`  targets: first start VmHWM ${check(firstHwm, 400)}; peak under load (VmHWM) ${check(lastHwm, 300)}`);
  else console.log(`  targets: idle VmRSS ${check(idle, 120)}; peak (VmHWM) ${check(lastHwm, 160)}`);
  for (const l of m.loads) if (l.load.errors + l.load.bad > 0) console.log(`  FAILED answers under ${l.label}`);
  if (m.dropped)
    console.log(
      `  (dropped database ${m.db.databaseName}, deleted ${m.dropped.deletedKeys} Redis keys ${m.db.redisPrefix}*)`,
    );
}

await runBench(
  async () => {
    console.log(machineLine('start'));
    console.log(
      `node flags: ${[...START_NODE_FLAGS, ...nodeArgs].join(' ') || '(none)'}; loads: ${seconds} s paced at ${rate} req/s, ` +
        `${seconds} s saturated at ${connections} connections`,
    );
    const sim = await spawnSimulator();
    for (const mode of modes) printMode(await measureMode(mode, sim));
    console.log(`\n${machineLine('end')}`);
  },
  { maxSeconds: modes.length * (900 + 2 * seconds) },
);
