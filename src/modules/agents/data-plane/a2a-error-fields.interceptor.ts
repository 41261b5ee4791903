import {
  Injectable,
  SetMetadata,
  UseInterceptors,
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { catchError, type Observable } from 'rxjs';
import { withA2aFields } from './agent-access.service.js';

const A2A_REQUEST_TYPE = 'gateway:a2a-request-type';

/** Adds `extra_fields.a2a_request_type` (and `a2a_agent_name` from the route or query) to every GatewayError. */
@Injectable()
export class A2aErrorFieldsInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const type = this.reflector.get<string | undefined>(A2A_REQUEST_TYPE, context.getHandler()) ?? 'AgentGateway';
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const params = (request.params ?? {}) as Record<string, unknown>;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const name = [params.name, query.agent_name].find((v): v is string => typeof v === 'string' && v.length > 0);
    return next.handle().pipe(
      catchError((err: unknown) => {
        throw withA2aFields(err, type, name);
      }),
    );
  }
}

/** Names the Agent Gateway operation of a management route for its error bodies. */
export function A2aRequestType(type: string): MethodDecorator {
  return applyDecorators(SetMetadata(A2A_REQUEST_TYPE, type), UseInterceptors(A2aErrorFieldsInterceptor));
}
