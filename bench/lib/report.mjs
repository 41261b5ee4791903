// Small shared bits for bench output: what the machine was doing, and simple statistics.
import { cpus, loadavg } from 'node:os';
import { percentile } from './load.mjs';

/** One line naming the node version, the cores and the load average (a busy machine skews every figure). */
export function machineLine(when = 'start') {
  return `node ${process.version}, ${cpus().length} cores, load average at ${when} ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
}

/** `{ median, p99, min, max }` of a list of numbers (ms). */
export function summary(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    min: sorted[0],
    max: sorted.at(-1),
  };
}
