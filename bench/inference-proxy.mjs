// Inference overhead, side by side in one run: the same chat completion sent to the provider simulator directly, to
// a bare Fastify + undici proxy in front of it (bench/lib/bare-proxy.mjs) and through the built gateway's full path
// (virtual key, routing, usage, cost, metrics; fresh app dir, embedded default, or --scale-out). Each of the three
// runs in its own process; all on loopback.
//
// 1. Unary, closed loop with N connections: a warm-up of each, then alternating rounds (direct, bare, gateway;
//    gateway, bare, direct; …); req/s, p50/p90/p99, what the bare proxy and the gateway add over direct, and the
//    gateway against the bare proxy (targets: throughput >= 0.70x the bare proxy's, p50 <= +1 ms over it).
// 2. Streaming (`stream: true`, `include_usage`), the same, each stream read to its end; plus time to first byte.
// 3. The same two at N connections paced at a fixed rate below every target's capacity (--paced-rate, default auto:
//    40 % of the lower of the bare proxy's and the gateway's throughput in 1. and 2.; 0 skips). A closed loop at
//    saturation makes p50 ≈ connections / req/s, so its p50 difference is the throughput difference again; paced, the
//    p50 is each request's own cost with N connections open. The added-p50 target is judged here.
// 4. The same two at 1 connection (--light-seconds, 0 skips): no queueing, so the added latency is the per-request
//    cost of each hop rather than a share of a saturated CPU. There the simulator sends each stream's events
//    --stream-gap-ms apart (default 2), so a relay that buffered a stream would show in its time to first byte.
// The gateway is configured through its API on a first start, then restarted on the same app dir and measured. Peak
// RSS of the gateway, the bare proxy and the simulator is sampled every 200 ms during each part, and the CPU time each
// serving process spends in its own rounds is divided by their requests (CPU per request). Every response
// is checked (unary: 200 and a chat.completion with usage; stream: the usage chunk and `data: [DONE]` at the end);
// a run with refused responses or errors says so and exits 1. A markdown summary for docs/benchmarks.md ends the output.
//
// Usage: npm run build && node bench/inference-proxy.mjs [seconds=10] [connections=50]
//          [--rounds 3] [--warmup 2] [--paced-rate auto] [--light-seconds 3] [--stream-gap-ms 2] [--log-level info]
//          [--request-logs on|off] [--scale-out]
//          [--skip-gateway]
// --log-level: the gateway's (default: the gateway's own default, info, access log included).
// --request-logs off: without request log rows (issue 10's feature, whose own cost bench/logging-cost.mjs measures).
// --scale-out runs the gateway on a scratch Postgres database and Redis prefix (BENCH_DATABASE_URL, BENCH_REDIS_URL;
// see bench/lib/scale-out.mjs). --skip-gateway compares the simulator and the bare proxy only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnBareProxy } from './lib/bare-proxy.mjs';
import { onCleanup, runBench } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import {
  chatBody,
  cpuMs,
  isChatCompletion,
  isCompleteStream,
  paceStreams,
  PROVIDER_KEY,
  probe,
  spawnSimulator,
  wireGateway,
} from './lib/inference.mjs';
import { alternate, formatLoad, ratio, runLoad } from './lib/load.mjs';
import { mb, procStatus, sampleRss } from './lib/memory.mjs';
import { guardDir } from './lib/reaper.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'paced-rate': { type: 'string', default: 'auto' },
    'light-seconds': { type: 'string', default: '3' },
    'stream-gap-ms': { type: 'string', default: '2' },
    'log-level': { type: 'string' },
    // on (the default: a row per request, issue 10) | off: the path issue 9 names, without request logging.
    'request-logs': { type: 'string', default: 'on' },
    'scale-out': { type: 'boolean', default: false },
    'skip-gateway': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 10);
const connections = Number(positionals[1] ?? 50);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const lightSeconds = Number(values['light-seconds']);
const pacedRate = values['paced-rate'];
const PACED_SHARE = 0.4;
const gapMs = Number(values['stream-gap-ms']);
const scaleOut = values['scale-out'] || scaleOutRequested();
const withGateway = !values['skip-gateway'];

const LABELS = { direct: 'simulator direct', bare: 'bare proxy', gateway: 'gateway' };
const THROUGHPUT_TARGET = 0.7;
const ADDED_P50_TARGET_MS = 1;

// Start-up, then per part a warm-up and the rounds of each target, with room to spare: the watchdog ends a hung run.
const targetCount = withGateway ? 3 : 2;
const partSeconds = (s) => targetCount * (warmup + rounds * s);
const maxSeconds =
  240 + 2 * partSeconds(seconds) * (pacedRate === '0' ? 1 : 2) + (lightSeconds > 0 ? 2 * partSeconds(lightSeconds) : 0);

const fmt = (ms) => (Number.isFinite(ms) ? ms.toFixed(2) : '-');
const fmt3 = (ms) => (Number.isFinite(ms) ? ms.toFixed(3) : '-');
const plus = (ms) => (Number.isFinite(ms) ? `${ms >= 0 ? '+' : ''}${ms.toFixed(2)}` : '-');

await runBench(
  async () => {
    console.log(machineLine('start'));
    const sim = await spawnSimulator();
    const bare = await spawnBareProxy({ upstream: sim.openaiBase });
    const db = withGateway && scaleOut ? await createScratchScaleOut() : undefined;
    // The gateway is configured on a first start, then restarted on the same app dir / database: what runs day to
    // day is a restart (the first start of an embedded gateway also holds PGlite's initdb memory until a full GC).
    let gw;
    let wired;
    if (withGateway) {
      const appDir = mkdtempSync(join(tmpdir(), 'gw-bench-inference-'));
      const unguardDir = guardDir(appDir);
      onCleanup(() => {
        rmSync(appDir, { recursive: true, force: true });
        unguardDir();
      });
      const configFile = join(appDir, 'bench-config.json');
      writeFileSync(configFile, JSON.stringify({ logs: { enabled: values['request-logs'] !== 'off' } }));
      const start = (label) =>
        startGateway({
          appDir,
          args: ['--config', configFile],
          logLevel: values['log-level'],
          env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true', ...db?.env },
          label: `gateway (${label})`,
        });
      const first = await start('first start');
      wired = await wireGateway(first, sim);
      await first.stop();
      gw = await start('restart');
      wired.url = `${gw.base}/v1/chat/completions`;
    }

    const providerAuth = { authorization: `Bearer ${PROVIDER_KEY}` };
    const endpoints = {
      direct: { url: `${sim.openaiBase}/chat/completions`, headers: providerAuth, model: undefined },
      bare: { url: `${bare.url}/v1/chat/completions`, headers: providerAuth, model: undefined },
      ...(wired ? { gateway: wired } : {}),
    };
    const names = Object.keys(endpoints);
    /** The process that serves each target: the simulator answers the direct calls. */
    const pids = { direct: sim.pid, bare: bare.pid, ...(gw ? { gateway: gw.pid } : {}) };
    const bodyOf = (name, stream) =>
      chatBody({ stream, ...(endpoints[name].model ? { model: endpoints[name].model } : {}) });

    const mode = !gw
      ? 'skipped (--skip-gateway)'
      : db
        ? `scale-out (Postgres ${db.databaseName}, Redis prefix ${db.redisPrefix})`
        : 'embedded (PGlite, in-process queue)';
    console.log(
      `gateway: ${mode}, log level ${values['log-level'] ?? 'default (info)'}, request logs ${values['request-logs']}${gw ? `, measured on a restart (pid ${gw.pid})` : ''}`,
    );
    console.log(`simulator: ${sim.url} (pid ${sim.pid}); bare proxy: ${bare.url} (pid ${bare.pid})`);

    // One unary request and one stream each way first: every target must answer well, and alike.
    for (const name of names) {
      for (const stream of [false, true]) {
        const r = await probe(endpoints[name], bodyOf(name, stream));
        const ok = stream ? isCompleteStream(r.status, r.text) : isChatCompletion(r.status, r.text);
        if (!ok)
          throw new Error(
            `${LABELS[name]} ${stream ? 'stream' : 'unary'} probe failed: ${r.status} ${r.text.slice(0, 500)}`,
          );
        const gwHeaders = Object.entries(r.headers)
          .filter(([k]) => k.startsWith('x-gateway-'))
          .map(([k, v]) => `${k}: ${v}`);
        const cost = stream ? '' : `, usage.cost ${JSON.stringify(JSON.parse(r.text).usage.cost ?? null)}`;
        console.log(
          `  probe ${LABELS[name]} ${stream ? 'stream' : 'unary '}: ${r.status} ${r.headers['content-type']}, ` +
            `${Buffer.byteLength(r.text)} bytes, first byte ${fmt(r.ttfb)} ms, ${fmt(r.total)} ms${cost}` +
            (gwHeaders.length ? `\n    ${gwHeaders.join('; ')}` : ''),
        );
      }
    }
    const idle = {
      gateway: gw && procStatus(gw.pid).rss,
      bare: procStatus(bare.pid).rss,
      sim: procStatus(sim.pid).rss,
    };
    console.log(
      `  RSS after the probes: gateway ${mb(idle.gateway)} MB, bare proxy ${mb(idle.bare)} MB, simulator ${mb(idle.sim)} MB`,
    );

    const invalid = [];
    /** One part: the targets alternating under the same load; prints its figures and returns them for the summary. */
    const part = async (key, title, { stream, conns, secs, gap = 0, rate }) => {
      // The throughput target is judged on the saturated runs, the added-p50 target on the paced ones.
      const saturated = conns === connections && !rate;
      const paced = conns === connections && !!rate;
      console.log(
        `\n${title}, ${conns} connection${conns === 1 ? '' : 's'}${rate ? ` paced at ${rate} req/s` : ''}, ` +
          `${rounds} round${rounds === 1 ? '' : 's'} x ${secs} s each ` +
          `after a ${warmup} s warm-up, ${names.map((n) => LABELS[n]).join(' / ')} alternating`,
      );
      const check = stream ? isCompleteStream : isChatCompletion;
      const targets = Object.fromEntries(
        names.map((n) => [
          n,
          {
            url: endpoints[n].url,
            headers: endpoints[n].headers,
            method: 'POST',
            body: bodyOf(n, stream),
            check,
            firstByte: stream,
            connections: conns,
            rate,
          },
        ]),
      );
      const samplers = { gateway: gw && sampleRss(gw.pid), bare: sampleRss(bare.pid), sim: sampleRss(sim.pid) };
      const unpace = gap > 0 ? await paceStreams(sim, gap) : undefined;
      // The warm-up here rather than in alternate(), so the CPU each serving process spends in its own rounds can be
      // read between rounds: the rounds run one at a time, in alternate()'s order (names, then reversed, …).
      for (const n of names) await runLoad({ ...targets[n], durationMs: warmup * 1000 });
      const cpu = Object.fromEntries(names.map((n) => [n, 0]));
      const order = Array.from({ length: rounds }, (_, i) => (i % 2 === 0 ? names : [...names].reverse())).flat();
      let run = 0;
      let mark = cpuMs(pids[order[0]]);
      const log = (line) => {
        const n = order[run++];
        const now = cpuMs(pids[n]);
        cpu[n] += now - mark;
        if (run < order.length) mark = cpuMs(pids[order[run]]);
        console.log(line);
      };
      const res = await alternate(targets, { rounds, roundMs: secs * 1000, warmupMs: 0, log });
      await unpace?.();
      // Paced streams are a few dozen a second: the process's idle ticks would be most of the figure.
      for (const n of names) res[n].cpuPerRequest = gap > 0 ? NaN : cpu[n] / res[n].requests;
      const rss = Object.fromEntries(Object.entries(samplers).map(([k, s]) => [k, s?.stop()]));
      console.log(
        `  CPU per request, the serving process's own during its rounds: ` +
          names.map((n) => `${n === 'direct' ? 'simulator' : LABELS[n]} ${fmt3(res[n].cpuPerRequest)} ms`).join(', '),
      );
      const width = Math.max(...names.map((n) => LABELS[n].length));
      for (const n of names) console.log(formatLoad(`  ${LABELS[n].padEnd(width)}`, res[n]));
      const d = res.direct;
      const added = (r) => ({ p50: r.p50 - d.p50, p99: r.p99 - d.p99, ttfb: r.ttfb ? r.ttfb.p50 - d.ttfb.p50 : NaN });
      for (const n of names.filter((x) => x !== 'direct')) {
        const a = added(res[n]);
        console.log(
          `  ${LABELS[n]} over direct: p50 ${plus(a.p50)} ms, p99 ${plus(a.p99)} ms` +
            (stream ? `, first byte p50 ${plus(a.ttfb)} ms` : '') +
            `, throughput ${ratio(res[n].rps, d.rps)}`,
        );
      }
      if (res.gateway) {
        const g = res.gateway;
        const b = res.bare;
        // The issue's targets are about the loaded runs; the light runs are paced by one connection (or the stream gap).
        const target = (judged, what, met) => (judged ? ` (target ${what}: ${met ? 'met' : 'MISSED'})` : '');
        console.log(
          `  gateway vs bare proxy: throughput ${ratio(g.rps, b.rps)}` +
            target(saturated, `>= ${THROUGHPUT_TARGET.toFixed(2)}x`, g.rps / b.rps >= THROUGHPUT_TARGET) +
            `, p50 ${plus(g.p50 - b.p50)} ms` +
            target(paced, `<= +${ADDED_P50_TARGET_MS} ms`, g.p50 - b.p50 <= ADDED_P50_TARGET_MS) +
            `, p99 ${plus(g.p99 - b.p99)} ms` +
            (stream ? `, first byte p50 ${plus(g.ttfb.p50 - b.ttfb.p50)} ms` : '') +
            (gap > 0 ? '' : `, CPU per request ${ratio(g.cpuPerRequest, b.cpuPerRequest)}`),
        );
      }
      console.log(
        `  peak RSS: ${gw ? `gateway ${mb(rss.gateway.peak)} MB (anon ${mb(rss.gateway.peakAnon)}), ` : ''}` +
          `bare proxy ${mb(rss.bare.peak)} MB (anon ${mb(rss.bare.peakAnon)}), simulator ${mb(rss.sim.peak)} MB`,
      );
      for (const n of names) {
        if (res[n].bad || res[n].errors) {
          invalid.push(
            `${title} (${conns} conn.), ${LABELS[n]}: ${res[n].bad} refused, ${res[n].errors} errors` +
              (res[n].firstBad ? ` (first refused: ${res[n].firstBad})` : ''),
          );
        }
      }
      return { key, title, conns, stream, rate, res, rss, added };
    };

    const parts = [];
    parts.push(await part('unary', 'Unary chat completions', { stream: false, conns: connections, secs: seconds }));
    parts.push(
      await part('stream', 'Streaming chat completions (SSE, include_usage), read to the end', {
        stream: true,
        conns: connections,
        secs: seconds,
      }),
    );
    if (pacedRate !== '0') {
      for (const saturatedPart of parts.slice(0, 2)) {
        const { key, stream, res } = saturatedPart;
        const capacity = Math.min(res.bare.rps, res.gateway?.rps ?? Infinity);
        const rate =
          pacedRate === 'auto' ? Math.max(50, Math.floor((PACED_SHARE * capacity) / 50) * 50) : Number(pacedRate);
        parts.push(
          await part(key, `${stream ? 'Streaming' : 'Unary'} chat completions, paced`, {
            stream,
            conns: connections,
            secs: seconds,
            rate,
          }),
        );
      }
    }
    if (lightSeconds > 0) {
      parts.push(
        await part('unary', 'Unary chat completions, light load', { stream: false, conns: 1, secs: lightSeconds }),
      );
      parts.push(
        await part('stream', `Streaming chat completions, light load, the simulator's events ${gapMs} ms apart`, {
          stream: true,
          conns: 1,
          secs: lightSeconds,
          gap: gapMs,
        }),
      );
    }

    console.log(`\n${machineLine('end')}${gw ? `; gateway log ${(gw.logBytes() / 1024 / 1024).toFixed(1)} MB` : ''}`);

    // The summary for docs/benchmarks.md: one row per part and target.
    console.log(
      `\nSummary (${mode}; ${rounds} x ${seconds} s rounds${lightSeconds > 0 ? `, light load ${rounds} x ${lightSeconds} s` : ''}; times in ms; CPU/req: ms of CPU the serving process (the simulator for direct) spent per request; RSS: its peak MB during the part):\n`,
    );
    console.log('| load | target | req/s | p50 | p99 | added p50 | added p99 | first byte p50 | CPU/req | RSS |');
    console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const p of parts) {
      for (const n of names) {
        const r = p.res[n];
        const a = p.added(r);
        const vsBare = (x) => (n === 'gateway' ? ` (${plus(x)} vs bare)` : '');
        const addedCell = (x, overBare) => (n === 'direct' ? '—' : `${plus(x)}${vsBare(overBare)}`);
        const rss = n === 'direct' ? `${mb(p.rss.sim.peak)} (simulator)` : mb(p.rss[n].peak);
        console.log(
          `| ${p.key}, ${p.conns} conn.${p.rate ? ` at ${p.rate}/s` : ''} | ${LABELS[n]} | ${r.rps.toFixed(0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ` +
            `${addedCell(a.p50, r.p50 - p.res.bare.p50)} | ${addedCell(a.p99, r.p99 - p.res.bare.p99)} | ` +
            `${p.stream ? fmt(r.ttfb.p50) : '—'} | ${fmt3(r.cpuPerRequest)} | ${rss} |`,
        );
      }
    }
    if (gw) {
      console.log(
        `\nTargets (issue 9: ">= 70 % of the bare proxy's req/s and added p50 <= 1 ms", at ${connections} connections), ` +
          `both against the bare proxy: throughput saturated, p50 paced (gateway p50 minus bare proxy p50 under the ` +
          `same load); "added" in the table is over the simulator direct:`,
      );
      for (const p of parts) {
        const g = p.res.gateway;
        const b = p.res.bare;
        const overBare = g.p50 - b.p50;
        if (p.conns === connections && !p.rate) {
          const tput = g.rps / b.rps;
          console.log(
            `  ${p.key}, ${p.conns} connections, saturated: throughput ${tput.toFixed(2)}x ` +
              `(${tput >= THROUGHPUT_TARGET ? 'met' : 'MISSED'}); p50 ${plus(overBare)} ms over the bare proxy ` +
              `(queueing: ${connections} / req/s); CPU per request ${fmt3(g.cpuPerRequest)} vs ${fmt3(b.cpuPerRequest)} ms ` +
              `(${ratio(g.cpuPerRequest, b.cpuPerRequest)})`,
          );
        } else if (p.rate) {
          console.log(
            `  ${p.key}, ${p.conns} connections paced at ${p.rate} req/s: p50 ${plus(overBare)} ms over the bare proxy ` +
              `(${overBare <= ADDED_P50_TARGET_MS ? 'met' : 'MISSED'}; ${plus(p.added(g).p50)} ms over direct), ` +
              `p99 ${plus(g.p99 - b.p99)} ms` +
              (p.stream ? `; first byte ${plus(g.ttfb.p50 - b.ttfb.p50)} ms over the bare proxy` : ''),
          );
        } else {
          console.log(
            `  ${p.key}, ${p.conns} connection (no queueing): p50 ${plus(overBare)} ms over the bare proxy, ` +
              `${plus(p.added(g).p50)} ms over direct` +
              (p.stream ? `; first byte ${plus(g.ttfb.p50 - b.ttfb.p50)} ms over the bare proxy` : ''),
          );
        }
      }
    }

    if (invalid.length) {
      const banner = '!'.repeat(100);
      console.log(`\n${banner}\nINVALID RUN: responses were refused or failed; the figures above are not usable:`);
      for (const line of invalid) console.log(`  ${line}`);
      console.log(banner);
      throw new Error(`${invalid.length} target(s) had refused or failed responses`);
    }
    console.log('\nAll responses valid.');
  },
  { maxSeconds },
);
