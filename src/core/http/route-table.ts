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
  /** Built on the first 405 rather than at every start (~500 routes, about 15 ms of CPU a start). */
  private router?: ReturnType<typeof FindMyWay>;
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
      if (this.router) addPath(this.router, path);
    }
    methods.add(method);
  }

  /** Methods registered for the route matching `url`, or none when no route matches the path. */
  allowedMethods(url: string): string[] {
    const found = this.pathRouter().find('GET', url.split('?')[0] ?? url);
    const path = (found?.store as { path?: string } | undefined)?.path;
    return path ? [...(this.methodsByPath.get(path) ?? [])].sort() : [];
  }

  private pathRouter(): ReturnType<typeof FindMyWay> {
    if (!this.router) {
      const router = FindMyWay({ ignoreTrailingSlash: true });
      for (const path of this.methodsByPath.keys()) addPath(router, path);
      this.router = router;
    }
    return this.router;
  }
}

function addPath(router: ReturnType<typeof FindMyWay>, path: string): void {
  try {
    router.on('GET', path, () => undefined, { path });
  } catch {
    // `/docs` and `/docs/` are one path to a router that ignores trailing slashes: the first registered answers.
  }
}
