import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';

/**
 * Real MCP servers for tests (official SDK, loopback). Every peer offers `echo` {text}, `add` {a,b}, `fail`
 * (`isError: true`), `slow` {ms}; `addTool(name)` registers one more tool at runtime on every live session (the SDK
 * sends `notifications/tools/list_changed`). `requests` records each HTTP request's headers.
 */
export interface McpPeer {
  /** The URL to register as `connection_string`. */
  url: string;
  port: number;
  /** Headers of every HTTP request received, oldest first. */
  requests: IncomingHttpHeaders[];
  /** Adds a tool `name` (answers `<name> called`) to every session now and later, with list_changed. */
  addTool(name: string): void;
  /** Names of the tools a new session lists. */
  toolNames(): string[];
  /** Stops listening and drops every connection (a crash). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

function buildServer(extraTools: string[]): McpServer {
  const server = new McpServer({ name: 'test-peer', version: '1.0.0' });
  const text = (t: unknown) => ({ content: [{ type: 'text' as const, text: String(t) }] });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() } }, ({ text: t }) =>
    text(t),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => text(a + b),
  );
  server.registerTool('fail', { description: 'Always fails' }, () => ({ ...text('this tool failed'), isError: true }));
  server.registerTool('slow', { description: 'Answers after ms', inputSchema: { ms: z.number() } }, async ({ ms }) => {
    await new Promise((r) => setTimeout(r, ms));
    return text(`slept ${ms}`);
  });
  for (const name of extraTools) registerExtra(server, name);
  return server;
}

function registerExtra(server: McpServer, name: string): void {
  server.registerTool(name, { description: `Added at runtime: ${name}` }, () => ({
    content: [{ type: 'text' as const, text: `${name} called` }],
  }));
}

const BASE_TOOLS = ['add', 'echo', 'fail', 'slow'];

/** A peer over one HTTP server; `route` serves requests, `sessions` are the live McpServers. */
async function httpPeer(
  path: string,
  route: (
    req: IncomingMessage,
    res: ServerResponse,
    newServer: () => McpServer,
    sessions: Map<string, { server: McpServer; transport: Transport }>,
  ) => Promise<void>,
): Promise<McpPeer> {
  const extra: string[] = [];
  const sessions = new Map<string, { server: McpServer; transport: Transport }>();
  const requests: IncomingHttpHeaders[] = [];
  let server: Server = undefined as unknown as Server;
  let port = 0;
  const listen = async () => {
    server = createServer((req, res) => {
      requests.push(req.headers);
      route(req, res, () => buildServer(extra), sessions).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const stop = async () => {
    const all = [...sessions.values()];
    sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}${path}`;
    },
    get port() {
      return port;
    },
    requests,
    addTool(name) {
      extra.push(name);
      for (const s of sessions.values()) registerExtra(s.server, name);
    },
    toolNames: () => [...BASE_TOOLS, ...extra].sort(),
    stop,
    restart: listen,
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}

/** A stateful Streamable HTTP server at `/mcp` (sessions, so it can push list_changed on the GET stream). */
export function startHttpPeer(): Promise<McpPeer> {
  return httpPeer('/mcp', async (req, res, newServer, sessions) => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) {
      await (existing.transport as StreamableHTTPServerTransport).handleRequest(req, res);
      return;
    }
    if (sessionId) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown session"}');
      return;
    }
    const server = newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
}

/** An HTTP+SSE (deprecated transport) server: `GET /sse` opens the stream, `POST /messages?sessionId=` sends. */
export function startSsePeer(): Promise<McpPeer> {
  return httpPeer('/sse', async (req, res, newServer, sessions) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      const server = newServer();
      sessions.set(transport.sessionId, { server, transport });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await server.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const session = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (!session) {
        res.writeHead(404).end('unknown session');
        return;
      }
      await (session.transport as SSEServerTransport).handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
}

/** How to spawn the stdio peer (plain node, no TS loader): tools echo, add, fail, slow, pid, env {name}. */
export function stdioPeerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [fileURLToPath(new URL('./stdio-server.mjs', import.meta.url))] };
}
