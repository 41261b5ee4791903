// The data-plane authentication hot path: a built gateway (embedded default, LOG_LEVEL=warn unless --log-level) on a
// fresh app dir, one virtual key created through the API, then the virtual-key route (cached key lookup, no database
// read) and a public route with no authentication, side by side: a warm-up of each, then alternating rounds
// (public, virtual-key, virtual-key, public, …) so load noise hits both; prints the virtual-key/public ratios.
// Usage: npm run build && node bench/virtual-key-auth.mjs [seconds=10] [connections=32] [--rounds 3] [--warmup 2]
//          [--log-level warn]
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { createVirtualKey, startGateway } from './lib/gateway.mjs';
import { alternate, formatLoad, ratio } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    'log-level': { type: 'string', default: 'warn' },
  },
});
const seconds = Number(positionals[0] ?? 10);
const connections = Number(positionals[1] ?? 32);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);

await runBench(
  async () => {
    console.log(machineLine('start'));
    const gw = await startGateway({ logLevel: values['log-level'] });
    const vk = await createVirtualKey(gw, 'bench');
    const ok = (status) => status === 200;
    console.log(
      `${connections} connections, ${rounds} round${rounds === 1 ? '' : 's'} x ${seconds} s each after a ${warmup} s warm-up, public and ` +
        `virtual-key alternating; gateway log level ${values['log-level']}, gateway and load generator on the same machine`,
    );
    const res = await alternate(
      {
        public: { url: `${gw.base}/api/version`, check: ok, connections },
        'virtual-key': {
          url: `${gw.base}/api/governance/virtual-keys/quota`,
          headers: { authorization: `Bearer ${vk.value}` },
          check: ok,
          connections,
        },
      },
      { rounds, roundMs: seconds * 1000, warmupMs: warmup * 1000 },
    );
    console.log(formatLoad('  GET /api/version (public)                           ', res.public));
    console.log(formatLoad('  GET /api/governance/virtual-keys/quota (virtual key)', res['virtual-key']));
    console.log(
      `  virtual-key/public: throughput ${ratio(res['virtual-key'].rps, res.public.rps)} (target >= 0.95x), ` +
        `p50 ${ratio(res['virtual-key'].p50, res.public.p50)}, p99 ${ratio(res['virtual-key'].p99, res.public.p99)}`,
    );
    console.log(machineLine('end'));
  },
  { maxSeconds: 240 + 2 * warmup + 2 * rounds * seconds },
);
