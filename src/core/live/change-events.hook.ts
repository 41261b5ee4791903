import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Operation } from '../auth/permissions.js';
import type { LiveEvents } from './live-events.js';

const ACTIONS: Partial<Record<Operation, string>> = { Create: 'created', Update: 'updated', Delete: 'deleted' };
const MAX_ID_CHARS = 512;

function firstParam(request: FastifyRequest): string | undefined {
  const params = request.params;
  if (!params || typeof params !== 'object') return undefined;
  const first = Object.values(params as Record<string, unknown>)[0];
  return typeof first === 'string' && first !== '' ? first.slice(0, MAX_ID_CHARS) : undefined;
}

/** The id of what a create answered with: `id` at the top, or in the first object (`{ virtual_key: { id } }`). */
function createdId(payload: unknown): string | undefined {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const idOf = (value: unknown) => {
    const id = (value as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id !== '' ? id.slice(0, MAX_ID_CHARS) : undefined;
  };
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return (
    idOf(body) ??
    idOf(Object.values(body as Record<string, unknown>).find((v) => v && typeof v === 'object' && !Array.isArray(v)))
  );
}

/**
 * Every successful management write (a route declaring a `Create`, `Update` or `Delete` permission that answered 2xx)
 * is a `change` event for the subscribers holding the `View` permission of the same resource: providers and keys
 * (`ModelProvider`), virtual keys, teams, customers, budgets and rate limits (`Governance`), routing rules, the runtime
 * config (`Settings`), plugins, … One place for every module, present and future, so none has to remember to publish.
 * It runs in `onSend`, once the handler has committed, and reads the answer only to find a created object's id.
 */
export function registerChangeEvents(fastify: FastifyInstance, events: LiveEvents): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const access = request.routeAccess;
    const action = access?.kind === 'management' && access.operation ? ACTIONS[access.operation] : undefined;
    if (action && access?.kind === 'management' && reply.statusCode < 300 && events.listening) {
      const route = request.routeOptions.url ?? '';
      const id = access.operation === 'Create' ? (createdId(payload) ?? firstParam(request)) : firstParam(request);
      events.publish({
        type: 'change',
        resource: access.resource,
        action,
        ...(id !== undefined ? { id } : {}),
        data: { method: request.method, route, path: (request.url.split('?')[0] ?? request.url).slice(0, 2048) },
        requires: access.resource,
      });
    }
    done(null, payload);
  });
}
