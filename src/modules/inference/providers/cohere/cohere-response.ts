import { nowSeconds } from '../shared/native-adapter-parts.js';
import type { Json, ParsedResponse, ProviderTarget, Usage } from '../shared/provider-adapter.js';
import { asObject, isJsonObject, jsonObjects } from '../shared/wire-json.js';

/** Cohere v2 answers (chat, embed, rerank) → the canonical OpenAI-shaped bodies, with contract usage. */

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;

/**
 * `usage` (chat) or `meta` (embed, rerank) → contract usage: `tokens` are what the model read and wrote, the billed
 * units the fallback when they are absent (reference §2.7); `cached_tokens` are cache reads. Undefined when the
 * answer counted nothing.
 */
export function cohereUsage(raw: unknown): Usage | undefined {
  const u = asObject(raw);
  if (!u) return undefined;
  const tokens = asObject(u.tokens);
  const billed = asObject(u.billed_units);
  const input = count(tokens?.input_tokens) ?? count(billed?.input_tokens);
  const output = count(tokens?.output_tokens) ?? count(billed?.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const usage: Usage = {
    prompt_tokens: input ?? 0,
    completion_tokens: output ?? 0,
    total_tokens: (input ?? 0) + (output ?? 0),
  };
  const cached = count(u.cached_tokens);
  if (cached) usage.prompt_tokens_details = { cached_read_tokens: cached };
  return usage;
}

/** Cohere's finish_reason → OpenAI's (ERROR and TIMEOUT ended the turn without a better name: `stop`). */
export function cohereFinishReason(reason: unknown): string {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'TOOL_CALL':
      return 'tool_calls';
    default:
      return 'stop';
  }
}

/** `{ id, type: 'function', function: { name, arguments } }` with arguments as JSON text ('{}' when absent). */
function toolCall(call: Json): Json {
  const fn = asObject(call.function) ?? {};
  const args = fn.arguments;
  return {
    id: call.id,
    type: 'function',
    function: {
      name: fn.name,
      arguments: typeof args === 'string' && args ? args : JSON.stringify(isJsonObject(args) ? args : {}),
    },
  };
}

/**
 * A v2 chat answer → `chat.completion`. Text parts are joined; thinking parts become `reasoning_content`; the tool
 * plan (the text Cohere writes before its calls) is the message content when there is no other text.
 */
export function fromCohereChat(body: Json, target: ProviderTarget): ParsedResponse {
  const message = asObject(body.message) ?? {};
  const texts: string[] = [];
  const thinking: string[] = [];
  for (const part of jsonObjects(message.content)) {
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'thinking' && typeof part.thinking === 'string') thinking.push(part.thinking);
  }
  const calls = jsonObjects(message.tool_calls).map(toolCall);
  const plan = typeof message.tool_plan === 'string' ? message.tool_plan : '';
  const text = texts.join('') || plan;
  const out: Json = { role: 'assistant', content: text || (calls.length > 0 ? null : '') };
  if (calls.length > 0) out.tool_calls = calls;
  if (thinking.length > 0) out.reasoning_content = thinking.join('');
  const usage = cohereUsage(body.usage);
  const answer: Json = {
    id: body.id,
    object: 'chat.completion',
    created: nowSeconds(),
    model: target.model,
    choices: [{ index: 0, message: out, finish_reason: cohereFinishReason(body.finish_reason), logprobs: null }],
  };
  if (usage) answer.usage = usage;
  return usage ? { body: answer, usage } : { body: answer };
}

/** A v2 embed answer (`embeddings.float`) → the OpenAI embedding list; usage from `meta`. */
export function fromCohereEmbed(body: Json, target: ProviderTarget): ParsedResponse {
  const embeddings = asObject(body.embeddings);
  const vectors = Array.isArray(embeddings?.float) ? (embeddings.float as unknown[]) : [];
  const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
  const usage = cohereUsage(body.meta);
  const tokens = usage?.prompt_tokens ?? 0;
  const answer: Json = {
    object: 'list',
    data,
    model: target.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
  return usage ? { body: answer, usage } : { body: answer };
}

/** A v2 rerank answer → the unified rerank shape `{ id, model, results: [{ index, relevance_score }], usage? }`. */
export function fromCohereRerank(body: Json, target: ProviderTarget): ParsedResponse {
  const results = jsonObjects(body.results).map((row) => ({ index: row.index, relevance_score: row.relevance_score }));
  const answer: Json = { id: body.id, model: target.model, results };
  const usage = cohereUsage(body.meta);
  if (!usage) return { body: answer };
  answer.usage = { prompt_tokens: usage.prompt_tokens, total_tokens: usage.total_tokens };
  return { body: answer, usage };
}
