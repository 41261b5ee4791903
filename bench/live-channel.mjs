// What open live-channel subscribers cost the request path: two gateways of this build side by side on one provider
// simulator (embedded default), one with `--subscribers` dashboards connected to `GET /ws` (each receives a request-log
// row per request) and one with none (publishing costs one boolean check). Rounds alternate so machine noise hits both;
// each reports req/s and the serving gateway's CPU per request. At the end every subscriber's received log rows are
// counted against the requests the watched gateway served (none may be missing: the subscribers read as fast as they
// can, so none is dropped as a slow consumer).
//
// Usage: npm run build && node bench/live-channel.mjs [seconds=8] [rounds=4] [--connections 50] [--subscribers 10]
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { runBench } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import { chatBody, isChatCompletion, sideBySide, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { runLoad } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '50' },
    subscribers: { type: 'string', default: '10' },
  },
});
const seconds = Number(positionals[0] ?? 8);
const rounds = Number(positionals[1] ?? 4);
const connections = Number(values.connections);
const subscriberCount = Number(values.subscribers);

/** Opens `/ws` with the setup token; resolves once `ready` arrived, counting the log rows received afterwards. */
function subscribe(gw) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/ws`, {
      headers: { 'x-gateway-setup-token': gw.setupToken },
    });
    const sub = { socket, logs: 0, closedWith: undefined };
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString('utf8'));
      if (message.type === 'ready') resolve(sub);
      else if (message.type === 'log') sub.logs++;
    });
    socket.on('close', (code) => (sub.closedWith = code));
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`/ws refused: ${res.statusCode}`)));
  });
}

await runBench(
  async () => {
    console.log(machineLine());
    const sim = await spawnSimulator();
    const variants = [
      { name: `${subscriberCount} subscribers`, watched: true },
      { name: 'no subscriber', watched: false },
    ];
    for (const v of variants) {
      v.gw = await startGateway({ env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' }, label: v.name });
      v.target = await wireGateway(v.gw, sim);
    }
    const [watched] = variants;
    watched.subscribers = [];
    for (let i = 0; i < subscriberCount; i++) watched.subscribers.push(await subscribe(watched.gw));
    const body = chatBody({ model: watched.target.model });
    const load = async (v, ms) => {
      const r = await runLoad({
        url: v.target.url,
        method: 'POST',
        headers: v.target.headers,
        body,
        check: isChatCompletion,
        connections,
        durationMs: ms,
      });
      v.served = (v.served ?? 0) + r.requests + r.errors;
      return r;
    };
    console.log(`unary chat completions, ${connections} connections, ${rounds} x ${seconds} s`);
    const [on, off] = await sideBySide(variants, { rounds, seconds, load });
    const share = on.rps / off.rps;
    console.log(
      `with ${subscriberCount} subscribers ${on.rps.toFixed(0)} req/s (${on.cpu.toFixed(3)} ms CPU/req), ` +
        `without ${off.rps.toFixed(0)} req/s (${off.cpu.toFixed(3)} ms CPU/req): ${share.toFixed(3)}x; ` +
        `CPU per request ${(on.cpu / off.cpu).toFixed(3)}x`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const received = watched.subscribers.map((s) => s.logs);
    const dropped = watched.subscribers.filter((s) => s.closedWith !== undefined).length;
    console.log(
      `watched gateway: ${watched.served} requests served; log rows received per subscriber: min ${Math.min(...received)}, ` +
        `max ${Math.max(...received)}; subscribers closed: ${dropped} ` +
        `(${received.every((n) => n === watched.served) && dropped === 0 ? 'every row delivered' : 'MISMATCH'})`,
    );
    for (const s of watched.subscribers) s.socket.terminate();
    console.log(
      `\n| at ${connections} connections | ${subscriberCount} subscribers req/s | none req/s | ratio | CPU per request |`,
    );
    console.log('| --- | --- | --- | --- | --- |');
    console.log(
      `| unary | ${on.rps.toFixed(0)} | ${off.rps.toFixed(0)} | **${share.toFixed(2)}x** | ` +
        `${on.cpu.toFixed(3)} / ${off.cpu.toFixed(3)} ms |`,
    );
  },
  { maxSeconds: 300 + 2 * rounds * (seconds + 5) },
);
