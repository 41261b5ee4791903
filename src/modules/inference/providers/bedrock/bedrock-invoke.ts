import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { toAnthropicMessagesBody } from '../anthropic/anthropic-messages.js';
import type { Json, ParsedResponse, ProviderTarget } from '../shared/provider-adapter.js';
import { isJsonObject, jsonObjects } from '../shared/wire-json.js';

/**
 * InvokeModel bodies, which are each model family's own: Claude's Messages body for chat (when the caller asks for
 * it), Titan's and Cohere's embedding bodies for /v1/embeddings.
 */

/** Caller field choosing the Bedrock API of a chat request: `converse` (default) or `invoke` (Claude models only). */
export const BEDROCK_API_FIELD = 'bedrock_api';
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** Whether a chat body asks for InvokeModel; anything but `converse`/`invoke` (or absent) is a 400. */
export function wantsInvoke(body: Json, model: string): boolean {
  const api = body[BEDROCK_API_FIELD];
  if (api === undefined || api === null || api === 'converse') return false;
  if (api !== 'invoke') throw invalid(BEDROCK_API_FIELD, `${BEDROCK_API_FIELD} must be converse or invoke`);
  if (!isClaude(model))
    throw invalid(BEDROCK_API_FIELD, `${BEDROCK_API_FIELD} invoke is supported for anthropic.claude models only`);
  return true;
}

/** Plain ids, inference profiles (`us.anthropic.…`) and ARNs naming either. */
export const isClaude = (model: string): boolean => /(^|[./])anthropic\.claude/.test(model);

/** Claude on InvokeModel: the Messages body without `model` and `stream` (both are in the path), with Bedrock's version. */
export function toClaudeInvokeBody(body: Json): Json {
  const messages = toAnthropicMessagesBody(body, false);
  const out: Json = { anthropic_version: BEDROCK_ANTHROPIC_VERSION };
  for (const [name, value] of Object.entries(messages)) if (name !== 'model' && name !== 'stream') out[name] = value;
  return out;
}

type EmbeddingFamily = 'titan' | 'cohere';

function embeddingFamily(model: string): EmbeddingFamily {
  if (/(^|[./])amazon\.titan-embed/.test(model)) return 'titan';
  if (/(^|[./])cohere\.embed/.test(model)) return 'cohere';
  throw invalid('model', 'bedrock embeddings support amazon.titan-embed-* and cohere.embed-* models');
}

function inputTexts(input: unknown): string[] {
  const texts: unknown[] = typeof input === 'string' ? [input] : Array.isArray(input) ? input : [];
  if (texts.length === 0 || !texts.every((t): t is string => typeof t === 'string'))
    throw invalid('input', 'bedrock embeddings take a string or a non-empty array of strings');
  return texts;
}

/** Titan embeds one text per call, Cohere a list (`input_type` defaults to documents, OpenAI having no such field). */
export function toEmbeddingInvokeBody(body: Json, model: string): Json {
  const texts = inputTexts(body.input);
  if (embeddingFamily(model) === 'titan') {
    if (texts.length > 1) throw invalid('input', 'amazon titan embeddings take one text per request');
    const out: Json = { inputText: texts[0] };
    if (typeof body.dimensions === 'number') out.dimensions = body.dimensions;
    return out;
  }
  const inputType = typeof body.input_type === 'string' ? body.input_type : 'search_document';
  return { texts, input_type: inputType };
}

export function fromEmbeddingInvoke(body: Json, target: ProviderTarget): ParsedResponse {
  const vectors: unknown[] = Array.isArray(body.embedding)
    ? [body.embedding]
    : Array.isArray(body.embeddings)
      ? body.embeddings
      : isJsonObject(body.embeddings) && Array.isArray(body.embeddings.float)
        ? body.embeddings.float
        : [];
  const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
  const tokens = typeof body.inputTextTokenCount === 'number' ? body.inputTextTokenCount : undefined;
  const parsed: ParsedResponse = {
    body: {
      object: 'list',
      data,
      model: target.model,
      usage: { prompt_tokens: tokens ?? 0, total_tokens: tokens ?? 0 },
    },
  };
  // Cohere on Bedrock reports no token count in the body: no usage, so no cost is invented.
  if (tokens !== undefined) parsed.usage = { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens };
  return parsed;
}

export const listedModelIds = (body: Json): string[] =>
  jsonObjects(body.modelSummaries).flatMap((m) => (typeof m.modelId === 'string' ? [m.modelId] : []));
