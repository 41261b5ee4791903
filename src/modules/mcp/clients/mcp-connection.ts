import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { APP_VERSION } from '../../../core/version.js';
import { McpCallError, type McpToolDefinition } from '../mcp-contract.js';
import type { McpClientState } from './dto/mcp-client.dto.js';
import type { McpConnectionType } from './entities/mcp-client.entity.js';
import type { PolicyFetch } from './mcp-outbound-fetch.js';

/** What a connection needs, secrets resolved. */
export interface ResolvedConnectionConfig {
  type: McpConnectionType;
  url?: string;
  headers: Record<string, string>;
  stdio?: { command: string; args: string[]; env: Record<string, string> };
}

/** Intervals of the connection lifecycle, in ms. */
export interface McpConnectionTimings {
  /** Deadline of connect + initialize + first tools/list. */
  connectTimeoutMs: number;
  /** Health check (`ping`) period of a connected client. */
  pingIntervalMs: number;
  pingTimeoutMs: number;
  /** Tool list refresh period (besides `notifications/tools/list_changed`). */
  toolRefreshIntervalMs: number;
  /** First reconnect delay; doubled per failed attempt up to `reconnectMaxMs`. */
  reconnectBaseMs: number;
  reconnectMaxMs: number;
}

export const DEFAULT_TIMINGS: McpConnectionTimings = {
  connectTimeoutMs: 15_000,
  pingIntervalMs: 15_000,
  pingTimeoutMs: 5_000,
  toolRefreshIntervalMs: 10 * 60_000,
  reconnectBaseMs: 1_000,
  reconnectMaxMs: 60_000,
};

export interface ConnectionDeps {
  resolve: () => Promise<ResolvedConnectionConfig>;
  fetch: PolicyFetch;
  timings: () => McpConnectionTimings;
  /** The state or tool list changed (the catalog is rebuilt). */
  onChange: () => void;
  logger: Logger;
}

const MAX_TOOL_PAGES = 50;

function messageOf(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const inner =
      cause instanceof Error && cause.message && !err.message.includes(cause.message) ? `: ${cause.message}` : '';
    return `${err.message}${inner}`;
  }
  return String(err);
}

/**
 * One kept connection to one registered MCP server (an SDK Client and its transport), on this replica: connected
 * once, health-checked with `ping`, reconnected with exponential backoff when lost, its tool list refreshed on
 * `notifications/tools/list_changed` and periodically. `close()` ends it for good (and kills a stdio child).
 */
export class McpConnection {
  state: McpClientState = 'disconnected';
  tools: McpToolDefinition[] = [];
  lastError: string | null = null;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;
  private pinging = false;

  constructor(
    readonly id: string,
    readonly name: string,
    private readonly deps: ConnectionDeps,
  ) {}

  /** The stdio child's pid while one runs. */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** Connects now (replacing any current connection); throws the reason on failure, leaving state `error`. */
  connect(): Promise<void> {
    this.connecting ??= this.doConnect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Connects in the background, retrying with backoff until it works or the connection is closed. */
  start(): void {
    void this.connect().catch(() => this.scheduleReconnect());
  }

  /** Lists the tools again; the count listed. Throws when not connected or the listing fails. */
  async refreshTools(): Promise<number> {
    const client = this.client;
    if (!client || this.state !== 'connected') {
      throw new McpCallError('disconnected', `MCP client ${this.name} is not connected (${this.state})`);
    }
    this.tools = await listTools(client, this.deps.timings().connectTimeoutMs);
    this.deps.onChange();
    return this.tools.length;
  }

  async callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this.state !== 'connected') {
      throw new McpCallError('disconnected', `MCP client ${this.name} is not connected (${this.state})`);
    }
    try {
      return (await client.callTool({ name: toolName, arguments: args }, undefined, {
        timeout: options.timeoutMs,
        signal: options.signal,
      })) as CallToolResult;
    } catch (err) {
      if (options.signal?.aborted) throw err;
      if (err instanceof McpError) {
        if (err.code === (ErrorCode.RequestTimeout as number)) {
          throw new McpCallError('timeout', `Tool ${toolName} did not answer within ${options.timeoutMs} ms`);
        }
        if (err.code === (ErrorCode.ConnectionClosed as number)) {
          throw new McpCallError('disconnected', `MCP client ${this.name}: ${err.message}`, err.code);
        }
        throw new McpCallError('jsonrpc', err.message, err.code);
      }
      // A transport failure: check the connection now rather than at the next ping.
      void this.ping();
      throw new McpCallError('transport', `MCP client ${this.name}: ${messageOf(err)}`);
    }
  }

  /** Ends the connection for good: timers stopped, transport closed, a stdio child killed. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopTimers();
    clearTimeout(this.reconnectTimer);
    this.state = 'disconnected';
    await this.dropClient();
  }

  // ---- lifecycle ----

  private async doConnect(): Promise<void> {
    clearTimeout(this.reconnectTimer);
    this.stopTimers();
    await this.dropClient();
    if (this.closed) throw new Error('connection closed');
    const timings = this.deps.timings();
    let client: Client | undefined;
    try {
      const config = await this.deps.resolve();
      const transport = this.makeTransport(config);
      client = new Client({ name: 'ai-gateway', version: APP_VERSION }, { capabilities: {} });
      const current = client;
      client.onclose = () => {
        if (this.client === current) this.lost('the connection was closed by the server');
      };
      client.onerror = (err) => {
        if (this.client === current)
          this.deps.logger.debug({ client: this.name, err: messageOf(err) }, 'mcp transport error');
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (this.client !== current) return;
        this.refreshTools().catch((err: unknown) =>
          this.deps.logger.warn({ client: this.name, err: messageOf(err) }, 'mcp tool list refresh failed'),
        );
      });
      this.client = client;
      this.transport = transport;
      await client.connect(transport, { timeout: timings.connectTimeoutMs });
      const tools = await listTools(client, timings.connectTimeoutMs);
      if (this.closed || this.client !== current) {
        await current.close().catch(() => undefined);
        throw new Error('connection closed');
      }
      this.tools = tools;
      this.state = 'connected';
      this.lastError = null;
      this.attempt = 0;
      this.startTimers();
      this.deps.onChange();
    } catch (err) {
      if (client && this.client === client) await this.dropClient();
      if (!this.closed) {
        this.state = 'error';
        this.lastError = messageOf(err);
        this.deps.onChange();
      }
      throw err;
    }
  }

  private makeTransport(config: ResolvedConnectionConfig): Transport {
    const fetch = this.deps.fetch.fetch;
    switch (config.type) {
      case 'http':
        return new StreamableHTTPClientTransport(new URL(config.url ?? ''), {
          fetch,
          requestInit: { headers: config.headers },
        });
      case 'sse':
        return new SSEClientTransport(new URL(config.url ?? ''), { fetch, requestInit: { headers: config.headers } });
      case 'stdio': {
        const stdio = config.stdio ?? { command: '', args: [], env: {} };
        return new StdioClientTransport({
          command: stdio.command,
          args: stdio.args,
          env: { ...getDefaultEnvironment(), ...stdio.env },
          stderr: 'ignore',
        });
      }
    }
  }

  /** The connection is gone: state error, then reconnect with backoff. */
  private lost(reason: string): void {
    if (this.closed) return;
    this.stopTimers();
    this.state = 'error';
    this.lastError = reason;
    this.deps.onChange();
    void this.dropClient();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    clearTimeout(this.reconnectTimer);
    const { reconnectBaseMs, reconnectMaxMs } = this.deps.timings();
    const delay = Math.min(reconnectBaseMs * 2 ** Math.min(this.attempt, 20), reconnectMaxMs);
    this.attempt++;
    this.reconnectTimer = setTimeout(() => {
      this.connect().catch((err: unknown) => {
        this.deps.logger.debug(
          { client: this.name, err: messageOf(err), attempt: this.attempt },
          'mcp reconnect failed',
        );
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }

  private startTimers(): void {
    const timings = this.deps.timings();
    this.pingTimer = setInterval(() => void this.ping(), timings.pingIntervalMs);
    this.pingTimer.unref();
    this.refreshTimer = setInterval(() => {
      if (this.state === 'connected') this.refreshTools().catch(() => undefined);
    }, timings.toolRefreshIntervalMs);
    this.refreshTimer.unref();
  }

  private stopTimers(): void {
    clearInterval(this.pingTimer);
    clearInterval(this.refreshTimer);
    this.pingTimer = this.refreshTimer = undefined;
  }

  private async ping(): Promise<void> {
    const client = this.client;
    if (!client || this.state !== 'connected' || this.pinging) return;
    this.pinging = true;
    try {
      await client.ping({ timeout: this.deps.timings().pingTimeoutMs });
    } catch (err) {
      if (this.client === client) this.lost(`health check failed: ${messageOf(err)}`);
    } finally {
      this.pinging = false;
    }
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    if (client) await client.close().catch(() => undefined);
  }
}

async function listTools(client: Client, timeoutMs: number): Promise<McpToolDefinition[]> {
  const tools: McpToolDefinition[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    for (const t of result.tools) {
      tools.push({
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        inputSchema: t.inputSchema,
      });
    }
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
