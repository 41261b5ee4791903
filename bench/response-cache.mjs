// The response cache (issue 17 §3), side by side in one run: the same chat completion sent to the provider simulator
// directly, through a bare Fastify + undici proxy (bench/lib/bare-proxy.mjs), through the built gateway as a cache
// miss (a different prompt each request: the full path plus the cache lookup and write) and as a cache hit (the same
// prompt, answered from the cache without calling the simulator). The gateway runs with the `cache` plugin enabled
// (embedded default: the in-process LRU; --scale-out: Postgres + Redis, entries in Redis).
//
// 1. One connection, closed loop: no queueing, so each p50 is one request's own cost. The target: a hit adds < 1 ms
//    p50 over the bare proxy (and the simulator direct); the miss shows the full path with the cache on.
// 2. N connections, closed loop: req/s of each (the hit against the bare proxy and the miss).
// Every response is checked (a 200 chat.completion with usage; the hit must say `x-gateway-cache-status: hit` in its
// probe); a run with errors or refused responses says so and exits 1. A markdown summary for docs/benchmarks.md ends the
// output.
//
// Usage: npm run build && node bench/response-cache.mjs [seconds=5] [connections=20] [--rounds 3] [--warmup 2]
//          [--scale-out]
import { parseArgs } from 'node:util';
import { spawnBareProxy } from './lib/bare-proxy.mjs';
import { runBench } from './lib/cleanup.mjs';
import { manage, startGateway } from './lib/gateway.mjs';
import { cpuMs, isChatCompletion, MODEL, PROVIDER_KEY, probe, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { formatLoad, mergeLoads, ratio, runLoad } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'scale-out': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 5);
const connections = Number(positionals[1] ?? 20);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const scaleOut = values['scale-out'] || scaleOutRequested();
const ADDED_P50_TARGET_MS = 1;
const LABELS = {
  direct: 'simulator direct',
  bare: 'bare proxy',
  miss: 'gateway, cache miss',
  hit: 'gateway, cache hit',
};
const maxSeconds = 300 + 2 * 4 * (warmup + rounds * seconds);

const body = (model, text) =>
  JSON.stringify({
    model,
    messages: [
      { role: 'system', content: 'You are a benchmark.' },
      { role: 'user', content: text },
    ],
    max_tokens: 64,
  });
const HIT_TEXT = 'Say hello to the cache benchmark in a dozen words or so, please.';
let missCount = 0;

/**
 * A warm-up of each target, then `rounds` rounds in which every target runs for `seconds`, the order flipping each
 * round so machine noise hits all alike; the gateway's CPU time is read around each of its targets' runs.
 */
async function alternateWithCpu(targets, conns, cpuOf) {
  const names = Object.keys(targets);
  const options = (name) => ({ ...targets[name], method: 'POST', check: isChatCompletion, connections: conns });
  for (const name of names) await runLoad({ ...options(name), durationMs: warmup * 1000 });
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, 0]));
  const pidOf = (name) => Object.entries(cpuOf).find(([, list]) => list.includes(name))?.[0];
  for (let i = 0; i < rounds; i++) {
    for (const name of i % 2 === 0 ? names : [...names].reverse()) {
      const pid = pidOf(name);
      const before = pid ? cpuMs(pid) : 0;
      const r = await runLoad({ ...options(name), durationMs: seconds * 1000 });
      if (pid) cpu[name] += cpuMs(pid) - before;
      runs[name].push(r);
      console.log(
        `  round ${i + 1} ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
      );
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const merged = mergeLoads(runs[n]);
      return [n, { ...merged, ...(pidOf(n) ? { cpuPerRequest: cpu[n] / merged.requests } : {}) }];
    }),
  );
}

await runBench(
  async () => {
    console.log(machineLine('start'));
    const sim = await spawnSimulator();
    const bare = await spawnBareProxy({ upstream: sim.openaiBase });
    const db = scaleOut ? await createScratchScaleOut() : undefined;
    const gw = await startGateway({ env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true', ...db?.env }, label: 'gateway' });
    const wired = await wireGateway(gw, sim);
    await manage(gw, 'PUT', '/api/plugins/cache', { enabled: true, config: { ttl: '1h' } });
    console.log(
      `gateway: ${db ? `scale-out (Postgres ${db.databaseName}, Redis prefix ${db.redisPrefix})` : 'embedded (PGlite, in-process LRU)'}, pid ${gw.pid}, cache plugin on`,
    );

    const providerAuth = { authorization: `Bearer ${PROVIDER_KEY}` };
    const targets = {
      direct: { url: `${sim.openaiBase}/chat/completions`, headers: providerAuth, body: body(MODEL, HIT_TEXT) },
      bare: { url: `${bare.url}/v1/chat/completions`, headers: providerAuth, body: body(MODEL, HIT_TEXT) },
      // A new prompt per request: every one misses, calls the simulator and writes an entry.
      miss: { url: wired.url, headers: wired.headers, body: () => body(wired.model, `${HIT_TEXT} #${++missCount}`) },
      hit: { url: wired.url, headers: wired.headers, body: body(wired.model, HIT_TEXT) },
    };
    for (const [name, target] of Object.entries(targets)) {
      const payload = typeof target.body === 'function' ? target.body() : target.body;
      const r = await probe(target, payload);
      if (!isChatCompletion(r.status, r.text))
        throw new Error(`${LABELS[name]} probe: ${r.status} ${r.text.slice(0, 300)}`);
      console.log(
        `  probe ${LABELS[name]}: ${r.status}, ${r.total.toFixed(2)} ms, cache ${r.headers['x-gateway-cache-status'] ?? '-'}`,
      );
    }
    // The hit target's entry is written after its first answer; wait until the gateway serves it from the cache.
    for (let i = 0; ; i++) {
      const r = await probe(targets.hit, targets.hit.body);
      if (r.headers['x-gateway-cache-status'] === 'hit') break;
      if (i > 50) throw new Error(`the hit target never hit: ${JSON.stringify(r.headers)}`);
      await new Promise((ok) => setTimeout(ok, 50));
    }

    const invalid = [];
    const results = {};
    for (const [key, conns] of [
      ['light', 1],
      ['loaded', connections],
    ]) {
      console.log(
        `\n${conns} connection${conns === 1 ? '' : 's'}, closed loop, ${rounds} rounds x ${seconds} s after a ${warmup} s warm-up, alternating`,
      );
      const loads = await alternateWithCpu(targets, conns, { [gw.pid]: ['miss', 'hit'] });
      for (const [name, r] of Object.entries(loads)) {
        const cpu = r.cpuPerRequest === undefined ? '' : `, gateway CPU ${r.cpuPerRequest.toFixed(3)} ms/req`;
        console.log(`  ${formatLoad(LABELS[name], r)}${cpu}`);
        if (r.errors || r.bad) invalid.push(`${key} ${name}: ${r.errors} errors, ${r.bad} refused (${r.firstBad})`);
      }
      results[key] = loads;
    }

    const light = results.light;
    const addedOverBare = light.hit.p50 - light.bare.p50;
    const addedOverDirect = light.hit.p50 - light.direct.p50;
    console.log('\n## Summary (markdown)\n');
    console.log(`| | p50, 1 connection | req/s, ${connections} connections | gateway CPU per request |`);
    console.log('| --- | --- | --- | --- |');
    for (const name of Object.keys(targets)) {
      const loaded = results.loaded[name];
      const cpu = loaded.cpuPerRequest === undefined ? '-' : `${loaded.cpuPerRequest.toFixed(3)} ms`;
      console.log(
        `| ${LABELS[name]} | ${light[name].p50.toFixed(3)} ms | ${loaded.rps.toFixed(0)} (${ratio(loaded.rps, results.loaded.bare.rps)} of the bare proxy) | ${cpu} |`,
      );
    }
    console.log(
      `\nA hit adds ${addedOverBare >= 0 ? '+' : ''}${addedOverBare.toFixed(3)} ms p50 over the bare proxy and ` +
        `${addedOverDirect >= 0 ? '+' : ''}${addedOverDirect.toFixed(3)} ms over the simulator direct ` +
        `(target < ${ADDED_P50_TARGET_MS} ms: ${addedOverBare < ADDED_P50_TARGET_MS ? 'met' : 'missed'}); ` +
        `a miss costs ${(light.miss.p50 - light.hit.p50).toFixed(3)} ms p50 more than a hit.`,
    );
    console.log(machineLine('end'));
    if (invalid.length) {
      console.log(`\nINVALID RUN:\n  ${invalid.join('\n  ')}`);
      process.exitCode = 1;
    }
  },
  { maxSeconds },
);
