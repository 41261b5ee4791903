import { reasonForProviderStatus } from '../shared/error-reason.js';
import { rawErrorMessage } from '../shared/native-adapter-parts.js';
import type { ProviderError } from '../shared/provider-adapter.js';
import { isJsonObject, parseJson } from '../shared/wire-json.js';

/**
 * A Cohere error answer: `{ "message": … }` and the status. Cohere sends no retry hint (reference §2.8), so a 429 is
 * retried on the router's own backoff; its 498 (invalid token) is an authentication failure.
 */
export function parseCohereError(
  status: number,
  _headers: Record<string, string | string[] | undefined>,
  body: string,
): ProviderError {
  const parsed = parseJson(body);
  const message =
    isJsonObject(parsed) && typeof parsed.message === 'string' && parsed.message
      ? parsed.message
      : rawErrorMessage('cohere', status, body);
  const reason = status === 498 ? 'provider_auth_failed' : reasonForProviderStatus(status);
  return { status, message, reason };
}
