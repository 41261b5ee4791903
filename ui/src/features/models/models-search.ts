import type { ObjectConstraints } from '../../api/constraints.gen';
import { compactSearch, readSearch } from '../../shared/url/search-params';

/** The request types a price can be looked at for (the gateway's pricing request types). */
export const REQUEST_TYPES = [
  'chat_completion',
  'text_completion',
  'responses',
  'embedding',
  'rerank',
  'count_tokens',
  'speech',
  'transcription',
  'image_generation',
  'image_edit',
  'image_variation',
  'ocr',
] as const;

/**
 * The screen's URL: the tab, and on the models tab the name search, the page, the request type and the virtual key a
 * price is looked at for (`vk`: its own overrides then count).
 */
export const MODELS_SEARCH: ObjectConstraints = {
  required: [],
  properties: {
    tab: { type: 'string', enum: ['models', 'overrides', 'configs', 'providers'] },
    search: { type: 'string', maxLength: 255 },
    limit: { type: 'integer', minimum: 1, maximum: 200 },
    offset: { type: 'integer', minimum: 0 },
    request_type: { type: 'string', enum: [...REQUEST_TYPES] },
    vk: { type: 'string', maxLength: 255 },
  },
};

export interface ModelsSearch {
  tab?: 'models' | 'overrides' | 'configs' | 'providers';
  search?: string;
  limit?: number;
  offset?: number;
  request_type?: (typeof REQUEST_TYPES)[number];
  vk?: string;
}

export const MODELS_DEFAULTS = { tab: 'models', limit: 50, offset: 0, request_type: 'chat_completion' } as const;

export function readModelsSearch(raw: Record<string, unknown>): ModelsSearch {
  return readSearch(raw, MODELS_SEARCH);
}

export function modelsSearchOf(search: ModelsSearch): ModelsSearch {
  return compactSearch(search as Record<string, string | number | undefined>, MODELS_DEFAULTS);
}
