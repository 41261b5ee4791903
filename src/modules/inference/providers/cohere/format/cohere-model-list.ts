import type { CatalogModel } from '../../shared/provider-adapter.js';
import { nativeModelId, offsetOf, operationsOf, pageAt, pageSizeOf } from '../../../formats/format-model-list.js';

export interface CohereModel {
  name: string;
  endpoints: string[];
  finetuned: boolean;
  context_length?: number;
}

/** What a model of another provider can do through `/cohere` (its own list does not say). */
const GUESSED_ENDPOINTS = { generate: ['chat'], embed: ['embed'] };

/** Cohere's model: Cohere's models bare, others `<provider>/<model>`. */
export function cohereModel(model: CatalogModel): CohereModel {
  const out: CohereModel = {
    name: nativeModelId(model, 'cohere'),
    endpoints: operationsOf(model, 'cohere', GUESSED_ENDPOINTS),
    finetuned: false,
  };
  if (model.input_token_limit !== undefined) out.context_length = model.input_token_limit;
  return out;
}

/**
 * `GET /v1/models`: `page_size` (1–1000, default 20) models from `page_token`, only those serving `endpoint` when
 * it is given.
 */
export function cohereModelPage(
  models: CatalogModel[],
  query: Record<string, unknown>,
): { models: CohereModel[]; next_page_token?: string } {
  const size = pageSizeOf(query.page_size, 'page_size', 20, 1000);
  const endpoint = typeof query.endpoint === 'string' && query.endpoint !== '' ? query.endpoint : undefined;
  const listed = models.map(cohereModel).filter((m) => endpoint === undefined || m.endpoints.includes(endpoint));
  const { page, next } = pageAt(listed, offsetOf(query.page_token, 'page_token'), size);
  return { models: page, ...(next === undefined ? {} : { next_page_token: next }) };
}
