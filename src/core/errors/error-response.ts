import { randomUUID } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import { clip } from '../http/echo.js';
import { MAX_PATH_PARAM_CHARS } from '../http/limits.js';
import { isDatabaseUnavailable } from '../persistence/db-errors.js';
import { errorTypeForStatus, type ErrorCode } from './error-catalogue.js';
import { GatewayException } from './gateway.exception.js';

/**
 * Backstop on `error.message`: messages repeat at most a clipped piece of the input (see http/echo.ts), but any
 * message, whoever built it, is cut here before it reaches a body or a log line.
 */
export const MAX_ERROR_MESSAGE_CHARS = 1000;

export interface GatewayErrorBody {
  event_id: string;
  type: string;
  is_gateway_error: boolean;
  status_code: number;
  error: { type: string; code: string; message: string; param?: string; event_id: string };
  extra_fields: Record<string, unknown>;
}

export interface ErrorResponse {
  status: number;
  body: GatewayErrorBody;
  headers: Record<string, string>;
  /** Unexpected failures are logged at error level with their stack. */
  unexpected: boolean;
}

/**
 * Fastify's own errors (raised before a route handler runs) mapped to the catalogue. Messages are fixed: Fastify's
 * own repeat the path or the Content-Type the caller sent.
 */
const FASTIFY_ERRORS: Record<string, { status: number; code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'Request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'Request body is empty but declared JSON',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Unsupported or malformed request Content-Type; send application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length' },
  FST_ERR_BAD_URL: { status: 400, code: 'invalid_url', message: 'The URL path has invalid percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'uri_too_long',
    message: `A path parameter is longer than the limit of ${MAX_PATH_PARAM_CHARS} characters`,
  },
};

function fromStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'missing_credentials';
    case 403:
      return 'permission_denied';
    case 404:
      return 'route_not_found';
    case 405:
      return 'method_not_allowed';
    case 413:
      return 'payload_too_large';
    case 414:
      return 'uri_too_long';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'request_limited';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}

/** A catalogued Fastify error, as thrown or as Nest wraps it (an HttpException whose `cause` is the Fastify error). */
function knownFastifyError(error: unknown): { error: Error; known: (typeof FASTIFY_ERRORS)[string] } | undefined {
  for (const candidate of [error, error instanceof HttpException ? error.cause : undefined]) {
    const code = (candidate as { code?: unknown } | undefined)?.code;
    const known = typeof code === 'string' ? FASTIFY_ERRORS[code] : undefined;
    if (known) return { error: candidate as Error, known };
  }
  return undefined;
}

/**
 * A database that is down or unreachable (stopped, restarting, the network cut) is a 503 the caller may retry, not a
 * 500: nothing in the request was wrong, and the same request succeeds once the database is back. The inference path
 * reads memory and keeps serving; what needs the database (management writes, async submits) answers this.
 */
function databaseUnavailable(cause: unknown): GatewayException {
  return new GatewayException(503, 'service_unavailable', 'The database is unavailable: retry the request', {
    reason: 'gateway_internal',
    headers: { 'retry-after': '1' },
    cause,
  });
}

const eventIds = new WeakMap<object, string>();

/**
 * The event id of a failure: one per thrown object, however often it is rendered (a history row, then the response
 * and its log line, carry the same id).
 */
export function eventIdOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return randomUUID();
  let id = eventIds.get(error);
  if (!id) {
    id = randomUUID();
    eventIds.set(error, id);
  }
  return id;
}

/**
 * Turns anything thrown into the GatewayError body the contract requires. `context` holds the request's error fields
 * (see error-context.ts); the exception's own extra fields win over them.
 */
export function toErrorResponse(thrown: unknown, context?: Record<string, unknown>): ErrorResponse {
  const eventId = eventIdOf(thrown);
  const error = isDatabaseUnavailable(thrown) ? databaseUnavailable(thrown) : thrown;
  let status = 500;
  let code = 'internal_error';
  let message = 'Internal server error';
  let type: string | undefined;
  let param: string | undefined;
  let isGatewayError = true;
  let unexpected = false;
  const extra: Record<string, unknown> = { ...context };
  const headers: Record<string, string> = {};
  const fastifyError = knownFastifyError(error);

  if (error instanceof GatewayException) {
    status = error.status;
    code = error.wireCode ?? error.code;
    message = error.message;
    type = error.type;
    param = error.param;
    isGatewayError = error.isGatewayError;
    if (error.reason) extra.error_type = error.reason;
    Object.assign(extra, error.extraFields);
    Object.assign(headers, error.headers);
  } else if (fastifyError) {
    status = fastifyError.known.status;
    code = fastifyError.known.code;
    message = fastifyError.known.message ?? fastifyError.error.message;
  } else if (error instanceof HttpException) {
    status = error.getStatus();
    code = fromStatus(status);
    const response = error.getResponse();
    const raw =
      typeof response === 'string' ? response : ((response as { message?: unknown }).message ?? error.message);
    message = Array.isArray(raw) ? raw.map(String).join('; ') : typeof raw === 'string' ? raw : error.message;
  } else if (error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') {
    const statusCode = (error as { statusCode?: unknown }).statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      status = statusCode;
      code = fromStatus(statusCode);
      message = (error as Error).message;
    } else {
      unexpected = true;
    }
  } else {
    unexpected = true;
  }

  if (status >= 500 && !(error instanceof GatewayException)) {
    unexpected = true;
    message = 'Internal server error';
    code = 'internal_error';
    extra.error_type = 'gateway_internal';
  }
  if (status === 400 && !extra.error_type) extra.error_type = 'caller_invalid_request';

  const errorType = type ?? errorTypeForStatus(status);
  message = clip(message, MAX_ERROR_MESSAGE_CHARS);
  const field: GatewayErrorBody['error'] = { type: errorType, code, message, event_id: eventId };
  if (param !== undefined) field.param = param;
  return {
    status,
    headers,
    unexpected,
    body: {
      event_id: eventId,
      type: errorType,
      is_gateway_error: isGatewayError,
      status_code: status,
      error: field,
      extra_fields: extra,
    },
  };
}
