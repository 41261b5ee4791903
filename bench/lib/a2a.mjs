// A2A JSON-RPC requests for benches and the common setup: the bench agent registered on a gateway, a virtual key
// with access, and the same SendMessage request addressed directly to the agent and through the gateway.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { createVirtualKey, registerAgent } from './gateway.mjs';

export const AGENT_NAME = 'bench';

/** A JSON-RPC SendMessage / SendStreamingMessage body; `prefix` selects the agent's behaviour (see a2a-agent.mjs). */
export function rpcBody(method, prefix = 'task-', text = 'hello') {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      message: { messageId: `${prefix}${randomUUID()}`, role: 'ROLE_USER', parts: [{ text, mediaType: 'text/plain' }] },
    },
  });
}

/** Load check: a JSON-RPC success (a JSON-RPC error is a 200 too). */
export const isRpcResult = (status, text) => status === 200 && text.includes('"result":{');

/**
 * Registers the agent on `gw` (allow_by_default) and creates a virtual key. Returns
 * `{ vk, direct, gateway }` where direct/gateway are `{ url, headers }` of the agent's JSON-RPC endpoint.
 * Both send `A2A-Version: 1.0` (the agent refuses requests without it; the gateway sets it upstream itself).
 */
export async function wireAgent(gw, agent) {
  await registerAgent(gw, AGENT_NAME, agent.cardUrl);
  const vk = await createVirtualKey(gw, 'bench-a2a');
  return {
    vk,
    direct: { url: agent.jsonrpcUrl, headers: { 'a2a-version': '1.0' } },
    gateway: {
      url: `${gw.base}/agents/a2a/${AGENT_NAME}/jsonrpc`,
      headers: { 'a2a-version': '1.0', authorization: `Bearer ${vk.value}` },
    },
  };
}

/**
 * One POST; resolves `{ status, text, ttfe, total }` where `ttfe` is the ms from just before the request was
 * written to the first response bytes containing `data:` (NaN when none) and `total` the ms to the end of the body.
 */
export function timedPost({ url, headers }, body, { agent, timeoutMs = 10_000 } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let ttfe = NaN;
    let text = '';
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, agent, timeout: timeoutMs },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
          if (Number.isNaN(ttfe) && text.includes('data:')) ttfe = performance.now() - started;
        });
        res.on('end', () => resolve({ status: res.statusCode, text, ttfe, total: performance.now() - started }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The `data:` payloads of an SSE body, parsed. */
export function sseEvents(text) {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n'),
    )
    .filter(Boolean)
    .map((d) => JSON.parse(d));
}
