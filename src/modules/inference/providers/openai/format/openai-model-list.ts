import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import { clip } from '../../../../../core/http/echo.js';
import type { InboundFormat } from '../../provider-descriptor.js';
import type { CatalogModel } from '../../shared/provider-adapter.js';
import { findModel } from '../../../formats/format-model-list.js';

/** OpenAI's model object, id `<provider>/<model>` as /v1 lists it (an OpenAI SDK sends it back as it is). */
export interface OpenAiModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

export interface OpenAiModelList {
  object: 'list';
  data: OpenAiModel[];
}

function openAiModel(m: CatalogModel): OpenAiModel {
  return { id: m.ref, object: 'model', created: m.created ?? 0, owned_by: m.owned_by ?? m.provider };
}

/** OpenAI's model list (`GET /v1/models`, `/openai/v1/models`). */
export function openAiModelList(models: CatalogModel[]): OpenAiModelList {
  return { object: 'list', data: models.map(openAiModel) };
}

/**
 * The model `GET …/models/{model}` names (`models.retrieve` of an OpenAI SDK, which URL-encodes the `/` of
 * `openai/gpt-4o-mini`), or a 404 `model_not_found`. Under `/openai` (`format`) a bare id is OpenAI's; under `/v1` a
 * bare id is the model of the one provider that lists it, as a bare model in a request is resolved from the keys naming
 * it.
 */
export function findOpenAiModel(models: CatalogModel[], id: string, format?: InboundFormat): OpenAiModel {
  if (format) return openAiModel(findModel(models, id, format, 'model'));
  const found = models.find((m) => m.ref === id);
  if (found) return openAiModel(found);
  const bare = models.filter((m) => m.id === id);
  if (bare.length === 1) return openAiModel(bare[0]!);
  throw GatewayException.notFound(
    'model',
    bare.length
      ? `Several providers list the model ${clip(id)}: name it as <provider>/<model>`
      : `No configured provider lists the model ${clip(id)}`,
  );
}
