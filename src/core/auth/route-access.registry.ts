import type { FastifyInstance } from 'fastify';
import { ROUTE_ACCESS_CONFIG_KEY, type RouteAccess } from './route-access.decorator.js';

export interface RouteAccessEntry {
  method: string;
  path: string;
  /** Undefined when the route has no declaration (a programming error the route-table test catches). */
  access: RouteAccess | undefined;
}

/** Reads a route's declaration from its Fastify route config (written by the route-access decorators). */
export function routeAccessOf(config: unknown): RouteAccess | undefined {
  if (!config || typeof config !== 'object') return undefined;
  return (config as Record<string, RouteAccess | undefined>)[ROUTE_ACCESS_CONFIG_KEY];
}

/**
 * The access declaration of every registered route, keyed by method and Fastify path pattern. Filled from Fastify's
 * onRoute hook, so it covers exactly what the server serves (Nest controllers and any route registered directly).
 */
export class RouteAccessRegistry {
  private readonly entries = new Map<string, RouteAccessEntry>();

  attach(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const path = route.url ?? route.path;
      for (const method of methods) {
        if (method === 'HEAD') continue;
        this.entries.set(`${method} ${path}`, { method, path, access: routeAccessOf(route.config) });
      }
    });
  }

  get(method: string, path: string): RouteAccess | undefined {
    return this.entries.get(`${method} ${path}`)?.access;
  }

  all(): RouteAccessEntry[] {
    return [...this.entries.values()];
  }
}
