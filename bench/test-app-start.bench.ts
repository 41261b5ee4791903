import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bench, describe } from 'vitest';
import { startTestApp } from '../test/helpers/test-app.js';

/**
 * What one embedded test app costs (`startTestApp`, a request, `close`), the way the e2e suites start it:
 * `env -u DATABASE_URL -u REDIS_URL npx vitest bench --run bench/test-app-start.bench.ts`.
 * Side by side: every app opening its own copy of the run's migrated dump (GW_TEST_PGLITE_REUSE=0, as before the
 * worker's instance was lent) and the worker's instance lent to each app and reset after it. Measures the process's CPU
 * per start (PGlite runs in this thread under vitest, so it is included) beside tinybench's wall time. Vitest's bench
 * mode shows no output of the suite's own (nor runs its afterAll), so the CPU figures so far are written to `BENCH_OUT`
 * (default `<tmpdir>/test-app-start.txt`) after every start.
 */
const OUT = process.env.BENCH_OUT ?? join(tmpdir(), 'test-app-start.txt');
const cpu = new Map<string, { micros: number; starts: number }>();

async function startOnce(label: string, reuse: boolean): Promise<void> {
  process.env.GW_TEST_PGLITE_REUSE = reuse ? '1' : '0';
  const before = process.cpuUsage();
  const gw = await startTestApp();
  const health = await fetch(`${gw.baseUrl}/health`);
  if (health.status !== 200) throw new Error(`/health answered ${health.status}`);
  await gw.close();
  const used = process.cpuUsage(before);
  const entry = cpu.get(label) ?? { micros: 0, starts: 0 };
  entry.micros += used.user + used.system;
  entry.starts += 1;
  cpu.set(label, entry);
  const lines = [...cpu].map(
    ([name, { micros, starts }]) =>
      `${name}: ${(micros / starts / 1000).toFixed(0)} ms CPU per start (${starts} starts)`,
  );
  writeFileSync(OUT, `${lines.join('\n')}\n`);
}

const options = { iterations: 10, warmupIterations: 2, time: 0, warmupTime: 0 };

describe('embedded test app start + close', () => {
  bench('own copy of the dump', () => startOnce('own copy of the dump', false), options);
  bench('lent instance, reset', () => startOnce('lent instance, reset', true), options);
});
