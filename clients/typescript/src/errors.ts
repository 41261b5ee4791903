import type { components } from './generated/openapi.js';

/** The body of every error the gateway answers (its OpenAPI schema `GatewayError`). */
export type GatewayErrorBody = components['schemas']['GatewayError'];

/**
 * An answer of the gateway that is not a success: the GatewayError's fields, the HTTP status, and the request that
 * got it. An answer whose body is not a GatewayError (a proxy's HTML page, an empty 502) still becomes one, with
 * `code` `http_<status>` and the body's first characters as its message.
 */
export class GatewayApiError extends Error {
  override readonly name = 'GatewayApiError';
  /** The HTTP status (equals the body's `status_code`). */
  readonly status: number;
  /** `error.type`, e.g. `invalid_request_error`. */
  readonly type: string;
  /** `error.code`, e.g. `validation_failed`, `permission_denied`. */
  readonly code: string;
  /** `error.param`: the request field at fault, when the gateway names one. */
  readonly param: string | undefined;
  /** The error's UUID, also in the gateway's log line. */
  readonly eventId: string | undefined;
  /** `extra_fields.error_type`, the fault domain (`caller_…`, `policy_…`, `provider_…`, `gateway_…`). */
  readonly errorType: string | undefined;
  /** True when the gateway decided the error; false when it relays a provider's. */
  readonly isGatewayError: boolean;
  readonly extraFields: GatewayErrorBody['extra_fields'] | undefined;
  /** The body as received (a GatewayError, or the text when it was not one). */
  readonly body: GatewayErrorBody | string | undefined;
  readonly method: string;
  readonly url: string;
  /** The `Retry-After` the answer carried, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(init: { status: number; method: string; url: string; body: unknown; retryAfterMs?: number }) {
    const gatewayError = isGatewayErrorBody(init.body) ? init.body : undefined;
    const text = typeof init.body === 'string' ? init.body.trim().slice(0, 200) : '';
    const message = gatewayError?.error.message ?? (text || `HTTP ${init.status}`);
    super(message);
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.retryAfterMs = init.retryAfterMs;
    this.type = gatewayError?.error.type ?? gatewayError?.type ?? 'http_error';
    this.code = gatewayError?.error.code ?? `http_${init.status}`;
    this.param = gatewayError?.error.param;
    this.eventId = gatewayError?.event_id ?? gatewayError?.error.event_id;
    this.errorType = gatewayError?.extra_fields?.error_type;
    this.isGatewayError = gatewayError?.is_gateway_error ?? false;
    this.extraFields = gatewayError?.extra_fields;
    this.body = gatewayError ?? (typeof init.body === 'string' ? init.body : undefined);
  }

  /** The GatewayError as the gateway sent it, or one built from what was received. */
  toJSON(): GatewayErrorBody {
    if (this.body && typeof this.body === 'object') return this.body;
    return {
      event_id: this.eventId ?? '',
      type: this.type,
      is_gateway_error: false,
      status_code: this.status,
      error: { type: this.type, code: this.code, message: this.message, event_id: this.eventId ?? '' },
      extra_fields: {},
    };
  }
}

function isGatewayErrorBody(body: unknown): body is GatewayErrorBody {
  if (!body || typeof body !== 'object') return false;
  const error = (body as { error?: unknown }).error;
  return !!error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string';
}

/** Reads a failed answer into a GatewayApiError (the body is consumed). */
export async function errorFromResponse(request: Request, response: Response): Promise<GatewayApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  if (text && (response.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return new GatewayApiError({
    status: response.status,
    method: request.method,
    url: request.url,
    body,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
