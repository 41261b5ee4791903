import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import type { Json } from '../../shared/provider-adapter.js';
import { isJsonObject } from '../../shared/wire-json.js';

/**
 * Anthropic content blocks → OpenAI chat messages and parts. The extras only an Anthropic target can use
 * (`cache_control`, thinking blocks and their signatures, `is_error`) are kept when `extras` is set, under the names
 * `providers/anthropic/anthropic-messages.ts` reads back; any other target gets the plain OpenAI shape.
 */

export const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** Whether the request keeps the Anthropic-only members (its target speaks Anthropic Messages). */
export interface ContentOptions {
  extras: boolean;
}

function withCache(out: Json, block: Json, options: ContentOptions): Json {
  if (options.extras && block.cache_control !== undefined) out.cache_control = block.cache_control;
  return out;
}

function requireString(block: Json, field: string, param: string): string {
  const value = block[field];
  if (typeof value !== 'string') throw invalid(`${param}.${field}`, `${field} must be a string`);
  return value;
}

/** A text block as an OpenAI text part. */
export function textPart(block: Json, param: string, options: ContentOptions): Json {
  return withCache({ type: 'text', text: requireString(block, 'text', param) }, block, options);
}

/** An image block (base64 or url source) as an `image_url` part. */
function imagePart(block: Json, param: string, options: ContentOptions): Json {
  const source = isJsonObject(block.source) ? block.source : undefined;
  if (!source) throw invalid(`${param}.source`, 'an image block needs a source');
  let url: string;
  if (source.type === 'base64') {
    url = `data:${requireString(source, 'media_type', `${param}.source`)};base64,${requireString(source, 'data', `${param}.source`)}`;
  } else if (source.type === 'url') {
    url = requireString(source, 'url', `${param}.source`);
  } else {
    throw invalid(`${param}.source.type`, 'an image source must be base64 or url');
  }
  return withCache({ type: 'image_url', image_url: { url } }, block, options);
}

/**
 * A document block: a base64 PDF becomes a `file` part, a plain-text source a text part. `title`, `context` and
 * `citations` have no OpenAI member and are dropped; url and content sources have no OpenAI equivalent (400).
 */
function documentPart(block: Json, param: string, options: ContentOptions): Json {
  const source = isJsonObject(block.source) ? block.source : undefined;
  if (!source) throw invalid(`${param}.source`, 'a document block needs a source');
  if (source.type === 'base64') {
    const mediaType = requireString(source, 'media_type', `${param}.source`);
    const file: Json = { file_data: `data:${mediaType};base64,${requireString(source, 'data', `${param}.source`)}` };
    if (typeof block.title === 'string') file.filename = block.title;
    return withCache({ type: 'file', file }, block, options);
  }
  if (source.type === 'text') {
    return withCache({ type: 'text', text: requireString(source, 'data', `${param}.source`) }, block, options);
  }
  throw invalid(`${param}.source.type`, 'a document source must be base64 or text through the gateway');
}

/** One block of a user turn other than tool_result. */
export function userPart(block: Json, param: string, options: ContentOptions): Json {
  switch (block.type) {
    case 'text':
      return textPart(block, param, options);
    case 'image':
      return imagePart(block, param, options);
    case 'document':
      return documentPart(block, param, options);
    default:
      throw invalid(`${param}.type`, 'a user content block must be text, image, document or tool_result');
  }
}

/** A tool_result block as a `tool` message (text and image content; `is_error` kept for an Anthropic target). */
export function toolMessage(block: Json, param: string, options: ContentOptions): Json {
  const id = requireString(block, 'tool_use_id', param);
  const message: Json = { role: 'tool', tool_call_id: id };
  const content = block.content;
  if (content === undefined || content === null) message.content = '';
  else if (typeof content === 'string') message.content = content;
  else if (Array.isArray(content)) {
    message.content = content.map((part: unknown, k) => {
      const p = `${param}.content[${k}]`;
      if (!isJsonObject(part)) throw invalid(p, 'each content block must be an object');
      if (part.type === 'text') return textPart(part, p, options);
      if (part.type === 'image') return imagePart(part, p, options);
      throw invalid(`${p}.type`, 'tool_result content blocks must be text or image');
    });
  } else throw invalid(`${param}.content`, 'content must be a string or an array of blocks');
  if (options.extras && block.is_error === true) message.is_error = true;
  return withCache(message, block, options);
}

/** A tool_use block as an OpenAI tool call (its id kept, input as JSON text). */
export function toolCall(block: Json, param: string, options: ContentOptions): Json {
  const id = requireString(block, 'id', param);
  const name = requireString(block, 'name', param);
  if (block.input !== undefined && !isJsonObject(block.input))
    throw invalid(`${param}.input`, 'input must be an object');
  const call: Json = { id, type: 'function', function: { name, arguments: JSON.stringify(block.input ?? {}) } };
  return withCache(call, block, options);
}

/** A thinking or redacted_thinking block as it must go back to Anthropic (signature and data are opaque). */
export function thinkingBlock(block: Json, param: string): Json {
  if (block.type === 'redacted_thinking')
    return { type: 'redacted_thinking', data: requireString(block, 'data', param) };
  const out: Json = { type: 'thinking', thinking: requireString(block, 'thinking', param) };
  if (block.signature !== undefined) out.signature = requireString(block, 'signature', param);
  return out;
}
