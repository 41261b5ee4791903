import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { Json } from '../../shared/provider-adapter.js';

/** Anthropic's error `type` for an HTTP status (its documented table; 503 is its overload signal too). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/**
 * A GatewayError as Anthropic's `{type:"error", error:{type, message}}`. The gateway's members ride along (the SDK
 * reads `error.type` and `error.message` and keeps the rest): `error.param`, `error.code` and `error.event_id`, and at
 * the top level `event_id`, `is_gateway_error` and `extra_fields` (routing info, error_type).
 */
export function anthropicErrorBody(response: ErrorResponse): Json {
  const { body } = response;
  const error: Json = { type: anthropicErrorType(response.status), message: body.error.message };
  if (body.error.param !== undefined) error.param = body.error.param;
  error.code = body.error.code;
  error.event_id = body.error.event_id;
  return {
    type: 'error',
    error,
    event_id: body.event_id,
    is_gateway_error: body.is_gateway_error,
    extra_fields: body.extra_fields,
  };
}

/** The route's error renderer: the status and headers (retry-after, routing info) as the gateway set them. */
export function renderAnthropicError(response: ErrorResponse): {
  status: number;
  headers: Record<string, string>;
  body: unknown;
} {
  return { status: response.status, headers: response.headers, body: anthropicErrorBody(response) };
}
