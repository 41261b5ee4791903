import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { InvalidationBus } from '../../../core/redis/invalidation.bus.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import { McpToolTransport, type McpCaller } from '../mcp-contract.js';

/** Invalidation topic of session state: levels, subscriptions and ended sessions, replicated to every replica. */
export const MCP_SESSIONS_TOPIC = 'mcp:sessions';
/** Sessions whose state one replica keeps (the oldest untouched one is forgotten past it). */
const MAX_SESSIONS = 100_000;
/** Session ids whose signature one replica remembers as checked (all are forgotten past it). */
const MAX_VERIFIED = 10_000;
/** Resource subscriptions of one session. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 1_000;
const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** What a session remembers of its `initialize`, carried in its id. */
export interface McpSession {
  /** The `Mcp-Session-Id`. */
  id: string;
  /** The virtual key it was opened with ('' without one): another key's request with this id gets 404. */
  keyId: string;
  /** `/mcp/{client}`'s client ('' on `/mcp`): the id is not valid on another path. */
  client: string;
  /** What the caller declared it can answer (sampling, elicitation, roots). */
  capabilities: Pick<ClientCapabilities, 'sampling' | 'elicitation' | 'roots'>;
}

/** What changes during a session, kept on every replica. */
interface SessionState {
  level?: LoggingLevel;
  /** `<client id> <uri>` of each resource subscription. */
  subscriptions: Set<string>;
}

type SessionMessage =
  | { o: string; a: 'level'; s: string; l: LoggingLevel }
  | { o: string; a: 'sub' | 'unsub'; s: string; c: string; u: string }
  | { o: string; a: 'end'; s: string };

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const subscriptionKey = (clientId: string, uri: string) => `${clientId} ${uri}`;

/**
 * Sessions of the gateway's MCP server without shared storage: the `Mcp-Session-Id` issued at `initialize` carries
 * what later requests need (the key it belongs to, the path, the caller's capabilities) and an HMAC under the
 * gateway's encryption key, so any replica accepts it with no lookup, and a forged or altered one is 404. What changes
 * during a session (its log level, its resource subscriptions, its end) is kept in memory on every replica and
 * replicated over the invalidation bus (`mcp:sessions`); a replica that starts later, or loses messages, knows no
 * level (every log line is sent) and no subscription of the sessions before it.
 */
@Injectable()
export class McpSessions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly origin = randomUUID();
  /** Per session id, in least-recently-touched order. */
  private readonly states = new Map<string, SessionState>();
  /** Ended sessions (bounded like the states). */
  private readonly ended = new Set<string>();
  /** Ids verified lately, so a session's every request does not pay for its HMAC again (bounded). */
  private readonly verified = new Map<string, McpSession>();
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly secrets: SecretsService,
    private readonly bus: InvalidationBus,
    private readonly transport: McpToolTransport,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.stopListening = this.bus.subscribe(MCP_SESSIONS_TOPIC, (message) => this.onMessage(message));
  }

  onApplicationShutdown(): void {
    this.stopListening?.();
  }

  /** A new session for the caller's `initialize` on `/mcp` (or `/mcp/{client}`). */
  issue(caller: McpCaller, client: string | undefined, params: unknown): McpSession {
    const declared = (params as { capabilities?: ClientCapabilities } | undefined)?.capabilities ?? {};
    const capabilities: McpSession['capabilities'] = {};
    if (declared.sampling) capabilities.sampling = declared.sampling;
    if (declared.elicitation) capabilities.elicitation = declared.elicitation;
    if (declared.roots) capabilities.roots = declared.roots;
    const claims = { k: caller.virtualKey?.id ?? '', c: client ?? '', cap: capabilities, n: randomUUID() };
    const payload = b64(JSON.stringify(claims));
    return { id: `${payload}.${this.sign(payload)}`, keyId: claims.k, client: claims.c, capabilities };
  }

  /**
   * The session a request names (`Mcp-Session-Id`), undefined when it names none; 404 `mcp_session_not_found` when
   * the id is not one this gateway issued, was ended, or belongs to another key or path.
   */
  resolve(
    header: string | string[] | undefined,
    caller: McpCaller,
    client: string | undefined,
  ): McpSession | undefined {
    if (header === undefined) return undefined;
    const id = Array.isArray(header) ? header[0] : header;
    const session = id === undefined ? undefined : this.verify(id);
    if (
      !session ||
      this.ended.has(session.id) ||
      session.keyId !== (caller.virtualKey?.id ?? '') ||
      session.client !== (client ?? '')
    ) {
      throw new GatewayException(
        404,
        'mcp_session_not_found',
        'Unknown or ended MCP session: initialize a new one (Mcp-Session-Id)',
        { param: 'mcp-session-id' },
      );
    }
    return session;
  }

  private verify(id: string): McpSession | undefined {
    const known = this.verified.get(id);
    if (known) return known;
    const session = this.check(id);
    if (session) {
      if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
      this.verified.set(id, session);
    }
    return session;
  }

  private check(id: string): McpSession | undefined {
    const dot = id.indexOf('.');
    if (dot <= 0) return undefined;
    const payload = id.slice(0, dot);
    if (id.slice(dot + 1) !== this.sign(payload)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        k: string;
        c: string;
        cap: McpSession['capabilities'];
      };
      return { id, keyId: claims.k, client: claims.c, capabilities: claims.cap };
    } catch {
      return undefined;
    }
  }

  private sign(payload: string): string {
    return this.secrets.fingerprint(`mcp-session\u0000${payload}`);
  }

  // ---- what changes during a session ----

  /** Whether a log line of `level` goes to the session (all do until it set a level). */
  wantsLog(session: McpSession | undefined, level: LoggingLevel): boolean {
    const wanted = session ? this.states.get(session.id)?.level : undefined;
    return wanted === undefined || LEVELS.indexOf(level) >= LEVELS.indexOf(wanted);
  }

  async setLevel(session: McpSession, level: LoggingLevel): Promise<void> {
    this.stateOf(session.id).level = level;
    await this.publish({ o: this.origin, a: 'level', s: session.id, l: level });
  }

  /** Subscribes the session to a resource of a client: the server is subscribed (on first interest) before it counts. */
  async subscribe(session: McpSession, clientId: string, uri: string, timeoutMs: number): Promise<void> {
    const state = this.stateOf(session.id);
    const key = subscriptionKey(clientId, uri);
    if (state.subscriptions.has(key)) return;
    if (state.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw new GatewayException(400, 'validation_failed', `At most ${MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions`, {
        param: 'uri',
      });
    }
    await this.transport.subscribe(clientId, uri, { timeoutMs });
    state.subscriptions.add(key);
    await this.publish({ o: this.origin, a: 'sub', s: session.id, c: clientId, u: uri });
  }

  async unsubscribe(session: McpSession, clientId: string, uri: string): Promise<void> {
    this.dropSubscription(session.id, clientId, uri);
    await this.publish({ o: this.origin, a: 'unsub', s: session.id, c: clientId, u: uri });
  }

  isSubscribed(sessionId: string, clientId: string, uri: string): boolean {
    return this.states.get(sessionId)?.subscriptions.has(subscriptionKey(clientId, uri)) ?? false;
  }

  /** Ends a session (`DELETE`): its id is refused from now on, its subscriptions released. */
  async end(session: McpSession): Promise<void> {
    this.forget(session.id);
    await this.publish({ o: this.origin, a: 'end', s: session.id });
  }

  private stateOf(id: string): SessionState {
    let state = this.states.get(id);
    if (state) this.states.delete(id);
    else state = { subscriptions: new Set() };
    this.states.set(id, state);
    if (this.states.size > MAX_SESSIONS) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.release(oldest);
    }
    return state;
  }

  private dropSubscription(sessionId: string, clientId: string, uri: string): void {
    const state = this.states.get(sessionId);
    if (state?.subscriptions.delete(subscriptionKey(clientId, uri))) void this.transport.unsubscribe(clientId, uri);
  }

  /** Drops a session's state, its subscriptions released. */
  private release(id: string): void {
    const state = this.states.get(id);
    this.states.delete(id);
    for (const key of state?.subscriptions ?? []) {
      const at = key.indexOf(' ');
      void this.transport.unsubscribe(key.slice(0, at), key.slice(at + 1));
    }
  }

  private forget(id: string): void {
    this.release(id);
    this.ended.add(id);
    if (this.ended.size > MAX_SESSIONS) {
      const oldest = this.ended.values().next().value;
      if (oldest !== undefined) this.ended.delete(oldest);
    }
  }

  private publish(message: SessionMessage): Promise<void> {
    return this.bus.publish(MCP_SESSIONS_TOPIC, JSON.stringify(message));
  }

  /** Another replica's change (this replica's own were applied before they were published). */
  private onMessage(raw: string | undefined): void {
    if (raw === undefined) return;
    let message: SessionMessage;
    try {
      message = JSON.parse(raw) as SessionMessage;
    } catch {
      return;
    }
    if (message.o === this.origin) return;
    switch (message.a) {
      case 'level':
        this.stateOf(message.s).level = message.l;
        return;
      case 'sub': {
        // This replica's own connection is subscribed too, so the replica holding the session's stream gets updates.
        const state = this.stateOf(message.s);
        const key = subscriptionKey(message.c, message.u);
        if (state.subscriptions.has(key)) return;
        this.transport
          .subscribe(message.c, message.u, { timeoutMs: 30_000 })
          .then(() => state.subscriptions.add(key))
          .catch((err: unknown) =>
            this.logger.debug(
              { err: (err as Error).message, uri: message.u },
              'mcp resource subscription not replicated',
            ),
          );
        return;
      }
      case 'unsub':
        this.dropSubscription(message.s, message.c, message.u);
        return;
      case 'end':
        this.forget(message.s);
        return;
    }
  }
}
