import type { ErrorReason } from '../../../../core/errors/error-catalogue.js';
import { reasonForProviderStatus } from '../shared/error-reason.js';
import type { ProviderError } from '../shared/provider-adapter.js';
import { retryHintFromHeaders } from '../shared/retry-hint.js';
import { asArray, asCode, asObject, asString, parseJson } from '../shared/wire-json.js';

/** What an OpenAI-family error body says, whichever of the family's shapes it came in. */
export interface OpenAiErrorFields {
  message?: string;
  type?: string;
  code?: string;
  param?: string;
}

/** Longest plain-text error body kept as the message. */
const MAX_TEXT_MESSAGE = 2000;

/** FastAPI validation detail (vLLM, SGLang, TGI): a string, or `[{ loc, msg }]`. */
function detailMessage(detail: unknown): string | undefined {
  const text = asString(detail);
  if (text) return text;
  const parts = asArray(detail)
    ?.map((d) => {
      const o = asObject(d);
      const msg = asString(o?.msg);
      const loc = asArray(o?.loc)?.join('.');
      return msg && loc ? `${loc}: ${msg}` : msg;
    })
    .filter((m): m is string => !!m);
  return parts && parts.length > 0 ? parts.join('; ') : undefined;
}

/**
 * Reads `{ error: { message, type, param, code } }` (OpenAI and most of the family), `{ error: "text" }` (Ollama),
 * top-level `{ message, type, code }` (vLLM, Mistral), `{ error_code, message }` (Databricks) and `{ detail }`
 * (FastAPI servers). Undefined when the payload is none of those.
 */
export function openAiErrorFields(payload: unknown): OpenAiErrorFields | undefined {
  const o = asObject(payload);
  if (!o) return undefined;
  const nested = asObject(o.error);
  if (nested) {
    return {
      message: asString(nested.message) ?? detailMessage(nested.detail),
      type: asString(nested.type) ?? asString(nested.status),
      code: asCode(nested.code),
      param: asString(nested.param),
    };
  }
  const flat = asString(o.error) ?? asString(o.message) ?? detailMessage(o.detail);
  if (flat === undefined) return undefined;
  return {
    message: flat,
    type: asString(o.type) ?? asString(o.error_code),
    code: asCode(o.code) ?? asString(o.error_code),
    param: asString(o.param),
  };
}

/** `insufficient_quota` comes as a 429 but no wait will help: the account is out of credit. */
export function reasonForOpenAiError(status: number, fields: OpenAiErrorFields | undefined): ErrorReason {
  if (fields?.code === 'insufficient_quota' || fields?.type === 'insufficient_quota') return 'provider_billing';
  return reasonForProviderStatus(status);
}

function messageOfText(status: number, text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return `Provider returned HTTP ${status}`;
  // A proxy's HTML error page says nothing useful to the caller.
  if (trimmed.startsWith('<')) return `Provider returned HTTP ${status} with a non-JSON body`;
  return trimmed.length > MAX_TEXT_MESSAGE ? `${trimmed.slice(0, MAX_TEXT_MESSAGE)}…` : trimmed;
}

/** An OpenAI-family HTTP error response → ProviderError (the provider's status, message, type and code kept). */
export function parseOpenAiError(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): ProviderError {
  const fields = openAiErrorFields(parseJson(body));
  const error: ProviderError = {
    status,
    message: fields?.message || messageOfText(status, fields ? '' : body),
    reason: reasonForOpenAiError(status, fields),
  };
  if (fields?.type) error.type = fields.type;
  if (fields?.code) error.code = fields.code;
  if (fields?.param) error.param = fields.param;
  const retryAfterMs = retryHintFromHeaders(headers);
  if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
  return error;
}

/** HTTP status implied by an in-stream error's type or code, which carries no status line of its own. */
function statusOfStreamError(fields: OpenAiErrorFields): number {
  const numeric = Number(fields.code);
  if (Number.isInteger(numeric) && numeric >= 400 && numeric <= 599) return numeric;
  const kind = `${fields.type ?? ''} ${fields.code ?? ''}`;
  if (/insufficient_quota|rate_limit/.test(kind)) return 429;
  if (/overloaded|unavailable/.test(kind)) return 503;
  if (/timeout/.test(kind)) return 504;
  if (/invalid_request|invalid_prompt|context_length|content_filter|invalid_image/.test(kind)) return 400;
  if (/server_error/.test(kind)) return 500;
  return 502;
}

/** An error reported inside a stream (`{"error": {...}}` data, a Responses `error` or `response.failed` event). */
export function openAiStreamError(fields: OpenAiErrorFields | undefined): ProviderError {
  const f = fields ?? {};
  const status = statusOfStreamError(f);
  const error: ProviderError = {
    status,
    message: f.message || 'The provider reported an error in the stream',
    reason: reasonForOpenAiError(status, f),
  };
  if (f.type) error.type = f.type;
  if (f.code) error.code = f.code;
  if (f.param) error.param = f.param;
  return error;
}

/** The stream stopped before its terminator: a dropped connection or a crashed upstream. */
export function truncatedStreamError(terminator: string): ProviderError {
  return {
    status: 502,
    message: `The provider's stream ended before ${terminator}`,
    reason: 'provider_server_error',
  };
}
