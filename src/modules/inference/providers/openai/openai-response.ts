import { mediaUsage } from '../../media/media-usage.js';
import { usageFromOpenAi, usageFromResponses } from './openai-usage.js';
import type { InferenceKind, Json, ListedModel, ParsedResponse } from '../shared/provider-adapter.js';
import { asArray, asObject, asString } from '../shared/wire-json.js';

/**
 * A rerank answer in the Cohere/Jina shape the unified /v1/rerank speaks: `{ id?, results: [{ index,
 * relevance_score, document? }], usage? }`. vLLM answers that shape already; SGLang answers a bare array of
 * `{ index, score, document }`.
 */
function rerankBody(body: unknown): Json {
  const o = asObject(body);
  const rows = Array.isArray(body) ? body : (asArray(o?.results) ?? asArray(o?.data) ?? []);
  const results = rows
    .map((row) => asObject(row))
    .filter((row): row is Json => row !== undefined)
    .map((row) => {
      const result: Json = {
        index: row.index,
        relevance_score: typeof row.relevance_score === 'number' ? row.relevance_score : row.score,
      };
      const document = row.document;
      if (typeof document === 'string') result.document = { text: document };
      else if (asObject(document)) result.document = document;
      return result;
    });
  const out: Json = {};
  if (typeof o?.id === 'string') out.id = o.id;
  if (typeof o?.model === 'string') out.model = o.model;
  out.results = results;
  if (o?.usage !== undefined) out.usage = o.usage;
  return out;
}

/** Rerank usage counts only input (`{ total_tokens }` or `{ prompt_tokens, total_tokens }`). */
function rerankUsage(body: Json): ParsedResponse['usage'] {
  const u = asObject(body.usage);
  if (!u) return undefined;
  return usageFromOpenAi({ prompt_tokens: u.prompt_tokens ?? u.total_tokens, ...u });
}

/** A unary success of the OpenAI family: the body as the provider sent it (rerank normalised) and its usage. */
export function parseOpenAiResponse(kind: InferenceKind, body: Json): ParsedResponse {
  switch (kind) {
    case 'chat':
    case 'completions':
    case 'embeddings': {
      const usage = usageFromOpenAi(body.usage);
      return usage ? { body, usage } : { body };
    }
    case 'responses': {
      const usage = usageFromResponses(body.usage, body.output);
      return usage ? { body, usage } : { body };
    }
    case 'rerank': {
      const normalised = rerankBody(body);
      const usage = rerankUsage(normalised);
      return usage ? { body: normalised, usage } : { body: normalised };
    }
    case 'count_tokens':
      return { body };
    case 'speech':
    case 'transcription':
    case 'image_generation':
    case 'image_edit':
    case 'image_variation':
    case 'ocr': {
      const usage = mediaUsage(body.usage);
      return usage ? { body, usage } : { body };
    }
  }
}

/**
 * The model a server-side router answered with, when it is not the one asked for. A snapshot of the asked model
 * (`gpt-4o` → `gpt-4o-2024-08-06`, `llama3` → `llama3:latest`) is the same model, not a fallback.
 */
export function answeredModelOf(body: Json, asked: string): string | undefined {
  const model = asString(body.model);
  return model && model !== asked && !model.startsWith(asked) ? model : undefined;
}

/**
 * `GET /models` of the family: `{ data: [{ id, owned_by, created }] }`; Azure's catalog has `created_at`;
 * Databricks' serving endpoints are `{ endpoints: [{ name, creation_timestamp (ms) }] }`.
 */
export function parseOpenAiModelList(body: Json): ListedModel[] {
  const models: ListedModel[] = [];
  for (const row of asArray(body.data) ?? []) {
    const o = asObject(row);
    const id = asString(o?.id);
    if (!o || !id) continue;
    const model: ListedModel = { id };
    const owner = asString(o.owned_by);
    if (owner) model.owned_by = owner;
    const created = typeof o.created === 'number' ? o.created : o.created_at;
    if (typeof created === 'number') model.created = created;
    models.push(model);
  }
  for (const row of asArray(body.endpoints) ?? []) {
    const o = asObject(row);
    const id = asString(o?.name);
    if (!o || !id) continue;
    const model: ListedModel = { id };
    if (typeof o.creation_timestamp === 'number') model.created = Math.floor(o.creation_timestamp / 1000);
    models.push(model);
  }
  return models;
}
