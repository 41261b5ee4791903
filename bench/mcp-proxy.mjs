// MCP proxy overhead, side by side in one run: the bench MCP peer (bench/lib/mcp-peer.mjs, its own process) called
// directly and through a built gateway's own MCP server (`/mcp`, a virtual key, the tool `bench-echo`: allow-list,
// executor, tool log row, stateless Streamable HTTP; fresh app dir, embedded default).
//
// N official SDK clients (Client + StreamableHTTPClientTransport, connected once) call `echo` in a closed loop:
// a warm-up of each target, then alternating rounds (direct, gateway, gateway, direct, …); calls/s, p50/p90/p99 and
// the gateway/direct ratios. The load generator runs in this process, so both targets share its overhead.
//
// Usage: npm run build && node bench/mcp-proxy.mjs [seconds=10] [clients=32] [--rounds 3] [--warmup 2]
//          [--log-level warn]
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isStopping, onCleanup, runBench, throwIfStopping } from './lib/cleanup.mjs';
import { createVirtualKey, manage, startGateway } from './lib/gateway.mjs';
import { percentile, ratio } from './lib/load.mjs';
import { spawnMcpPeer } from './lib/mcp-peer.mjs';
import { machineLine } from './lib/report.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'log-level': { type: 'string' },
  },
});
const seconds = Number(positionals[0] ?? 10);
const clientCount = Number(positionals[1] ?? 32);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const maxSeconds = 240 + 2 * warmup + 2 * rounds * seconds;

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
  return {
    cps: calls / elapsed,
    calls,
    errors: runs.reduce((s, r) => s + r.errors, 0),
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    rounds: runs.map((r) => r.calls / r.elapsed),
  };
}

const line = (label, r) =>
  `${label}: ${r.cps.toFixed(0)} calls/s, p50 ${r.p50.toFixed(2)} ms, p90 ${r.p90.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms ` +
  `(${r.calls} calls, errors ${r.errors}, rounds ${r.rounds.map((x) => x.toFixed(0)).join('/')} calls/s)`;

await runBench(
  async () => {
    console.log(machineLine('start'));
    const peer = await spawnMcpPeer();
    const gw = await startGateway({ logLevel: values['log-level'], env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    await manage(gw, 'POST', '/api/mcp/client', {
      name: 'bench',
      connection_type: 'http',
      connection_string: peer.url,
      allow_on_all_virtual_keys: true,
    });
    const key = await createVirtualKey(gw, 'mcp-bench');
    console.log(`gateway: embedded (PGlite), log level ${values['log-level'] ?? 'default (info)'}; peer: ${peer.url}`);
    const targets = {
      direct: { clients: await connectClients(peer.url, {}), tool: 'echo' },
      gateway: {
        clients: await connectClients(`${gw.base}/mcp`, { authorization: `Bearer ${key.value}` }),
        tool: 'bench-echo',
      },
    };
    console.log(
      `\ntools/call echo, ${clientCount} SDK clients, ${rounds} rounds x ${seconds} s after a ${warmup} s warm-up, alternating`,
    );
    for (const t of Object.values(targets)) await closedLoop(t.clients, t.tool, warmup * 1000);
    const runs = { direct: [], gateway: [] };
    for (let i = 0; i < rounds; i++) {
      throwIfStopping();
      const order = i % 2 === 0 ? ['direct', 'gateway'] : ['gateway', 'direct'];
      for (const name of order) {
        const r = await closedLoop(targets[name].clients, targets[name].tool, seconds * 1000);
        runs[name].push(r);
        console.log(`  round ${i + 1} ${name}: ${(r.calls / r.elapsed).toFixed(0)} calls/s, errors ${r.errors}`);
      }
    }
    const direct = merge(runs.direct);
    const gateway = merge(runs.gateway);
    console.log(`\n${line('direct ', direct)}\n${line('gateway', gateway)}`);
    console.log(
      `gateway/direct: throughput ${ratio(gateway.cps, direct.cps)}, p50 +${(gateway.p50 - direct.p50).toFixed(2)} ms`,
    );
    console.log(machineLine('end'));
  },
  { maxSeconds },
);
