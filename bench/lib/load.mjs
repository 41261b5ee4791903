// Closed-loop load: `connections` keep-alive connections each sending requests back to back for `durationMs`.
// Bounded in time (the loops stop at the deadline) and per request (`timeoutMs`, then the request counts as an error).
import http from 'node:http';
import { isStopping, throwIfStopping } from './cleanup.mjs';

/**
 * `body` may be a string or a function returning one per request (e.g. a unique messageId). `check(status, text,
 * headers)` (optional) reads each response body and counts the responses it refuses as `bad` (a JSON-RPC error is a
 * 200); it is also where a caller collects what it needs of each answer (an `x-request-id`).
 * `firstByte: true` also times each response's first body bytes (a stream's time to first byte): `ttfb` below.
 * `rate` (requests per second over all connections) paces the loop: requests start on a fixed schedule instead of
 * back to back, so below the target's capacity the latencies are each request's own cost, not time spent queued
 * behind the other connections (closed-loop latency at saturation is throughput in disguise: p50 ≈ connections /
 * req/s). A late request is sent at once and timed from its scheduled start, so falling behind shows as latency.
 * Returns `{ requests, rps, errors, bad, p50, p90, p99, statuses, latencies (sorted ms), seconds }`, plus
 * `{ ttfb: { p50, p99 }, ttfbs (sorted ms) }` with `firstByte`.
 */
export async function runLoad({
  url,
  method = 'GET',
  headers = {},
  body,
  check,
  firstByte = false,
  connections = 32,
  durationMs = 10_000,
  timeoutMs = 10_000,
  rate,
}) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  const ttfbs = [];
  const statuses = new Map();
  let errors = 0;
  let bad = 0;
  let firstBad;
  const deadline = performance.now() + durationMs;
  const requestHeaders = body ? { 'content-type': 'application/json', ...headers } : headers;

  const interval = rate ? 1000 / rate : 0;
  let nextStart = performance.now();
  const once = (scheduled) =>
    new Promise((settle) => {
      const started = scheduled ?? performance.now();
      let done = false;
      const resolve = (ok = true) => {
        done = true;
        settle(ok);
      };
      const fail = () => {
        if (done) return;
        errors++;
        resolve(false);
      };
      const payload = typeof body === 'function' ? body() : body;
      const req = http.request(target, { method, headers: requestHeaders, agent, timeout: timeoutMs }, (res) => {
        let text = '';
        let firstAt;
        if (firstByte) res.once('data', () => (firstAt = performance.now()));
        if (check) {
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
        } else {
          res.resume();
        }
        res.on('end', () => {
          if (done) return;
          latencies.push(performance.now() - started);
          if (firstByte) ttfbs.push((firstAt ?? performance.now()) - started);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (check && !check(res.statusCode, text, res.headers)) {
            bad++;
            firstBad ??= `${res.statusCode} ${text.slice(0, 300)}`;
          }
          resolve();
        });
        res.on('error', fail);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', fail);
      req.end(payload);
    });
  const loop = async () => {
    while (performance.now() < deadline && !isStopping()) {
      let scheduled;
      if (interval) {
        scheduled = nextStart;
        nextStart += interval;
        const wait = scheduled - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (performance.now() >= deadline) break;
        // On time (timer lateness is the load generator's, not the target's): timed from the actual send.
        if (wait > 0) scheduled = undefined;
      }
      // A refused connection fails at once: back off a little rather than spin until the deadline.
      if (!(await once(scheduled))) await new Promise((r) => setTimeout(r, 20));
    }
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  throwIfStopping();
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    ...(firstByte ? firstByteFigures(ttfbs) : {}),
    requests: latencies.length,
    rps: latencies.length / seconds,
    seconds,
    errors,
    bad,
    firstBad,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    statuses: Object.fromEntries(statuses),
    latencies,
  };
}

/**
 * Nearest-rank percentile of an ascending array (NaN when empty): the smallest value with at least p % of the values
 * at or below it, the ceil(p/100 · n)-th. (Until 2026-11-27 this took the one after it: the 20th of 20 for p95.)
 */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

function firstByteFigures(ttfbs) {
  ttfbs.sort((a, b) => a - b);
  return { ttfbs, ttfb: { p50: percentile(ttfbs, 50), p99: percentile(ttfbs, 99) } };
}

/** Several runs of the same target as one: total requests over total time, percentiles over every latency. */
export function mergeLoads(results) {
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = results.reduce((s, r) => s + r.seconds, 0);
  const statuses = {};
  for (const r of results) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return {
    ...(results[0]?.ttfbs ? firstByteFigures(results.flatMap((r) => r.ttfbs)) : {}),
    requests: latencies.length,
    rps: latencies.length / seconds,
    seconds,
    errors: results.reduce((s, r) => s + r.errors, 0),
    bad: results.reduce((s, r) => s + (r.bad ?? 0), 0),
    firstBad: results.find((r) => r.firstBad)?.firstBad,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    statuses,
    latencies,
    rounds: results.map((r) => r.rps),
  };
}

export function formatLoad(label, r) {
  const rounds = r.rounds ? `, rounds ${r.rounds.map((x) => x.toFixed(0)).join('/')} req/s` : '';
  const bad = r.bad ? `, refused by check ${r.bad} (first: ${r.firstBad})` : '';
  const ttfb = r.ttfb ? `, first byte p50 ${r.ttfb.p50.toFixed(2)} ms p99 ${r.ttfb.p99.toFixed(2)} ms` : '';
  return (
    `${label}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p90 ${r.p90.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms${ttfb}` +
    ` (${r.requests} requests, errors ${r.errors}, statuses ${JSON.stringify(r.statuses)}${rounds}${bad})`
  );
}

/**
 * Side-by-side measurement: a warm-up of each target, then `rounds` rounds in which every target runs once for
 * `roundMs`, the order flipping each round (A B, B A, A B, …) so load noise on the machine hits every target alike.
 * `targets` is `{ name: runLoad options without durationMs }`; returns `{ name: merged result }`. `around(name, run)`
 * wraps each measured round (to read CPU counters before and after it); it resolves to run()'s result.
 */
export async function alternate(
  targets,
  { rounds = 3, roundMs = 10_000, warmupMs = 2000, log = console.log, around = (_name, run) => run() } = {},
) {
  const names = Object.keys(targets);
  for (const name of names) await runLoad({ ...targets[name], durationMs: warmupMs });
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < rounds && !isStopping(); i++) {
    const order = i % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const r = await around(name, () => runLoad({ ...targets[name], durationMs: roundMs }));
      runs[name].push(r);
      log?.(
        `  round ${i + 1} ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
      );
    }
  }
  return Object.fromEntries(names.map((n) => [n, mergeLoads(runs[n])]));
}

/** `a / b` formatted as `0.83x`. */
export const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
