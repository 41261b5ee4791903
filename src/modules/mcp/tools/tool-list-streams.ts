import { createHash } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { drainGateOf } from '../../../core/http/drain-gate.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { VirtualKeysService } from '../../governance/virtual-keys/virtual-keys.service.js';
import { McpToolCatalog } from '../mcp-contract.js';
import { GatewayMcpServer, hijack, type Scope } from './gateway-mcp-server.js';

/** Most standalone streams one replica keeps open; one more is refused with 503. */
export const MAX_TOOL_LIST_STREAMS = 10_000;
/** Catalog changes come in bursts (a reconnect, a reload of every client): one look per burst. */
const SETTLE_MS = 25;

interface OpenStream {
  scope: Scope;
  /** The virtual key value the stream was opened with: re-verified on every change (grants, key disabled). */
  credential?: string;
  server: Server;
  transport: StreamableHTTPServerTransport;
  /** Hash of the tool list last announced (or seen at open). */
  signature: string;
}

/**
 * The standalone SSE streams of `/mcp` and `/mcp/{client}` (GET): the only place the stateless server can send
 * anything unasked, so `notifications/tools/list_changed` goes there. Each stream has its own SDK `Server` and
 * transport; whenever the catalog may have changed on this replica (a client written here or on another replica and
 * relayed by the invalidation bus, a connection's tool list or state, a virtual key's grants), each stream's tool list
 * is computed again and the notification is sent (`server.sendToolListChanged()`) only to the streams whose list
 * differs from the one they last saw. A stream whose key stopped working is closed.
 */
@Injectable()
export class ToolListStreams implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly streams = new Set<OpenStream>();
  private unsubscribe: (() => void) | undefined;
  private undrain: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closing = false;

  constructor(
    private readonly catalog: McpToolCatalog,
    private readonly mcp: GatewayMcpServer,
    private readonly virtualKeys: VirtualKeysService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.streams.size;
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.catalog.onChange(() => this.schedule());
  }

  /**
   * Before the HTTP server closes, not after: Fastify's close waits for every busy connection, and these streams never
   * end by themselves, so a client that keeps one open would hold `app.close()` forever.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    this.unsubscribe?.();
    this.undrain?.();
    clearTimeout(this.timer);
    await this.closeAll();
  }

  /** Answers one GET: hijacks the reply and keeps the SDK transport's SSE stream open until the client leaves. */
  async open(request: FastifyRequest, reply: FastifyReply, scope: Scope): Promise<void> {
    // Checked before the SDK transport would answer it with a JSON-RPC body: every refusal here is a GatewayError.
    if (!(request.headers.accept ?? '').includes('text/event-stream')) {
      throw GatewayException.validation('accept', 'accept must include text/event-stream (the standalone SSE stream)');
    }
    if (this.closing) throw new GatewayException(503, 'service_unavailable', 'The gateway is shutting down');
    if (this.streams.size >= MAX_TOOL_LIST_STREAMS) {
      throw new GatewayException(503, 'service_unavailable', 'Too many open MCP streams on this replica: retry later', {
        headers: { 'retry-after': '5' },
      });
    }
    // The first stream ties them all to the shutdown drain (they never end by themselves).
    this.undrain ??= drainGateOf(request.server)?.whenDraining(() => void this.closeAll());
    const stream: OpenStream = {
      scope,
      credential: request.principal?.virtualKey?.presented_value,
      server: this.mcp.serverFor(scope),
      transport: new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }),
      signature: await this.signatureOf(scope),
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
      const signature = await this.signatureOf(scope);
      if (signature === stream.signature) continue;
      stream.signature = signature;
      await stream.server.sendToolListChanged().catch((err: unknown) => {
        this.logger.debug({ err: (err as Error).message }, 'list_changed could not be sent');
      });
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

  private async signatureOf(scope: Scope): Promise<string> {
    const tools = await this.mcp.visibleTools(scope);
    return createHash('sha256').update(JSON.stringify(tools)).digest('base64url');
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
