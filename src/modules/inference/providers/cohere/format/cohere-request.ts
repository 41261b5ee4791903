import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import type { Json } from '../../shared/provider-adapter.js';
import { textContent, userContent } from '../cohere-chat.js';
import { isJsonObject } from '../../shared/wire-json.js';
import { parseModelRef } from '../../shared/model-ref.js';
import { canonicalModel } from '../../../formats/format-routes.js';
import type { CanonicalRequest } from '../../../formats/native-format.js';

/**
 * Cohere v2 request bodies (chat, embed, rerank) → the canonical OpenAI-shaped bodies. A wrong shape is a 400 naming
 * the Cohere field. Cohere's own knobs with no OpenAI equivalent (`k`, `input_type`, `max_tokens_per_doc`, a thinking
 * budget) are kept only when the target is Cohere, so another provider never receives a field it would refuse.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** Sampling and control fields whose name is the same in both shapes. */
const SAME_NAME = ['max_tokens', 'temperature', 'seed', 'frequency_penalty', 'presence_penalty'] as const;

/** Cohere's thinking budget → the nearest `reasoning_effort` (the buckets the Cohere adapter maps back). */
function effortOf(budget: unknown): string {
  if (typeof budget !== 'number') return 'medium';
  if (budget <= 1024) return 'low';
  if (budget <= 4096) return 'medium';
  return 'high';
}

function objectBody(body: unknown): Json {
  if (!isJsonObject(body)) throw invalid('body', 'the body must be a JSON object');
  return body;
}

/** The canonical model, and whether it is served by Cohere (Cohere-only fields then pass through). */
function modelOf(body: Json): { model: string; cohere: boolean } {
  const model = canonicalModel(body.model, 'cohere');
  return { model, cohere: parseModelRef(model).provider === 'cohere' };
}

export function chatToCanonical(raw: unknown): CanonicalRequest {
  const body = objectBody(raw);
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw invalid('messages', 'messages is required: a non-empty array of messages');
  const { model, cohere } = modelOf(body);
  const out: Json = { model, messages: body.messages.map((m: unknown, i) => message(m, `messages[${i}]`)) };
  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools)) throw invalid('tools', 'tools must be an array');
    out.tools = body.tools;
  }
  if (body.tool_choice !== undefined && body.tool_choice !== null) {
    if (body.tool_choice !== 'REQUIRED' && body.tool_choice !== 'NONE')
      throw invalid('tool_choice', 'tool_choice must be REQUIRED or NONE');
    out.tool_choice = body.tool_choice === 'REQUIRED' ? 'required' : 'none';
  }
  for (const field of SAME_NAME) if (body[field] !== undefined) out[field] = body[field];
  if (body.p !== undefined) out.top_p = body.p;
  if (body.k !== undefined && cohere) out.top_k = body.k;
  if (body.stop_sequences !== undefined) out.stop = body.stop_sequences;
  const format = responseFormat(body.response_format);
  if (format) out.response_format = format;
  if (isJsonObject(body.thinking)) {
    if (cohere) out.thinking = body.thinking;
    else out.reasoning_effort = body.thinking.type === 'disabled' ? 'none' : effortOf(body.thinking.token_budget);
  }
  if (body.logprobs === true) out.logprobs = true;
  const stream = body.stream === true;
  if (stream) out.stream = true;
  return { body: out, stream };
}

/** One v2 message → its OpenAI form (the shapes are close: tool calls already have OpenAI's layout). */
function message(raw: unknown, param: string): Json {
  if (!isJsonObject(raw)) throw invalid(param, 'each message must be an object');
  switch (raw.role) {
    case 'system':
      return { role: 'system', content: textContent(raw.content, `${param}.content`) };
    case 'user':
      return { role: 'user', content: userContent(raw.content, `${param}.content`) };
    case 'assistant': {
      const out: Json = { role: 'assistant' };
      const said =
        raw.content === undefined || raw.content === null ? '' : textContent(raw.content, `${param}.content`);
      const plan = typeof raw.tool_plan === 'string' ? raw.tool_plan : '';
      out.content = said || plan || null;
      if (Array.isArray(raw.tool_calls) && raw.tool_calls.length > 0) out.tool_calls = raw.tool_calls;
      else if (out.content === null) out.content = '';
      return out;
    }
    case 'tool':
      if (typeof raw.tool_call_id !== 'string' || !raw.tool_call_id)
        throw invalid(`${param}.tool_call_id`, 'a tool message needs tool_call_id');
      return { role: 'tool', tool_call_id: raw.tool_call_id, content: toolContent(raw.content, `${param}.content`) };
    default:
      throw invalid(`${param}.role`, 'role must be one of system, user, assistant, tool');
  }
}

/** A tool result: a string, or text and document parts (a document's data as JSON text). */
function toolContent(content: unknown, param: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of parts');
  return content
    .map((part: unknown, j) => {
      if (isJsonObject(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
      if (isJsonObject(part) && part.type === 'document' && isJsonObject(part.document)) {
        const data = part.document.data;
        return typeof data === 'string' ? data : JSON.stringify(data ?? part.document);
      }
      throw invalid(`${param}[${j}]`, 'tool content parts must be text or document parts');
    })
    .join('\n');
}

/** `{ type: 'json_object', json_schema? }` → OpenAI's `json_schema` (with a schema) or `json_object`. */
function responseFormat(format: unknown): Json | undefined {
  if (format === undefined || format === null) return undefined;
  if (!isJsonObject(format)) throw invalid('response_format', 'response_format must be an object');
  if (format.type === 'text') return { type: 'text' };
  if (format.type !== 'json_object')
    throw invalid('response_format.type', 'response_format.type must be text or json_object');
  if (!isJsonObject(format.json_schema)) return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: 'response', schema: format.json_schema } };
}

/** `texts` (or text-only `inputs`) → `input`; only float embeddings are served. */
export function embedToCanonical(raw: unknown): CanonicalRequest {
  const body = objectBody(raw);
  const { model, cohere } = modelOf(body);
  const texts = body.texts ?? inputsTexts(body.inputs);
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string'))
    throw invalid('texts', 'texts is required: a non-empty array of strings');
  const types = body.embedding_types;
  if (types !== undefined && (!Array.isArray(types) || types.some((t) => t !== 'float')))
    throw invalid('embedding_types', 'only "float" embeddings are served');
  const out: Json = { model, input: texts };
  if (typeof body.output_dimension === 'number') out.dimensions = body.output_dimension;
  if (cohere) {
    if (typeof body.input_type === 'string') out.input_type = body.input_type;
    if (typeof body.truncate === 'string') out.truncate = body.truncate;
  }
  return { body: out, stream: false };
}

/** v2 `inputs: [{ content: [{ type: 'text', text }] }]` as texts (undefined when absent; images are refused). */
function inputsTexts(inputs: unknown): unknown {
  if (inputs === undefined) return undefined;
  if (!Array.isArray(inputs)) throw invalid('inputs', 'inputs must be an array');
  return inputs.map((input: unknown, i) => {
    const content = isJsonObject(input) ? input.content : undefined;
    if (!Array.isArray(content)) throw invalid(`inputs[${i}].content`, 'an input needs content parts');
    return content
      .map((part: unknown, j) => {
        if (isJsonObject(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
        throw invalid(`inputs[${i}].content[${j}]`, 'only text inputs are served');
      })
      .join(' ');
  });
}

export function rerankToCanonical(raw: unknown): CanonicalRequest {
  const body = objectBody(raw);
  const { model, cohere } = modelOf(body);
  if (typeof body.query !== 'string' || body.query === '') throw invalid('query', 'query must be a non-empty string');
  if (!Array.isArray(body.documents) || body.documents.length === 0)
    throw invalid('documents', 'documents is required: a non-empty array of strings');
  const out: Json = { model, query: body.query, documents: body.documents };
  if (body.top_n !== undefined) out.top_n = body.top_n;
  if (cohere && typeof body.max_tokens_per_doc === 'number') out.max_tokens_per_doc = body.max_tokens_per_doc;
  return { body: out, stream: false };
}
