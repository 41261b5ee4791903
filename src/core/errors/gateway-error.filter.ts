import { Catch, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { clip } from '../http/echo.js';
import type { RouteTable } from '../http/route-table.js';
import { GatewayException } from './gateway.exception.js';
import './error-context.js';
import { toErrorResponse, type ErrorResponse } from './error-response.js';

/** Nest's router raises `Cannot <METHOD> <url>` for requests no route matched. */
function isRouterNotFound(exception: unknown): boolean {
  return exception instanceof NotFoundException && /^Cannot [A-Z]+ /.test(exception.message);
}

/** Converts unmatched-route errors into 404 `route_not_found` or 405 with `Allow`; the path is repeated clipped. */
export function routeMissError(method: string, url: string, routes: RouteTable): GatewayException {
  const path = url.split('?')[0] ?? url;
  const allowed = routes.allowedMethods(path);
  if (allowed.length && !allowed.includes(method)) {
    return new GatewayException(405, 'method_not_allowed', `Method ${method} is not allowed on ${clip(path)}`, {
      headers: { allow: allowed.join(', ') },
    });
  }
  return new GatewayException(404, 'route_not_found', `No route for ${clip(method, 20)} ${clip(path)}`);
}

/**
 * The log line of an error response, wherever it is rendered (this filter, a JSON-RPC envelope, an SSE error event):
 * the event_id the client got, at warn for 4xx and error for 5xx, with the stack when the failure was unexpected.
 */
export function logErrorResponse(
  logger: Logger,
  request: FastifyRequest,
  response: Pick<ErrorResponse, 'status' | 'unexpected'> & {
    body: { event_id: string; error: { code: string; message: string } };
  },
  exception: unknown,
): void {
  const log = {
    event_id: response.body.event_id,
    req_id: request.id,
    status: response.status,
    code: response.body.error.code,
  };
  if (response.unexpected) logger.error({ ...log, err: exception }, 'unexpected error');
  else if (response.status >= 500) logger.error(log, response.body.error.message);
  else logger.warn(log, response.body.error.message);
}

/**
 * Sends a GatewayError for anything thrown and logs every error response with the same event_id the client got (the
 * contract: "also in the log line"): warn for 4xx, error for 5xx, with the stack when the failure was unexpected.
 */
export function sendError(exception: unknown, request: FastifyRequest, reply: FastifyReply, logger: Logger): void {
  const response = toErrorResponse(exception, request.errorFields);
  logErrorResponse(logger, request, response, exception);
  if (reply.sent || reply.raw.headersSent) return;
  if (request.nativeError) {
    const native = request.nativeError(response);
    void reply.status(native.status).headers(native.headers).send(native.body);
    return;
  }
  void reply.status(response.status).headers(response.headers).send(response.body);
}

@Catch()
export class GatewayErrorFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly routes: RouteTable,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const error = isRouterNotFound(exception) ? routeMissError(request.method, request.url, this.routes) : exception;
    sendError(error, request, reply, this.logger);
  }
}
