// What the plugin chain adds to a request when no plugin acts, counted in-process: the cost of the one check the
// inference pipeline makes (`PluginRegistry.wants`) with the built-ins on (logging, telemetry, jsonparser: jsonparser
// does not apply to a request outside streamed JSON mode) against every hooked plugin off, on the same canonical
// bodies. req/s between two gateway processes on this 2-core machine moves ±15 % between identical builds (an A/A run
// of bench/plugin-chain.mjs), far more than the chain's work; this measures that work itself, and sets it against the
// CPU a gateway spends per request (bench/plugin-chain.mjs prints it; pass it as the third argument, ms).
//
// Usage: npm run build && node bench/plugin-chain-overhead.mjs [millions=5] [rounds=5] [cpu-ms-per-request=0.8]
import { PluginRegistry } from '../dist/src/modules/plugins/registry/plugin-registry.js';
import { jsonParserPlugin } from '../dist/src/modules/plugins/builtins/jsonparser.plugin.js';
import { machineLine } from './lib/report.mjs';

const millions = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 5);
const cpuMsPerRequest = Number(process.argv[4] ?? 0.8);
const calls = millions * 1_000_000;

const failures = { record: () => 'failed' };
function registry(jsonparserOn) {
  const config = { plugins: { hook_timeout: '250ms', settings: { jsonparser: { enabled: jsonparserOn } } } };
  const r = new PluginRegistry(config, failures);
  r.register({ name: 'logging', defaults: { enabled: true, order: 0 } });
  r.register({ name: 'telemetry', defaults: { enabled: true, order: 10 } });
  r.register(jsonParserPlugin);
  return r;
}

const bodies = [
  { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], stream: true },
  { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
];
const requests = bodies.map((body) => ({ kind: 'chat', stream: body.stream === true, body }));

function nsPerCall(r) {
  let wanted = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) if (r.wants(requests[i & 1])) wanted++;
  const ns = Number(process.hrtime.bigint() - started) / calls;
  if (wanted !== 0)
    throw new Error(`a plugin applied to ${wanted} requests: the bench measures the case where none does`);
  return ns;
}

console.log(machineLine());
const on = registry(true);
const off = registry(false);
const results = { on: [], off: [] };
for (let round = 0; round < rounds; round++) {
  for (const [name, r] of round % 2
    ? [
        ['off', off],
        ['on', on],
      ]
    : [
        ['on', on],
        ['off', off],
      ]) {
    results[name].push(nsPerCall(r));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const onNs = median(results.on);
const offNs = median(results.off);
const added = Math.max(0, onNs - offNs);
console.log(
  `rounds (ns per request, on / off): ${results.on.map((x, i) => `${x.toFixed(1)}/${results.off[i].toFixed(1)}`).join(', ')}`,
);
console.log(
  `| check per request | built-ins on (jsonparser not applying) | every hooked plugin off | added | share of ${cpuMsPerRequest} ms CPU per request |`,
);
console.log('| --- | --- | --- | --- | --- |');
console.log(
  `| PluginRegistry.wants | ${onNs.toFixed(1)} ns | ${offNs.toFixed(1)} ns | ${added.toFixed(1)} ns | ${((added / (cpuMsPerRequest * 1e6)) * 100).toFixed(4)} % |`,
);
