import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { InvalidationBus } from '../../../core/redis/invalidation.bus.js';
import { JSONRPC, JsonRpcError } from '../jsonrpc-error.js';

/** Invalidation topic that carries a caller's answer or cancellation to the replica its request runs on. */
export const MCP_CALLER_TOPIC = 'mcp:caller';

interface Pending {
  sessionId: string | undefined;
  resolve: (result: object) => void;
  reject: (error: Error) => void;
}

type RoutedMessage =
  | { o: string; a: 'answer'; s?: string; m: JSONRPCMessage }
  | { o: string; a: 'cancel'; s: string; r: RequestId; why?: string };

type Answer = { id: RequestId; result?: object; error?: { code: number; message: string; data?: unknown } };

/**
 * The two things a caller of the gateway's MCP server sends about a request in flight, in a POST of its own that any
 * replica may receive: the answer to a request the gateway relayed to it (sampling, elicitation, roots: sent on the
 * response stream of the caller's tool call, with an id this registry made), and `notifications/cancelled` for one of
 * its own requests (by its session and request id). Each is settled here when the request runs on this replica, or
 * published on the invalidation bus for the replica it runs on.
 */
@Injectable()
export class CallerRequests implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly origin = randomUUID();
  /** Requests relayed to callers, by the id they were sent with. */
  private readonly pending = new Map<string, Pending>();
  /** The caller's requests running here, by `<session id> <JSON of the request id>`. */
  private readonly running = new Map<string, AbortController>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly bus: InvalidationBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = this.bus.subscribe(MCP_CALLER_TOPIC, (message) => this.onMessage(message));
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
    for (const pending of this.pending.values())
      pending.reject(new JsonRpcError(JSONRPC.internalError, 'The AI gateway is shutting down'));
    this.pending.clear();
  }

  /**
   * Sends `method` to the caller on `transport`, on the response stream of the caller's request `relatedRequestId`,
   * and resolves to its answer (rejects with its error). Aborting `signal` tells the caller it was cancelled.
   */
  request(
    transport: Transport,
    relatedRequestId: RequestId,
    sessionId: string | undefined,
    method: string,
    params: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<object> {
    const id = `gw-${randomUUID()}`;
    return new Promise<object>((resolve, reject) => {
      const done = () => {
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        void transport
          .send(
            { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled' } },
            { relatedRequestId },
          )
          .catch(() => undefined);
        reject(signal.reason instanceof Error ? signal.reason : new JsonRpcError(JSONRPC.requestTimeout, 'cancelled'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        sessionId,
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      transport
        .send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, { relatedRequestId })
        .catch((err: unknown) => this.pending.get(id)?.reject(err instanceof Error ? err : new Error(String(err))));
    });
  }

  /** The caller's answers (a POST of JSON-RPC responses): each settles its request here or on its replica. */
  async answer(messages: readonly JSONRPCMessage[], sessionId: string | undefined): Promise<void> {
    for (const message of messages) {
      if (!this.settle(message as Answer, sessionId)) {
        await this.bus.publish(
          MCP_CALLER_TOPIC,
          JSON.stringify({ o: this.origin, a: 'answer', s: sessionId, m: message }),
        );
      }
    }
  }

  /** Tracks one of the caller's requests so its `notifications/cancelled` can stop it; returns the untrack function. */
  track(sessionId: string, requestId: RequestId, controller: AbortController): () => void {
    const key = `${sessionId} ${JSON.stringify(requestId)}`;
    this.running.set(key, controller);
    return () => {
      if (this.running.get(key) === controller) this.running.delete(key);
    };
  }

  /** The caller cancelled one of its requests: stopped here, or on the replica it runs on. */
  async cancel(sessionId: string, requestId: RequestId, reason: string | undefined): Promise<void> {
    if (this.abort(sessionId, requestId, reason)) return;
    await this.bus.publish(
      MCP_CALLER_TOPIC,
      JSON.stringify({ o: this.origin, a: 'cancel', s: sessionId, r: requestId, why: reason }),
    );
  }

  private abort(sessionId: string, requestId: RequestId, reason: string | undefined): boolean {
    const controller = this.running.get(`${sessionId} ${JSON.stringify(requestId)}`);
    if (!controller) return false;
    controller.abort(new JsonRpcError(JSONRPC.requestTimeout, reason ?? 'cancelled by the caller'));
    return true;
  }

  /** Settles a relayed request from its answer; false when it is not one of this replica's. */
  private settle(answer: Answer, sessionId: string | undefined): boolean {
    const pending = typeof answer.id === 'string' ? this.pending.get(answer.id) : undefined;
    // Another session's answer to this id is not taken (ids are random, so only a forger would send one).
    if (!pending || (pending.sessionId !== undefined && pending.sessionId !== sessionId)) return false;
    if (answer.error) pending.reject(new JsonRpcError(answer.error.code, answer.error.message, answer.error.data));
    else pending.resolve(answer.result ?? {});
    return true;
  }

  private onMessage(raw: string | undefined): void {
    if (raw === undefined) return;
    let message: RoutedMessage;
    try {
      message = JSON.parse(raw) as RoutedMessage;
    } catch {
      return;
    }
    if (message.o === this.origin) return;
    if (message.a === 'answer') this.settle(message.m as Answer, message.s);
    else if (!this.abort(message.s, message.r, message.why)) {
      this.logger.debug({ request_id: message.r }, 'mcp cancellation for a request no replica runs');
    }
  }
}
