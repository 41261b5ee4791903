// The management screens' figures (issue 47), in Chromium over loopback on a scale-out gateway (Postgres + Redis,
// enterprise edition, the dashboard unlocked with the setup token):
// (1) lists: `--objects` virtual keys (with a credential each), users and audit rows seeded in SQL, then for each list
//     page the time from navigation to its first page (50 rows) painted, `--runs` runs after 2 warm-ups;
// (2) propagation: a template held by `--users` users (bench/lib/propagation-seed.mjs), propagated from its screen
//     (Propagate, then the confirmation): every change of the `processed / total` the page shows, with its time, and
//     the tab's main-thread idle share over the run (Chromium's Performance.getMetrics TaskDuration, over CDP).
// Usage: npm run build && node bench/dashboard-admin.mjs [--only lists,propagation] [--objects 100000] [--runs 20]
//          [--users 10000]
/* global document, window, MutationObserver -- the functions given to page.waitForFunction and addInitScript run in the page */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { runBench, throwIfStopping } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import { percentile } from './lib/load.mjs';
import { seedPropagation } from './lib/propagation-seed.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut } from './lib/scale-out.mjs';

const FIRST_PAGE_TARGET_MS = 800;
const PROGRESS_GAP_TARGET_MS = 2000;
const IDLE_TARGET = 0.5;
const PAGE_ROWS = 50;
const DEVELOPER_ROLE = '00000000-0000-4000-8000-000000000003';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'lists,propagation' },
    objects: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '20' },
    users: { type: 'string', default: '10000' },
  },
});
const parts = new Set(values.only.split(','));
const runs = Number(values.runs);

/** A scale-out enterprise gateway on a scratch database, and a Chromium page unlocked with the setup token. */
async function gatewayAndPage(browser, scratch) {
  const gw = await startGateway({
    env: { ...scratch.env, GATEWAY_EDITION: 'enterprise', GATEWAY_ACCESS_PROFILES_PROPAGATION_WAIT: '0s' },
    logLevel: 'warn',
    healthTimeoutMs: 300_000,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const unlocked = await context.request.post(`${gw.base}/api/session/setup`, {
    headers: { 'x-gateway-setup-token': gw.setupToken },
  });
  if (unlocked.status() !== 200) throw new Error(`setup: ${unlocked.status()}`);
  return { gw, context, page: await context.newPage() };
}

/** `objects` virtual keys (each with a credential), users and audit rows, one statement per table. */
async function seedLists(databaseUrl, objects) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO virtual_keys (id, name, created_at, updated_at)
       SELECT gen_random_uuid(), 'bench key ' || i, now() - i * interval '1 second', now() - i * interval '1 second'
       FROM generate_series(1, $1::int) AS i`,
      [objects],
    );
    await db.query(
      `INSERT INTO virtual_key_credentials (id, virtual_key_id, value_hash, value_hint)
       SELECT gen_random_uuid(), k.id, encode(sha256(convert_to(k.id::text, 'UTF8')), 'hex'), 'sk-gw-be'
       FROM virtual_keys k`,
    );
    await db.query(
      `INSERT INTO users (id, name, email, role_id, created_at, updated_at)
       SELECT gen_random_uuid(), 'bench user ' || i, 'bench-user-' || i || '@example.com', $2,
         now() - ($1 - i) * interval '1 second', now()
       FROM generate_series(1, $1::int) AS i`,
      [objects, DEVELOPER_ROLE],
    );
    await db.query(
      `INSERT INTO audit_logs (id, actor, auth_method, permission, method, route, path, target_id, status_code,
         client_address, created_at)
       SELECT gen_random_uuid(), 'admin', 'session', 'VirtualKeys:Update', 'PUT',
         '/api/governance/virtual-keys/:vk_id', '/api/governance/virtual-keys/' || gen_random_uuid(), NULL,
         CASE WHEN i % 20 = 0 THEN 400 ELSE 200 END, '127.0.0.1', now() - i * interval '1 second'
       FROM generate_series(1, $1::int) AS i`,
      [objects],
    );
    for (const table of ['virtual_keys', 'virtual_key_credentials', 'users', 'audit_logs']) {
      await db.query(`VACUUM (ANALYZE) ${table}`);
    }
  } finally {
    await db.end();
  }
}

/** (1) Navigation → the first page of each list painted. */
async function lists(browser) {
  const objects = Number(values.objects);
  const scratch = await createScratchScaleOut();
  // Started once to migrate, seeded, then started again: the second start reads the seeded tables like a restart.
  let gw = await startGateway({ env: scratch.env, logLevel: 'warn', healthTimeoutMs: 300_000 });
  console.log(`\nseeding ${objects.toLocaleString('en-US')} virtual keys, users and audit rows`);
  const seeded = performance.now();
  await gw.stop();
  await seedLists(scratch.env.DATABASE_URL, objects);
  console.log(`  seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  const opened = await gatewayAndPage(browser, scratch);
  gw = opened.gw;
  const { page } = opened;
  try {
    const screens = [
      { path: 'virtual-keys', table: 'Virtual keys' },
      { path: 'users', table: 'Users' },
      { path: 'audit-logs', table: 'Audit log' },
    ];
    console.log(
      `\n(1) Chromium over loopback, ${objects.toLocaleString('en-US')} objects each, ${runs} runs after 2 warm-ups`,
    );
    for (const screen of screens) {
      const times = [];
      for (let i = 0; i < runs + 2; i++) {
        throwIfStopping();
        const t = performance.now();
        await page.goto(`${gw.base}/ui/${screen.path}`, { waitUntil: 'commit' });
        await page.waitForFunction(
          ([label, count]) =>
            document.querySelectorAll(`table[aria-label="${label}"] tbody tr[data-row-id]`).length >= count,
          [screen.table, PAGE_ROWS],
          { polling: 'raf', timeout: 60_000 },
        );
        if (i >= 2) times.push(performance.now() - t);
      }
      const total = await page.evaluate(() => document.body.innerText.match(/of ([\d,]+)/)?.[1] ?? '?');
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(
        `  ${`/ui/${screen.path} → ${PAGE_ROWS} rows`.padEnd(32)} p50 ${percentile(times, 50).toFixed(0).padStart(4)} ms` +
          `  p95 ${p95.toFixed(0).padStart(4)} ms  max ${times.at(-1).toFixed(0).padStart(4)} ms  ` +
          `(pager: of ${total})  ${p95 <= FIRST_PAGE_TARGET_MS ? 'ok' : 'MISSED'} (p95 <= ${FIRST_PAGE_TARGET_MS} ms)`,
      );
    }
  } finally {
    await gw.stop();
    await scratch.drop();
  }
}

/** (2) A propagation to `--users` users followed on its screen. */
async function propagation(browser) {
  const users = Number(values.users);
  const scratch = await createScratchScaleOut();
  const { gw, context, page } = await gatewayAndPage(browser, scratch);
  try {
    const profile = await seedPropagation(gw, scratch.env.DATABASE_URL, { name: 'bench', users });
    await page.addInitScript(() => {
      // Every `processed / total` the run section shows, with the page's clock.
      window.__counts = [];
      new MutationObserver(() => {
        const run = document.querySelector('section[aria-label="Propagation run"]');
        const text = [...(run?.querySelectorAll('p') ?? [])]
          .map((p) => p.textContent ?? '')
          .find((t) => /^\d+ \/ \d+$/.test(t));
        if (text && text !== window.__counts.at(-1)?.text) window.__counts.push({ at: performance.now(), text });
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(`${gw.base}/ui/access-profiles?profile=${profile.id}`);
    const detail = page.getByRole('region', { name: 'Template bench' });
    await detail.getByText(`Users holding a copy: ${users}`).waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () =>
      Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    await detail.getByRole('button', { name: 'Propagate', exact: true }).click();
    const start = await metrics();
    const clickedAt = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Propagate bench' }).click();
    await page
      .getByRole('region', { name: 'Propagation run' })
      .getByText('Propagation finished')
      .waitFor({ timeout: 300_000 });
    const end = await metrics();
    const counts = await page.evaluate(() => window.__counts);
    const times = [clickedAt, ...counts.map((c) => c.at)];
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    const idle = 1 - (end.TaskDuration - start.TaskDuration) / (end.Timestamp - start.Timestamp);
    const maxGap = Math.max(...gaps);
    console.log(
      `\n(2) propagation to ${users.toLocaleString('en-US')} users followed on its screen (3 fields, every user changed)`,
    );
    console.log(
      `  ${counts.length} counts shown over ${((counts.at(-1).at - clickedAt) / 1000).toFixed(1)} s: ` +
        counts.map((c) => c.text.replace(/ \/ \d+$/, '')).join(', '),
    );
    console.log(
      `  longest wait between two counts (from the confirmation): ${maxGap.toFixed(0)} ms ` +
        `${maxGap <= PROGRESS_GAP_TARGET_MS ? 'ok' : 'MISSED'} (<= ${PROGRESS_GAP_TARGET_MS} ms); main thread idle ` +
        `${(idle * 100).toFixed(1)} % ${idle >= IDLE_TARGET ? 'ok' : 'MISSED'} (>= ${IDLE_TARGET * 100} %); ` +
        `last count ${counts.at(-1).text}`,
    );
  } finally {
    await gw.stop();
    await scratch.drop();
  }
}

await runBench(
  async () => {
    console.log(machineLine());
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      if (parts.has('lists')) await lists(browser);
      if (parts.has('propagation')) await propagation(browser);
    } finally {
      await browser.close();
    }
    console.log(machineLine('end'));
  },
  { maxSeconds: 1800 },
);
