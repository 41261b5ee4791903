import { createHash } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { drainGateOf } from '../../../core/http/drain-gate.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { VirtualKeysService } from '../../governance/index.js';
import { McpToolCatalog, McpToolTransport, type McpServerNotification } from '../mcp-contract.js';
import { logFromClient, type Exchange } from './caller-relay.js';
import { GatewayMcpServer, hijack, type Scope } from './gateway-mcp-server.js';
import type { McpSession } from './mcp-sessions.js';
import { isPending } from '../../../core/async/maybe-promise.js';
import { mcpSdk } from '../mcp-sdk.js';

/** Most standalone streams one replica keeps open; one more is refused with 503. */
export const MAX_MCP_STREAMS = 10_000;
/** The lists a stream announces changes of, each with its notification. */
const LISTS = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
} as const;
type ListName = keyof typeof LISTS;
type Signatures = Record<ListName, string>;
/** Catalog changes come in bursts (a reconnect, a reload of every client): one look per burst. */
const SETTLE_MS = 25;

interface OpenStream {
  scope: Scope;
  session?: McpSession;
  /** The virtual key value the stream was opened with: re-verified on every change (grants, key disabled). */
  credential?: string;
  server: Server;
  transport: StreamableHTTPServerTransport;
  /** Hash of each list as last announced (or seen at open). */
  signatures: Signatures;
}

/**
 * The standalone SSE streams of `/mcp` and `/mcp/{client}` (GET): where the server sends what nobody asked for.
 * - `list_changed` of tools, prompts and resources: whenever the catalog may have changed on this replica (a client
 *   written here or on another replica and relayed by the invalidation bus, a connection's lists or state, a virtual
 *   key's grants), each stream's lists are computed again and a notification goes only to the streams whose list
 *   differs from the one they last saw.
 * - `notifications/resources/updated` for a resource the stream's session subscribed to (`McpSessions`), from the
 *   upstream server through this replica's own connection.
 * - `notifications/message`: a server's log lines tied to no request, to the streams whose scope reaches that client
 *   (at or above the session's level; on `/mcp` the `logger` names the client).
 * Each stream has its own SDK `Server` and transport. A stream whose key stopped working is closed.
 */
@Injectable()
export class McpStreams implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly streams = new Set<OpenStream>();
  private unsubscribe: (() => void) | undefined;
  private unsubscribeNotifications: (() => void) | undefined;
  private undrain: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closing = false;

  constructor(
    private readonly catalog: McpToolCatalog,
    private readonly transport: McpToolTransport,
    private readonly mcp: GatewayMcpServer,
    private readonly virtualKeys: VirtualKeysService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.streams.size;
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.catalog.onChange(() => this.schedule());
    this.unsubscribeNotifications = this.transport.onServerNotification((clientId, notification) =>
      this.relayNotification(clientId, notification),
    );
  }

  /**
   * Before the HTTP server closes, not after: Fastify's close waits for every busy connection, and these streams never
   * end by themselves, so a client that keeps one open would hold `app.close()` forever.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    this.unsubscribe?.();
    this.unsubscribeNotifications?.();
    this.undrain?.();
    clearTimeout(this.timer);
    await this.closeAll();
  }

  /** Answers one GET: hijacks the reply and keeps the SDK transport's SSE stream open until the client leaves. */
  async open(request: FastifyRequest, reply: FastifyReply, scope: Scope): Promise<void> {
    const loading = mcpSdk();
    const sdk = isPending(loading) ? await loading : loading;
    const session = this.mcp.sessions.resolve(request.headers['mcp-session-id'], scope.caller, scope.client);
    // Checked before the SDK transport would answer it with a JSON-RPC body: every refusal here is a GatewayError.
    if (!(request.headers.accept ?? '').includes('text/event-stream')) {
      throw GatewayException.validation('accept', 'accept must include text/event-stream (the standalone SSE stream)');
    }
    if (this.closing) throw new GatewayException(503, 'service_unavailable', 'The gateway is shutting down');
    if (this.streams.size >= MAX_MCP_STREAMS) {
      throw new GatewayException(503, 'service_unavailable', 'Too many open MCP streams on this replica: retry later', {
        headers: { 'retry-after': '5' },
      });
    }
    // The first stream ties them all to the shutdown drain (they never end by themselves).
    this.undrain ??= drainGateOf(request.server)?.whenDraining(() => void this.closeAll());
    const stream: OpenStream = {
      scope,
      session,
      credential: request.principal?.virtualKey?.presented_value,
      server: this.mcp.serverFor({ scope, session }, undefined, sdk),
      transport: new sdk.StreamableHTTPServerTransport({ sessionIdGenerator: undefined }),
      signatures: await this.signaturesOf(scope),
    };
    const raw = hijack(reply);
    this.streams.add(stream);
    raw.once('close', () => {
      this.streams.delete(stream);
      void stream.transport.close();
      void stream.server.close();
    });
    try {
      await stream.server.connect(stream.transport);
      await stream.transport.handleRequest(request.raw, raw);
    } catch (err) {
      const { status, body } = toErrorResponse(err);
      this.logger.error({ err, event_id: body.event_id, request_id: request.id }, 'MCP stream failed');
      if (raw.headersSent) raw.destroy();
      else raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    }
  }

  private schedule(): void {
    if (this.closing || this.streams.size === 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, SETTLE_MS);
    this.timer.unref();
  }

  /** One look at every stream at a time; a change during a look makes one more. */
  private run(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.notifyChanged()
      .catch((err: unknown) => this.logger.warn({ err: (err as Error).message }, 'mcp list_changed relay failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.run();
        }
      });
  }

  private async notifyChanged(): Promise<void> {
    for (const stream of [...this.streams]) {
      if (!this.streams.has(stream)) continue;
      const scope = await this.currentScope(stream);
      if (!scope) {
        await this.close(stream);
        continue;
      }
      stream.scope = scope;
      const signatures = await this.signaturesOf(scope);
      for (const list of Object.keys(LISTS) as ListName[]) {
        if (signatures[list] === stream.signatures[list]) continue;
        stream.signatures[list] = signatures[list];
        // A list the stream's server does not declare (a client without prompts) has nothing to announce.
        if (list !== 'tools' && !this.mcp.capabilitiesFor(scope)[list]) continue;
        await stream.server.notification({ method: LISTS[list] }).catch((err: unknown) => {
          this.logger.debug({ err: (err as Error).message }, 'list_changed could not be sent');
        });
      }
    }
  }

  /** A server's unasked notification, to the streams it is for. */
  private relayNotification(clientId: string, notification: McpServerNotification): void {
    for (const stream of this.streams) {
      const client = this.mcp.clientsOf(stream.scope).find((c) => c.id === clientId);
      if (!client) continue;
      const exchange: Exchange = { scope: stream.scope, session: stream.session };
      if (notification.method === 'notifications/resources/updated') {
        if (!stream.session || !this.mcp.sessions.isSubscribed(stream.session.id, clientId, notification.params.uri)) {
          continue;
        }
        void stream.server.sendResourceUpdated(notification.params).catch(() => undefined);
      } else if (this.mcp.sessions.wantsLog(stream.session, notification.params.level)) {
        const params = logFromClient(exchange, client.name, notification.params);
        void stream.server.notification({ method: 'notifications/message', params }).catch(() => undefined);
      }
    }
  }

  /** The stream's scope with its key's grants as they are now; undefined when the key no longer works. */
  private async currentScope(stream: OpenStream): Promise<Scope | undefined> {
    if (stream.credential === undefined || !stream.scope.caller.virtualKey) return stream.scope;
    try {
      const key = await this.virtualKeys.verify(stream.credential);
      const virtualKey = { id: key.id, name: key.name, mcp_grants: key.mcp_grants };
      return { ...stream.scope, caller: { ...stream.scope.caller, virtualKey } };
    } catch (err) {
      if (err instanceof GatewayException && (err.status === 401 || err.status === 403)) return undefined;
      throw err;
    }
  }

  private async signaturesOf(scope: Scope): Promise<Signatures> {
    const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url');
    const offers = this.mcp.offersOf(scope);
    return {
      tools: hash(await this.mcp.visibleTools(scope)),
      prompts: hash(offers.prompts),
      resources: hash([offers.resources, offers.resourceTemplates]),
    };
  }

  private async close(stream: OpenStream): Promise<void> {
    this.streams.delete(stream);
    await stream.transport.close();
    await stream.server.close();
  }

  private async closeAll(): Promise<void> {
    await Promise.all([...this.streams].map((s) => this.close(s)));
  }
}
