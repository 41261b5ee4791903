// A small closed-loop load generator: C connections (keep-alive) each sending requests back to back for D seconds.
// Usage: node bench/load.mjs <url> [--connections 32] [--duration 10] [--header 'name: value']... [--method GET] [--body '{...}']
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '10' },
    header: { type: 'string', multiple: true, default: [] },
    method: { type: 'string', default: 'GET' },
    body: { type: 'string' },
  },
});
const target = new URL(positionals[0] ?? 'http://127.0.0.1:8080/health');
const connections = Number(values.connections);
const durationMs = Number(values.duration) * 1000;
const headers = Object.fromEntries(values.header.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]));
if (values.body) headers['content-type'] ??= 'application/json';
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

const latencies = [];
const statuses = new Map();
let errors = 0;
const deadline = performance.now() + durationMs;

function once() {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(target, { method: values.method, headers, agent }, (res) => {
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
    req.end(values.body);
  });
}

async function loop() {
  while (performance.now() < deadline) await once();
}

const started = performance.now();
await Promise.all(Array.from({ length: connections }, loop));
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(2);
console.log(`${values.method} ${target.href}: ${connections} connections, ${seconds.toFixed(1)} s`);
console.log(`  requests ${latencies.length}, ${(latencies.length / seconds).toFixed(0)} req/s, errors ${errors}`);
console.log(`  latency ms: p50 ${pct(50)}, p90 ${pct(90)}, p99 ${pct(99)}, max ${latencies.at(-1)?.toFixed(2)}`);
console.log(`  statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
agent.destroy();
