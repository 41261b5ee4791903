import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyInstance } from 'fastify';
import { GatewayException } from '../errors/gateway.exception.js';
import { clip } from './echo.js';

/** The wildcard of `…/rest/*` is documented as the `path` parameter. */
function paramName(name: string): string {
  return name === '*' ? 'path' : name;
}

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(hasNul);
  return false;
}

/** Key, inside Fastify's route `config`, of the path parameters that may hold a NUL. */
const NUL_PARAMS_CONFIG_KEY = 'gatewayNulParams';

/**
 * Lets these path parameters of a route hold a NUL (`%00`): for values that are never stored, such as a circuit key
 * (`<policy>\0<key id>`). The handler still sees every other parameter checked.
 */
export function AllowNulInPathParams(...names: string[]): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, [NUL_PARAMS_CONFIG_KEY]: names }, handler);
    return descriptor;
  };
}

/** The first path parameter or query field (name or value) holding a NUL, as the `param` to blame. */
function fieldWithNul(
  params: unknown,
  query: unknown,
  allowed: readonly string[] = [],
): { param: string; where: string } | undefined {
  if (params && typeof params === 'object') {
    for (const [name, value] of Object.entries(params)) {
      if (hasNul(value) && !allowed.includes(name)) return { param: paramName(name), where: 'Path parameter' };
    }
  }
  if (query && typeof query === 'object') {
    for (const [name, value] of Object.entries(query)) {
      if (name.includes('\0')) return { param: clip(name.replaceAll('\0', '')), where: 'Query parameter name' };
      if (hasNul(value)) return { param: name, where: 'Query parameter' };
    }
  }
  return undefined;
}

/**
 * Postgres and PGlite refuse NUL in text, so a `%00` in a path parameter or a query value reached the database and
 * failed there as a 500. It is refused once for every route, before authentication and body parsing: 400
 * `validation_failed` naming the parameter. (NUL inside JSON bodies is the validation pipe's concern.)
 */
export function registerNulCheck(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    // The HTTP parser refuses a raw NUL byte in the request line, so a decoded NUL can only come from `%00`: one scan
    // of the raw URL spares every other request the walk over its parameters.
    if (!request.url.includes('%00')) return done();
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    const allowed = config?.[NUL_PARAMS_CONFIG_KEY] as string[] | undefined;
    const found = fieldWithNul(request.params, request.query, allowed);
    if (!found) return done();
    done(GatewayException.validation(found.param, `${found.where} must not contain a NUL character`));
  });
}
