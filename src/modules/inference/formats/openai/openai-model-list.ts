import type { CatalogModel } from '../../catalog/model-listing.service.js';

export interface OpenAiModelList {
  object: 'list';
  data: Array<{ id: string; object: 'model'; created: number; owned_by: string }>;
}

/** OpenAI's model list, ids `<provider>/<model>` as /v1 lists them (an OpenAI SDK sends them back as they are). */
export function openAiModelList(models: CatalogModel[]): OpenAiModelList {
  return {
    object: 'list',
    data: models.map((m) => ({
      id: m.ref,
      object: 'model',
      created: m.created ?? 0,
      owned_by: m.owned_by ?? m.provider,
    })),
  };
}
