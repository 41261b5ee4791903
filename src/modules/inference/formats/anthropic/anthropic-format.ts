import type { NativeFormat, NativeOperation } from '../native-format.js';
import { countFromCanonical, messageFromCanonical } from './anthropic-answer.js';
import { renderAnthropicError } from './anthropic-error-shape.js';
import { countTokensToCanonical, messagesToCanonical } from './anthropic-request.js';
import { AnthropicStreamEncoder } from './anthropic-stream-encoder.js';

/** The `/anthropic` set: a bare model is Anthropic's; errors are `{type:"error", error:{…}}`. */
export const ANTHROPIC_FORMAT: NativeFormat = {
  name: 'anthropic',
  defaultProvider: 'anthropic',
  renderError: renderAnthropicError,
};

/** `POST /v1/messages`: served as a /v1 chat request, answered as a `message` or Messages events. */
export const ANTHROPIC_MESSAGES: NativeOperation = {
  kind: 'chat',
  toCanonical: (body) => messagesToCanonical(body),
  fromCanonical: (answer, usage, request) => messageFromCanonical(answer, usage, request.body.model),
  streamEncoder: (request) => new AnthropicStreamEncoder(request.body.model),
};

/** `POST /v1/messages/count_tokens`: served as a /v1 count_tokens request, answered `{ input_tokens }`. */
export const ANTHROPIC_COUNT_TOKENS: NativeOperation = {
  kind: 'count_tokens',
  toCanonical: (body) => countTokensToCanonical(body),
  fromCanonical: (answer) => countFromCanonical(answer),
};
