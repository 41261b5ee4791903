import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import type { CatalogModel } from '../../shared/provider-adapter.js';
import { nativeModelId, pageSizeOf } from '../../../formats/format-model-list.js';

export interface AnthropicModelInfo {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
}

export interface AnthropicModelPage {
  data: AnthropicModelInfo[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

/** Anthropic's ModelInfo: Anthropic's models bare (`claude-…`), others `<provider>/<model>`. */
export function anthropicModelInfo(model: CatalogModel): AnthropicModelInfo {
  const id = nativeModelId(model, 'anthropic');
  return {
    type: 'model',
    id,
    display_name: model.display_name ?? id,
    created_at: new Date((model.created ?? 0) * 1000).toISOString(),
  };
}

/**
 * One page as `GET /v1/models` answers it: `limit` (1–1000, default 20) models after `after_id`, or the last
 * `limit` before `before_id` (the SDK pages backwards that way), or the first `limit`.
 */
export function anthropicModelPage(models: CatalogModel[], query: Record<string, unknown>): AnthropicModelPage {
  const all = models.map(anthropicModelInfo);
  const limit = pageSizeOf(query.limit, 'limit', 20, 1000);
  const { before_id: before, after_id: after } = query;
  if (before !== undefined && after !== undefined) {
    throw GatewayException.validation('before_id', 'before_id and after_id cannot be used together');
  }
  let data: AnthropicModelInfo[];
  let hasMore: boolean;
  if (typeof before === 'string') {
    const end = indexOf(all, before, 'before_id');
    data = all.slice(Math.max(0, end - limit), end);
    hasMore = end - limit > 0;
  } else {
    const start = typeof after === 'string' ? indexOf(all, after, 'after_id') + 1 : 0;
    data = all.slice(start, start + limit);
    hasMore = start + limit < all.length;
  }
  return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

function indexOf(models: AnthropicModelInfo[], id: string, param: string): number {
  const at = models.findIndex((m) => m.id === id);
  if (at < 0) throw GatewayException.validation(param, `${param} ${id} is not a listed model`);
  return at;
}
