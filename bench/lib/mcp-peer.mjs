// A minimal MCP server for benches: the official SDK's low-level Server with one tool, `echo` {text}, over stateless
// Streamable HTTP with JSON answers (a fresh Server and transport per POST, no session), on 127.0.0.1:0. It does no
// work, so a bench measures the transport.
// Run as a process (what the benches do, so the server does not share the load generator's event loop):
//   node bench/lib/mcp-peer.mjs    → prints one JSON line {"url": "http://127.0.0.1:<port>/mcp"}
// It exits on SIGTERM/SIGINT, and with --exit-with-stdin (what spawnMcpPeer passes) when its stdin closes.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { spawnChildService } from './child-service.mjs';

const ECHO = {
  name: 'echo',
  description: 'Echoes text',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
  });
}

export async function startMcpPeer() {
  const http = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = new Server({ name: 'bench-mcp-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO] }));
    server.setRequestHandler(CallToolRequestSchema, (r) => ({
      content: [{ type: 'text', text: String(r.params.arguments?.text ?? '') }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void server.close());
    readBody(req)
      .then(async (body) => {
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(400).end();
      });
  });
  http.keepAliveTimeout = 60_000;
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${http.address().port}/mcp`, close: () => new Promise((r) => http.close(() => r())) };
}

/** Starts the peer as a child process and resolves with `{ url, pid, stop() }`; stopped on cleanup. */
export function spawnMcpPeer() {
  return spawnChildService('bench MCP peer', [fileURLToPath(import.meta.url), '--exit-with-stdin']);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const peer = await startMcpPeer();
  process.stdout.write(`${JSON.stringify({ url: peer.url })}\n`);
  const exit = () => void peer.close().then(() => process.exit(0));
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
  if (process.argv.includes('--exit-with-stdin')) {
    process.stdin.on('end', exit);
    process.stdin.resume();
  }
}
