// The baseline of the inference bench: the smallest honest Node reverse proxy for one route, Fastify 5 + undici,
// in its own process. POST /v1/chat/completions is forwarded to `<upstream>/chat/completions` (the simulator's
// `/openai/v1`): the JSON body (parsed by Fastify's default parser and serialised again, as any proxy that looks at
// the request does) and the Authorization header go up; the status and content type come back with the body piped
// through as it arrives, so an SSE stream is relayed chunk by chunk. Upstream connections are kept alive by one
// undici Agent with its defaults (what the gateway's outbound client uses too). No auth, routing, usage, cost,
// metrics or logging: whatever the gateway adds on top of this is the price of those.
//
// Run as a process (what the bench does):
//   node bench/lib/bare-proxy.mjs --upstream http://127.0.0.1:<sim>/openai/v1 [--port 0] [--exit-with-stdin]
//   → prints one JSON line {"url": "http://127.0.0.1:<port>"}
// It exits on SIGTERM/SIGINT, and with --exit-with-stdin (what spawnBareProxy passes) when its stdin closes.
/* global AbortController */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { Agent, request } from 'undici';
import { flagWords, START_NODE_FLAGS } from './gateway.mjs';
import { spawnChildService } from './child-service.mjs';

/** Starts the proxy in this process. Returns `{ url, close() }`. */
export async function startBareProxy({ upstream, port = 0 }) {
  const target = `${upstream.replace(/\/$/, '')}/chat/completions`;
  const dispatcher = new Agent();
  const app = Fastify({ logger: false, keepAliveTimeout: 60_000 });

  app.post('/v1/chat/completions', async (req, reply) => {
    const headers = { 'content-type': 'application/json' };
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    // A caller that goes away aborts the upstream call (Fastify also destroys a piped body when the reply closes).
    const abort = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    const upstreamRes = await request(target, {
      method: 'POST',
      headers,
      body: JSON.stringify(req.body),
      dispatcher,
      signal: abort.signal,
    });
    reply.code(upstreamRes.statusCode);
    const contentType = upstreamRes.headers['content-type'];
    if (contentType) reply.header('content-type', contentType);
    return reply.send(upstreamRes.body);
  });

  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${app.server.address().port}`,
    close: async () => {
      await app.close();
      await dispatcher.close();
    },
  };
}

/**
 * Starts the proxy as a child process (its own event loop, like the gateway) in front of `upstream`, with the node
 * flags the gateway runs with (`npm start`'s: the same heap settings, so RSS and GC cost compare), and resolves
 * with `{ url, pid, child, stop() }`; stopped on cleanup, and by the reaper if the bench is killed.
 */
export async function spawnBareProxy({ upstream, nodeArgs = START_NODE_FLAGS, startTimeoutMs = 30_000 }) {
  // E.g. BENCH_BARE_PROXY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile it next to the gateway.
  const extra = flagWords(process.env.BENCH_BARE_PROXY_NODE_ARGS);
  const argv = [...nodeArgs, ...extra, fileURLToPath(import.meta.url), '--upstream', upstream, '--exit-with-stdin'];
  return spawnChildService('bare proxy', argv, { startTimeoutMs });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      upstream: { type: 'string' },
      port: { type: 'string', default: '0' },
      'exit-with-stdin': { type: 'boolean', default: false },
    },
  });
  if (!values.upstream) throw new Error('--upstream <base URL, e.g. http://127.0.0.1:8090/openai/v1> is required');
  const proxy = await startBareProxy({ upstream: values.upstream, port: Number(values.port) });
  const quit = async () => {
    await proxy.close();
    process.exit(0);
  };
  process.once('SIGTERM', quit);
  process.once('SIGINT', quit);
  // Spawned by a bench, the parent holds our stdin: when it goes away (even SIGKILLed), so do we.
  if (values['exit-with-stdin']) process.stdin.on('end', quit).on('error', quit).resume();
  process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
}
