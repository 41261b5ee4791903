import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { Json } from '../../shared/provider-adapter.js';

/**
 * GatewayErrors in Google's shape, `{error:{code, message, status, details}}`, which `@google/genai` reads. Our
 * fields survive in the details: an `ErrorInfo` (reason = our error code, metadata = event_id, type and
 * extra_fields as strings), a `BadRequest` naming the field of a 400, a `RetryInfo` when a retry delay is known.
 */

const STATUSES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const TYPE = 'type.googleapis.com/google.rpc.';

export function genaiStatus(status: number): string {
  return STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

/** `google.protobuf.Duration` JSON (`37s`, `1.5s`). */
const duration = (ms: number) => `${Number((ms / 1000).toFixed(3))}s`;

/** The retry delay we know: the contract's `retry_after_ms`, else a `retry-after` header in seconds. */
function retryDelayMs(response: ErrorResponse): number | undefined {
  const fromBody = response.body.extra_fields.retry_after_ms;
  if (typeof fromBody === 'number' && fromBody > 0) return fromBody;
  const header = Number(response.headers['retry-after']);
  return Number.isFinite(header) && header > 0 ? header * 1000 : undefined;
}

/** ErrorInfo metadata is a map of strings. */
function metadataOf(response: ErrorResponse): Record<string, string> {
  const body = response.body;
  const metadata: Record<string, string> = { event_id: body.event_id, type: body.error.type };
  for (const [key, value] of Object.entries(body.extra_fields)) {
    if (value === undefined || value === null) continue;
    metadata[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return metadata;
}

export function genaiErrorBody(response: ErrorResponse): { error: Json } {
  const { error } = response.body;
  const details: Json[] = [
    { '@type': `${TYPE}ErrorInfo`, reason: error.code, domain: 'ai-gateway', metadata: metadataOf(response) },
  ];
  if (error.param !== undefined)
    details.push({
      '@type': `${TYPE}BadRequest`,
      fieldViolations: [{ field: error.param, description: error.message }],
    });
  const retry = retryDelayMs(response);
  if (retry !== undefined) details.push({ '@type': `${TYPE}RetryInfo`, retryDelay: duration(retry) });
  return {
    error: { code: response.status, message: error.message, status: genaiStatus(response.status), details },
  };
}

export function renderGenaiError(response: ErrorResponse): {
  status: number;
  headers: Record<string, string>;
  body: unknown;
} {
  return { status: response.status, headers: response.headers, body: genaiErrorBody(response) };
}
