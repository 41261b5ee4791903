// The dashboard's figures (issue 44): (1) JavaScript of the first screen and of each route's chunk, gzipped, from
// the build's manifest; (2) the gateway's RSS with the dashboard served and with `--ui false`, side by side, after
// both answered the same requests for the page and its assets; (3) in Chromium over loopback, on a scale-out gateway
// whose database holds `--rows` request-log rows (lib/request-log-seed.mjs): time from navigation to the logs table
// painted with its first 50 rows, and from "Apply filters" to the filtered rows painted; (4) live mode at `--rate`
// req/s of inference through the provider simulator for `--live-seconds`: the logs page filtered to one of the two
// models sent, every matching row painted (by ids), the main thread's idle share and the tab's memory (Chromium, CDP).
// Usage: npm run build && node bench/dashboard.mjs [--only bundle,rss,first-rows,live] [--rows 1000000] [--runs 20]
//          [--database <name>] [--keep-database] [--rate 200] [--live-seconds 300]
/* global document, window, MutationObserver -- the functions given to page.waitForFunction and addInitScript run in the page */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { runBench, throwIfStopping } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import { chatBody, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { percentile, runLoad } from './lib/load.mjs';
import { gatewayMemoryMetrics, procStatus } from './lib/memory.mjs';
import { machineLine } from './lib/report.mjs';
import { PROVIDERS, seedRequestLogs } from './lib/request-log-seed.mjs';
import { benchScaleOut, createScratchScaleOut } from './lib/scale-out.mjs';

const BUILD = resolve('dist/ui');
const KB = 1024;
const FIRST_SCREEN_TARGET_KB = 250;
const FIRST_ROWS_TARGET_MS = 800;
const FILTER_TARGET_MS = 500;
const RSS_TARGET_MB = 5;
const LIVE_IDLE_TARGET = 0.5;
const CLOCK_TICKS = 100; // sysconf(_SC_CLK_TCK) on Linux

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'bundle,rss,first-rows,live' },
    rate: { type: 'string', default: '200' },
    'live-seconds': { type: 'string', default: '300' },
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    database: { type: 'string' },
    'keep-database': { type: 'boolean', default: false },
  },
});
const parts = new Set(values.only.split(','));
const runs = Number(values.runs);
const gz = (file) => gzipSync(readFileSync(join(BUILD, file)), { level: 9 }).length;

/** (1) The manifest's chunks: the entry with its static imports, and each lazily imported route chunk. */
function bundle() {
  const manifest = JSON.parse(readFileSync(join(BUILD, '.vite', 'manifest.json'), 'utf8'));
  const closure = (key, seen = new Set()) => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) closure(imported, seen);
    return seen;
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const entry = closure(entryKey);
  const jsOf = (keys) => [...keys].reduce((sum, key) => sum + gz(manifest[key].file), 0);
  const cssOf = (keys) => [...keys].flatMap((key) => manifest[key].css ?? []).reduce((sum, f) => sum + gz(f), 0);
  const routes = (manifest[entryKey].dynamicImports ?? []).map((key) => {
    const own = [...closure(key)].filter((k) => !entry.has(k));
    return { name: manifest[key].name ?? key, js: jsOf(own) };
  });
  const overview = routes.find((r) => /overview/.test(r.name));
  const first = jsOf(entry) + (overview?.js ?? 0);
  console.log(`\n(1) JavaScript, gzipped (level 9)`);
  console.log(
    `  first screen (shell, sign-in, overview): ${(first / KB).toFixed(1)} KB ` +
      `(entry ${(jsOf(entry) / KB).toFixed(1)} KB + overview ${((overview?.js ?? 0) / KB).toFixed(1)} KB; CSS ` +
      `${(cssOf(entry) / KB).toFixed(1)} KB) ${first / KB <= FIRST_SCREEN_TARGET_KB ? 'ok' : 'MISSED'} (<= ${FIRST_SCREEN_TARGET_KB} KB)`,
  );
  // The overview's charts load after its figures paint, but they are on the first screen: counted with it too.
  const overviewKey = (manifest[entryKey].dynamicImports ?? []).find((k) => /overview/.test(manifest[k].name ?? k));
  if (overviewKey) {
    const loaded = new Set([...entry, ...closure(overviewKey)]);
    const later = new Set((manifest[overviewKey].dynamicImports ?? []).flatMap((k) => [...closure(k)]));
    const whole = first + jsOf([...later].filter((k) => !loaded.has(k)));
    console.log(
      `  first screen with the overview's charts: ${(whole / KB).toFixed(1)} KB ` +
        `${whole / KB <= FIRST_SCREEN_TARGET_KB ? 'ok' : 'MISSED'} (<= ${FIRST_SCREEN_TARGET_KB} KB)`,
    );
  }
  for (const r of routes) console.log(`  route chunk ${r.name.padEnd(20)} ${(r.js / KB).toFixed(1)} KB`);
  // What a route loads on its own after it painted (the overview's charts): not in the first screen, shown beside it.
  for (const key of manifest[entryKey].dynamicImports ?? []) {
    const loaded = new Set([...entry, ...closure(key)]);
    for (const later of manifest[key].dynamicImports ?? []) {
      const own = [...closure(later)].filter((k) => !loaded.has(k));
      const name = manifest[later].name ?? later;
      console.log(
        `  after ${(manifest[key].name ?? key).padEnd(14)} ${name.padEnd(20)} ${(jsOf(own) / KB).toFixed(1)} KB`,
      );
    }
  }
}

/**
 * (2) RSS with the dashboard on and off, after the same number of requests to each: the dashboard's page and assets
 * to the one serving it and to one with `--ui false` (where they are 404s), and, the fair baseline for a working set
 * any serving creates, the Swagger UI's page and assets (`/docs`, also files from disk through @fastify/static) to a
 * third with `--ui false`. Beside RSS, the gateways' own gauges (/metrics): V8's heap and its young generation, and
 * `external` (Buffers).
 */
async function rss() {
  const html = readFileSync(join(BUILD, 'index.html'), 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  // Scale-out (Postgres + Redis): without PGlite's WASM memory in the process, the gateway's own RSS is what is left.
  const scratches = [await createScratchScaleOut(), await createScratchScaleOut(), await createScratchScaleOut()];
  // One after the other: three starts at once on a busy machine outlast the health wait.
  const gateways = [];
  for (const [i, args] of [[], ['--ui', 'false'], ['--ui', 'false']].entries()) {
    gateways.push(await startGateway({ env: scratches[i].env, logLevel: 'warn', args, healthTimeoutMs: 300_000 }));
  }
  try {
    const uiPaths = ['/ui/', '/ui/logs?status=error', ...assets.map((a) => `/ui/${a}`)];
    const docsPage = await fetch(`${gateways[2].base}/docs/`).then((r) => r.text());
    const docsAssets = [...docsPage.matchAll(/(?:src|href)="\.?\/?((?:docs\/)?[\w./-]+\.(?:js|css))"/g)].map(
      (m) => `/docs/${m[1].replace(/^docs\//, '')}`,
    );
    const docsPaths = ['/docs/', ...docsAssets];
    const variants = [
      { name: 'ui on, its page and assets', gw: gateways[0], paths: uiPaths },
      { name: '--ui false, the same paths (404)', gw: gateways[1], paths: uiPaths },
      { name: '--ui false, /docs and its assets', gw: gateways[2], paths: docsPaths },
    ];
    // As many as a hundred visits to the page with a few more assets make (the figure's 1,600 answers), every path alike.
    const requests = 1600;
    const rounds = 3;
    const sample = async () =>
      Promise.all(
        variants.map(async (v) => ({ ...(await gatewayMemoryMetrics(v.gw)), rss: procStatus(v.gw.pid).rss })),
      );
    await new Promise((ok) => setTimeout(ok, 3000));
    const rows = [{ round: 'idle', memory: await sample() }];
    for (let round = 1; round <= rounds; round++) {
      for (const v of round % 2 ? variants : [...variants].reverse()) {
        for (let i = 0; i < requests; i += v.paths.length) {
          await Promise.all(
            v.paths.slice(0, requests - i).map((p) =>
              fetch(v.gw.base + p, {
                headers: { 'accept-encoding': (i / v.paths.length) % 2 ? 'br' : 'identity' },
              }).then((r) => r.arrayBuffer()),
            ),
          );
        }
      }
      await new Promise((ok) => setTimeout(ok, 2000));
      rows.push({ round, memory: await sample() });
    }
    await new Promise((ok) => setTimeout(ok, 15_000));
    rows.push({ round: 'settled', memory: await sample() });
    const mbOf = (b) => (b / KB / KB).toFixed(1);
    console.log(
      `\n(2) gateway RSS, Postgres + Redis: idle after start, then after each round of ${requests} requests per ` +
        `gateway (identity and br alternating), rounds alternating; MB, RSS (V8 heap total / of it young generation / external)`,
    );
    variants.forEach((v, i) => console.log(`  [${i + 1}] ${v.name}: ${v.paths.length} paths`));
    for (const r of rows) {
      const label = typeof r.round === 'string' ? r.round.padEnd(7) : `round ${r.round}`;
      const cells = r.memory.map(
        (m, i) => `[${i + 1}] ${mbOf(m.rss)} (${mbOf(m.heapTotal)} / ${mbOf(m.newSpace)} / ${mbOf(m.external)})`,
      );
      console.log(`  ${label}: ${cells.join('  ')}`);
    }
    const [idle, last] = [rows[0].memory, rows.at(-1).memory];
    const grew = (i) => (last[i].rss - idle[i].rss) / KB / KB;
    const diff = (a, b) => (last[a].rss - last[b].rss) / KB / KB;
    console.log(
      `  ui on vs --ui false on the same paths: ${diff(0, 1).toFixed(1)} MB; vs --ui false serving /docs: ` +
        `${diff(0, 2).toFixed(1)} MB ${Math.abs(diff(0, 2)) <= RSS_TARGET_MB ? 'ok' : 'MISSED'} (|difference| <= ${RSS_TARGET_MB} MB); ` +
        `grown since idle: ${[0, 1, 2].map((i) => `[${i + 1}] ${grew(i).toFixed(1)}`).join(', ')} MB (15 s after the last round)`,
    );
  } finally {
    await Promise.all(gateways.map((gw) => gw.stop()));
  }
}

/** (3) First rows and a filter change in Chromium, on `--rows` seeded rows. */
async function firstRows() {
  const scratch = await benchScaleOut({ database: values.database, keepDatabase: values['keep-database'] });
  const gw = await startGateway({ env: scratch.env, logLevel: 'warn', healthTimeoutMs: 900_000 });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    if (!values.database) {
      const client = new pg.Client({ connectionString: scratch.env.DATABASE_URL });
      await client.connect();
      try {
        console.log(`\nseeding ${Number(values.rows).toLocaleString('en-US')} rows into ${scratch.databaseName}`);
        await seedRequestLogs(client, { rows: Number(values.rows), log: console.log });
      } finally {
        await client.end();
      }
    }
    if (values['keep-database']) console.log(`database kept: ${scratch.databaseName}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const unlocked = await context.request.post(`${gw.base}/api/session/setup`, {
      headers: { 'x-gateway-setup-token': gw.setupToken },
    });
    if (unlocked.status() !== 200) throw new Error(`setup: ${unlocked.status()}`);
    const page = await context.newPage();
    const rowsPainted = (n, provider) =>
      page.waitForFunction(
        ([count, p]) => {
          const rows = [...document.querySelectorAll('table[aria-label="Request logs"] tbody tr')];
          return rows.length >= count && (!p || rows.every((r) => r.children[2]?.textContent?.startsWith(`${p} /`)));
        },
        [n, provider],
        { polling: 'raf', timeout: 60_000 },
      );

    const first = [];
    for (let i = 0; i < runs + 2; i++) {
      throwIfStopping();
      const t = performance.now();
      await page.goto(`${gw.base}/ui/logs`, { waitUntil: 'commit' });
      await rowsPainted(50);
      if (i >= 2) first.push(performance.now() - t);
    }
    const filter = [];
    for (let i = 0; i < runs + 2; i++) {
      throwIfStopping();
      const provider = PROVIDERS[i % PROVIDERS.length];
      const box = page.getByRole('combobox', { name: 'Providers' });
      await box.fill(provider);
      await box.press('Enter');
      const t = performance.now();
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await rowsPainted(50, provider);
      if (i >= 2) filter.push(performance.now() - t);
      await page.getByRole('button', { name: 'Clear' }).click();
      await rowsPainted(50);
    }
    const report = (label, times, target) => {
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(
        `  ${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(0).padStart(4)} ms  p95 ${p95.toFixed(0).padStart(4)} ms  ` +
          `max ${times.at(-1).toFixed(0).padStart(4)} ms  ${p95 <= target ? 'ok' : 'MISSED'} (p95 <= ${target} ms)`,
      );
    };
    console.log(`\n(3) Chromium over loopback, ${runs} runs after 2 warm-ups (assets cached after the first)`);
    report('navigation → 50 rows painted', first, FIRST_ROWS_TARGET_MS);
    report('Apply filters (a provider) → rows painted', filter, FILTER_TARGET_MS);
  } finally {
    await browser.close();
    await gw.stop();
  }
}

/** The renderer processes Chromium runs for this bench (descendants of this process with `--type=renderer`). */
function rendererPids() {
  const parent = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === process.pid) return true;
    return false;
  };
  return [...parent.keys()].filter((pid) => {
    if (!descends(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

/** CPU time (user + system, ms) of the main threads of `pids` (the thread whose id is the process's). */
function mainThreadCpuMs(pids) {
  let ms = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}

/**
 * (4) Live mode: `--rate` req/s of chat completions through the provider simulator, every other one for `gpt-4o`, while
 * the logs page shows `gpt-4o-mini` live. Every row the page paints is recorded by its id (a MutationObserver on the
 * table, drained every 2 s so the record never grows the tab); every answered request's id is its `x-request-id`.
 * Chromium's own counters over CDP: the main thread's busy time (`Performance.getMetrics` TaskDuration) over the
 * window, and the tab's JS heap after a forced GC and its DOM nodes every 15 s.
 */
async function live() {
  const rate = Number(values.rate);
  const seconds = Number(values['live-seconds']);
  const WATCHED = 'gpt-4o-mini';
  const OTHER = 'gpt-4o';
  const scratch = await createScratchScaleOut();
  const sim = await spawnSimulator();
  const gw = await startGateway({
    env: { ...scratch.env, GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' },
    logLevel: 'warn',
    healthTimeoutMs: 300_000,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const target = await wireGateway(gw, sim);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const unlocked = await context.request.post(`${gw.base}/api/session/setup`, {
      headers: { 'x-gateway-setup-token': gw.setupToken },
    });
    if (unlocked.status() !== 200) throw new Error(`setup: ${unlocked.status()}`);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const painted = new Set();
      window.__takePaintedRows = () => {
        const ids = [...painted];
        painted.clear();
        return ids;
      };
      const record = (node) => {
        if (node.nodeType !== 1) return;
        if (node.matches('tr[data-row-id]')) painted.add(node.getAttribute('data-row-id'));
        for (const row of node.querySelectorAll('tr[data-row-id]')) painted.add(row.getAttribute('data-row-id'));
      };
      // Live mode's reconnections (a slow consumer is dropped by the gateway): its badge saying so.
      window.__disconnects = 0;
      // The most rows one update put on screen: a full page (50) means a burst the page could not show whole.
      window.__largestUpdate = 0;
      new MutationObserver((records) => {
        const before = painted.size;
        for (const r of records) {
          for (const node of r.addedNodes) record(node);
          const status = (r.target.nodeType === 1 ? r.target : r.target.parentElement)?.closest('[role="status"]');
          if (status?.textContent?.startsWith('Disconnected')) window.__disconnects++;
        }
        window.__largestUpdate = Math.max(window.__largestUpdate, painted.size - before);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(`${gw.base}/ui/logs?live=true&models=${WATCHED}`);
    await page
      .getByRole('status')
      .filter({ hasText: /^Connected$/ })
      .waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () =>
      Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const heapAfterGc = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const m = await metrics();
      return { heap: m.JSHeapUsedSize, nodes: m.Nodes };
    };

    const painted = new Set();
    const drain = async () => {
      for (const id of await page.evaluate(() => window.__takePaintedRows())) painted.add(id);
    };
    const sent = { watched: new Set(), other: new Set(), failed: 0 };
    let n = 0;
    const bodies = [chatBody({ model: target.model }), chatBody({ model: `openai/${OTHER}` })];
    console.log(
      `\n(4) live mode: ${rate} req/s of chat completions for ${seconds} s (half ${WATCHED}, half ${OTHER}), ` +
        `the logs page live on models=${WATCHED} (Postgres + Redis, Chromium 1280x800)`,
    );
    const started = performance.now();
    const load = runLoad({
      url: target.url,
      method: 'POST',
      headers: target.headers,
      body: () => bodies[n++ % 2],
      check: (status, text, headers) => {
        if (status !== 200) return (sent.failed++, false);
        const model = JSON.parse(text).model ?? '';
        (model.endsWith(WATCHED) ? sent.watched : sent.other).add(headers['x-request-id']);
        return true;
      },
      connections: 32,
      durationMs: seconds * 1000,
      rate,
    });
    let finished = false;
    void load.finally(() => (finished = true));
    // The first 10 s warm the page up (its first flushes, the chunk's code compiled): the window starts after them.
    const memory = [];
    let windowStart;
    let renderers = [];
    let windowCpu;
    let nextMemoryAt = 10_000;
    let minuteStart;
    const minutes = [];
    while (!finished) {
      await new Promise((ok) => setTimeout(ok, 2000));
      throwIfStopping();
      await drain();
      const elapsed = performance.now() - started;
      if (elapsed >= nextMemoryAt && !finished) {
        nextMemoryAt += 15_000;
        memory.push({ at: elapsed / 1000, ...(await heapAfterGc()) });
        const m = await metrics();
        if (!windowStart) {
          renderers = rendererPids();
          windowCpu = { ms: mainThreadCpuMs(renderers), at: performance.now() };
        }
        windowStart ??= m;
        minuteStart ??= m;
        if (m.Timestamp - minuteStart.Timestamp >= 60) {
          minutes.push(1 - (m.TaskDuration - minuteStart.TaskDuration) / (m.Timestamp - minuteStart.Timestamp));
          minuteStart = m;
        }
      }
    }
    const windowEnd = await metrics();
    const cpuShare = (mainThreadCpuMs(renderers) - windowCpu.ms) / (performance.now() - windowCpu.at);
    const result = await load;
    // Rows answered last are logged and pushed a moment later.
    await new Promise((ok) => setTimeout(ok, 10_000));
    await drain();
    const [disconnects, largestUpdate] = await page.evaluate(() => [window.__disconnects, window.__largestUpdate]);
    const gatewayMetrics = await fetch(`${gw.base}/metrics`, {
      headers: { 'x-gateway-setup-token': gw.setupToken },
    }).then((r) => r.text());
    const dropped = [...gatewayMetrics.matchAll(/^gateway_live_dropped_total\{reason="(\w+)"\} (\d+)/gm)]
      .map((m) => `${m[1]} ${m[2]}`)
      .join(', ');
    memory.push({ at: (performance.now() - started) / 1000, ...(await heapAfterGc()) });

    const lost = [...sent.watched].filter((id) => !painted.has(id));
    const shownOther = [...sent.other].filter((id) => painted.has(id));
    const busy = (windowEnd.TaskDuration - windowStart.TaskDuration) / (windowEnd.Timestamp - windowStart.Timestamp);
    const idle = 1 - busy;
    const mbOf = (b) => (b / KB / KB).toFixed(1);
    const heaps = memory.map((m) => m.heap);
    // Growth: the last third's mean against the first third's (GC'd samples), per minute of run between them.
    const third = Math.max(1, Math.floor(memory.length / 3));
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const early = memory.slice(0, third);
    const late = memory.slice(-third);
    const perMinute =
      ((mean(late.map((m) => m.heap)) - mean(early.map((m) => m.heap))) /
        Math.max(1, mean(late.map((m) => m.at)) - mean(early.map((m) => m.at)))) *
      60;
    console.log(
      `  load: ${result.rps.toFixed(1)} req/s over ${result.seconds.toFixed(0)} s, ${result.requests} answered ` +
        `(${sent.watched.size} ${WATCHED}, ${sent.other.size} ${OTHER}), p50 ${result.p50.toFixed(0)} ms, ` +
        `p99 ${result.p99.toFixed(0)} ms, errors ${result.errors}, refused ${result.bad}`,
    );
    console.log(
      `  rows kept: ${sent.watched.size - lost.length} of ${sent.watched.size} matching rows painted, ` +
        `${lost.length} lost${lost.length ? ` (first: ${lost.slice(0, 3).join(', ')})` : ''}; ` +
        `${shownOther.length} of ${sent.other.size} non-matching rows shown; at most ${largestUpdate} new rows in one update; ${disconnects} disconnections seen (the gateway dropped: ${dropped}) ${lost.length === 0 && shownOther.length === 0 ? 'ok' : 'MISSED'}`,
    );
    console.log(
      `  main thread idle: ${(idle * 100).toFixed(1)} % of ${(windowEnd.Timestamp - windowStart.Timestamp).toFixed(0)} s ` +
        `after a 10 s warm-up${minutes.length ? ` (per minute: ${minutes.map((x) => `${(x * 100).toFixed(0)} %`).join(', ')})` : ''} ` +
        `${idle >= LIVE_IDLE_TARGET ? 'ok' : 'MISSED'} (>= ${LIVE_IDLE_TARGET * 100} %; wall time of its tasks, ` +
        `which a CPU shared with other work stretches)`,
    );
    console.log(
      `  main thread CPU: ${(cpuShare * 100).toFixed(1)} % of the window (renderer main thread, /proc), idle ` +
        `${((1 - cpuShare) * 100).toFixed(1)} % by CPU time ${1 - cpuShare >= LIVE_IDLE_TARGET ? 'ok' : 'MISSED'}`,
    );
    console.log(
      `  tab JS heap after GC: ${memory.map((m) => `${m.at.toFixed(0)}s ${mbOf(m.heap)}`).join(', ')} MB; ` +
        `min ${mbOf(Math.min(...heaps))}, max ${mbOf(Math.max(...heaps))} MB, ` +
        `trend ${perMinute >= 0 ? '+' : ''}${(perMinute / KB).toFixed(0)} KB/min; DOM nodes ` +
        `${Math.min(...memory.map((m) => m.nodes))}–${Math.max(...memory.map((m) => m.nodes))}`,
    );
  } finally {
    await browser.close();
    await gw.stop();
    await sim.stop();
  }
}

await runBench(
  async () => {
    console.log(machineLine('start'));
    if (parts.has('bundle')) bundle();
    if (parts.has('rss')) await rss();
    if (parts.has('first-rows')) await firstRows();
    if (parts.has('live')) await live();
    console.log(machineLine('end'));
  },
  { maxSeconds: 3600 },
);
