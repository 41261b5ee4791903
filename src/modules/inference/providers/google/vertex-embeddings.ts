import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { Json, ParsedResponse, ProviderTarget } from '../shared/provider-adapter.js';
import { isJsonObject, jsonObjects } from '../shared/wire-json.js';

/**
 * Vertex text embeddings (`gemini-embedding-001`, `text-embedding-005`, …) are the prediction API: `:predict` with
 * `{instances: [{content}], parameters: {outputDimensionality}}`, one instance per input.
 */
export function toVertexPredictEmbeddings(body: Json): Json {
  const input = body.input;
  const texts: unknown[] = typeof input === 'string' ? [input] : Array.isArray(input) ? input : [];
  if (texts.length === 0 || !texts.every((t): t is string => typeof t === 'string'))
    throw GatewayException.validation('input', 'vertex embeddings take a string or a non-empty array of strings');
  const out: Json = { instances: texts.map((content) => ({ content })) };
  if (typeof body.dimensions === 'number') out.parameters = { outputDimensionality: body.dimensions };
  return out;
}

/** `{predictions: [{embeddings: {values, statistics: {token_count}}}]}` → the OpenAI list; usage is the token sum. */
export function fromVertexPredictEmbeddings(body: Json, target: ProviderTarget): ParsedResponse {
  let tokens = 0;
  const data = jsonObjects(body.predictions).map((p, index) => {
    const embeddings = isJsonObject(p.embeddings) ? p.embeddings : {};
    const statistics = isJsonObject(embeddings.statistics) ? embeddings.statistics : {};
    if (typeof statistics.token_count === 'number') tokens += statistics.token_count;
    return { object: 'embedding', index, embedding: Array.isArray(embeddings.values) ? embeddings.values : [] };
  });
  return {
    body: { object: 'list', data, model: target.model, usage: { prompt_tokens: tokens, total_tokens: tokens } },
    usage: { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens },
  };
}
