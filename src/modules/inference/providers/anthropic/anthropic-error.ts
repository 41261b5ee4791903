import type { ErrorReason } from '../../../../core/errors/error-catalogue.js';
import { reasonForProviderStatus } from '../shared/error-reason.js';
import { rawErrorMessage } from '../shared/native-adapter-parts.js';
import type { Json, ProviderError } from '../shared/provider-adapter.js';
import { retryHintFromHeaders } from '../shared/retry-hint.js';
import { isJsonObject, parseJson } from '../shared/wire-json.js';

/** Anthropic's `error.type` → HTTP status; an in-stream `event: error` carries only the type. */
export const ANTHROPIC_ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/**
 * Classifies one Anthropic error object `{ type, message }`. The type says more than the status (a 529 and an
 * in-stream overloaded_error are both provider_overloaded); an exhausted prepaid balance arrives as a 400
 * invalid_request_error whose message names the credit balance, which is the key's billing, not the caller's request.
 */
function classify(status: number, error: Json | undefined, fallbackMessage: string): ProviderError {
  const type = typeof error?.type === 'string' ? error.type : undefined;
  const message = typeof error?.message === 'string' && error.message ? error.message : fallbackMessage;
  let reason: ErrorReason = reasonForProviderStatus((type && ANTHROPIC_ERROR_STATUS[type]) || status);
  if (reason === 'caller_invalid_request' && /credit balance/i.test(message)) reason = 'provider_billing';
  const out: ProviderError = { status, message, reason };
  if (type) out.type = type;
  return out;
}

/** An HTTP error answer: the provider's status is kept; `retry-after` (sent on 429 and 529) is the hint. */
export function parseAnthropicError(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): ProviderError {
  const parsed = parseJson(body);
  const error = isJsonObject(parsed) && isJsonObject(parsed.error) ? parsed.error : undefined;
  const out = classify(status, error, rawErrorMessage('anthropic', status, body));
  const hint = retryHintFromHeaders(headers);
  if (hint !== undefined) out.retryAfterMs = hint;
  return out;
}

/** An `event: error` mid-stream: the status comes from the type (an unknown type is a 502). */
export function anthropicStreamError(error: unknown): ProviderError {
  const e = isJsonObject(error) ? error : undefined;
  const type = typeof e?.type === 'string' ? e.type : undefined;
  return classify((type && ANTHROPIC_ERROR_STATUS[type]) || 502, e, 'anthropic stream failed');
}
