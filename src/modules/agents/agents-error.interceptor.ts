import {
  Inject,
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { catchError, type Observable } from 'rxjs';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { LOGGER } from '../../core/logging/logging.module.js';

export const A2A_REQUEST_TYPE = 'agents:a2a-request-type';
export type AgentManagementOperation = 'register' | 'inspect' | 'list' | 'get' | 'update' | 'delete';

/** Names the Agent Gateway operation reported in `extra_fields.a2a_request_type` of this route's errors. */
export const A2aRequestType = (operation: AgentManagementOperation) => SetMetadata(A2A_REQUEST_TYPE, operation);

/**
 * Adds `a2a_request_type` and `a2a_agent_name` to every error of the agent management routes (validation errors
 * from the global pipe included, since pipes run inside interceptors). Unexpected errors are logged here and
 * answered as a plain 500, because the filter only logs what it does not recognise.
 */
@Injectable()
export class AgentsErrorInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const operation = this.reflector.get<AgentManagementOperation | undefined>(A2A_REQUEST_TYPE, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      catchError((err: unknown) => {
        const params = request.params as Record<string, unknown> | undefined;
        const body = request.body as Record<string, unknown> | undefined;
        const name =
          typeof params?.name === 'string' ? params.name : typeof body?.name === 'string' ? body.name : undefined;
        const extra: Record<string, unknown> = {};
        if (operation) extra.a2a_request_type = operation;
        if (name) extra.a2a_agent_name = name;
        if (err instanceof GatewayException) {
          throw new GatewayException(err.status, err.code, err.message, {
            type: err.type,
            param: err.param,
            reason: err.reason,
            headers: err.headers,
            isGatewayError: err.isGatewayError,
            extraFields: { ...err.extraFields, ...extra },
            cause: err,
          });
        }
        this.logger.error({ err, ...extra }, 'unexpected error in agent management');
        throw new GatewayException(500, 'internal_error', 'Internal server error', {
          reason: 'gateway_internal',
          extraFields: extra,
          cause: err,
        });
      }),
    );
  }
}
