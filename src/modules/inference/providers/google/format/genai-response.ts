import type { Json, Usage } from '../../shared/provider-adapter.js';
import { isJsonObject, jsonObjects } from '../../shared/wire-json.js';

/**
 * Canonical answers (OpenAI chat, embeddings, input-token count) → Gemini's bodies: the inverse of
 * `providers/google/gemini-response.ts` and `gemini-embeddings.ts`.
 */

const FINISH_REASONS: Readonly<Record<string, string>> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  tool_calls: 'STOP',
  function_call: 'STOP',
  content_filter: 'SAFETY',
};

/** An OpenAI finish_reason as Gemini's finishReason (null while a candidate is still going). */
export function genaiFinishReason(reason: unknown): string | undefined {
  if (typeof reason !== 'string') return undefined;
  return FINISH_REASONS[reason] ?? 'OTHER';
}

/** Function call arguments as the object Gemini sends (arguments a model wrote that are not JSON stay as text). */
export function callArgs(text: unknown): Json {
  if (typeof text !== 'string' || text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonObject(parsed) ? parsed : { value: parsed };
  } catch {
    return { arguments: text };
  }
}

/** A message or delta's reasoning, text and whole tool calls as Gemini parts, in Gemini's order. */
export function genaiParts(reasoning: unknown, text: unknown, calls: Array<{ name: unknown; arguments: unknown }>) {
  const parts: Json[] = [];
  if (typeof reasoning === 'string' && reasoning !== '') parts.push({ text: reasoning, thought: true });
  if (typeof text === 'string' && text !== '') parts.push({ text });
  for (const call of calls) parts.push({ functionCall: { name: call.name, args: callArgs(call.arguments) } });
  return parts;
}

/**
 * The contract usage as `usageMetadata`: Gemini counts thoughts apart from candidates (completion = candidates +
 * thoughts) and cached tokens inside the prompt count, as the contract does.
 */
export function usageMetadata(usage: Usage): Json {
  const thoughts = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_read_tokens ?? 0;
  const out: Json = {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: Math.max(0, usage.completion_tokens - thoughts),
    totalTokenCount: usage.total_tokens,
  };
  if (cached > 0) out.cachedContentTokenCount = cached;
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  return out;
}

/** `chat.completion` → GenerateContentResponse. */
export function genaiResponse(answer: Json, usage: Usage | undefined): Json {
  const candidates = jsonObjects(answer.choices).map((choice, i) => {
    const message = isJsonObject(choice.message) ? choice.message : {};
    const calls = jsonObjects(message.tool_calls).map((call) => {
      const fn = isJsonObject(call.function) ? call.function : {};
      return { name: fn.name, arguments: fn.arguments };
    });
    const parts = genaiParts(message.reasoning_content, message.content, calls);
    const candidate: Json = {
      content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] },
      finishReason: genaiFinishReason(choice.finish_reason) ?? 'STOP',
      index: typeof choice.index === 'number' ? choice.index : i,
    };
    return candidate;
  });
  const out: Json = { candidates };
  if (usage) out.usageMetadata = usageMetadata(usage);
  if (typeof answer.model === 'string') out.modelVersion = answer.model;
  if (typeof answer.id === 'string' && answer.id !== '') out.responseId = answer.id;
  return out;
}

/** The OpenAI embeddings list as one `embedding` (embedContent) or a list (batchEmbedContents). */
export function genaiEmbeddings(answer: Json, batch: boolean): Json {
  const vectors = jsonObjects(answer.data)
    .sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0))
    .map((item) => ({ values: Array.isArray(item.embedding) ? item.embedding : [] }));
  return batch ? { embeddings: vectors } : { embedding: vectors[0] ?? { values: [] } };
}

/** The canonical `{ object: 'response.input_tokens', input_tokens }` as countTokens' answer. */
export function genaiTokenCount(answer: Json): Json {
  return { totalTokens: typeof answer.input_tokens === 'number' ? answer.input_tokens : 0 };
}
