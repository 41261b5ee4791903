import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The connection of an upgrade request, held until a route takes it over (or answers and ends it). */
export interface PendingUpgrade {
  socket: Socket;
  head: Buffer;
  /** Set by the route that completes the upgrade: the connection is no longer HTTP. */
  taken: boolean;
}

const pending = new WeakMap<IncomingMessage, PendingUpgrade>();
/** A refused upgrade's connection ends once answered; a peer that keeps it half open is cut after this long. */
const END_GRACE_MS = 5_000;

/** The upgrade a request asked for, when it came through Node's `upgrade` event. */
export function upgradeOf(request: IncomingMessage): PendingUpgrade | undefined {
  return pending.get(request);
}

/**
 * Sends upgrade requests through Fastify's router like any request, so hooks, the global guard and the error filter
 * run before anything is upgraded: a refusal is an ordinary HTTP answer (a GatewayError with 401, 403, 503, …) and
 * only a route that accepts takes the connection (`upgradeOf(request.raw)`). Node hands an upgrade request to the
 * `upgrade` listener with the bare socket (no HTTP parser any more), so each gets a response object of its own, and
 * the connection ends once that response is sent. Returns the function that stops dispatching.
 */
export function dispatchUpgrades(fastify: FastifyInstance): () => void {
  const onUpgrade = (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const upgrade: PendingUpgrade = { socket, head, taken: false };
    pending.set(request, upgrade);
    socket.on('error', () => socket.destroy());
    const response = new ServerResponse(request);
    response.assignSocket(socket);
    response.once('finish', () => {
      if (upgrade.taken) return;
      socket.end();
      setTimeout(() => socket.destroy(), END_GRACE_MS).unref();
    });
    fastify.routing(request, response);
  };
  fastify.server.on('upgrade', onUpgrade);
  return () => fastify.server.off('upgrade', onUpgrade);
}
