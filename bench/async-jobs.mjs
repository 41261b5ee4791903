// Async inference jobs under a burst (issue 16, bench): `--jobs` chat completions submitted to `/v1/async/chat/
// completions` at full speed by `--clients` concurrent HTTP clients (each sends its next submit when the previous was
// answered), then followed until every job is finished. Measures the submit latency (p50/p99) and rate, and the drain
// time (first submit to the last job finished, and after the last submit). Then checks nothing was lost: every
// submitted id is `completed` (the operators' list, `/api/async-jobs`), and the provider simulator (its own process,
// answering at once) was called exactly once per job. Two run modes: embedded (one process: the in-process queue runs
// the jobs beside the API) and Postgres + Redis (one `--role api` process and `--workers` `--role worker` processes on
// a scratch database and Redis prefix, BullMQ in between).
//
// Usage: npm run build && node bench/async-jobs.mjs [--jobs 10000] [--clients 64] [--workers 2]
//          [--concurrency 10] [--embedded-only | --scale-out-only] [--log-level warn]
// `--concurrency` is `async_jobs.concurrency` (jobs one worker process runs at a time, the default 10).
/* global AbortSignal */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Pool } from 'undici';
import { onCleanup, runBench } from './lib/cleanup.mjs';
import { MAIN_JS, manage, SETUP_TOKEN, START_NODE_FLAGS, startGateway, stopChild, tail } from './lib/gateway.mjs';
import { cpuMs, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { percentile } from './lib/load.mjs';
import { guardChild, guardDir } from './lib/reaper.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut } from './lib/scale-out.mjs';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '64' },
    workers: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '10' },
    'embedded-only': { type: 'boolean', default: false },
    'scale-out-only': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'warn' },
  },
});
const JOBS = Number(values.jobs);
const CLIENTS = Number(values.clients);
const WORKERS = Number(values.workers);
const CONCURRENCY = Number(values.concurrency);
const LOG_LEVEL = values['log-level'];
const ASYNC_QUEUE = 'gateway-async';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A config file with the async jobs' concurrency, for every process of a run. */
function configFile() {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-config-'));
  const unguard = guardDir(dir);
  onCleanup(() => {
    rmSync(dir, { recursive: true, force: true });
    unguard();
  });
  const path = join(dir, 'config.json');
  // The simulator listens on loopback, which outbound calls are refused by default.
  writeFileSync(path, JSON.stringify({ async_jobs: { concurrency: CONCURRENCY }, outbound: { allow_loopback: true } }));
  return path;
}

/** A `--role worker` process (no HTTP, so no /health to wait for: its readiness is read from BullMQ, see below). */
function spawnWorker(env, configPath, label) {
  const appDir = mkdtempSync(join(tmpdir(), 'gw-bench-worker-'));
  const unguardDir = guardDir(appDir);
  const logPath = join(appDir, 'gateway.log');
  const logFd = openSync(logPath, 'a');
  const argv = [...START_NODE_FLAGS, MAIN_JS, '--role', 'worker', '--app-dir', appDir, '--config', configPath];
  const child = spawn(process.execPath, [...argv, '--log-level', LOG_LEVEL], {
    stdio: ['ignore', logFd, logFd],
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  closeSync(logFd);
  guardChild(child);
  onCleanup(async () => {
    await stopChild(child);
    rmSync(appDir, { recursive: true, force: true });
    unguardDir();
  });
  child.once('exit', (code, signal) => {
    if (code || (signal && signal !== 'SIGTERM'))
      console.error(`${label} exited (${code ?? signal}):\n${tail(logPath)}`);
  });
  return child;
}

/** Waits until `count` BullMQ workers of the async queue are connected (BullMQ names their Redis connections). */
async function waitForWorkers(scratch, count, timeoutMs = 120_000) {
  const queue = new Queue(ASYNC_QUEUE, { connection: { url: scratch.env.REDIS_URL }, prefix: scratch.redisPrefix });
  try {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if ((await queue.getWorkers()).length >= count) return;
      if (performance.now() > deadline) throw new Error(`${count} workers of ${ASYNC_QUEUE} not connected in time`);
      await sleep(200);
    }
  } finally {
    await queue.close();
  }
}

/** `--jobs` submits over `--clients` loops on one keep-alive pool; resolves the ids in submit order and the timings. */
async function submitAll(gw, wired) {
  const pool = new Pool(gw.base, { connections: CLIENTS, pipelining: 1 });
  const ids = new Array(JOBS);
  const latencies = [];
  let next = 0;
  const started = performance.now();
  const client = async () => {
    for (let i = next++; i < JOBS; i = next++) {
      const body = JSON.stringify({ model: wired.model, messages: [{ role: 'user', content: `bench job ${i}` }] });
      const t0 = performance.now();
      const res = await pool.request({
        method: 'POST',
        path: '/v1/async/chat/completions',
        headers: { 'content-type': 'application/json', ...wired.headers },
        body,
      });
      const text = await res.body.text();
      latencies.push(performance.now() - t0);
      if (res.statusCode !== 202) throw new Error(`submit ${i}: ${res.statusCode} ${text}`);
      ids[i] = JSON.parse(text).id;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { ids, started, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function countOf(gw, status) {
  const page = await manage(gw, 'GET', `/api/async-jobs?status=${status}&limit=1`);
  return page.pagination.total_count;
}

/** Polls the operators' list until every job is completed or failed; resolves when (ms after `started`). */
async function drain(gw, started) {
  let last = 0;
  for (;;) {
    const [completed, failed] = [await countOf(gw, 'completed'), await countOf(gw, 'failed')];
    const now = performance.now();
    if (completed + failed >= JOBS) return { ms: now - started, completed, failed };
    if (now - last > 5000) {
      console.log(`    ${((now - started) / 1000).toFixed(0)} s: ${completed} completed, ${failed} failed`);
      last = now;
    }
    await sleep(100);
  }
}

/** Nothing lost: every submitted id completed, and the provider saw exactly one call per job. */
async function verify(gw, sim, ids) {
  const completed = new Set();
  for (let offset = 0; ; offset += 1000) {
    const page = await manage(gw, 'GET', `/api/async-jobs?status=completed&limit=1000&offset=${offset}`);
    for (const job of page.jobs) completed.add(job.id);
    if (page.jobs.length < 1000) break;
  }
  const missing = ids.filter((id) => !completed.has(id));
  const res = await fetch(`${sim.url}/_sim/requests?path=/chat/completions`, { signal: AbortSignal.timeout(60_000) });
  const { requests } = await res.json();
  const perJob = new Map();
  for (const r of requests) {
    const marker = r.body?.messages?.[0]?.content;
    perJob.set(marker, (perJob.get(marker) ?? 0) + 1);
  }
  const twice = [...perJob.values()].filter((n) => n > 1).length;
  const ok = missing.length === 0 && requests.length === JOBS && perJob.size === JOBS && twice === 0;
  console.log(
    `  check: ${completed.size} of ${ids.length} ids completed (${missing.length} missing), simulator calls ` +
      `${requests.length} for ${perJob.size} distinct jobs, ${twice} called twice: ${ok ? 'ok' : 'JOBS LOST OR REPEATED'}`,
  );
  if (!ok) throw new Error('INVALID RUN: a job was lost or sent twice');
}

async function run(label, sim, start) {
  console.log(`\n${label}: ${JOBS} jobs, ${CLIENTS} clients, async_jobs.concurrency ${CONCURRENCY}`);
  await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
  const { gw, workerPids = [], stop } = await start();
  const wired = await wireGateway(gw, sim);
  const pids = [gw.pid, ...workerPids];
  const cpuBefore = pids.map(cpuMs);
  const submitted = await submitAll(gw, wired);
  console.log(
    `  submit: ${JOBS} accepted (202) in ${submitted.seconds.toFixed(1)} s, ${(JOBS / submitted.seconds).toFixed(0)} ` +
      `jobs/s, p50 ${submitted.p50.toFixed(1)} ms, p99 ${submitted.p99.toFixed(1)} ms`,
  );
  const drained = await drain(gw, submitted.started);
  // The gateway processes' own CPU per job (a submit, its run and the polls of this bench; not Postgres or Redis).
  const cpu = pids.map((pid, i) => (cpuMs(pid) - cpuBefore[i]) / JOBS);
  console.log(
    `  CPU per job: ${cpu.map((ms, i) => `${i === 0 ? 'gateway' : `worker ${i}`} ${ms.toFixed(2)} ms`).join(', ')}`,
  );
  const afterSubmit = drained.ms / 1000 - submitted.seconds;
  console.log(
    `  drain: all finished ${(drained.ms / 1000).toFixed(1)} s after the first submit (${afterSubmit.toFixed(1)} s ` +
      `after the last), ${(JOBS / (drained.ms / 1000)).toFixed(0)} jobs/s; ${drained.completed} completed, ` +
      `${drained.failed} failed`,
  );
  if (drained.failed > 0) {
    const failed = await manage(gw, 'GET', '/api/async-jobs?status=failed&limit=1');
    console.log(`  a failed job's error: ${JSON.stringify(failed.jobs[0]?.error)}`);
  }
  await verify(gw, sim, submitted.ids);
  await stop();
  return { label, submitted, drained, afterSubmit, cpu: cpu.reduce((a, b) => a + b, 0) };
}

await runBench(
  async () => {
    console.log(machineLine());
    const sim = await spawnSimulator({ maxCaptured: JOBS + 1000 });
    const results = [];
    if (!values['scale-out-only']) {
      results.push(
        await run('embedded (one process)', sim, async () => {
          const gw = await startGateway({ logLevel: LOG_LEVEL, args: ['--config', configFile()], label: 'embedded' });
          return { gw, stop: gw.stop };
        }),
      );
    }
    if (!values['embedded-only']) {
      const scratch = await createScratchScaleOut();
      const env = { ...scratch.env, GATEWAY_ENCRYPTION_KEY: Buffer.alloc(32, 16).toString('base64') };
      const configPath = configFile();
      results.push(
        await run(`Postgres + Redis (api + ${WORKERS} workers)`, sim, async () => {
          const gw = await startGateway({
            env,
            logLevel: LOG_LEVEL,
            args: ['--role', 'api', '--config', configPath],
            label: 'api',
          });
          const workers = Array.from({ length: WORKERS }, (_, i) =>
            spawnWorker({ ...env, GATEWAY_SETUP_TOKEN: SETUP_TOKEN }, configPath, `worker ${i + 1}`),
          );
          await waitForWorkers(scratch, WORKERS);
          return {
            gw,
            workerPids: workers.map((w) => w.pid),
            stop: async () => {
              await Promise.all(workers.map((w) => stopChild(w)));
              await gw.stop();
              await scratch.drop();
            },
          };
        }),
      );
    }
    console.log(`\n${machineLine('end')}\n`);
    console.log(
      '| run mode | submit rate | submit p50 / p99 | drain (first submit → all finished) | after the last submit | gateway CPU per job | lost |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const r of results) {
      console.log(
        `| ${r.label} | ${(JOBS / r.submitted.seconds).toFixed(0)} jobs/s | ${r.submitted.p50.toFixed(1)} / ` +
          `${r.submitted.p99.toFixed(1)} ms | ${(r.drained.ms / 1000).toFixed(1)} s (${(JOBS / (r.drained.ms / 1000)).toFixed(0)} jobs/s) | ` +
          `${r.afterSubmit.toFixed(1)} s | ${r.cpu.toFixed(2)} ms | 0 of ${JOBS} |`,
      );
    }
  },
  { maxSeconds: 1800 },
);
