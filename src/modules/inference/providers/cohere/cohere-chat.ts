import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import {
  assistantTexts,
  imageUrlOf,
  readFunctionTools,
  readToolCall,
  readToolChoice,
} from '../shared/chat-request-parts.js';
import type { Json } from '../shared/provider-adapter.js';
import { isJsonObject } from '../shared/wire-json.js';

/**
 * OpenAI chat body → Cohere v2 chat body (`POST /v2/chat`). Cohere's messages are close to OpenAI's (system, user,
 * assistant with `tool_calls`, tool with `tool_call_id`); sampling fields are renamed (`top_p` → `p`, `top_k` → `k`,
 * `stop` → `stop_sequences`) and a reasoning effort becomes a `thinking` token budget.
 */

/** `reasoning_effort` → `thinking.token_budget` (the same buckets the Anthropic translation uses). */
export const COHERE_THINKING_BUDGETS: Readonly<Record<string, number>> = {
  low: 1024,
  medium: 4096,
  high: 16384,
  xhigh: 32768,
};

/** Sampling and control fields that keep their name. */
const SAME_NAME = ['temperature', 'seed', 'frequency_penalty', 'presence_penalty'] as const;

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

export function toCohereChatBody(body: Json, model: string, stream: boolean): Json {
  if (typeof body.n === 'number' && body.n > 1) throw invalid('n', 'cohere returns one choice; n must be 1');
  const out: Json = { model, messages: translateMessages(body.messages) };
  if (body.tools !== undefined && body.tools !== null) out.tools = translateTools(body.tools);
  applyToolChoice(out, body.tool_choice);
  const max = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : body.max_tokens;
  if (typeof max === 'number') out.max_tokens = max;
  for (const field of SAME_NAME) if (typeof body[field] === 'number') out[field] = body[field];
  if (typeof body.top_p === 'number') out.p = body.top_p;
  if (typeof body.top_k === 'number') out.k = body.top_k;
  if (body.stop !== undefined && body.stop !== null)
    out.stop_sequences = typeof body.stop === 'string' ? [body.stop] : body.stop;
  const format = responseFormat(body.response_format);
  if (format) out.response_format = format;
  const thinking = thinkingOf(body);
  if (thinking) out.thinking = thinking;
  if (body.logprobs === true) out.logprobs = true;
  if (stream) out.stream = true;
  return out;
}

function translateMessages(raw: unknown): Json[] {
  if (!Array.isArray(raw)) throw invalid('messages', 'messages must be an array');
  return raw.map((message: unknown, i) => {
    const param = `messages[${i}]`;
    if (!isJsonObject(message)) throw invalid(param, 'each message must be an object');
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: textContent(message.content, `${param}.content`) };
      case 'user':
        return { role: 'user', content: userContent(message.content, `${param}.content`) };
      case 'assistant':
        return assistantMessage(message, param);
      case 'tool':
        if (typeof message.tool_call_id !== 'string' || !message.tool_call_id)
          throw invalid(`${param}.tool_call_id`, 'a tool message needs tool_call_id');
        return {
          role: 'tool',
          tool_call_id: message.tool_call_id,
          content: textContent(message.content ?? '', `${param}.content`),
        };
      default:
        throw invalid(`${param}.role`, 'role must be one of system, developer, user, assistant, tool');
    }
  });
}

/** A string, or text parts joined (system and tool messages take text only). Cohere's own text content is the same. */
export function textContent(content: unknown, param: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of text parts');
  return content
    .map((part: unknown, j) => {
      if (!isJsonObject(part) || typeof part.text !== 'string') throw invalid(`${param}[${j}]`, 'parts must be text');
      return part.text;
    })
    .join('');
}

/** A user turn's content: a string, or text and image_url parts (the same in OpenAI's and Cohere's shapes). */
export function userContent(content: unknown, param: string): string | Json[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of parts');
  return content.map((part: unknown, j) => {
    const at = `${param}[${j}]`;
    if (!isJsonObject(part)) throw invalid(at, 'each content part must be an object');
    if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text };
    if (part.type === 'image_url') return { type: 'image_url', image_url: { url: imageUrlOf(part, at) } };
    throw invalid(`${at}.type`, 'content part type must be text or image_url for cohere');
  });
}

/** With tool calls, Cohere wants the assistant's text as its `tool_plan`; without, as text content. */
function assistantMessage(message: Json, param: string): Json {
  const text = assistantTexts(message.content, param).join('');
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : [];
  if (calls.length === 0) return { role: 'assistant', content: text };
  const out: Json = { role: 'assistant' };
  if (text) out.tool_plan = text;
  out.tool_calls = calls.map((call, k) => {
    const read = readToolCall(call, `${param}.tool_calls[${k}]`, true);
    return { id: read.id, type: 'function', function: { name: read.name, arguments: JSON.stringify(read.arguments) } };
  });
  return out;
}

function translateTools(tools: unknown): Json[] {
  return readFunctionTools(tools, 'cohere').map(({ fn }) => {
    const out: Json = { name: fn.name };
    if (typeof fn.description === 'string') out.description = fn.description;
    out.parameters = isJsonObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} };
    return { type: 'function', function: out };
  });
}

/**
 * Cohere knows `REQUIRED` and `NONE` (auto is its default). A named function has no equivalent: the tools are
 * narrowed to that one and a call is required, which is what naming it means.
 */
function applyToolChoice(out: Json, choice: unknown): void {
  const read = readToolChoice(choice);
  if (read === undefined || read === 'auto') return;
  if (read === 'none') out.tool_choice = 'NONE';
  else if (read === 'required') out.tool_choice = 'REQUIRED';
  else {
    const tools = Array.isArray(out.tools) ? (out.tools as Json[]) : [];
    const named = tools.filter((t) => isJsonObject(t.function) && t.function.name === read.name);
    if (named.length === 0) throw invalid('tool_choice', `tool_choice names ${read.name}, which is not in tools`);
    out.tools = named;
    out.tool_choice = 'REQUIRED';
  }
}

/** `json_schema` → Cohere's `json_object` with its schema; `json_object` and `text` as they are. */
function responseFormat(format: unknown): Json | undefined {
  if (format === undefined || format === null) return undefined;
  if (!isJsonObject(format)) throw invalid('response_format', 'response_format must be an object');
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const schema = isJsonObject(format.json_schema) ? format.json_schema.schema : undefined;
      return isJsonObject(schema) ? { type: 'json_object', json_schema: schema } : { type: 'json_object' };
    }
    default:
      throw invalid('response_format.type', 'response_format.type must be text, json_object or json_schema');
  }
}

/** An explicit Cohere `thinking` object passes through; else `reasoning_effort` picks a budget ('none': disabled). */
function thinkingOf(body: Json): Json | undefined {
  if (isJsonObject(body.thinking)) return body.thinking;
  const effort = body.reasoning_effort;
  if (effort === undefined || effort === null) return undefined;
  if (effort === 'none' || effort === 'minimal') return { type: 'disabled' };
  const budget = typeof effort === 'string' ? COHERE_THINKING_BUDGETS[effort] : undefined;
  if (budget === undefined)
    throw invalid('reasoning_effort', 'reasoning_effort must be one of none, minimal, low, medium, high, xhigh');
  return { type: 'enabled', token_budget: budget };
}

/** OpenAI embeddings body → `POST /v2/embed`. `input_type` is Cohere's own field, passed through when the caller set it. */
export function toCohereEmbedBody(body: Json, model: string): Json {
  const input = body.input;
  const texts: unknown[] = typeof input === 'string' ? [input] : Array.isArray(input) ? input : [];
  if (texts.length === 0 || !texts.every((t): t is string => typeof t === 'string'))
    throw invalid('input', 'cohere embeddings take a string or a non-empty array of strings');
  const out: Json = {
    model,
    texts,
    input_type: typeof body.input_type === 'string' ? body.input_type : 'search_document',
    embedding_types: ['float'],
  };
  if (typeof body.dimensions === 'number') out.output_dimension = body.dimensions;
  if (typeof body.truncate === 'string') out.truncate = body.truncate;
  return out;
}

/** The unified rerank body → `POST /v2/rerank` (v2 takes documents as strings; `{ text }` objects are unwrapped). */
export function toCohereRerankBody(body: Json, model: string): Json {
  const documents = (Array.isArray(body.documents) ? body.documents : []).map((d: unknown, i) => {
    if (typeof d === 'string') return d;
    if (isJsonObject(d) && typeof d.text === 'string') return d.text;
    throw invalid(`documents[${i}]`, 'a document must be a string or an object with text');
  });
  const out: Json = { model, query: body.query, documents };
  if (typeof body.top_n === 'number') out.top_n = body.top_n;
  if (typeof body.max_tokens_per_doc === 'number') out.max_tokens_per_doc = body.max_tokens_per_doc;
  return out;
}
