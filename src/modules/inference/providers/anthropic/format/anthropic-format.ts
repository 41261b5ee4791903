import type { CanonicalRequest, NativeFormat, NativeOperation } from '../../../formats/native-format.js';
import { countFromCanonical, messageFromCanonical } from './anthropic-answer.js';
import { renderAnthropicError } from './anthropic-error-shape.js';
import { countTokensToCanonical, keepsAnthropicExtras, messagesToCanonical } from './anthropic-request.js';
import { AnthropicStreamEncoder } from './anthropic-stream-encoder.js';

/** The `/anthropic` set: a bare model is Anthropic's; errors are `{type:"error", error:{…}}`. */
export const ANTHROPIC_FORMAT: NativeFormat = {
  name: 'anthropic',
  renderError: renderAnthropicError,
};

/**
 * The caller's `anthropic-beta` header (a coding agent's interleaved thinking, prompt caching, …) carried as
 * `anthropic_beta` for the anthropic adapter, which sends it on; only toward Claude, for whom it means something.
 */
function withBeta(request: CanonicalRequest, headers: Record<string, string | string[] | undefined>): CanonicalRequest {
  const raw = headers['anthropic-beta'];
  const beta = (Array.isArray(raw) ? raw.join(',') : raw)?.trim();
  if (beta && keepsAnthropicExtras(String(request.body.model))) request.body.anthropic_beta = beta;
  return request;
}

/** `POST /v1/messages`: served as a /v1 chat request, answered as a `message` or Messages events. */
export const ANTHROPIC_MESSAGES: NativeOperation = {
  kind: 'chat',
  toCanonical: (body, _params, _query, headers = {}) => withBeta(messagesToCanonical(body), headers),
  fromCanonical: (answer, usage, request) => messageFromCanonical(answer, usage, request.body.model),
  streamEncoder: (request) => new AnthropicStreamEncoder(request.body.model),
};

/** `POST /v1/messages/count_tokens`: served as a /v1 count_tokens request, answered `{ input_tokens }`. */
export const ANTHROPIC_COUNT_TOKENS: NativeOperation = {
  kind: 'count_tokens',
  toCanonical: (body, _params, _query, headers = {}) => withBeta(countTokensToCanonical(body), headers),
  fromCanonical: (answer) => countFromCanonical(answer),
};
