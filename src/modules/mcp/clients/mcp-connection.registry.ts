import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { Repository } from 'typeorm';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { VirtualKeyMcpGrant } from '../../../core/auth/principal.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { QueueService } from '../../../core/queue/queue.service.js';
import { InvalidationBus } from '../../../core/redis/invalidation.bus.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import {
  exposedToolName,
  McpCallError,
  splitToolName,
  McpToolCatalog,
  McpToolTransport,
  type ExposedClient,
  type ExposedTool,
  type McpCallOptions,
  type McpCaller,
  type McpRelayedMethod,
  type McpServerNotification,
  type McpToolDefinition,
} from '../mcp-contract.js';
import type { McpClientState } from './dto/mcp-client.dto.js';
import { McpClientEntity, type StoredStdioConfig } from './entities/mcp-client.entity.js';
import {
  DEFAULT_TIMINGS,
  McpConnection,
  type McpConnectionTimings,
  type ResolvedConnectionConfig,
} from './mcp-connection.js';
import { PolicyFetch } from './mcp-outbound-fetch.js';
import type { LiveConnection } from './live-connection.js';
import { McpClientStatusStore } from './stdio/mcp-client-status.store.js';
import { WorkerRoutedConnection } from './stdio/worker-routed-connection.js';
import { VIRTUAL_KEYS_TOPIC } from '../../governance/index.js';

/** Invalidation topic of MCP client registrations: `<action>:<client id>:<origin replica>`. */
export const MCP_CLIENTS_TOPIC = 'mcp:clients';
export type McpClientsAction = 'changed' | 'refresh' | 'reconnect' | 'status';

interface Registered {
  entity: McpClientEntity;
  /** Undefined while disabled. */
  connection?: LiveConnection;
  /** What the connection was made from: a change of it reconnects. */
  fingerprint: string;
}

/** The parts of a registration a connection is made of. */
export function connectionFingerprint(e: McpClientEntity): string {
  return JSON.stringify([e.connection_type, e.connection_string, e.stdio_config, e.headers, e.disabled]);
}

/**
 * This replica's live MCP connections, one per registration, and what is read from them on the request path: the
 * tool catalog (`McpToolCatalog`, synchronous from memory) and tool calls (`McpToolTransport`). Every replica loads
 * every registration at start and connects to the enabled ones; a change made on any replica is published on the
 * invalidation bus and each replica reloads that registration and reconciles its own connection.
 *
 * stdio servers are children of the processes of role `worker` or `all` only: those report each stdio connection's
 * state and tools (`mcp_client_status`, then `status:<id>` on the bus), and an `api` replica holds a
 * `WorkerRoutedConnection` instead, which reads that report and sends calls to a worker through the queue.
 */
@Injectable()
export class McpConnectionRegistry
  implements McpToolCatalog, McpToolTransport, OnApplicationBootstrap, OnApplicationShutdown
{
  /** Connection intervals (tests shorten them). */
  timings: McpConnectionTimings = { ...DEFAULT_TIMINGS };
  private readonly clients = new Map<string, Registered>();
  private readonly origin = randomUUID();
  private readonly fetcher: PolicyFetch;
  /** Per virtual key id: its clients and tools, and the grant list (by identity) they were computed from. */
  private catalog = new Map<string, CatalogEntry>();
  private unsubscribeClients: (() => void) | undefined;
  private unsubscribeKeys: (() => void) | undefined;
  private closing = false;
  private readonly changeListeners = new Set<() => void>();
  private readonly notificationListeners = new Set<(clientId: string, notification: McpServerNotification) => void>();
  /** Whether this process spawns stdio servers (roles worker and all). */
  private readonly stdioHere: boolean;
  /** Pending status reports of local stdio connections, by client id. */
  private readonly reports = new Map<string, NodeJS.Timeout>();

  constructor(
    @InjectRepository(McpClientEntity) private readonly repository: Repository<McpClientEntity>,
    private readonly secrets: SecretsService,
    private readonly bus: InvalidationBus,
    @Inject(LOGGER) private readonly logger: Logger,
    config: GatewayConfig,
    private readonly queue: QueueService,
    private readonly status: McpClientStatusStore,
  ) {
    this.fetcher = new PolicyFetch(config.outbound);
    this.stdioHere = config.role !== 'api';
  }

  async onApplicationBootstrap(): Promise<void> {
    this.unsubscribeClients = this.bus.subscribe(MCP_CLIENTS_TOPIC, (message) => this.onMessage(message));
    // A virtual key's grants changed (or the key went) on some replica: drop the catalogs built from the old ones.
    this.unsubscribeKeys = this.bus.subscribe(VIRTUAL_KEYS_TOPIC, () => this.changed());
    // Connections are made in the background: a server down at start must not hold the gateway back.
    await this.reconcileAll().catch((err: unknown) =>
      this.logger.warn({ err: (err as Error).message }, 'mcp clients could not be loaded at start'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    for (const timer of this.reports.values()) clearTimeout(timer);
    this.reports.clear();
    this.unsubscribeClients?.();
    this.unsubscribeKeys?.();
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(all.map((r) => (r.connection ? r.connection.close() : Promise.resolve())));
    await this.fetcher.close();
  }

  // ---- for the management service ----

  /**
   * A connection for `entity`, not yet registered: the service connects it to validate a create or update. A stdio
   * client on an `api` replica gets a connection routed to a worker (its connect is a probe there).
   */
  newConnection(entity: McpClientEntity): LiveConnection {
    const snapshot = { ...entity };
    if (entity.connection_type === 'stdio' && !this.stdioHere) {
      return new WorkerRoutedConnection(entity.id ?? 'pending', entity.name, {
        queue: this.queue,
        status: this.status,
        stdioConfig: snapshot.stdio_config,
        controlTimeoutMs: () => this.timings.connectTimeoutMs,
        onChange: () => this.changed(),
        logger: this.logger,
      });
    }
    return this.localConnection(snapshot);
  }

  /** A connection made by this process (a stdio one spawns the child here). */
  private localConnection(snapshot: McpClientEntity): McpConnection {
    const stdio = snapshot.connection_type === 'stdio';
    const connection: McpConnection = new McpConnection(snapshot.id ?? 'pending', snapshot.name, {
      resolve: () => this.resolveConfig(snapshot),
      fetch: this.fetcher,
      timings: () => this.timings,
      onChange: () => {
        this.changed();
        if (stdio) this.reportLater(connection);
      },
      onNotification: (notification) => this.notifyListeners(connection.id, notification),
      logger: this.logger,
    });
    return connection;
  }

  /**
   * Registers a saved registration with its connection (already connected, or undefined to keep the current one when
   * nothing it is made of changed, or to make one in the background). Closes a replaced connection.
   */
  async adopt(entity: McpClientEntity, connection?: LiveConnection): Promise<void> {
    const previous = this.clients.get(entity.id);
    const fingerprint = connectionFingerprint(entity);
    let next = connection;
    if (!next && previous?.connection && previous.fingerprint === fingerprint) next = previous.connection;
    if (previous?.connection && previous.connection !== next) await previous.connection.close();
    if (!next && !entity.disabled) {
      next = this.newConnection(entity);
      next.start();
    }
    if (entity.disabled && next) {
      await next.close();
      next = undefined;
    }
    if (next) Object.assign(next, { id: entity.id, name: entity.name });
    this.clients.set(entity.id, { entity, connection: next, fingerprint });
    this.changed();
    // A connection made before it was registered (the create check) reported nothing yet.
    if (next instanceof McpConnection && entity.connection_type === 'stdio') this.reportLater(next);
  }

  async forget(id: string): Promise<void> {
    const previous = this.clients.get(id);
    this.clients.delete(id);
    this.changed();
    await previous?.connection?.close();
  }

  connectionOf(id: string): LiveConnection | undefined {
    return this.clients.get(id)?.connection;
  }

  stateOf(entity: McpClientEntity): {
    state: McpClientState;
    tools: LiveConnection['tools'];
    last_error: string | null;
  } {
    if (entity.disabled) return { state: 'disabled', tools: [], last_error: null };
    const connection = this.clients.get(entity.id)?.connection;
    if (!connection) return { state: 'disconnected', tools: [], last_error: null };
    return { state: connection.state, tools: connection.tools, last_error: connection.lastError };
  }

  /** Tells every other replica (this one has acted already). */
  publish(action: McpClientsAction, id: string): Promise<void> {
    return this.bus.publish(MCP_CLIENTS_TOPIC, `${action}:${id}:${this.origin}`);
  }

  // ---- McpToolCatalog ----

  toolsFor(caller: McpCaller): readonly ExposedTool[] {
    return this.entryFor(caller).tools;
  }

  clientsFor(caller: McpCaller): readonly ExposedClient[] {
    return this.entryFor(caller).clients;
  }

  toolExists(name: string): boolean {
    const split = splitToolName(name);
    if (!split) return false;
    for (const { entity, connection } of this.clients.values()) {
      if (entity.name !== split.client) continue;
      return (
        !entity.disabled && connection?.state === 'connected' && connection.tools.some((t) => t.name === split.tool)
      );
    }
    return false;
  }

  /** The caller's clients and tools, built once per key and grant list. */
  private entryFor(caller: McpCaller): CatalogEntry {
    const key = caller.virtualKey?.id ?? '';
    const keyGrants = caller.virtualKey?.mcp_grants ?? NO_GRANTS;
    const cached = this.catalog.get(key);
    // The grants come from the key cache, which hands out a new array after every change of the key: an entry built
    // from other grants is stale even if the bus message dropping it has not arrived yet.
    if (cached && cached.grants === keyGrants) return cached;
    const tools: ExposedTool[] = [];
    const clients: ExposedClient[] = [];
    for (const { entity, connection } of this.clients.values()) {
      if (entity.disabled || !connection || connection.state !== 'connected') continue;
      const grants: Array<readonly string[] | undefined> = [];
      const vkConfig = key ? entity.vk_configs.find((c) => c.virtual_key_id === key) : undefined;
      if (vkConfig) grants.push(vkConfig.tools_to_execute);
      for (const g of keyGrants) if (g.mcp_client_id === entity.id) grants.push(g.tools_to_execute);
      if (!entity.allow_on_all_virtual_keys && !grants.length) continue;
      const timeoutMs = entity.tool_execution_timeout * 1000;
      clients.push({
        id: entity.id,
        name: entity.name,
        capabilities: connection.capabilities,
        prompts: connection.prompts,
        resources: connection.resources,
        resourceTemplates: connection.resourceTemplates,
        timeoutMs,
      });
      const allowed = (name: string) =>
        listed(entity.tools_to_execute, name) &&
        (!grants.length || grants.some((list) => list === undefined || listed(list, name)));
      for (const tool of connection.tools) {
        if (!allowed(tool.name)) continue;
        tools.push({
          name: exposedToolName(entity.name, tool.name),
          clientId: entity.id,
          clientName: entity.name,
          tool,
          autoExecute: listed(entity.tools_to_auto_execute, tool.name),
          costUsd: entity.tool_pricing[tool.name] ?? 0,
          timeoutMs,
        });
      }
    }
    tools.sort(byName);
    clients.sort(byName);
    const entry = { grants: keyGrants, tools: Object.freeze(tools), clients: Object.freeze(clients) };
    if (this.catalog.size >= 10_000) this.catalog.clear();
    this.catalog.set(key, entry);
    return entry;
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  // ---- McpToolTransport ----

  callTool(
    clientId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult> {
    return this.live(clientId).then((connection) => connection.callTool(toolName, args, options));
  }

  request(
    clientId: string,
    method: McpRelayedMethod,
    params: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<Record<string, unknown>> {
    return this.live(clientId).then((connection) => connection.request(method, params, options));
  }

  subscribe(clientId: string, uri: string, options: McpCallOptions): Promise<void> {
    return this.live(clientId).then((connection) => connection.subscribe(uri, options));
  }

  async unsubscribe(clientId: string, uri: string): Promise<void> {
    await this.clients.get(clientId)?.connection?.unsubscribe(uri);
  }

  onServerNotification(listener: (clientId: string, notification: McpServerNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  /** The client's connection, or a rejection when it is unknown, disabled or not connected here. */
  private live(clientId: string): Promise<LiveConnection> {
    const registered = this.clients.get(clientId);
    if (!registered?.connection || registered.entity.disabled) {
      return Promise.reject(new McpCallError('disconnected', `MCP client ${clientId} is not connected`));
    }
    return Promise.resolve(registered.connection);
  }

  private notifyListeners(clientId: string, notification: McpServerNotification): void {
    for (const listener of this.notificationListeners) {
      try {
        listener(clientId, notification);
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'mcp server notification listener failed');
      }
    }
  }

  // ---- replication ----

  private changed(): void {
    this.catalog = new Map();
    for (const listener of this.changeListeners) {
      try {
        listener();
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'mcp catalog change listener failed');
      }
    }
  }

  private onMessage(message: string | undefined): void {
    if (this.closing) return;
    if (message === undefined) {
      void this.reconcileAll().catch((err: unknown) =>
        this.logger.warn({ err: (err as Error).message }, 'mcp clients could not be reloaded'),
      );
      return;
    }
    const [action, id, origin] = message.split(':');
    if (!id || origin === this.origin) return;
    const work = async () => {
      if (action === 'changed') return this.reconcile(id);
      const connection = this.connectionOf(id);
      if (!connection) return;
      if (action === 'status') {
        if (connection instanceof WorkerRoutedConnection) await connection.reload();
        return;
      }
      // A routed connection's refresh and reconnect are the workers' (they got the same message).
      if (connection instanceof WorkerRoutedConnection) return;
      if (action === 'refresh') await connection.refreshTools();
      else if (action === 'reconnect') await connection.connect();
    };
    void work().catch((err: unknown) =>
      this.logger.warn(
        { err: (err as Error).message, client: id, action },
        'mcp client update from another replica failed',
      ),
    );
  }

  private async reconcile(id: string): Promise<void> {
    const entity = await this.repository.findOneBy({ id });
    if (this.closing) return;
    if (!entity) return this.forget(id);
    const current = this.clients.get(id);
    if (current && current.entity.updated_at.getTime() === entity.updated_at.getTime()) return;
    await this.adopt(entity);
  }

  private async reconcileAll(): Promise<void> {
    const rows = await this.repository.find({ order: { name: 'ASC' } });
    const ids = new Set(rows.map((r) => r.id));
    for (const id of [...this.clients.keys()]) if (!ids.has(id)) await this.forget(id);
    for (const row of rows) {
      if (this.closing) return;
      const current = this.clients.get(row.id);
      if (current && current.entity.updated_at.getTime() === row.updated_at.getTime()) {
        // Status reports may have been lost with the other messages.
        if (current.connection instanceof WorkerRoutedConnection) await current.connection.reload();
        continue;
      }
      await this.adopt(row);
    }
  }

  // ---- stdio on workers ----

  /**
   * Spawns a stdio server from an unsaved config, lists its tools and stops it: the create/update check an `api`
   * replica asks a worker for.
   */
  async probeStdio(id: string, name: string, stdioConfig: StoredStdioConfig): Promise<McpToolDefinition[]> {
    const entity = this.repository.create({
      id,
      name,
      connection_type: 'stdio',
      connection_string: null,
      stdio_config: stdioConfig,
      headers: {},
    });
    const connection = this.localConnection(entity);
    try {
      await connection.connect();
      return connection.tools;
    } catch (err) {
      throw new Error(connection.lastError ?? (err as Error).message, { cause: err });
    } finally {
      await connection.close();
    }
  }

  /** Writes a local stdio connection's state for `api` replicas (coalesced), then tells them. */
  private reportLater(connection: McpConnection): void {
    if (this.closing || this.reports.has(connection.id)) return;
    const timer = setTimeout(() => {
      this.reports.delete(connection.id);
      void this.report(connection);
    }, REPORT_SETTLE_MS);
    timer.unref();
    this.reports.set(connection.id, timer);
  }

  private async report(connection: McpConnection): Promise<void> {
    const id = connection.id;
    // Only the registered connection speaks for the client (not a create check's, nor one replaced meanwhile); and
    // only once it connected or failed: `disconnected` is a connection still making its first attempt, which would
    // hide the create check's result from the api replicas for that long.
    if (this.closing || this.clients.get(id)?.connection !== connection) return;
    if (connection.state === 'disconnected') return;
    const reported = await this.status.report(id, {
      state: connection.state,
      tools: connection.tools,
      last_error: connection.lastError,
    });
    if (reported) await this.publish('status', id);
  }

  private async resolveConfig(entity: McpClientEntity): Promise<ResolvedConnectionConfig> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(entity.headers ?? {})) headers[name] = await this.secrets.resolve(value);
    if (entity.connection_type === 'stdio') {
      const stdio = entity.stdio_config;
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(stdio?.envs ?? {})) env[name] = await this.secrets.resolve(value);
      return {
        type: 'stdio',
        headers,
        stdio: { command: stdio?.command ?? '', args: stdio?.args ?? [], env },
      };
    }
    return { type: entity.connection_type, url: entity.connection_string ?? '', headers };
  }
}

const NO_GRANTS: readonly VirtualKeyMcpGrant[] = Object.freeze([]);

interface CatalogEntry {
  grants: readonly VirtualKeyMcpGrant[];
  tools: readonly ExposedTool[];
  clients: readonly ExposedClient[];
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
/** State changes come in bursts (connected, then the tool list): one report per burst. */
const REPORT_SETTLE_MS = 20;

/** `["*"]` lists every name, `[]` none. */
function listed(list: readonly string[], name: string): boolean {
  return list.includes('*') || list.includes(name);
}
