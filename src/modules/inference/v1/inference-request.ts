import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { InferenceKind, Json } from '../providers/shared/provider-adapter.js';
import { MEDIA_KINDS } from '../media/media-kinds.js';
import { streamsMedia, validateMediaBody } from '../media/media-request.js';

/** Most fallbacks one request may list. */
export const MAX_FALLBACKS = 10;
const MAX_MODEL_CHARS = 512;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function modelString(value: unknown, param: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw GatewayException.validation(param, `${param} must be a non-empty string such as openai/gpt-4o`);
  }
  if (value.length > MAX_MODEL_CHARS) {
    throw GatewayException.validation(param, `${param} is longer than ${MAX_MODEL_CHARS} characters`);
  }
  return value;
}

function requireArray(body: Json, field: string, nonEmpty = true): unknown[] {
  const value = body[field];
  if (!Array.isArray(value) || (nonEmpty && value.length === 0)) {
    throw GatewayException.validation(field, `${field} must be a${nonEmpty ? ' non-empty' : 'n'} array`);
  }
  return value;
}

function requireStringOrArray(body: Json, field: string): void {
  const value = body[field];
  if (typeof value === 'string') return;
  if (Array.isArray(value) && value.length > 0) return;
  throw GatewayException.validation(field, `${field} must be a string or a non-empty array`);
}

/** Each element an object with a string `role` (chat messages). */
function requireMessages(body: Json): void {
  const messages = requireArray(body, 'messages');
  messages.forEach((m, i) => {
    if (!isObject(m)) throw GatewayException.validation(`messages[${i}]`, `messages[${i}] must be an object`);
    if (typeof m.role !== 'string' || m.role === '') {
      throw GatewayException.validation(`messages[${i}].role`, `messages[${i}].role must be a non-empty string`);
    }
  });
}

/**
 * Checks what the gateway itself reads in a /v1 body (the model, fallbacks, stream flags and the fields without which
 * no provider could answer); everything else passes through to the provider untouched, which judges it.
 */
export function validateInferenceBody(kind: InferenceKind, body: unknown): { body: Json; stream: boolean } {
  if (!isObject(body)) throw GatewayException.validation('body', 'The request body must be a JSON object');
  modelString(body.model, 'model');
  if (body.fallbacks !== undefined) {
    const fallbacks = requireArray(body, 'fallbacks', false);
    if (fallbacks.length > MAX_FALLBACKS) {
      throw GatewayException.validation('fallbacks', `fallbacks lists at most ${MAX_FALLBACKS} models`);
    }
    fallbacks.forEach((f, i) => modelString(f, `fallbacks[${i}]`));
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') {
    throw GatewayException.validation('stream', 'stream must be a boolean');
  }
  const stream = body.stream === true;
  if (stream && (kind === 'embeddings' || kind === 'rerank' || kind === 'count_tokens' || MEDIA_KINDS.has(kind))) {
    throw GatewayException.validation('stream', 'This endpoint does not stream');
  }
  if (body.stream_options !== undefined && body.stream_options !== null && !isObject(body.stream_options)) {
    throw GatewayException.validation('stream_options', 'stream_options must be an object');
  }
  switch (kind) {
    case 'chat':
      requireMessages(body);
      break;
    case 'completions':
      requireStringOrArray(body, 'prompt');
      break;
    case 'responses':
      requireStringOrArray(body, 'input');
      break;
    case 'embeddings':
      requireStringOrArray(body, 'input');
      break;
    case 'rerank':
      if (typeof body.query !== 'string' || body.query === '') {
        throw GatewayException.validation('query', 'query must be a non-empty string');
      }
      requireArray(body, 'documents');
      break;
    case 'count_tokens':
      if (body.messages !== undefined) requireMessages(body);
      else requireStringOrArray(body, 'input');
      break;
    case 'speech':
    case 'transcription':
    case 'image_generation':
    case 'image_edit':
    case 'image_variation':
    case 'ocr':
      validateMediaBody(kind, body);
      // Not `stream` (a 400 on media routes): OpenAI's speech streams by its own parameter.
      return { body, stream: streamsMedia(kind, body) };
  }
  return { body, stream };
}

/** Whether a chat or completions stream should end with the usage chunk (`stream_options.include_usage`). */
export function wantsUsageChunk(body: Json): boolean {
  const options = body.stream_options;
  return isObject(options) && options.include_usage === true;
}
