import type { ErrorReason } from '../../../../core/errors/error-catalogue.js';
import { reasonForProviderStatus } from '../shared/error-reason.js';
import { rawErrorMessage } from '../shared/native-adapter-parts.js';
import type { ProviderError } from '../shared/provider-adapter.js';
import { isJsonObject, parseJson } from '../shared/wire-json.js';

/**
 * Bedrock's errors: `{"message": …}` (`Message` from some services) with the exception named in `x-amzn-ErrorType`
 * (`ThrottlingException:http://internal.amazon.com/coral/…`) or the body's `__type`. In a stream the same exceptions
 * arrive as frames whose `:exception-type` is the lower-camel name (`throttlingException`). Bedrock sends no retry
 * hint.
 */

interface ExceptionClass {
  status: number;
  reason: ErrorReason;
}

/** By exception name, first letter lower-cased (the stream's spelling); reference §2.5 for the statuses. */
const EXCEPTIONS: Readonly<Record<string, ExceptionClass>> = {
  validationException: { status: 400, reason: 'caller_invalid_request' },
  accessDeniedException: { status: 403, reason: 'provider_auth_failed' },
  unrecognizedClientException: { status: 403, reason: 'provider_auth_failed' },
  invalidSignatureException: { status: 403, reason: 'provider_auth_failed' },
  expiredTokenException: { status: 403, reason: 'provider_auth_failed' },
  resourceNotFoundException: { status: 404, reason: 'caller_model_unknown' },
  modelTimeoutException: { status: 408, reason: 'provider_timeout' },
  modelErrorException: { status: 424, reason: 'provider_server_error' },
  modelStreamErrorException: { status: 424, reason: 'provider_server_error' },
  throttlingException: { status: 429, reason: 'provider_rate_limited' },
  serviceQuotaExceededException: { status: 429, reason: 'provider_rate_limited' },
  internalServerException: { status: 500, reason: 'provider_server_error' },
  serviceUnavailableException: { status: 503, reason: 'provider_overloaded' },
  modelNotReadyException: { status: 503, reason: 'provider_overloaded' },
};

/** `ThrottlingException:http://…`, `com.amazon.coral#ThrottlingException` → `throttlingException`. */
function exceptionName(raw: string): string {
  const bare = raw.split(':')[0]!.split('#').pop()!.trim();
  return bare ? bare[0]!.toLowerCase() + bare.slice(1) : '';
}

function messageOf(parsed: unknown): string | undefined {
  if (!isJsonObject(parsed)) return undefined;
  const message = parsed.message ?? parsed.Message;
  return typeof message === 'string' && message ? message : undefined;
}

function classified(status: number, type: string | undefined, message: string): ProviderError {
  const known = type ? EXCEPTIONS[exceptionName(type)] : undefined;
  const out: ProviderError = { status, message, reason: known?.reason ?? reasonForProviderStatus(status) };
  if (type) out.type = type.split(':')[0]!.split('#').pop()!;
  return out;
}

export function parseBedrockError(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): ProviderError {
  const parsed = parseJson(body);
  const header = headers['x-amzn-errortype'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const fromBody = isJsonObject(parsed) && typeof parsed.__type === 'string' ? parsed.__type : undefined;
  return classified(status, fromHeader || fromBody, messageOf(parsed) ?? rawErrorMessage('bedrock', status, body));
}

/** A `:message-type: exception` (or `error`) frame mid-stream: the status comes from the exception's name. */
export function bedrockStreamError(exceptionType: string | undefined, payload: unknown): ProviderError {
  const known = exceptionType ? EXCEPTIONS[exceptionName(exceptionType)] : undefined;
  const message = messageOf(payload) ?? `bedrock stream failed${exceptionType ? ` (${exceptionType})` : ''}`;
  return classified(known?.status ?? 502, exceptionType, message);
}
