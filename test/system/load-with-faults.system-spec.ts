import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS } from '../helpers/gateway-process.js';
import type { HttpClient } from '../helpers/http.js';
import { runModeEnv, startSpawned, type SpawnedGateway } from '../helpers/spawned-gateway.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  type CapturedRequest,
  FAULT_KINDS,
  type FaultKind,
  type FaultMixView,
  startSimulator,
  type Simulator,
} from '../simulator/server.js';
import { IS_LONG, SYSTEM_PROFILE } from './profile.js';

/**
 * Issue 18 §2: load with faults through the full governed path of a real gateway process, and a soak. The provider
 * simulator injects a seeded 5 % fault mix (429 with a retry hint, 500, 503 with an overload signal, connection
 * reset, stall past the timeout, broken stream); a separate process sends paced load (20 % streams). Every request
 * must be answered within its bound, every failure must be the GatewayError its fault calls for, the request logs must
 * hold one row per request, the usage charged must equal the usage the simulator reported, and RSS must stay low and
 * flat. See docs/testing.md ("Load with faults and soak").
 */

const SETUP_TOKEN = 'setup-token-load-faults';
const LOAD = IS_LONG ? { rate: 1000, seconds: 60 } : { rate: 200, seconds: 15 };
const SOAK = IS_LONG ? { rate: 200, seconds: 300, warmup: 60 } : { rate: 100, seconds: 10, warmup: 3 };
const FAULT_RATE = 0.05;
const STREAM_SHARE = 0.2;
/**
 * RSS bounds. The issue's 250 MB is the Postgres + Redis gateway's target (docs/benchmarks.md: 145 MB idle, 178 MB peak). Embedded,
 * PGlite's WASM Postgres lives inside the process (docs/benchmarks.md: 286 MB idle after a restart, 360 MB and more on a first
 * start, PGlite alone 140 MB), so 250 MB cannot hold there: the embedded bound is on growth under load (100 MB over the
 * RSS when the load starts) and a ceiling of 640 MB.
 */
const RSS_LIMIT_MB = RUN_MODE === 'embedded' ? 640 : 250;
const RSS_GROWTH_LIMIT_MB = RUN_MODE === 'embedded' ? 100 : Infinity;
/** Long profile: a leak of 1 MB a minute is 1.4 GB a day; the noise of a healthy process over 4 minutes is well below. */
const SLOPE_LIMIT_MB_PER_MIN = 1;

const NETWORK = {
  default_request_timeout: '2s',
  max_retries: 1,
  retry_backoff_initial: '50ms',
  retry_backoff_max: '200ms',
};
const TIMEOUT_MS = 2000;
const RETRIES = NETWORK.max_retries;
/** Models a request may try: the rule's target, the breaker policy's fallback, the rule's fallback. */
const MODELS_PER_REQUEST = 3;
/**
 * The longest a request may take: every attempt timing out, the backoffs, and a margin of 30 s for queueing on a
 * shared 2-core box (at 200 req/s under a load average of 20, p99 reached 28 s with nothing wrong but CPU starvation).
 * A hang is what this catches: past the client's timeout the request is recorded as unanswered.
 */
const BOUND_MS = TIMEOUT_MS * (RETRIES + 1) * MODELS_PER_REQUEST + 200 * RETRIES * MODELS_PER_REQUEST + 30_000;
const CLIENT_TIMEOUT_MS = BOUND_MS + 15_000;

/** The node flags of package.json's `start` script: the RSS measured is the one `npm start` users get. */
const START_NODE_FLAGS = (() => {
  const start = (JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  return (/^node\s+(.*?)\s*dist\/src\/main\.js/.exec(start)?.[1] ?? '').split(/\s+/).filter(Boolean);
})();

const PRIMARY = { provider: 'openai', model: 'gpt-4o-mini' };
const FALLBACK = { provider: 'anthropic', model: 'claude-3-5-haiku-latest' };

interface LoadRecord {
  i: number;
  stream: boolean;
  t: number;
  ms: number;
  status?: number;
  request_id?: string;
  provider?: string;
  fallback_index?: string;
  content_type?: string;
  ended?: 'done' | 'error_event' | 'none';
  error?: any;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost?: any };
  client_error?: string;
  body?: string;
  bad_event?: boolean;
}

interface LoadResult {
  records: LoadRecord[];
  sent: number;
  /** From the first send to the last. */
  sendSeconds: number;
}

/** Runs test/system/load-child.mjs in its own process; resolves with every request's record. */
async function runLoadChild(url: string, key: string, rate: number, seconds: number, dir: string): Promise<LoadResult> {
  const out = join(dir, `load-${Date.now()}.jsonl`);
  const input = {
    url,
    key,
    rate,
    durationMs: seconds * 1000,
    streamShare: STREAM_SHARE,
    timeoutMs: CLIENT_TIMEOUT_MS,
    model: `${PRIMARY.provider}/${PRIMARY.model}`,
    out,
    // A client's pool, as an SDK has: at most one connection per request a second (512 at most). Requests beyond it
    // wait in the pool, timed from their scheduled start. Unbounded, a starved box's accept backlog overflows and the
    // kernel resets the connections it dropped (seen at a load average of 17 on 2 cores): a test of the OS, not of us.
    maxSockets: Math.min(512, rate),
  };
  const child = spawn(process.execPath, [resolve('test/system/load-child.mjs'), JSON.stringify(input)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((ok) => child.on('exit', ok));
  children.delete(child);
  expect(code, `load child failed: ${stderr}`).toBe(0);
  const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as { sent: number; sendSeconds: number };
  const records = readFileSync(out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoadRecord);
  return { records, sent: summary.sent, sendSeconds: summary.sendSeconds };
}

const children = new Set<ReturnType<typeof spawn>>();

/** A memory field of /proc/<pid>/status in MB: VmRSS (now) or VmHWM (the peak over the process's life). */
function procMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
}

const rssMb = (pid: number) => procMemoryMb(pid, 'VmRSS');
const vmHwmMb = (pid: number) => procMemoryMb(pid, 'VmHWM');

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Least-squares slope of (x, y) pairs. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Waits until a process's RSS holds still (three readings over a second within 5 MB; 30 s at most). A gateway's start
 * can have a transient of its own: without `npm start`'s `--liftoff-only`, V8's optimizing compile of PGlite's WASM
 * Postgres takes about 450 MB for a few hundred milliseconds once the database gets busy, and on a loaded machine it
 * can end just after the "listening" line (docs/decisions.md). That is the start's peak, not the load's, so the
 * load's bounds are measured from after the start settles.
 */
async function settleRss(pid: number): Promise<void> {
  const readings: number[] = [];
  const deadline = performance.now() + 30_000;
  for (;;) {
    readings.push(rssMb(pid));
    const last = readings.slice(-3);
    if (last.length === 3 && Math.max(...last) - Math.min(...last) < 5) return;
    if (performance.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Samples a process's RSS every second until stopped. */
function sampleRss(pid: number): { stop: () => Array<[number, number]> } {
  const samples: Array<[number, number]> = [];
  const t0 = performance.now();
  const timer = setInterval(() => {
    try {
      samples.push([(performance.now() - t0) / 1000, rssMb(pid)]);
    } catch {
      // the process is gone: the test's own checks report it
    }
  }, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}

/** The request number a simulator request carries (`load <i> …`), or undefined. */
function loadIndex(c: CapturedRequest): number | undefined {
  const body = c.body as { messages?: Array<{ content?: unknown }> } | undefined;
  const text = body?.messages?.[0]?.content;
  if (typeof text !== 'string') return undefined;
  const m = /^load (\d+) /.exec(text);
  return m ? Number(m[1]) : undefined;
}

function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of items) out[key(t)] = (out[key(t)] ?? 0) + 1;
  return out;
}

describe.skipIf(!existsSync(MAIN_JS))(`load with faults (${SYSTEM_PROFILE} profile, ${RUN_MODE})`, () => {
  let sim: Simulator;
  let gw: SpawnedGateway;
  let admin: HttpClient;
  let cleanUp: () => Promise<void> = async () => undefined;
  let vkValue: string;
  let vkId: string;
  let dir: string;
  let probeId: string;
  let probeTokens: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'load-faults-'));
    sim = await startSimulator({ maxCaptured: 1_000_000 });
    const mode = await runModeEnv();
    cleanUp = mode.cleanUp;
    gw = await startSpawned(
      {
        ...mode.env,
        GATEWAY_SETUP_TOKEN: SETUP_TOKEN,
        GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true',
        GATEWAY_EDITION: 'enterprise',
      },
      { nodeArgs: START_NODE_FLAGS },
    );
    admin = gw.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });

    for (const [provider, base] of [
      ['openai', `${sim.url}/openai/v1`],
      ['anthropic', `${sim.url}/anthropic`],
    ] as const) {
      const p = await admin.post('/api/providers', { provider, base_url: base, network_config: NETWORK });
      expect(p.status, p.text).toBe(201);
      const k = await admin.post(`/api/providers/${provider}/keys`, { name: provider, value: `sk-${provider}-load` });
      expect(k.status, k.text).toBe(201);
    }
    const vk = await admin.post('/api/governance/virtual-keys', {
      name: 'load',
      budgets: [{ max_limit: 1000, reset_duration: '1d' }],
      rate_limit: {
        request_max_limit: 10_000_000,
        request_reset_duration: '1h',
        token_max_limit: 1_000_000_000,
        token_reset_duration: '1h',
      },
    });
    expect(vk.status, vk.text).toBe(201);
    vkValue = vk.body.virtual_key.value;
    vkId = vk.body.virtual_key.id;
    const rule = await admin.post('/api/governance/routing-rules', {
      name: 'load-route',
      cel_expression: 'request_type == "chat_completion"',
      targets: [{ ...PRIMARY, weight: 1 }],
      fallbacks: [`${FALLBACK.provider}/${FALLBACK.model}`],
    });
    expect(rule.status, rule.text).toBe(201);
    const policy = await admin.post('/api/circuit-breaker/policies', {
      name: 'load-overload',
      primary_provider: PRIMARY.provider,
      primary_model: PRIMARY.model,
      fallback_provider: FALLBACK.provider,
      fallback_model: FALLBACK.model,
      condition: { signals: [{ header_name: 'x-sim-overloaded', header_value: 'true' }] },
      default_cooldown: '250ms',
    });
    expect(policy.status, policy.text).toBe(201);

    // One clean request proves the path before the faults start.
    const probe = await gw.http.post(
      '/v1/chat/completions',
      {
        model: `${PRIMARY.provider}/${PRIMARY.model}`,
        messages: [{ role: 'user', content: 'probe' }],
      },
      { headers: { authorization: `Bearer ${vkValue}` } },
    );
    expect(probe.status, probe.text).toBe(200);
    probeId = probe.headers.get('x-request-id')!;
    probeTokens = probe.body.usage.total_tokens;
    expect(probe.headers.get('x-gateway-routing-info-routing-rule-name')).toBe('load-route');
    await settleRss(gw.gw.child.pid!);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    if (gw) {
      gw.gw.child.kill('SIGTERM');
      const timer = setTimeout(() => gw.gw.child.kill('SIGKILL'), 20_000);
      await gw.gw.exit;
      clearTimeout(timer);
    }
    await cleanUp();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the load child at `rate` for `seconds` with the fault mix on, sampling the gateway's RSS each second. */
  async function loadWithFaults(rate: number, seconds: number, seed: number) {
    sim.reset();
    sim.faultMix({ rate: FAULT_RATE, seed, overload_headers: { 'x-sim-overloaded': 'true' } });
    const pid = gw.gw.child.pid!;
    const cpuBefore = cpuSeconds(pid);
    const rss = sampleRss(pid);
    // The gateway's access log: keep the last lines only, so the runner does not hold every line of the run.
    const drain = setInterval(() => gw.gw.stdout.splice(0, Math.max(0, gw.gw.stdout.length - 200)), 1000);
    try {
      const load = await runLoadChild(`http://127.0.0.1:${gw.port}`, vkValue, rate, seconds, dir);
      const cpu = cpuSeconds(pid) - cpuBefore;
      return { load, samples: rss.stop(), captured: sim.requests(), mix: sim.faultMixView()!, cpu };
    } finally {
      rss.stop();
      clearInterval(drain);
      sim.faultMix(null);
    }
  }

  /** Every request answered: no client timeout, no lost request, each with a status. */
  function expectAllAnswered(load: LoadResult, rate: number, seconds: number) {
    expect(load.sent).toBe(rate * seconds);
    expect(load.records).toHaveLength(load.sent);
    const unanswered = load.records.filter((r) => r.client_error || r.status === undefined);
    expect(unanswered.length, `unanswered, first ones: ${JSON.stringify(unanswered.slice(0, 5))}`).toBe(0);
  }

  /** None past its bound (no hang), RSS under its limits. Checked last, after every correctness check. */
  function expectBounded(load: LoadResult, samples: Array<[number, number]>) {
    const late = load.records.filter((r) => r.ms > BOUND_MS);
    expect(late.length, `past ${BOUND_MS} ms, first ones: ${JSON.stringify(late.slice(0, 5))}`).toBe(0);
    expect(samples.length).toBeGreaterThan(0);
    const peak = Math.max(...samples.map((x) => x[1]));
    expect(peak).toBeLessThan(RSS_LIMIT_MB);
    expect(peak - samples[0]![1]).toBeLessThan(RSS_GROWTH_LIMIT_MB);
    // Embedded, the kernel's peak over the process's whole life too, its start included (which the samples a second
    // apart miss): `npm start`'s --liftoff-only keeps PGlite's optimizing compile (about 860 MB VmHWM) out of it.
    if (RUN_MODE === 'embedded') expect(vmHwmMb(gw.gw.child.pid!)).toBeLessThan(RSS_LIMIT_MB);
  }

  function figures(load: LoadResult, samples: Array<[number, number]>, mix: FaultMixView, warmup: number, cpu: number) {
    const durations = load.records.map((r) => r.ms).sort((a, b) => a - b);
    const after = samples.filter(([t]) => t >= warmup);
    return {
      profile: SYSTEM_PROFILE,
      mode: RUN_MODE,
      sent: load.sent,
      req_per_s: Math.round(load.sent / load.sendSeconds),
      upstream_attempts: mix.drawn,
      faults: mix.injected,
      statuses: countBy(load.records, (r) => String(r.status ?? r.client_error)),
      stream_endings: countBy(
        load.records.filter((r) => r.stream),
        (r) => `${r.status}:${r.ended}`,
      ),
      errors: countBy(
        load.records.filter((r) => r.error),
        (r) => `${r.status}:${r.error?.error?.code}`,
      ),
      ms: {
        p50: durations[Math.floor(durations.length / 2)],
        p99: durations[Math.floor(durations.length * 0.99)],
        max: durations.at(-1),
      },
      // The gateway's own CPU per request: tells a costly gateway from a starved one when latencies grow.
      gateway_cpu_ms_per_request: +((cpu * 1000) / load.sent).toFixed(2),
      rss_start_mb: Math.round(samples[0]?.[1] ?? NaN),
      rss_peak_mb: Math.round(Math.max(...samples.map((x) => x[1]))),
      rss_end_mb: Math.round(samples.at(-1)?.[1] ?? NaN),
      vmhwm_mb: Math.round(vmHwmMb(gw.gw.child.pid!)),
      rss_slope_mb_per_min: +(slope(after) * 60).toFixed(2),
      rss_samples_after_warmup: after.length,
    };
  }

  it(
    `${LOAD.rate} req/s for ${LOAD.seconds} s, ${FAULT_RATE * 100} % faults, ${STREAM_SHARE * 100} % streams: every request answered with its fault's outcome, logged once, charged exactly`,
    async () => {
      const { load, samples, captured, mix, cpu } = await loadWithFaults(LOAD.rate, LOAD.seconds, 18);
      console.log(`load with faults: ${JSON.stringify(figures(load, samples, mix, 5, cpu))}`);
      expectAllAnswered(load, LOAD.rate, LOAD.seconds);
      // The mix did inject every kind (3,000 requests at 5 %: about 25 of each).
      for (const kind of FAULT_KINDS) expect(mix.injected[kind], kind).toBeGreaterThan(0);

      // Each request's upstream attempts, by the number in its text, in arrival order.
      const attempts = new Map<number, CapturedRequest[]>();
      for (const c of captured) {
        const i = loadIndex(c);
        if (i !== undefined) attempts.set(i, [...(attempts.get(i) ?? []), c]);
      }
      const wrong: unknown[] = [];
      for (const r of load.records) {
        const tried = attempts.get(r.i) ?? [];
        const problem = outcomeProblem(r, tried);
        if (problem) wrong.push({ problem, r, tried: tried.map((c) => [c.family, c.fault ?? 'ok', c.status]) });
      }
      expect(wrong.slice(0, 5)).toEqual([]);

      // The request logs: one primary row per request (its id the answer's x-request-id), a child row per fallback.
      const rows = await allLogRows();
      const primaries = rows.filter((row) => !row.parent_request_id);
      const byId = new Map(primaries.map((row) => [row.id, row]));
      expect(byId.size).toBe(primaries.length);
      const ids = new Set([probeId, ...load.records.map((r) => r.request_id)]);
      expect(ids.size).toBe(load.sent + 1);
      expect(primaries.length).toBe(ids.size);
      expect(primaries.filter((row) => !ids.has(row.id))).toEqual([]);
      const children = rows.filter((row) => row.parent_request_id);
      expect(children.filter((row) => !byId.has(row.parent_request_id) || !(row.fallback_index > 0))).toEqual([]);
      // The row of the model that served each success has its status and the tokens the caller got.
      const rowProblems: unknown[] = [];
      for (const r of load.records) {
        const served = r.fallback_index
          ? children.find(
              (row) => row.parent_request_id === r.request_id && row.fallback_index === Number(r.fallback_index),
            )
          : byId.get(r.request_id!);
        const ok = r.status === 200 && (!r.stream || r.ended === 'done');
        if (
          !served ||
          served.status !== (ok ? 'success' : 'error') ||
          (ok && served.total_tokens !== r.usage?.total_tokens)
        ) {
          rowProblems.push({ r, served });
        }
      }
      expect(rowProblems.slice(0, 5)).toEqual([]);

      // Usage: what the gateway logged and charged equals what the simulator reported for the answers it completed.
      const completed = captured.filter(
        (c) => loadIndex(c) !== undefined && !c.fault && c.completed && c.status === 200,
      );
      const simTokens = completed.reduce((sum, c) => sum + c.usage!.total_tokens, 0);
      const loggedTokens = rows.reduce((sum, row) => sum + (row.total_tokens ?? 0), 0);
      const loggedCost = rows.reduce((sum, row) => sum + (row.cost ?? 0), 0);
      const callerTokens = load.records.reduce((sum, r) => sum + (r.usage?.total_tokens ?? 0), 0);
      expect(simTokens).toBeGreaterThan(0);
      expect(callerTokens).toBe(simTokens);
      expect(loggedTokens).toBe(simTokens + probeTokens);
      expect(loggedCost).toBeGreaterThan(0);
      const successRows = rows.filter((row) => row.status === 'success').length;
      expect(successRows).toBe(completed.length + 1);
      // The virtual key's counters, once every settlement has landed: cost, tokens and requests of the served answers.
      const quota = await settledQuota();
      expect(quota.budgets[0].current_usage).toBeCloseTo(loggedCost, 9);
      expect(quota.rate_limits[0]).toMatchObject({
        token_current_usage: loggedTokens,
        request_current_usage: successRows,
      });
      expectBounded(load, samples);
    },
    LOAD.seconds * 1000 + 180_000,
  );

  it(
    `soak: ${SOAK.rate} req/s for ${SOAK.seconds} s with faults, RSS under ${RSS_LIMIT_MB} MB${IS_LONG ? ` and its slope under ${SLOPE_LIMIT_MB_PER_MIN} MB/min after ${SOAK.warmup} s` : ' (slope reported)'}`,
    async () => {
      const { load, samples, mix, cpu } = await loadWithFaults(SOAK.rate, SOAK.seconds, 1818);
      const f = figures(load, samples, mix, SOAK.warmup, cpu);
      console.log(`soak: ${JSON.stringify(f)}`);
      expectAllAnswered(load, SOAK.rate, SOAK.seconds);
      expect(load.records.filter((r) => r.status === 200 || r.error?.is_gateway_error !== undefined)).toHaveLength(
        load.sent,
      );
      expectBounded(load, samples);
      if (IS_LONG) {
        expect(f.rss_samples_after_warmup).toBeGreaterThan(SOAK.seconds - SOAK.warmup - 30);
        expect(f.rss_slope_mb_per_min).toBeLessThan(SLOPE_LIMIT_MB_PER_MIN);
      }
    },
    SOAK.seconds * 1000 + 120_000,
  );

  /** Every log row of the suite's virtual key (this process's buffer is flushed by the read). */
  async function allLogRows(): Promise<any[]> {
    const rows: any[] = [];
    for (let offset = 0; offset < 2_000_000; offset += 1000) {
      const page = await admin.get('/api/logs', {
        query: { virtual_key_ids: vkId, limit: 1000, offset, sort_by: 'timestamp', order: 'asc' },
      });
      expect(page.status, page.text).toBe(200);
      rows.push(...page.body.logs);
      if (page.body.logs.length < 1000) break;
    }
    return rows;
  }

  /** The key's quota once nothing is reserved any more (settlements run after the answers; bounded wait). */
  async function settledQuota(): Promise<any> {
    for (let i = 0; ; i++) {
      const quota = await gw.http.get('/api/governance/virtual-keys/quota', {
        headers: { authorization: `Bearer ${vkValue}` },
      });
      expect(quota.status, quota.text).toBe(200);
      if (quota.body.budgets[0].reserved === 0 || i >= 50) return quota.body;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});

/** Provider error classification by fault kind (docs/inference.md "Errors", "Timeouts"). */
const ERROR_TYPE_OF: Record<FaultKind, string> = {
  rate_limit: 'provider_rate_limited',
  server_error: 'provider_server_error',
  overloaded: 'provider_overloaded',
  reset: 'provider_connection_failed',
  stall: 'provider_timeout',
  broken_stream: 'provider_connection_failed',
};
/** The status a caller gets for a fault that ended its request (the provider's own for relayed errors). */
const STATUS_OF: Record<FaultKind, (family: string | undefined) => number> = {
  rate_limit: () => 429,
  server_error: () => 500,
  overloaded: (family) => (family === 'anthropic' ? 529 : 503),
  reset: () => 502,
  stall: () => 504,
  broken_stream: () => 502,
};

/** Why a request's answer does not follow from its upstream attempts, or undefined when it does. */
function outcomeProblem(r: LoadRecord, tried: CapturedRequest[]): string | undefined {
  const last = tried.at(-1);
  if (!r.request_id) return 'no x-request-id';
  if (r.status === 200 && (!r.stream || r.ended === 'done')) {
    // A success: the last attempt answered in full, without a fault, from the provider the headers name, and the
    // caller got the usage the simulator reported (a stream's usage chunk included).
    if (!last || last.fault || !last.completed) return 'a success whose last attempt did not complete';
    if (last.family !== r.provider) return `served by ${r.provider}, last attempt to ${last.family}`;
    if (r.usage?.total_tokens !== last.usage?.total_tokens) return 'usage differs from the simulator';
    if (r.stream && r.bad_event) return 'an unparseable stream event';
    return undefined;
  }
  const body = r.error;
  if (!body?.error || typeof body.error.code !== 'string' || typeof body.error.message !== 'string') {
    return 'not a GatewayError';
  }
  if (body.type !== body.error.type || body.event_id !== body.error.event_id) return 'not a GatewayError';
  if (r.stream && r.status === 200) {
    // Broken after the first byte: the stream's last event is the error of the fault that broke it, no [DONE].
    if (r.ended !== 'error_event') return `a stream that ended ${r.ended}`;
    if (!last?.fault || !['stall', 'broken_stream'].includes(last.fault))
      return 'a stream error without a mid-stream fault';
    if (last.family !== r.provider) return 'stream error from another provider than the last attempt';
    if (body.extra_fields?.error_type !== ERROR_TYPE_OF[last.fault]) return `error_type for ${last.fault}`;
    if (body.status_code !== STATUS_OF[last.fault](last.family)) return `status for ${last.fault}`;
    return undefined;
  }
  // Failed before the first byte, after every retry and fallback: the last attempt's fault decides.
  if (r.status === 503 && ['gateway_limits_unavailable', 'circuit_open'].includes(body.error.code)) return undefined;
  if (!last?.fault) return 'an error whose last attempt had no fault';
  if (r.status !== STATUS_OF[last.fault](last.family) || body.status_code !== r.status)
    return `status for ${last.fault}`;
  if (body.extra_fields?.error_type !== ERROR_TYPE_OF[last.fault]) return `error_type for ${last.fault}`;
  return undefined;
}
