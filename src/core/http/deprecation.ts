import { applyDecorators } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import { ApiExtension, ApiOperation } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Key of the successor path inside Fastify's route `config`. */
export const DEPRECATION_CONFIG_KEY = 'gatewayDeprecatedSuccessor';

/**
 * A deprecated path (decisions.md, conventions): it behaves exactly like `successor` (an OpenAPI path template such
 * as `/api/governance/teams/{team_id}`), and every answer, errors included, carries `Deprecation: true` and
 * `Link: <successor>; rel="successor-version"` with the request's path parameters filled in (an HTTP hook sets them
 * before authentication, so refusals carry them too). OpenAPI: `deprecated: true` and `x-successor`.
 */
export function DeprecatedRoute(successor: string): MethodDecorator {
  const config: MethodDecorator = (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object;
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(
      FASTIFY_ROUTE_CONFIG_METADATA,
      { ...existing, [DEPRECATION_CONFIG_KEY]: successor },
      handler,
    );
    return descriptor;
  };
  return applyDecorators(config, ApiOperation({ deprecated: true }), ApiExtension('x-successor', successor));
}

/** The onRequest part: sets the deprecation headers of a deprecated route. */
export function sendDeprecationHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const successor = (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[
    DEPRECATION_CONFIG_KEY
  ];
  if (typeof successor !== 'string') return;
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const path = successor.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  void reply.header('Deprecation', 'true');
  void reply.header('Link', `<${path}>; rel="successor-version"`);
}
