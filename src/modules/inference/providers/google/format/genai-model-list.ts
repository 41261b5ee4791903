import type { CatalogModel } from '../../shared/provider-adapter.js';
import { nativeModelId, offsetOf, operationsOf, pageAt, pageSizeOf } from '../../../formats/format-model-list.js';

export interface GenaiModel {
  name: string;
  displayName: string;
  supportedGenerationMethods: string[];
  inputTokenLimit?: number;
  outputTokenLimit?: number;
}

/** What a model of another provider can do through `/genai` (its own list does not say). */
const GUESSED_METHODS = {
  generate: ['generateContent', 'streamGenerateContent', 'countTokens'],
  embed: ['embedContent', 'batchEmbedContents'],
};

/** Google's Model: `models/<id>`, Gemini's models bare, others `models/<provider>/<model>`. */
export function genaiModel(model: CatalogModel): GenaiModel {
  const id = nativeModelId(model, 'genai');
  const out: GenaiModel = {
    name: `models/${id}`,
    displayName: model.display_name ?? id,
    supportedGenerationMethods: operationsOf(model, 'genai', GUESSED_METHODS),
  };
  if (model.input_token_limit !== undefined) out.inputTokenLimit = model.input_token_limit;
  if (model.output_token_limit !== undefined) out.outputTokenLimit = model.output_token_limit;
  return out;
}

/** `GET /v1beta/models`: `pageSize` (1–1000, default 50) models from `pageToken`, and the next page's token. */
export function genaiModelPage(
  models: CatalogModel[],
  query: Record<string, unknown>,
): { models: GenaiModel[]; nextPageToken?: string } {
  const size = pageSizeOf(query.pageSize, 'pageSize', 50, 1000);
  const { page, next } = pageAt(models, offsetOf(query.pageToken, 'pageToken'), size);
  return { models: page.map(genaiModel), ...(next === undefined ? {} : { nextPageToken: next }) };
}
