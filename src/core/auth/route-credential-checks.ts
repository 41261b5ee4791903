import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayException } from '../errors/gateway.exception.js';

/**
 * Checks a credential that one route defines for itself (an upstream agent's push-callback token, the setup token
 * exchanged for a cookie): it throws a GatewayException to refuse, and may leave what it verified on the request.
 */
export type RouteCredentialCheck = (request: FastifyRequest) => void | Promise<void>;

/**
 * The checks of `@RouteCredential(name)` routes, by name. A module registers its check when it starts; the route gate
 * runs it in `preParsing`, so such a route, like every other, refuses a missing or wrong credential before reading
 * its body. The core names no module: it only knows the names the modules registered.
 */
@Injectable()
export class RouteCredentialChecks {
  private readonly checks = new Map<string, RouteCredentialCheck>();

  register(name: string, check: RouteCredentialCheck): void {
    if (this.checks.has(name)) throw new Error(`route credential check ${name} is registered twice`);
    this.checks.set(name, check);
  }

  run(name: string, request: FastifyRequest): void | Promise<void> {
    const check = this.checks.get(name);
    // A programming error (the module did not register its check): refuse rather than serve the route unchecked.
    if (!check) throw GatewayException.forbidden('permission_denied', 'This route has no credential check');
    return check(request);
  }
}
