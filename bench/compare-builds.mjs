// Two builds of the gateway side by side on the same inference load: this checkout's `dist/` and another's (a git
// worktree of an earlier commit, built there), each on its own fresh app dir, in front of one provider simulator.
// Rounds alternate (A B, B A, …) so machine noise hits both alike; each round reports req/s and the CPU the serving
// gateway spent per request (its own process, from /proc), then the totals. What a regression check of the request
// path needs when this machine's run-to-run spread (±15 % a round) is larger than the change being judged.
//
// Usage: npm run build && (cd ../other && npm run build) &&
//        node bench/compare-builds.mjs --other ../other [seconds=6] [rounds=4] [--stream] [--connections 50]
//        [--scale-out] [--request-logs on|off] [--other-node-args=<flags>] [--this-node-args=<flags>]
//        [--other-args=<gateway args>] [--this-args=<gateway args>]
// --request-logs off: both without request log rows (the path issue 9 names; logging's cost is logging-cost.mjs's).
// --other-node-args / --this-node-args add node flags to one side (after `npm start`'s): with `--other .` the same
// build under two flag sets, e.g. `--other . --this-node-args=--no-allocation-site-pretenuring`; --other-args /
// --this-args add gateway arguments to one side, e.g. `--other . --this-args='--log-level warn'` (no access log).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { onCleanup, runBench } from './lib/cleanup.mjs';
import { flagWords, MAIN_JS, startGateway } from './lib/gateway.mjs';
import { chatBody, cpuMs, isChatCompletion, isCompleteStream, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { runLoad } from './lib/load.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    other: { type: 'string' },
    stream: { type: 'boolean', default: false },
    connections: { type: 'string', default: '50' },
    // Each build on a scratch Postgres database and Redis prefix: the gateway's own CPU, without PGlite's in it.
    'scale-out': { type: 'boolean', default: false },
    'request-logs': { type: 'string', default: 'on' },
    'other-node-args': { type: 'string', default: '' },
    'this-node-args': { type: 'string', default: '' },
    'other-args': { type: 'string', default: '' },
    'this-args': { type: 'string', default: '' },
  },
});
if (!values.other) throw new Error('--other <checkout with a built dist/> is required');
const seconds = Number(positionals[0] ?? 6);
const rounds = Number(positionals[1] ?? 4);
const connections = Number(values.connections);
const stream = values.stream;
const builds = [
  {
    name: 'other',
    mainJs: resolve(values.other, 'dist/src/main.js'),
    nodeArgs: flagWords(values['other-node-args']),
    args: flagWords(values['other-args']),
  },
  {
    name: 'this',
    mainJs: MAIN_JS,
    nodeArgs: flagWords(values['this-node-args']),
    args: flagWords(values['this-args']),
  },
];

await runBench(
  async () => {
    const sim = await spawnSimulator();
    // One config file for both: request logs on or off.
    const configFile = join(mkdtempSync(join(tmpdir(), 'gw-compare-')), 'config.json');
    onCleanup(() => rmSync(dirname(configFile), { recursive: true, force: true }));
    writeFileSync(configFile, JSON.stringify({ logs: { enabled: values['request-logs'] !== 'off' } }));
    for (const build of builds) {
      const env = { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' };
      if (values['scale-out'] || scaleOutRequested()) Object.assign(env, (await createScratchScaleOut()).env);
      build.gw = await startGateway({
        mainJs: build.mainJs,
        nodeArgs: build.nodeArgs,
        args: ['--config', configFile, ...build.args],
        env,
      });
      build.target = await wireGateway(build.gw, sim);
      build.cpu = 0;
      build.requests = 0;
      build.rps = [];
    }
    const body = chatBody({ model: builds[0].target.model, stream });
    const check = stream ? isCompleteStream : isChatCompletion;
    const load = (build, ms) =>
      runLoad({
        url: build.target.url,
        method: 'POST',
        headers: build.target.headers,
        body,
        check,
        connections,
        durationMs: ms,
      });
    for (const build of builds) await load(build, 3000);
    console.log(
      `${stream ? 'streaming' : 'unary'} chat completions, ${connections} connections, ${rounds} x ${seconds} s`,
    );
    for (let round = 0; round < rounds; round++) {
      for (const build of round % 2 ? [...builds].reverse() : builds) {
        const before = cpuMs(build.gw.pid);
        const r = await load(build, seconds * 1000);
        const cpu = cpuMs(build.gw.pid) - before;
        if (r.errors || r.bad) throw new Error(`${build.name}: ${r.errors} errors, ${r.bad} refused (${r.firstBad})`);
        build.cpu += cpu;
        build.requests += r.requests;
        build.rps.push(r.rps);
        console.log(
          `  round ${round + 1} ${build.name}: ${r.rps.toFixed(0)} req/s, CPU ${(cpu / r.requests).toFixed(3)} ms/req`,
        );
      }
    }
    for (const build of builds) {
      const rps = build.rps.reduce((a, b) => a + b, 0) / build.rps.length;
      console.log(
        `${build.name.padEnd(5)} ${[build.mainJs, ...build.nodeArgs, ...build.args].join(' ')}: ` +
          `${rps.toFixed(0)} req/s (mean of rounds), ` +
          `CPU ${(build.cpu / build.requests).toFixed(3)} ms/req`,
      );
    }
    const [other, current] = builds;
    console.log(
      `this / other: CPU per request ${(current.cpu / current.requests / (other.cpu / other.requests)).toFixed(2)}x`,
    );
  },
  // A longer health wait (BENCH_HEALTH_TIMEOUT_MS, bench/lib/gateway.mjs) lengthens the watchdog for both starts.
  { maxSeconds: 180 + 2 * rounds * (seconds + 5) + (2 * (Number(process.env.BENCH_HEALTH_TIMEOUT_MS) || 0)) / 1000 },
);
