import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { addErrorFields } from '../errors/error-context.js';
import { declarationsOf, RouteGate } from './route-gate.js';
import { isPending } from '../async/maybe-promise.js';

/**
 * The one global guard. The route gate has already authenticated and authorized the request before its body was
 * read (`registerRouteGate`); here the route's error fields are read again with the parsed body (a JSON-RPC method),
 * and a request the gate did not see (a route declaring no access: a programming error) goes through the gate now,
 * which refuses it.
 */
@Injectable()
export class GatewayAuthGuard implements CanActivate {
  constructor(private readonly gate: RouteGate) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const declared = declarationsOf(request);
    if (request.gated) {
      if (declared.errorFields && request.body !== undefined) addErrorFields(request, declared.errorFields(request));
      return true;
    }
    const outcome = this.gate.authorize(request, declared);
    return isPending(outcome) ? outcome.then(() => true) : true;
  }
}
