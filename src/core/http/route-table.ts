import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  path: string;
}

/**
 * Every route the server registered, collected from Fastify's onRoute hook. It answers which methods a URL allows
 * (for 405 responses with an Allow header) and lets the route-table test walk the whole API.
 */
export class RouteTable {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true });
  private readonly methodsByPath = new Map<string, Set<string>>();
  readonly routes: RegisteredRoute[] = [];

  attach(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) this.add(method, route.url ?? route.path);
    });
  }

  private add(method: string, path: string): void {
    if (method === 'HEAD') return;
    this.routes.push({ method, path });
    let methods = this.methodsByPath.get(path);
    if (!methods) {
      methods = new Set();
      this.methodsByPath.set(path, methods);
      this.router.on('GET', path, () => undefined, { path });
    }
    methods.add(method);
  }

  /** Methods registered for the route matching `url`, or none when no route matches the path. */
  allowedMethods(url: string): string[] {
    const found = this.router.find('GET', url.split('?')[0] ?? url);
    const path = (found?.store as { path?: string } | undefined)?.path;
    return path ? [...(this.methodsByPath.get(path) ?? [])].sort() : [];
  }
}
