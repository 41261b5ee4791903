// What governance costs on the request path, side by side in one run: the same chat completion through the built
// gateway with a virtual key that no budget or limit covers (ungoverned: no counter work at all) and with one covered
// at three levels (its provider config, the key itself and its team), each level with a budget and a request + token rate
// limit, all far above what the run spends: every governed request reserves at 9 counters in one atomic call and
// settles them after the answer. Run on the embedded default (in-process counters), then on Postgres + Redis (one Lua
// script per reservation and per settlement; --embedded-only or --redis-only for one of them). Each part: a warm-up
// of each key, then alternating rounds (ungoverned, governed; governed, ungoverned; …) so load noise hits both.
// Target: governed throughput >= 0.90x the ungoverned one. Every response is checked (a 200 chat.completion with
// usage); refusals or errors fail the run.
//
// Usage: npm run build && node bench/governance.mjs [seconds=10] [connections=32] [--rounds 3] [--warmup 2]
//          [--log-level warn] [--embedded-only | --redis-only]
// Redis part: a scratch Postgres database and Redis prefix (BENCH_DATABASE_URL, BENCH_REDIS_URL; bench/lib/scale-out.mjs).
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import { createGovernedKey } from './lib/governed-key.mjs';
import { chatBody, isChatCompletion, MODEL, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { alternate, formatLoad, ratio } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'log-level': { type: 'string', default: 'warn' },
    'embedded-only': { type: 'boolean', default: false },
    'redis-only': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 10);
const connections = Number(positionals[1] ?? 32);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const modes = values['embedded-only'] ? ['embedded'] : values['redis-only'] ? ['redis'] : ['embedded', 'redis'];
const TARGET = 0.9;

/** The governed path really is governed: the rate-limit headers of the tightest level are on the answer. */
async function assertGoverned(url, value, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${value}` },
    body,
  });
  await res.text();
  if (res.status !== 200 || !res.headers.get('x-ratelimit-limit-requests')) {
    throw new Error(`the governed key is not governed (status ${res.status}, no x-ratelimit-limit-requests)`);
  }
}

await runBench(
  async () => {
    console.log(machineLine('start'));
    console.log(
      `${connections} connections, ${rounds} round${rounds === 1 ? '' : 's'} x ${seconds} s each after a ${warmup} s warm-up per key, ` +
        `ungoverned and governed alternating; gateway log level ${values['log-level']}; gateway, simulator and load ` +
        `generator on the same machine`,
    );
    const sim = await spawnSimulator();
    const body = chatBody({ model: `openai/${MODEL}` });
    const summary = [];
    for (const mode of modes) {
      const db = mode === 'redis' ? await createScratchScaleOut() : undefined;
      const gw = await startGateway({
        logLevel: values['log-level'],
        env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true', ...db?.env },
        label: `gateway (${mode})`,
      });
      const wired = await wireGateway(gw, sim);
      const governed = await createGovernedKey(gw);
      await assertGoverned(wired.url, governed, body);
      console.log(`\n${mode === 'redis' ? 'Postgres + Redis (Lua counters)' : 'embedded (in-process counters)'}:`);
      const target = (value) => ({
        url: wired.url,
        method: 'POST',
        headers: { authorization: `Bearer ${value}` },
        body,
        check: isChatCompletion,
        connections,
      });
      const res = await alternate(
        { ungoverned: target(wired.vk.value), governed: target(governed) },
        { rounds, roundMs: seconds * 1000, warmupMs: warmup * 1000 },
      );
      console.log(formatLoad('  ungoverned (no budget or limit)          ', res.ungoverned));
      console.log(formatLoad('  governed (3 levels x budget + rate limit)', res.governed));
      const share = res.governed.rps / res.ungoverned.rps;
      console.log(
        `  governed/ungoverned: throughput ${ratio(res.governed.rps, res.ungoverned.rps)} (target >= ${TARGET.toFixed(2)}x), ` +
          `p50 ${ratio(res.governed.p50, res.ungoverned.p50)}, p99 ${ratio(res.governed.p99, res.ungoverned.p99)}`,
      );
      for (const r of [res.ungoverned, res.governed]) {
        if (r.errors || r.bad) throw new Error(`${mode}: ${r.errors} errors, ${r.bad} refused responses`);
      }
      summary.push({ mode, ungoverned: res.ungoverned, governed: res.governed, share });
      await gw.stop();
      await db?.drop();
    }
    console.log('\n| run mode | ungoverned req/s | governed req/s | governed/ungoverned | p50 ungoverned → governed |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const { mode, ungoverned, governed, share } of summary) {
      console.log(
        `| ${mode} | ${ungoverned.rps.toFixed(0)} | ${governed.rps.toFixed(0)} | ${share.toFixed(2)}x | ` +
          `${ungoverned.p50.toFixed(2)} → ${governed.p50.toFixed(2)} ms |`,
      );
    }
    console.log(machineLine('end'));
    await sim.stop();
  },
  { maxSeconds: 300 + modes.length * 2 * (warmup + rounds * seconds) },
);
