import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { MaybePromise } from '../../core/async/maybe-promise.js';

/** The parts of the MCP SDK the gateway runs: its client (upstream connections) and its server (`/mcp`). */
export interface McpSdk {
  Client: typeof Client;
  SSEClientTransport: typeof SSEClientTransport;
  StdioClientTransport: typeof StdioClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  getDefaultEnvironment: typeof getDefaultEnvironment;
  Server: typeof Server;
  StreamableHTTPServerTransport: typeof StreamableHTTPServerTransport;
  /**
   * One JSON-schema validator for every per-request `Server` (the SDK builds an Ajv instance per Server otherwise, a
   * measurable share of a call; the gateway's server validates nothing it relays).
   */
  schemaValidator: AjvJsonSchemaValidator;
  /** The protocol's message schemas, `McpError` and `ErrorCode`. */
  types: typeof import('@modelcontextprotocol/sdk/types.js');
}

let loaded: McpSdk | undefined;
let loading: Promise<McpSdk> | undefined;

async function load(): Promise<McpSdk> {
  const [client, sse, stdio, streamableClient, server, streamableServer, ajv, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: streamableClient.StreamableHTTPClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    Server: server.Server,
    StreamableHTTPServerTransport: streamableServer.StreamableHTTPServerTransport,
    schemaValidator: new ajv.AjvJsonSchemaValidator(),
    types,
  };
}

/**
 * The MCP SDK, imported on first use: the first upstream connection or the first `/mcp` request. With zod and the
 * protocol's schemas it holds about 7 MB of V8 heap for as long as the process lives, which a gateway that has no
 * MCP client and gets no MCP request never needs. Once loaded it is returned as is (no promise to await).
 */
export function mcpSdk(): MaybePromise<McpSdk> {
  if (loaded) return loaded;
  loading ??= load().then(
    (sdk) => (loaded = sdk),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** The SDK where it must already be loaded: past a connection's `connect()` or inside a server's request handler. */
export function loadedMcpSdk(): McpSdk {
  if (!loaded) throw new Error('The MCP SDK is used before it was loaded');
  return loaded;
}
