import type { ErrorReason } from '../../../../core/errors/error-catalogue.js';
import { reasonForProviderStatus } from '../shared/error-reason.js';
import { rawErrorMessage } from '../shared/native-adapter-parts.js';
import type { Json, ProviderError } from '../shared/provider-adapter.js';
import { retryHintFromHeaders, retryHintFromRetryInfo } from '../shared/retry-hint.js';
import { isJsonObject, parseJson } from '../shared/wire-json.js';

/** google.rpc status string → HTTP status, for an error that comes without one (in a stream). */
export const GEMINI_STATUS_CODES: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  NOT_IMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** ErrorInfo reasons that mean the key itself is bad, although Gemini answers them with a 400 INVALID_ARGUMENT. */
const KEY_REJECTED = new Set(['API_KEY_INVALID', 'API_KEY_EXPIRED', 'API_KEY_SERVICE_BLOCKED']);

/** The `error` object of a Gemini body: `{ error }` or, in streams and some answers, `[{ error }]`. */
export function geminiErrorOf(payload: unknown): Json | undefined {
  const first: unknown = Array.isArray(payload) ? payload[0] : payload;
  return isJsonObject(first) && isJsonObject(first.error) ? first.error : undefined;
}

function errorInfoReason(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details as unknown[]) {
    if (isJsonObject(d) && typeof d['@type'] === 'string' && d['@type'].endsWith('google.rpc.ErrorInfo'))
      return typeof d.reason === 'string' ? d.reason : undefined;
  }
  return undefined;
}

/** Status, message and `type` (the status string) kept; the retry hint is RetryInfo in `details`. */
function classify(status: number, error: Json | undefined, fallbackMessage: string): ProviderError {
  const type = typeof error?.status === 'string' ? error.status : undefined;
  const message = typeof error?.message === 'string' && error.message ? error.message : fallbackMessage;
  const info = errorInfoReason(error?.details);
  let reason: ErrorReason = reasonForProviderStatus(status);
  if (info && KEY_REJECTED.has(info)) reason = 'provider_auth_failed';
  const out: ProviderError = { status, message, reason };
  if (type) out.type = type;
  if (info) out.code = info;
  const hint = retryHintFromRetryInfo(error?.details);
  if (hint !== undefined) out.retryAfterMs = hint;
  return out;
}

/** The HTTP status of an error object: its `code`, else its status string, else a 502. */
function statusOf(error: Json | undefined): number {
  if (typeof error?.code === 'number' && error.code >= 400 && error.code <= 599) return error.code;
  return (typeof error?.status === 'string' && GEMINI_STATUS_CODES[error.status]) || 502;
}

export function parseGeminiError(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): ProviderError {
  const error = geminiErrorOf(parseJson(body));
  const httpStatus = status >= 400 ? status : statusOf(error);
  const out = classify(httpStatus, error, rawErrorMessage('gemini', status, body));
  if (out.retryAfterMs === undefined) {
    const hint = retryHintFromHeaders(headers);
    if (hint !== undefined) out.retryAfterMs = hint;
  }
  return out;
}

/** An error object sent as a stream event. */
export function geminiStreamError(error: Json): ProviderError {
  return classify(statusOf(error), error, 'gemini stream failed');
}
