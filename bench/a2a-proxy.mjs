// A2A proxy overhead, side by side in one run: the bench agent (bench/lib/a2a-agent.mjs, its own process) called
// directly and through a built gateway (fresh app dir, embedded default; the gateway gets a minimal environment, so
// a DATABASE_URL/REDIS_URL of the shell is not inherited: use --scale-out) with a virtual key.
//
// 1. SendMessage over JSON-RPC, closed loop with N connections: a warm-up of each, then alternating rounds
//    (direct, gateway, gateway, direct, …); req/s, p50/p90/p99 and the gateway/direct ratios.
// 2. SendStreamingMessage over JSON-RPC (SSE), sequential requests alternating direct/gateway on one keep-alive
//    connection each: time from the request to the first `data:` bytes, median and p99, and what the gateway adds.
//    The agent sends its first event at once and the next ones 5 ms apart, so a relay that buffered shows.
//
// Usage: npm run build && node bench/a2a-proxy.mjs [seconds=10] [connections=50]
//          [--rounds 3] [--warmup 2] [--log-level info] [--reply task|message] [--stream-requests 300]
//          [--stream-gap-ms 5] [--scale-out]
// --log-level: the gateway's (default: the gateway's own default, info, access log included).
// --reply message: the agent answers SendMessage with a Message instead of a completed Task.
// --stream-requests 0 skips part 2. --scale-out runs the gateway on a scratch Postgres database and Redis prefix
// (BENCH_DATABASE_URL, BENCH_REDIS_URL; see bench/lib/scale-out.mjs).
import http from 'node:http';
import { parseArgs } from 'node:util';
import { isRpcResult, rpcBody, sseEvents, timedPost, wireAgent } from './lib/a2a.mjs';
import { spawnBenchAgent } from './lib/a2a-agent.mjs';
import { isStopping, runBench, throwIfStopping } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import { alternate, formatLoad, ratio } from './lib/load.mjs';
import { machineLine, summary } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'log-level': { type: 'string' },
    reply: { type: 'string', default: 'task' },
    'stream-requests': { type: 'string', default: '300' },
    'stream-gap-ms': { type: 'string', default: '5' },
    'scale-out': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 10);
const connections = Number(positionals[1] ?? 50);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const streamRequests = Number(values['stream-requests']);
const gapMs = Number(values['stream-gap-ms']);
if (!['task', 'message'].includes(values.reply)) throw new Error('--reply is task or message');
const prefix = values.reply === 'message' ? 'message-' : 'task-';
const scaleOut = values['scale-out'] || scaleOutRequested();

// Start-up, warm-ups, the rounds and the stream part, with room to spare: the watchdog ends a hung run.
const maxSeconds = 240 + 2 * warmup + 2 * rounds * seconds + (2 * streamRequests * (3 * gapMs + 200)) / 1000;

await runBench(
  async () => {
    console.log(machineLine('start'));
    const agent = await spawnBenchAgent({ gapMs });
    const db = scaleOut ? await createScratchScaleOut() : undefined;
    const gw = await startGateway({
      logLevel: values['log-level'],
      env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true', ...db?.env },
    });
    const { direct, gateway } = await wireAgent(gw, agent);
    const mode = db
      ? `scale-out (Postgres ${db.databaseName}, Redis prefix ${db.redisPrefix})`
      : 'embedded (PGlite, in-process queue)';
    console.log(`gateway: ${mode}, log level ${values['log-level'] ?? 'default (info)'}; agent: ${agent.url}`);

    // One request each way first: both must answer a JSON-RPC result, and of a similar size.
    for (const [name, target] of Object.entries({ direct, gateway })) {
      const r = await timedPost(target, rpcBody('SendMessage', prefix));
      if (!isRpcResult(r.status, r.text))
        throw new Error(`${name} SendMessage probe failed: ${r.status} ${r.text.slice(0, 500)}`);
      console.log(`  probe ${name}: ${r.status}, ${Buffer.byteLength(r.text)} bytes, ${r.total.toFixed(1)} ms`);
    }

    console.log(
      `\nA2A SendMessage (JSON-RPC, reply: ${values.reply}), ${connections} connections, ${rounds} round${rounds === 1 ? '' : 's'} x ${seconds} s each ` +
        `after a ${warmup} s warm-up, direct and gateway alternating`,
    );
    const body = () => rpcBody('SendMessage', prefix);
    const common = { method: 'POST', body, check: isRpcResult, connections };
    const res = await alternate(
      { direct: { ...common, ...direct }, gateway: { ...common, ...gateway } },
      { rounds, roundMs: seconds * 1000, warmupMs: warmup * 1000 },
    );
    console.log(formatLoad('  direct ', res.direct));
    console.log(formatLoad('  gateway', res.gateway));
    console.log(
      `  gateway/direct: throughput ${ratio(res.gateway.rps, res.direct.rps)} (target >= 0.60x), ` +
        `p50 ${ratio(res.gateway.p50, res.direct.p50)}, p99 ${ratio(res.gateway.p99, res.direct.p99)}`,
    );

    if (streamRequests > 0) {
      console.log(
        `\nA2A SendStreamingMessage (JSON-RPC, SSE: task, then 3 events ${gapMs} ms apart), time to first event, ` +
          `${streamRequests} sequential requests each after 20 warm-up, alternating, one keep-alive connection each`,
      );
      const agents = {
        direct: new http.Agent({ keepAlive: true, maxSockets: 1 }),
        gateway: new http.Agent({ keepAlive: true, maxSockets: 1 }),
      };
      const targets = { direct, gateway };
      const ttfe = { direct: [], gateway: [] };
      const total = { direct: [], gateway: [] };
      const invalid = { direct: 0, gateway: 0 };
      let firstInvalid;
      try {
        for (let i = 0; i < 20 + streamRequests && !isStopping(); i++) {
          for (const name of i % 2 === 0 ? ['direct', 'gateway'] : ['gateway', 'direct']) {
            const r = await timedPost(targets[name], rpcBody('SendStreamingMessage', 'stream-'), {
              agent: agents[name],
            });
            const events = r.status === 200 ? sseEvents(r.text) : [];
            const ok =
              events.length === 4 &&
              events[0].result?.task &&
              events[3].result?.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED';
            if (!ok) {
              invalid[name]++;
              firstInvalid ??= `${name}: ${r.status} ${r.text.slice(0, 300)}`;
              continue;
            }
            if (i < 20) continue;
            ttfe[name].push(r.ttfe);
            total[name].push(r.total);
          }
        }
      } finally {
        agents.direct.destroy();
        agents.gateway.destroy();
      }
      throwIfStopping();
      const d = summary(ttfe.direct);
      const g = summary(ttfe.gateway);
      const line = (name, s, t) =>
        `  ${name}: median ${s.median.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms (min ${s.min?.toFixed(2)}, max ${s.max?.toFixed(2)}, ` +
        `${s.n} streams; whole stream median ${summary(t).median.toFixed(2)} ms)`;
      console.log(line('direct ', d, total.direct));
      console.log(line('gateway', g, total.gateway));
      console.log(
        `  added by the gateway: median +${(g.median - d.median).toFixed(2)} ms, p99 +${(g.p99 - d.p99).toFixed(2)} ms (target: median <= +2 ms)`,
      );
      if (invalid.direct || invalid.gateway) {
        console.log(`  invalid streams: direct ${invalid.direct}, gateway ${invalid.gateway} (first: ${firstInvalid})`);
      }
    }
    console.log(`\n${machineLine('end')}; gateway log ${(gw.logBytes() / 1024 / 1024).toFixed(1)} MB`);
  },
  { maxSeconds },
);
