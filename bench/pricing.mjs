// What pricing one answer costs (`PriceTable.costOf`, prices prepared per model): the mean time of a call over a mix
// of four models and usages, after a warm-up. This was a timed unit test (under 50 µs a call), which a loaded machine
// failed; the figure lives here, and docs/benchmarks.md keeps it. Needs `npm run build`.
// Usage: node bench/pricing.mjs [rounds=20000]
import { PriceTable } from '../dist/src/modules/inference/pricing/price-table.js';
import { machineLine } from './lib/report.mjs';

const ROUNDS = Number(process.argv[2] ?? 20_000);
const usage = (prompt, completion, extra = {}) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  ...extra,
});
const calls = [
  ['openai', 'gpt-4o', usage(1200, 300, { prompt_tokens_details: { cached_read_tokens: 1000 } })],
  ['anthropic', 'claude-sonnet-4-5-20250929', usage(5000, 400, { prompt_tokens_details: { cached_write_tokens: 900 } })],
  ['openrouter', 'z-ai/glm-4.6', usage(800, 120)],
  ['gemini', 'gemini-2.5-flash', usage(3000, 900, { completion_tokens_details: { reasoning_tokens: 400 } })],
];
console.log(machineLine());
const table = new PriceTable();
for (let i = 0; i < 2000; i++) for (const [p, m, u] of calls) table.costOf(p, m, u);
const cpu = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < ROUNDS; i++) for (const [p, m, u] of calls) table.costOf(p, m, u);
const wallUs = Number(process.hrtime.bigint() - started) / 1000 / (ROUNDS * calls.length);
const used = process.cpuUsage(cpu);
const cpuUs = (used.user + used.system) / (ROUNDS * calls.length);
console.log(`costOf: ${wallUs.toFixed(2)} µs wall, ${cpuUs.toFixed(2)} µs CPU per call (${ROUNDS * calls.length} calls)`);
