import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { reasonForProviderStatus } from './error-reason.js';
import type { InferenceKind, Json, ProviderError, ProviderTarget } from './provider-adapter.js';
import { retryHintFromHeaders } from './retry-hint.js';

/**
 * What the adapters translating to a provider's own API (Anthropic, Gemini) build the same way: the headers of a
 * call, the refusal of a kind they do not speak, the count_tokens answer, timestamps and the message of an error
 * body that is not the provider's JSON.
 */

/** Error bodies that are not JSON (a proxy's HTML page) are quoted up to this many characters. */
const MAX_RAW_MESSAGE = 500;

/**
 * Headers of one call, for every adapter but the OpenAI family's (`openai/openai-request.ts`): `fixed` (an API
 * version, `accept`), the content type, then the provider's extra headers lower-cased so they replace rather than
 * duplicate ours, and the key last under `keyHeader` (as `Bearer <key>` with `bearer`) so no extra header can swap it.
 * Without `keyHeader` the adapter authorizes the call itself (SigV4, an OAuth token).
 */
export function nativeHeaders(
  target: ProviderTarget,
  call: { json: boolean; keyHeader?: string; bearer?: boolean; fixed?: Record<string, string> },
): Record<string, string> {
  const headers: Record<string, string> = { ...call.fixed };
  if (call.json) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(target.extraHeaders)) headers[name.toLowerCase()] = value;
  const key = target.key.value;
  if (key && call.keyHeader) headers[call.keyHeader] = call.bearer ? `Bearer ${key}` : key;
  return headers;
}

/** A kind the adapter does not speak; the router checks `kinds` first, so this is a guard, not a path. */
export function unsupportedKind(provider: string, kind: InferenceKind): GatewayException {
  return new GatewayException(400, 'unsupported_operation', `${provider} does not support ${kind} requests`, {
    param: 'model',
    reason: 'caller_invalid_request',
  });
}

/** The count_tokens answer of the unified API (the Responses API's `input_tokens` object). */
export function inputTokensBody(tokens: unknown): Json {
  return { object: 'response.input_tokens', input_tokens: typeof tokens === 'number' ? tokens : 0 };
}

/** `created` of a translated response or chunk (the provider's own answers carry no such time). */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The message of an error whose body has none: the body quoted, or the status when the body is empty. */
export function rawErrorMessage(provider: string, status: number, body: string): string {
  const raw = body.trim();
  return raw ? raw.slice(0, MAX_RAW_MESSAGE) : `${provider} answered HTTP ${status}`;
}

/** What a provider's error body says, as far as the adapter could read it. */
export interface ErrorDetail {
  message?: string;
  code?: string;
  param?: string;
}

/**
 * A provider's failure classified the common way: its own message (else the raw body), the reason by HTTP status, its
 * code and param when it names them, and the retry hint of its headers. For the providers whose errors carry no
 * typed classification of their own (ElevenLabs, Runware, Replicate, Runway).
 */
export function providerErrorOf(
  provider: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  detail: ErrorDetail,
): ProviderError {
  const error: ProviderError = {
    status,
    message: detail.message ?? rawErrorMessage(provider, status, body),
    reason: reasonForProviderStatus(status),
  };
  if (detail.code) error.code = detail.code;
  if (detail.param) error.param = detail.param;
  const hint = retryHintFromHeaders(headers);
  if (hint !== undefined) error.retryAfterMs = hint;
  return error;
}
