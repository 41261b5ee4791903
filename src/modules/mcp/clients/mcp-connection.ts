import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  CallToolResult,
  McpError,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { APP_VERSION } from '../../../core/version.js';
import {
  McpCallError,
  type McpCallOptions,
  type McpRelayedMethod,
  type McpServerNotification,
  type McpToolDefinition,
} from '../mcp-contract.js';
import type { McpClientState } from './dto/mcp-client.dto.js';
import type { McpConnectionType } from './entities/mcp-client.entity.js';
import type { PolicyFetch } from './mcp-outbound-fetch.js';
import { listOffer, listPrompts, listResources, listTools, NOTHING_OFFERED } from './upstream-lists.js';
import { UPSTREAM_CLIENT_CAPABILITIES, UpstreamCalls } from './upstream-relay.js';
import { loadedMcpSdk, mcpSdk, type McpSdk } from '../mcp-sdk.js';

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
  /** The state, the tool list or what the server offers besides tools changed (the catalog is rebuilt). */
  onChange: () => void;
  /** What the server sent unasked: a resource update, a log line tied to no call. */
  onNotification?: (notification: McpServerNotification) => void;
  logger: Logger;
}

/** The result schema of a relayed request. */
function resultSchema(method: McpRelayedMethod, sdk: McpSdk) {
  const { CompleteResultSchema, EmptyResultSchema, GetPromptResultSchema, ReadResourceResultSchema } = sdk.types;
  switch (method) {
    case 'resources/read':
      return ReadResourceResultSchema;
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return EmptyResultSchema;
    case 'prompts/get':
      return GetPromptResultSchema;
    case 'completion/complete':
      return CompleteResultSchema;
  }
}

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
  /** The server's capabilities from `initialize` (empty until connected). */
  capabilities: ServerCapabilities = {};
  prompts: Prompt[] = [];
  resources: Resource[] = [];
  resourceTemplates: ResourceTemplate[] = [];
  private readonly calls = new UpstreamCalls();
  /** Resource URIs subscribed on the server, each with how many callers of this replica want it. */
  private readonly subscriptions = new Map<string, number>();
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
    // A transport exists only once the SDK is loaded.
    const transport = this.transport;
    return transport && transport instanceof loadedMcpSdk().StdioClientTransport
      ? (transport.pid ?? undefined)
      : undefined;
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

  /** Lists the prompts or the resources again after the server said they changed (a failure keeps the old list). */
  private refreshOffer(what: 'prompts' | 'resources'): void {
    const client = this.client;
    if (!client || this.state !== 'connected') return;
    const timeoutMs = this.deps.timings().connectTimeoutMs;
    const listed =
      what === 'prompts'
        ? listPrompts(client, timeoutMs).then((prompts) => ({ prompts }))
        : listResources(client, timeoutMs);
    listed
      .then((offer) => {
        if (this.client !== client) return;
        Object.assign(this, offer);
        this.deps.onChange();
      })
      .catch((err: unknown) =>
        this.deps.logger.warn({ client: this.name, err: messageOf(err) }, `mcp ${what} list refresh failed`),
      );
  }

  async callTool(toolName: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
    return this.relayed(
      `Tool ${toolName}`,
      options,
      (client, requestOptions) =>
        client.callTool(
          { name: toolName, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) },
          undefined,
          requestOptions,
        ) as Promise<CallToolResult>,
    );
  }

  /** Relays one request other than a tool call; failures as for `callTool`. */
  async request(
    method: McpRelayedMethod,
    params: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<Record<string, unknown>> {
    const withMeta = options.meta ? { ...params, _meta: options.meta } : params;
    return this.relayed(method, options, (client, requestOptions) =>
      client.request({ method, params: withMeta }, resultSchema(method, loadedMcpSdk()), requestOptions),
    );
  }

  /** Counts a caller's interest in `uri`; the first subscribes on the server (and undoes the count if that fails). */
  async subscribe(uri: string, options: McpCallOptions): Promise<void> {
    const count = this.subscriptions.get(uri) ?? 0;
    this.subscriptions.set(uri, count + 1);
    if (count > 0) return;
    try {
      await this.request('resources/subscribe', { uri }, options);
    } catch (err) {
      this.release(uri);
      throw err;
    }
  }

  /** Takes one caller's interest away; the last unsubscribes on the server (a failure there is only logged). */
  async unsubscribe(uri: string): Promise<void> {
    if (!this.release(uri) || this.state !== 'connected') return;
    await this.request('resources/unsubscribe', { uri }, { timeoutMs: this.deps.timings().connectTimeoutMs }).catch(
      (err: unknown) =>
        this.deps.logger.debug({ client: this.name, uri, err: messageOf(err) }, 'mcp unsubscribe failed'),
    );
  }

  /** One count less for `uri`; true when none is left. */
  private release(uri: string): boolean {
    const count = (this.subscriptions.get(uri) ?? 1) - 1;
    if (count > 0) this.subscriptions.set(uri, count);
    else this.subscriptions.delete(uri);
    return count <= 0;
  }

  /**
   * Runs one request over the kept connection with the caller's time limit and signal, its relay in force (progress,
   * log lines and server requests of the call go to the caller), and failures classified as `McpCallError`s.
   */
  private async relayed<T>(
    what: string,
    options: McpCallOptions,
    send: (client: Client, requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const client = this.client;
    if (!client || this.state !== 'connected') {
      throw new McpCallError('disconnected', `MCP client ${this.name} is not connected (${this.state})`);
    }
    const relay = options.relay;
    const requestOptions: RequestOptions = {
      timeout: options.timeoutMs,
      signal: options.signal,
      ...(relay?.progress ? { onprogress: (p) => relay.progress?.(p) } : {}),
    };
    try {
      return await this.calls.run(relay, () => send(client, requestOptions));
    } catch (err) {
      if (options.signal?.aborted) throw err;
      // A request was sent: the SDK is loaded.
      const { ErrorCode, McpError } = loadedMcpSdk().types;
      if (err instanceof McpError) {
        if (err.code === (ErrorCode.RequestTimeout as number)) {
          throw new McpCallError('timeout', `${what} did not answer within ${options.timeoutMs} ms`);
        }
        if (err.code === (ErrorCode.ConnectionClosed as number)) {
          throw new McpCallError('disconnected', `MCP client ${this.name}: ${err.message}`, err.code);
        }
        throw new McpCallError('jsonrpc', withoutSdkPrefix(err), err.code, err.data);
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
      const sdk = await mcpSdk();
      const {
        PromptListChangedNotificationSchema,
        ResourceListChangedNotificationSchema,
        ToolListChangedNotificationSchema,
      } = sdk.types;
      const transport = this.makeTransport(config, sdk);
      client = new sdk.Client(
        { name: 'ai-gateway', version: APP_VERSION },
        { capabilities: UPSTREAM_CLIENT_CAPABILITIES },
      );
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
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
        if (this.client === current) this.refreshOffer('prompts');
      });
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        if (this.client === current) this.refreshOffer('resources');
      });
      this.calls.install(client, sdk, (notification) => {
        if (this.client === current) this.deps.onNotification?.(notification);
      });
      this.client = client;
      this.transport = transport;
      await client.connect(transport, { timeout: timings.connectTimeoutMs });
      const capabilities = client.getServerCapabilities() ?? {};
      const [tools, offer] = await Promise.all([
        listTools(client, timings.connectTimeoutMs),
        // A server that declares prompts or resources and then fails to list them still serves its tools.
        listOffer(client, capabilities, timings.connectTimeoutMs).catch((err: unknown) => {
          this.deps.logger.warn({ client: this.name, err: messageOf(err) }, 'mcp prompts or resources not listed');
          return NOTHING_OFFERED;
        }),
      ]);
      if (this.closed || this.client !== current) {
        await current.close().catch(() => undefined);
        throw new Error('connection closed');
      }
      this.tools = tools;
      this.capabilities = capabilities;
      this.prompts = offer.prompts;
      this.resources = offer.resources;
      this.resourceTemplates = offer.resourceTemplates;
      this.resubscribe(current);
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

  private makeTransport(config: ResolvedConnectionConfig, sdk: McpSdk): Transport {
    const { SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport, getDefaultEnvironment } = sdk;
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

  /** A new connection (a reconnect) subscribes again to every resource callers still want. */
  private resubscribe(client: Client): void {
    for (const uri of this.subscriptions.keys()) {
      client
        .subscribeResource({ uri }, { timeout: this.deps.timings().connectTimeoutMs })
        .catch((err: unknown) =>
          this.deps.logger.warn({ client: this.name, uri, err: messageOf(err) }, 'mcp resubscribe failed'),
        );
    }
  }

  private startTimers(): void {
    const timings = this.deps.timings();
    this.pingTimer = setInterval(() => void this.ping(), timings.pingIntervalMs);
    this.pingTimer.unref();
    this.refreshTimer = setInterval(() => {
      if (this.state !== 'connected') return;
      this.refreshTools().catch(() => undefined);
      if (this.capabilities.prompts) this.refreshOffer('prompts');
      if (this.capabilities.resources) this.refreshOffer('resources');
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

/**
 * The server's message without `MCP error <code>: `: the SDK client's McpError puts it before the message, and a
 * server on the SDK that threw an McpError sent it already; the caller's SDK client adds its own.
 */
function withoutSdkPrefix(err: McpError): string {
  const prefix = `MCP error ${err.code}: `;
  let message = err.message;
  while (message.startsWith(prefix)) message = message.slice(prefix.length);
  return message;
}
