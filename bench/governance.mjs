// What governance costs on the request path, side by side in one run: the same chat completion through the built
// gateway with a virtual key that no budget or limit covers (ungoverned: no counter work at all) and with one covered
// at three levels (its provider config, the key itself and its team), each level with a budget and a request + token rate
// limit, all far above what the run spends: every governed request reserves at 9 counters in one atomic call and
// settles them after the answer. Run on the embedded default (in-process counters), then on Postgres + Redis (far from
// the limits, from this replica's leases of the counters; the leases' calls batched into Lua script runs;
// --embedded-only or --redis-only for one of them). Each part: a warm-up
// of each key, then alternating rounds (ungoverned, governed; governed, ungoverned; …) so load noise hits both.
// Target: governed throughput >= 0.90x the ungoverned one (a 3-round run swings about ±0.08 on a shared 2-core
// machine: quote --rounds 8). Each side also reports the CPU per request of the gateway
// process and, on Redis, of the Redis server. Every response is checked (a 200 chat.completion with
// usage); refusals or errors fail the run.
//
// Usage: npm run build && node bench/governance.mjs [seconds=10] [connections=32] [--rounds 3] [--warmup 2]
//          [--log-level warn] [--embedded-only | --redis-only] [--only governed | ungoverned]
// Redis part: a scratch Postgres database and Redis prefix (BENCH_DATABASE_URL, BENCH_REDIS_URL; bench/lib/scale-out.mjs).
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import { createGovernedKey } from './lib/governed-key.mjs';
import { chatBody, cpuMs, isChatCompletion, MODEL, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { alternate, formatLoad, ratio } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut } from './lib/scale-out.mjs';
import { Redis } from 'ioredis';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'log-level': { type: 'string', default: 'warn' },
    'embedded-only': { type: 'boolean', default: false },
    'redis-only': { type: 'boolean', default: false },
    // One side alone (to profile it: BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof').
    only: { type: 'string' },
  },
});
const seconds = Number(positionals[0] ?? 10);
const connections = Number(positionals[1] ?? 32);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const modes = values['embedded-only'] ? ['embedded'] : values['redis-only'] ? ['redis'] : ['embedded', 'redis'];
const TARGET = 0.9;

/** CPU the Redis server has used so far, in ms (0 without Redis). */
async function redisCpuMs(redis) {
  if (!redis) return 0;
  const info = await redis.info('cpu');
  const field = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
}

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
      // CPU per request of the gateway process and, on Redis, of the Redis server (INFO cpu: this bench is its only
      // client), summed over the measured rounds: steadier than req/s on a machine whose cores everything shares.
      const redis = db ? new Redis(db.env.REDIS_URL) : undefined;
      const cpu = {
        ungoverned: { gateway: 0, redis: 0, requests: 0 },
        governed: { gateway: 0, redis: 0, requests: 0 },
      };
      const around = async (name, run) => {
        const [gateway, server] = [cpuMs(gw.pid), await redisCpuMs(redis)];
        const r = await run();
        cpu[name].gateway += cpuMs(gw.pid) - gateway;
        cpu[name].redis += (await redisCpuMs(redis)) - server;
        cpu[name].requests += r.requests;
        return r;
      };
      const targets = { ungoverned: target(wired.vk.value), governed: target(governed) };
      if (values.only) {
        if (!(values.only in targets)) throw new Error('--only takes governed or ungoverned');
        for (const name of Object.keys(targets)) if (name !== values.only) delete targets[name];
      }
      const res = await alternate(targets, { rounds, roundMs: seconds * 1000, warmupMs: warmup * 1000, around });
      redis?.disconnect();
      const perRequest = (name) =>
        `gateway CPU ${(cpu[name].gateway / cpu[name].requests).toFixed(3)} ms/req` +
        (redis ? `, Redis CPU ${(cpu[name].redis / cpu[name].requests).toFixed(3)} ms/req` : '');
      if (values.only) {
        console.log(formatLoad(`  ${values.only}`, res[values.only]) + `; ${perRequest(values.only)}`);
        await gw.stop();
        await db?.drop();
        continue;
      }
      console.log(
        formatLoad('  ungoverned (no budget or limit)          ', res.ungoverned) + `; ${perRequest('ungoverned')}`,
      );
      console.log(
        formatLoad('  governed (3 levels x budget + rate limit)', res.governed) + `; ${perRequest('governed')}`,
      );
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
