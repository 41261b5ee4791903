// MCP proxy overhead, side by side in one run: the bench MCP peer (bench/lib/mcp-peer.mjs, its own process) called
// directly and through a built gateway's own MCP server (`/mcp`, a virtual key, the tool `bench-echo`: allow-list,
// executor, tool log row, stateless Streamable HTTP; fresh app dir, embedded default).
//
// N official SDK clients (Client + StreamableHTTPClientTransport, connected once) call `echo` in a closed loop:
// a warm-up of each target, then rounds in rotating order (direct, gateway, …); calls/s, p50/p90/p99, the gateway
// process's CPU per call, and the gateway/direct ratios. The load generator runs in this process, so all targets
// share its overhead. `--other <checkout>` adds a second gateway, another checkout's built `dist/` (e.g. a worktree of
// the previous commit) on the same peer, to the rotation: a change's before/after side by side in one run.
//
// Usage: npm run build && node bench/mcp-proxy.mjs [seconds=10] [clients=32] [--rounds 3] [--warmup 2]
//          [--log-level warn] [--other <checkout with a built dist/>]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isStopping, onCleanup, runBench, throwIfStopping } from './lib/cleanup.mjs';
import { createVirtualKey, manage, startGateway } from './lib/gateway.mjs';
import { cpuMs } from './lib/inference.mjs';
import { percentile, ratio } from './lib/load.mjs';
import { spawnMcpPeer } from './lib/mcp-peer.mjs';
import { machineLine } from './lib/report.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'log-level': { type: 'string' },
    other: { type: 'string' },
  },
});
const seconds = Number(positionals[0] ?? 10);
const clientCount = Number(positionals[1] ?? 32);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const maxSeconds = 300 + 3 * warmup + 3 * rounds * seconds;

async function connectClients(url, headers) {
  const clients = await Promise.all(
    Array.from({ length: clientCount }, async () => {
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
      const client = new Client({ name: 'mcp-bench', version: '1.0.0' });
      await client.connect(transport);
      return client;
    }),
  );
  onCleanup(() => Promise.all(clients.map((c) => c.close().catch(() => undefined))));
  return clients;
}

/** Every client calls `tool` back to back for `ms`; calls/s and latency percentiles (ms). */
async function closedLoop(clients, tool, ms) {
  const latencies = [];
  let errors = 0;
  const until = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      while (performance.now() < until && !isStopping()) {
        const t0 = performance.now();
        try {
          const r = await client.callTool({ name: tool, arguments: { text: `call ${i}` } });
          if (r.isError || r.content?.[0]?.text !== `call ${i}`) errors++;
          else latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { calls: latencies.length, errors, elapsed, latencies };
}

function merge(runs) {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const calls = runs.reduce((s, r) => s + r.calls, 0);
  const elapsed = runs.reduce((s, r) => s + r.elapsed, 0);
  const cpu = runs.reduce((s, r) => s + (r.cpu ?? 0), 0);
  return {
    cps: calls / elapsed,
    cpuPerCall: cpu / Math.max(1, calls),
    calls,
    errors: runs.reduce((s, r) => s + r.errors, 0),
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    rounds: runs.map((r) => r.calls / r.elapsed),
  };
}

const line = (label, r) =>
  `${label.padEnd(7)}: ${r.cps.toFixed(0)} calls/s, p50 ${r.p50.toFixed(2)} ms, p90 ${r.p90.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms` +
  `${r.cpuPerCall > 0 ? `, gateway CPU ${r.cpuPerCall.toFixed(3)} ms/call` : ''} ` +
  `(${r.calls} calls, errors ${r.errors}, rounds ${r.rounds.map((x) => x.toFixed(0)).join('/')} calls/s)`;

/** A gateway (this checkout's build, or `mainJs`'s) with the peer registered as client `bench`, and its clients. */
async function gatewayTarget(peer, label, mainJs) {
  const gw = await startGateway({
    label,
    ...(mainJs ? { mainJs } : {}),
    logLevel: values['log-level'],
    env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' },
  });
  await manage(gw, 'POST', '/api/mcp/client', {
    name: 'bench',
    connection_type: 'http',
    connection_string: peer.url,
    allow_on_all_virtual_keys: true,
  });
  const key = await createVirtualKey(gw, 'mcp-bench');
  return {
    pid: gw.pid,
    clients: await connectClients(`${gw.base}/mcp`, { authorization: `Bearer ${key.value}` }),
    tool: 'bench-echo',
  };
}

await runBench(
  async () => {
    console.log(machineLine('start'));
    const peer = await spawnMcpPeer();
    const targets = {
      direct: { clients: await connectClients(peer.url, {}), tool: 'echo' },
      gateway: await gatewayTarget(peer, 'gateway'),
    };
    if (values.other) targets.other = await gatewayTarget(peer, 'other', resolve(values.other, 'dist/src/main.js'));
    console.log(
      `gateways: embedded (PGlite), log level ${values['log-level'] ?? 'default (info)'}; peer: ${peer.url}` +
        (values.other ? `; other: ${values.other}` : ''),
    );
    console.log(
      `\ntools/call echo, ${clientCount} SDK clients, ${rounds} rounds x ${seconds} s after a ${warmup} s warm-up, rotating`,
    );
    const names = Object.keys(targets);
    for (const t of Object.values(targets)) await closedLoop(t.clients, t.tool, warmup * 1000);
    const runs = Object.fromEntries(names.map((n) => [n, []]));
    for (let i = 0; i < rounds; i++) {
      throwIfStopping();
      const order = names.map((_, k) => names[(i + k) % names.length]);
      for (const name of order) {
        const target = targets[name];
        const before = target.pid ? cpuMs(target.pid) : 0;
        const r = await closedLoop(target.clients, target.tool, seconds * 1000);
        if (target.pid) r.cpu = cpuMs(target.pid) - before;
        runs[name].push(r);
        const cpu = r.cpu !== undefined ? `, CPU ${(r.cpu / Math.max(1, r.calls)).toFixed(3)} ms/call` : '';
        console.log(`  round ${i + 1} ${name}: ${(r.calls / r.elapsed).toFixed(0)} calls/s${cpu}, errors ${r.errors}`);
      }
    }
    const merged = Object.fromEntries(names.map((n) => [n, merge(runs[n])]));
    console.log('');
    for (const n of names) console.log(line(n, merged[n]));
    const { direct, gateway, other } = merged;
    console.log(
      `gateway/direct: throughput ${ratio(gateway.cps, direct.cps)}, p50 +${(gateway.p50 - direct.p50).toFixed(2)} ms`,
    );
    if (other) {
      console.log(
        `other/direct: throughput ${ratio(other.cps, direct.cps)}, p50 +${(other.p50 - direct.p50).toFixed(2)} ms; ` +
          `gateway/other: throughput ${ratio(gateway.cps, other.cps)}, CPU per call ` +
          `${(gateway.cpuPerCall / other.cpuPerCall).toFixed(2)}x`,
      );
    }
    console.log(machineLine('end'));
  },
  { maxSeconds },
);
