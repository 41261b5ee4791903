// Closed-loop load: `connections` keep-alive connections each sending requests back to back for `durationMs`.
import http from 'node:http';

export async function runLoad({ url, method = 'GET', headers = {}, body, connections = 32, durationMs = 10_000 }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  const statuses = new Map();
  let errors = 0;
  const deadline = performance.now() + durationMs;
  const requestHeaders = body ? { 'content-type': 'application/json', ...headers } : headers;

  const once = () =>
    new Promise((resolve) => {
      const started = performance.now();
      const req = http.request(target, { method, headers: requestHeaders, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const loop = async () => {
    while (performance.now() < deadline) await once();
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    errors,
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    statuses: Object.fromEntries(statuses),
  };
}

export function formatLoad(label, r) {
  return (
    `${label}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p90 ${r.p90.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms` +
    ` (${r.requests} requests, errors ${r.errors}, statuses ${JSON.stringify(r.statuses)})`
  );
}
