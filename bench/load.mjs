// Throughput and latency of one route against a running gateway.
// Usage: node bench/load.mjs <url> [--connections 32] [--duration 10] [--header 'name: value']... [--method GET] [--body '{...}']
import { parseArgs } from 'node:util';
import { formatLoad, runLoad } from './lib/load.mjs';

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
const url = positionals[0] ?? 'http://127.0.0.1:8080/health';
const headers = Object.fromEntries(
  values.header.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]),
);
const result = await runLoad({
  url,
  method: values.method,
  headers,
  body: values.body,
  connections: Number(values.connections),
  durationMs: Number(values.duration) * 1000,
});
console.log(formatLoad(`${values.method} ${url}`, result));
