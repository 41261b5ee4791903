import { randomUUID } from 'node:crypto';
import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { Json, Usage } from '../../shared/provider-adapter.js';
import { asObject, jsonObjects } from '../../shared/wire-json.js';

/** Canonical (OpenAI-shaped) answers → Cohere v2 answers: chat, embed, rerank. */

/** OpenAI finish_reason → Cohere's (a content filter ended the turn: COMPLETE is the nearest). */
export function cohereFinish(reason: unknown): string {
  switch (reason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'tool_calls':
    case 'function_call':
      return 'TOOL_CALL';
    default:
      return 'COMPLETE';
  }
}

/** Contract usage → Cohere's `usage` (`billed_units` and `tokens` alike; cache reads as `cached_tokens`). */
export function cohereUsageOf(usage: Usage | undefined): Json {
  const input = usage?.prompt_tokens ?? 0;
  const output = usage?.completion_tokens ?? 0;
  const out: Json = {
    billed_units: { input_tokens: input, output_tokens: output },
    tokens: { input_tokens: input, output_tokens: output },
  };
  const cached = usage?.prompt_tokens_details?.cached_read_tokens;
  if (cached) out.cached_tokens = cached;
  return out;
}

const API_VERSION = { version: '2' };

/**
 * `chat.completion` → a v2 chat answer. With tool calls the text is the `tool_plan` (as Cohere writes it);
 * reasoning becomes a thinking part before the text.
 */
export function chatFromCanonical(answer: Json, usage: Usage | undefined): Json {
  const choice = jsonObjects(answer.choices)[0] ?? {};
  const message = asObject(choice.message) ?? {};
  const text = typeof message.content === 'string' ? message.content : '';
  const calls = jsonObjects(message.tool_calls);
  const content: Json[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content)
    content.push({ type: 'thinking', thinking: message.reasoning_content });
  const out: Json = { role: 'assistant' };
  if (calls.length > 0) {
    if (text) out.tool_plan = text;
    out.tool_calls = calls.map((c) => {
      const fn = asObject(c.function) ?? {};
      return { id: c.id, type: 'function', function: { name: fn.name, arguments: fn.arguments ?? '{}' } };
    });
  } else {
    content.push({ type: 'text', text });
  }
  if (content.length > 0) out.content = content;
  return {
    id: typeof answer.id === 'string' ? answer.id : randomUUID(),
    finish_reason: cohereFinish(choice.finish_reason),
    message: out,
    usage: cohereUsageOf(usage),
  };
}

/** The OpenAI embedding list → `{ id, embeddings: { float }, texts, meta }`. */
export function embedFromCanonical(answer: Json, usage: Usage | undefined, request: Json): Json {
  const float = jsonObjects(answer.data)
    .sort((a, b) => Number(a.index) - Number(b.index))
    .map((d) => d.embedding);
  const texts = Array.isArray(request.input) ? request.input : [request.input];
  return {
    id: randomUUID(),
    embeddings: { float },
    texts,
    meta: { api_version: API_VERSION, billed_units: { input_tokens: usage?.prompt_tokens ?? 0 } },
    response_type: 'embeddings_by_type',
  };
}

/** The unified rerank answer → `{ id, results: [{ index, relevance_score }], meta }`. */
export function rerankFromCanonical(answer: Json, usage: Usage | undefined): Json {
  const results = jsonObjects(answer.results).map((r) => ({ index: r.index, relevance_score: r.relevance_score }));
  const meta: Json = { api_version: API_VERSION, billed_units: { search_units: 1 } };
  if (usage) meta.tokens = { input_tokens: usage.prompt_tokens, output_tokens: 0 };
  return { id: typeof answer.id === 'string' ? answer.id : randomUUID(), results, meta };
}

/**
 * Cohere's error body is `{ message }`; the GatewayError's fields ride beside it (event_id, error{type, code, param},
 * extra_fields), which the cohere-ai client keeps on the error it throws.
 */
export function cohereErrorBody(response: ErrorResponse): Json {
  return { message: response.body.error.message, ...response.body };
}
