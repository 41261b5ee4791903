import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import { WebSocket, WebSocketServer } from 'ws';
import { buildAbility, type GatewayAbility } from '../auth/ability.factory.js';
import type { Resource } from '../auth/permissions.js';
import type { Principal } from '../auth/principal.js';
import { parseDuration } from '../config/duration.js';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayException } from '../errors/gateway.exception.js';
import { drainGateOf } from '../http/drain-gate.js';
import { LOGGER } from '../logging/logging.module.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { LiveEnvelope, LiveEvent } from './live-event.js';
import { LiveEvents } from './live-events.js';
import { upgradeOf } from './upgrade-dispatch.js';

/** Close codes (docs/live-channel.md). */
export const CLOSE_SLOW_CONSUMER = 1013;
export const CLOSE_GOING_AWAY = 1001;
/** Subscribers get this long to answer the shutdown's close frame before their connections are cut. */
const SHUTDOWN_GRACE_MS = 2_000;
/** A subscriber only listens: what it sends is read and ignored, and never more than this per message. */
const MAX_INBOUND_BYTES = 4096;
const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

export type LiveDropReason = 'slow_consumer' | 'missed_pong';

interface Subscriber {
  socket: WebSocket;
  principal: Principal;
  ability: GatewayAbility;
  /** Answered the last ping. */
  alive: boolean;
}

/**
 * The open `/ws` connections of this replica: upgrades the requests the guard let through, sends each subscriber the
 * events its permissions allow it to view, drops subscribers that do not read (close code 1013 once more than
 * `live.max_buffered_bytes` wait unsent) or stop answering pings, and closes every connection before the HTTP server
 * closes (Fastify's close waits for busy connections).
 */
@Injectable()
export class LiveHub implements BeforeApplicationShutdown {
  private readonly wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: MAX_INBOUND_BYTES,
  });
  private readonly subscribers = new Set<Subscriber>();
  /** Upgrades accepted and not finished: they count against the connection limit. */
  private opening = 0;
  private readonly maxBuffered: number;
  private readonly maxConnections: number;
  private readonly pingMs: number;
  private readonly checkPermissions: boolean;
  private pinger: NodeJS.Timeout | undefined;
  private stopListening: Promise<() => void> | undefined;
  private undrain: (() => void) | undefined;
  private closing = false;
  private readonly dropped: Counter<'reason'>;

  constructor(
    config: GatewayConfig,
    private readonly events: LiveEvents,
    metrics: MetricsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.maxBuffered = config.live.max_buffered_bytes;
    this.maxConnections = config.live.max_connections;
    this.pingMs = parseDuration(config.live.ping_interval) ?? 30_000;
    // Permission checks apply in the enterprise edition only (decisions.md, Editions).
    this.checkPermissions = config.edition === 'enterprise';
    const connections: Gauge = new Gauge({
      name: 'gateway_live_connections',
      help: 'Open live-channel (/ws) connections on this replica',
      registers: [metrics.registry],
      collect: () => {
        connections.set(this.subscribers.size);
      },
    });
    this.dropped = new Counter({
      name: 'gateway_live_dropped_total',
      help: 'Live-channel subscribers dropped, by reason (slow_consumer, missed_pong)',
      labelNames: ['reason'] as const,
      registers: [metrics.registry],
    });
    this.dropped.inc({ reason: 'slow_consumer' }, 0);
    this.dropped.inc({ reason: 'missed_pong' }, 0);
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** `GET /ws` once the guard let it through: refusals are GatewayErrors thrown before anything is upgraded. */
  accept(request: FastifyRequest, reply: FastifyReply): void {
    const upgrade = upgradeOf(request.raw);
    if (!upgrade || request.headers.upgrade?.toLowerCase() !== 'websocket') {
      throw new GatewayException(426, 'upgrade_required', 'GET /ws is a WebSocket: send Upgrade: websocket', {
        headers: { upgrade: 'websocket' },
      });
    }
    if (request.headers['sec-websocket-version'] !== '13') {
      throw GatewayException.validation('sec-websocket-version', 'sec-websocket-version must be 13');
    }
    if (!WEBSOCKET_KEY.test(request.headers['sec-websocket-key'] ?? '')) {
      throw GatewayException.validation('sec-websocket-key', 'sec-websocket-key must be 16 bytes in base64');
    }
    if (this.closing) throw new GatewayException(503, 'service_unavailable', 'The gateway is shutting down');
    if (this.subscribers.size + this.opening >= this.maxConnections) {
      throw new GatewayException(503, 'service_unavailable', 'Too many live connections on this replica: retry later', {
        headers: { 'retry-after': '5' },
      });
    }
    const principal = request.principal;
    if (!principal) throw GatewayException.unauthorized('missing_credentials', 'Management credentials are required');
    // The first connection ties them all to the shutdown drain (they never end by themselves).
    this.undrain ??= drainGateOf(request.server)?.whenDraining(() => void this.closeAll());
    this.opening++;
    upgrade.taken = true;
    reply.hijack();
    let opened = false;
    upgrade.socket.once('close', () => {
      if (!opened) this.opening--;
    });
    this.wss.handleUpgrade(request.raw, upgrade.socket, upgrade.head, (socket) => {
      opened = true;
      this.opening--;
      void this.add(socket, principal);
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.undrain?.();
    await this.closeAll();
  }

  private async add(socket: WebSocket, principal: Principal): Promise<void> {
    const subscriber: Subscriber = { socket, principal, ability: buildAbility(principal), alive: true };
    if (this.closing) {
      socket.close(CLOSE_GOING_AWAY, 'server shutting down');
      return;
    }
    this.subscribers.add(subscriber);
    socket.on('pong', () => (subscriber.alive = true));
    socket.on('error', (err) => this.logger.debug({ err: err.message }, 'live connection error'));
    socket.on('close', () => this.remove(subscriber));
    this.pinger ??= setInterval(() => this.ping(), this.pingMs).unref();
    try {
      this.stopListening ??= this.events.listen((envelope) => this.deliver(envelope));
      await this.stopListening;
    } catch (err) {
      this.stopListening = undefined;
      this.logger.warn({ err: (err as Error).message }, 'live channel could not subscribe to other replicas');
    }
    this.send(subscriber, Buffer.from(JSON.stringify(this.readyEvent(principal)), 'utf8'));
  }

  private readyEvent(principal: Principal): LiveEvent {
    return {
      type: 'ready',
      data: { permissions: principal.permissions === 'all' ? 'all' : [...principal.permissions].sort() },
      at: new Date().toISOString(),
    };
  }

  private remove(subscriber: Subscriber): void {
    if (!this.subscribers.delete(subscriber) || this.subscribers.size > 0) return;
    clearInterval(this.pinger);
    this.pinger = undefined;
    const stop = this.stopListening;
    this.stopListening = undefined;
    void stop?.then((unlisten) => unlisten()).catch(() => undefined);
  }

  private deliver(envelope: LiveEnvelope): void {
    // Serialized and encoded once for every subscriber that may view it (ws would encode a string per send).
    let frame: Buffer | undefined;
    for (const subscriber of this.subscribers) {
      if (!this.mayView(subscriber, envelope.requires)) continue;
      frame ??= Buffer.from(JSON.stringify(envelope.event), 'utf8');
      this.send(subscriber, frame);
    }
  }

  private mayView(subscriber: Subscriber, resource: Resource): boolean {
    if (!this.checkPermissions || subscriber.principal.permissions === 'all') return true;
    return subscriber.ability.can('View', resource);
  }

  /** Sends, unless the subscriber left more than the bound unread: then it is dropped, never buffered further. */
  private send(subscriber: Subscriber, text: Buffer): void {
    const { socket } = subscriber;
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > this.maxBuffered) {
      this.drop(subscriber, 'slow_consumer');
      return;
    }
    socket.send(text, { binary: false });
  }

  private drop(subscriber: Subscriber, reason: LiveDropReason): void {
    this.remove(subscriber);
    this.dropped.inc({ reason });
    this.logger.info(
      {
        reason,
        principal: subscriber.principal.name ?? subscriber.principal.id,
        buffered: subscriber.socket.bufferedAmount,
      },
      'live subscriber dropped',
    );
    // The close frame waits behind the unread data; ws cuts the connection if the peer never reads it.
    if (reason === 'slow_consumer') subscriber.socket.close(CLOSE_SLOW_CONSUMER, 'slow consumer');
    else subscriber.socket.terminate();
  }

  private ping(): void {
    for (const subscriber of [...this.subscribers]) {
      if (!subscriber.alive) {
        this.drop(subscriber, 'missed_pong');
        continue;
      }
      subscriber.alive = false;
      subscriber.socket.ping();
    }
  }

  private async closeAll(): Promise<void> {
    this.closing = true;
    clearInterval(this.pinger);
    this.pinger = undefined;
    const sockets = [...this.subscribers].map((s) => s.socket);
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === WebSocket.CLOSED) return resolve();
            const timer = setTimeout(() => {
              socket.terminate();
              resolve();
            }, SHUTDOWN_GRACE_MS);
            socket.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            socket.close(CLOSE_GOING_AWAY, 'server shutting down');
          }),
      ),
    );
  }
}
