import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { toErrorResponse } from '../errors/error-response.js';
import { sendError } from '../errors/gateway-error.filter.js';
import { GatewayException } from '../errors/gateway.exception.js';

/**
 * Fastify's `frameworkErrors` option: errors its router raises before any route or hook runs (bad percent-encoding,
 * a path parameter over `maxParamLength`). Fastify would answer them with its own body echoing the whole path; they
 * go through the same renderer and log line as every other error instead.
 */
export function frameworkErrorHandler(logger: Logger) {
  return (error: Error, request: FastifyRequest, reply: FastifyReply): void => {
    void reply.header('x-request-id', request.id);
    sendError(error, request, reply, logger);
  };
}

/** What Node's HTTP parser refused, as a GatewayException (never repeating the bytes it refused). */
function parserError(code: string | undefined): GatewayException {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new GatewayException(
      431,
      'request_header_fields_too_large',
      `The request line and headers exceed the limit of ${maxHeaderSize} bytes`,
    );
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new GatewayException(408, 'request_timeout', 'The request was not received in time');
  }
  return new GatewayException(400, 'bad_request', 'Malformed HTTP request');
}

/**
 * Fastify's `clientErrorHandler` option: requests Node's HTTP parser refused (a request line over 16 KiB, a NUL in a
 * header, a timeout), before Fastify sees them. There is no request object, so the GatewayError is written on the
 * socket, logged with a fresh request id, and the connection is closed: the parser cannot resume on it.
 */
export function clientErrorHandler(logger: Logger) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const response = toErrorResponse(parserError(err.code));
    const reqId = randomUUID();
    logger.warn(
      {
        event_id: response.body.event_id,
        req_id: reqId,
        status: response.status,
        code: response.body.error.code,
        parser_error: err.code,
      },
      response.body.error.message,
    );
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(response.body);
    const head = [
      `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      `x-request-id: ${reqId}`,
      'connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  };
}
