import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyRequest } from 'fastify';

/**
 * A declaration kept in the Fastify route `config` of a Nest handler, so it is read per route by Fastify hooks (which
 * run before the body is read, where Nest's Reflector and guards cannot be reached) and by the guard alike. On a
 * method it is that route's; on a class it applies to every method that declared none of its own (method decorators
 * run before class decorators, so a method's own value is already there).
 */
export function routeConfig(key: string, value: unknown): MethodDecorator & ClassDecorator {
  return ((target: object, _name?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      merge(descriptor.value as object, key, value, true);
      return descriptor;
    }
    const proto = (target as { prototype?: Record<string, unknown> }).prototype ?? {};
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = proto[name];
      if (name !== 'constructor' && typeof method === 'function') merge(method, key, value, false);
    }
    return target;
  }) as MethodDecorator & ClassDecorator;
}

function merge(handler: object, key: string, value: unknown, own: boolean): void {
  const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
  if (!own && key in existing) return;
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, [key]: value }, handler);
}

/** A declaration of the matched route (undefined when it declared none, or no route matched). */
export function routeConfigOf<T>(request: FastifyRequest, key: string): T | undefined {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  return config?.[key] as T | undefined;
}
