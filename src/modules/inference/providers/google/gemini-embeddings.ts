import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { bareModel, geminiModelPath } from './gemini-wire.js';
import type { Json, ParsedResponse, ProviderTarget } from '../shared/provider-adapter.js';
import { isJsonObject, jsonObjects as list } from '../shared/wire-json.js';

/** One input → `:embedContent`; several → `:batchEmbedContents` (one request per input, same model). */
export function toGeminiEmbeddings(
  body: Json,
  model: string,
): { method: 'embedContent' | 'batchEmbedContents'; body: Json } {
  const input = body.input;
  const texts: unknown[] = typeof input === 'string' ? [input] : Array.isArray(input) ? input : [];
  if (texts.length === 0 || !texts.every((t): t is string => typeof t === 'string'))
    throw GatewayException.validation('input', 'gemini embeddings take a string or a non-empty array of strings');
  const dimensions = typeof body.dimensions === 'number' ? { outputDimensionality: body.dimensions } : {};
  const content = (text: string) => ({ parts: [{ text }] });
  if (texts.length === 1) return { method: 'embedContent', body: { content: content(texts[0]!), ...dimensions } };
  const path = geminiModelPath(model);
  return {
    method: 'batchEmbedContents',
    body: { requests: texts.map((text) => ({ model: path, content: content(text), ...dimensions })) },
  };
}

/**
 * `{ embedding: { values } }` or `{ embeddings: [{ values }] }` → the OpenAI list. Gemini reports no token usage for
 * embeddings: the body carries zeros (clients expect the field) and ParsedResponse.usage stays absent, so no cost is
 * invented. Should Gemini add `usageMetadata`, its promptTokenCount is used.
 */
export function fromGeminiEmbeddings(body: Json, target: ProviderTarget): ParsedResponse {
  const vectors = isJsonObject(body.embedding) ? [body.embedding] : list(body.embeddings);
  const data = vectors.map((v, index) => ({
    object: 'embedding',
    index,
    embedding: Array.isArray(v.values) ? v.values : [],
  }));
  const metadata = isJsonObject(body.usageMetadata) ? body.usageMetadata : undefined;
  const tokens = typeof metadata?.promptTokenCount === 'number' ? metadata.promptTokenCount : undefined;
  const parsed: ParsedResponse = {
    body: {
      object: 'list',
      data,
      model: bareModel(target.model),
      usage: { prompt_tokens: tokens ?? 0, total_tokens: tokens ?? 0 },
    },
  };
  if (tokens !== undefined) parsed.usage = { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens };
  return parsed;
}
