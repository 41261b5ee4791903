import type { FastifyInstance } from 'fastify';
import { toErrorResponse } from '../errors/error-response.js';
import { GatewayException } from '../errors/gateway.exception.js';

/**
 * The shutdown drain, seen from HTTP: once draining, every new request is answered 503 `service_unavailable` (a
 * GatewayError, with `Connection: close` so clients go elsewhere) while the requests already in flight finish.
 *
 * Fastify's and Nest's own `return503OnClosing` only apply once `app.close()` runs, which first closes the database
 * pools and workers (module destroy hooks) and then destroys every open socket; and their body is not a GatewayError.
 * So the shutdown waits here for the in-flight requests before it closes the application.
 */
export class DrainGate {
  private draining = false;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly drainListeners = new Set<() => void>();

  get isDraining(): boolean {
    return this.draining;
  }

  get inFlightRequests(): number {
    return this.inFlight;
  }

  /** From now on new requests get 503. Resolves when no request admitted before is still running. */
  drain(): Promise<void> {
    this.draining = true;
    for (const listener of [...this.drainListeners]) listener();
    this.drainListeners.clear();
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs `listener` when the drain starts: a stream that never ends by itself (a standalone SSE stream) closes then,
   * or it would hold the drain until its timeout. Returns the function that removes the listener.
   */
  whenDraining(listener: () => void): () => void {
    if (this.draining) {
      listener();
      return () => undefined;
    }
    this.drainListeners.add(listener);
    return () => this.drainListeners.delete(listener);
  }

  admit(): void {
    this.inFlight += 1;
  }

  release(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0 && this.idleWaiters.length) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }
}

const gates = new WeakMap<FastifyInstance, DrainGate>();

/** The gate registered on this server, if any (the shutdown handler looks it up). */
export function drainGateOf(fastify: FastifyInstance): DrainGate | undefined {
  return gates.get(fastify);
}

export function registerDrainGate(fastify: FastifyInstance): DrainGate {
  const gate = new DrainGate();
  gates.set(fastify, gate);
  fastify.addHook('onRequest', (request, reply, done) => {
    if (gate.isDraining) {
      const { status, body, headers } = toErrorResponse(
        new GatewayException(503, 'service_unavailable', 'The gateway is shutting down: retry the request', {
          headers: { 'retry-after': '1' },
        }),
      );
      void reply
        .code(status)
        .headers({ ...headers, connection: 'close' })
        .send(body);
      return;
    }
    gate.admit();
    // `close` fires once whether the response finished or the client went away, streams included.
    reply.raw.once('close', () => gate.release());
    done();
  });
  return gate;
}
