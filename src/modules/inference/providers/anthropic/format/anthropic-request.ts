import type { Json } from '../../shared/provider-adapter.js';
import { isJsonObject } from '../../shared/wire-json.js';
import { parseModelRef } from '../../shared/model-ref.js';
import { canonicalModel } from '../../../formats/format-routes.js';
import {
  type ContentOptions,
  invalid,
  textPart,
  thinkingBlock,
  toolCall,
  toolMessage,
  userPart,
} from './anthropic-content.js';

/**
 * An Anthropic Messages request → the canonical (OpenAI chat) body. Validated as Anthropic validates it, each mistake
 * a 400 naming the native field (`max_tokens`, `messages[1].content[0].type`).
 */

/** `thinking.budget_tokens` → `reasoning_effort` for targets that only know efforts (the inverse of the adapters'). */
export function effortOf(budget: unknown): string {
  if (typeof budget !== 'number' || budget < 4096) return 'low';
  return budget < 16384 ? 'medium' : 'high';
}

/**
 * A Claude model keeps the Anthropic-only members (cache_control, thinking signatures): it is served by an Anthropic
 * Messages translation (`providers/anthropic/anthropic-messages.ts`), and another translation ignores them; an OpenAI-shaped
 * target would refuse members it does not know, so they are left out for it.
 */
export function keepsAnthropicExtras(model: string): boolean {
  const ref = parseModelRef(model);
  return ref.provider === 'anthropic' || ref.model.toLowerCase().includes('claude');
}

/** OpenAI's APIs have no `top_k` and refuse parameters they do not know; every other translation reads or drops it. */
const NO_TOP_K: ReadonlySet<string> = new Set(['openai', 'azure']);

function requireObject(body: unknown): Json {
  if (!isJsonObject(body)) throw invalid('body', 'The request body must be a JSON object');
  return body;
}

function systemMessage(system: unknown, options: ContentOptions): Json | undefined {
  if (system === undefined || system === null) return undefined;
  if (typeof system === 'string') return system ? { role: 'system', content: system } : undefined;
  if (!Array.isArray(system)) throw invalid('system', 'system must be a string or an array of text blocks');
  const parts = system.map((block: unknown, i) => {
    if (!isJsonObject(block) || block.type !== 'text') throw invalid(`system[${i}].type`, 'system blocks must be text');
    return textPart(block, `system[${i}]`, options);
  });
  return parts.length > 0 ? { role: 'system', content: parts } : undefined;
}

function blocksOf(content: unknown, param: string): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of content blocks');
  return content.map((block: unknown, j) => {
    if (!isJsonObject(block) || typeof block.type !== 'string')
      throw invalid(`${param}[${j}].type`, 'each content block must be an object with a type');
    return block;
  });
}

/** A user turn: tool_result blocks become `tool` messages, the other blocks user messages, in their order. */
function userMessages(content: unknown, param: string, options: ContentOptions): Json[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const out: Json[] = [];
  let parts: Json[] | undefined;
  blocksOf(content, `${param}`).forEach((block, j) => {
    const p = `${param}[${j}]`;
    if (block.type === 'tool_result') {
      parts = undefined;
      out.push(toolMessage(block, p, options));
      return;
    }
    const part = userPart(block, p, options);
    if (!parts) {
      parts = [];
      out.push({ role: 'user', content: parts });
    }
    parts.push(part);
  });
  return out;
}

/**
 * An assistant turn: text as content (a string, or text parts when one carries cache_control), tool_use as tool_calls,
 * thinking and redacted_thinking, for an Anthropic target, as `thinking_blocks` (signatures kept byte for byte).
 */
function assistantMessage(content: unknown, param: string, options: ContentOptions): Json {
  if (typeof content === 'string') return { role: 'assistant', content };
  const texts: Json[] = [];
  const calls: Json[] = [];
  const thinking: Json[] = [];
  blocksOf(content, param).forEach((block, j) => {
    const p = `${param}[${j}]`;
    switch (block.type) {
      case 'text':
        texts.push(textPart(block, p, options));
        break;
      case 'tool_use':
        calls.push(toolCall(block, p, options));
        break;
      case 'thinking':
      case 'redacted_thinking':
        thinking.push(thinkingBlock(block, p));
        break;
      default:
        throw invalid(`${p}.type`, 'an assistant content block must be text, tool_use, thinking or redacted_thinking');
    }
  });
  const cached = texts.some((t) => t.cache_control !== undefined);
  const message: Json = {
    role: 'assistant',
    // No text: null beside tool calls, else '' (OpenAI refuses an assistant message with neither).
    content: cached
      ? texts
      : texts.length > 0
        ? texts.map((t) => t.text as string).join('')
        : calls.length > 0
          ? null
          : '',
  };
  if (calls.length > 0) message.tool_calls = calls;
  // Earlier thinking only means something to Anthropic (which checks its signatures); other targets never see it.
  if (options.extras && thinking.length > 0) message.thinking_blocks = thinking;
  return message;
}

function messagesOf(raw: unknown, options: ContentOptions): Json[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('messages', 'messages must be a non-empty array');
  const out: Json[] = [];
  raw.forEach((message: unknown, i) => {
    const param = `messages[${i}]`;
    if (!isJsonObject(message)) throw invalid(param, 'each message must be an object');
    if (message.role === 'user') out.push(...userMessages(message.content, `${param}.content`, options));
    else if (message.role === 'assistant') out.push(assistantMessage(message.content, `${param}.content`, options));
    else throw invalid(`${param}.role`, 'role must be user or assistant');
  });
  return out;
}

function toolsOf(raw: unknown, options: ContentOptions): Json[] {
  if (!Array.isArray(raw)) throw invalid('tools', 'tools must be an array');
  return raw.map((tool: unknown, i) => {
    if (!isJsonObject(tool)) throw invalid(`tools[${i}]`, 'each tool must be an object');
    // Server tools (web search, code execution, computer use) run at Anthropic and have no OpenAI equivalent.
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom')
      throw invalid(`tools[${i}].type`, 'only client tools (name, description, input_schema) are supported');
    if (typeof tool.name !== 'string' || !tool.name) throw invalid(`tools[${i}].name`, 'a tool needs a name');
    if (!isJsonObject(tool.input_schema)) throw invalid(`tools[${i}].input_schema`, 'input_schema must be an object');
    const fn: Json = { name: tool.name };
    if (typeof tool.description === 'string') fn.description = tool.description;
    fn.parameters = tool.input_schema;
    const out: Json = { type: 'function', function: fn };
    if (options.extras && tool.cache_control !== undefined) out.cache_control = tool.cache_control;
    return out;
  });
}

/** tool_choice → `tool_choice` and, for `disable_parallel_tool_use`, `parallel_tool_calls: false`. */
function toolChoiceOf(raw: unknown, out: Json): void {
  if (raw === undefined || raw === null) return;
  if (!isJsonObject(raw)) throw invalid('tool_choice', 'tool_choice must be an object');
  switch (raw.type) {
    case 'auto':
      out.tool_choice = 'auto';
      break;
    case 'any':
      out.tool_choice = 'required';
      break;
    case 'none':
      out.tool_choice = 'none';
      break;
    case 'tool':
      if (typeof raw.name !== 'string') throw invalid('tool_choice.name', 'tool_choice of type tool needs a name');
      out.tool_choice = { type: 'function', function: { name: raw.name } };
      break;
    default:
      throw invalid('tool_choice.type', 'tool_choice.type must be auto, any, tool or none');
  }
  if (raw.disable_parallel_tool_use === true) out.parallel_tool_calls = false;
}

function thinkingOf(raw: unknown, out: Json, options: ContentOptions): void {
  if (raw === undefined || raw === null) return;
  if (!isJsonObject(raw) || typeof raw.type !== 'string') throw invalid('thinking.type', 'thinking needs a type');
  if (raw.type === 'enabled' && (typeof raw.budget_tokens !== 'number' || raw.budget_tokens < 1024))
    throw invalid('thinking.budget_tokens', 'thinking.budget_tokens must be a number of at least 1024');
  // An Anthropic target takes the setting as sent; the others get the nearest effort.
  if (options.extras) out.thinking = raw;
  else if (raw.type !== 'disabled') out.reasoning_effort = effortOf(raw.budget_tokens);
}

function numberField(body: Json, field: string, out: Json, name = field): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, `${field} must be a number`);
  out[name] = value;
}

/** The shared part of messages and count_tokens: model, system, messages, tools, tool_choice, thinking. */
function promptOf(body: Json): { out: Json; options: ContentOptions } {
  const model = canonicalModel(body.model, 'anthropic');
  const options: ContentOptions = { extras: keepsAnthropicExtras(model) };
  const messages = messagesOf(body.messages, options);
  const system = systemMessage(body.system, options);
  const out: Json = { model, messages: system ? [system, ...messages] : messages };
  if (body.tools !== undefined && body.tools !== null) out.tools = toolsOf(body.tools, options);
  toolChoiceOf(body.tool_choice, out);
  thinkingOf(body.thinking, out, options);
  return { out, options };
}

/** `POST /v1/messages` → a /v1 chat body (streams always ask for usage: message_delta carries it). */
export function messagesToCanonical(raw: unknown): { body: Json; stream: boolean } {
  const body = requireObject(raw);
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    throw invalid('max_tokens', 'max_tokens is required and must be a positive integer');
  const { out } = promptOf(body);
  out.max_tokens = body.max_tokens;
  if (body.stop_sequences !== undefined && body.stop_sequences !== null) {
    if (!Array.isArray(body.stop_sequences) || body.stop_sequences.some((s) => typeof s !== 'string'))
      throw invalid('stop_sequences', 'stop_sequences must be an array of strings');
    if (body.stop_sequences.length > 0) out.stop = body.stop_sequences;
  }
  numberField(body, 'temperature', out);
  numberField(body, 'top_p', out);
  if (!NO_TOP_K.has(parseModelRef(out.model as string).provider ?? '')) numberField(body, 'top_k', out);
  if (body.metadata !== undefined && body.metadata !== null) {
    if (!isJsonObject(body.metadata)) throw invalid('metadata', 'metadata must be an object');
    if (typeof body.metadata.user_id === 'string' && body.metadata.user_id) out.user = body.metadata.user_id;
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    throw invalid('stream', 'stream must be a boolean');
  const stream = body.stream === true;
  if (stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  return { body: out, stream };
}

/** `POST /v1/messages/count_tokens` → a /v1 count_tokens body (`messages`, as Anthropic counts them). */
export function countTokensToCanonical(raw: unknown): { body: Json; stream: boolean } {
  const { out } = promptOf(requireObject(raw));
  return { body: out, stream: false };
}
