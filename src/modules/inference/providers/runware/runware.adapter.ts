import { randomUUID } from 'node:crypto';
import { nativeHeaders, providerErrorOf, unsupportedKind } from '../shared/native-adapter-parts.js';
import type {
  InferenceKind,
  Json,
  ListedModel,
  ParsedResponse,
  ProviderAdapter,
  ProviderError,
  ProviderTarget,
  StreamDecoder,
  UpstreamCall,
} from '../shared/provider-adapter.js';
import { fromRunwareImages, runwareErrorDetail, runwareImageTasks, runwareModelIds } from './runware-wire.js';
import { parseJson } from '../shared/wire-json.js';

export const RUNWARE_DEFAULT_BASE_URL = 'https://api.runware.ai/v1';

/** How many models a listing asks `modelSearch` for. */
const LISTED_MODELS = 100;

/**
 * Runware on the unified API: image generation (`/v1/images/generations`) as one `imageInference` task posted to
 * the single endpoint (`POST {base}` with a JSON array of tasks, `Authorization: Bearer`), answered in OpenAI's
 * images shape with Runware's per-image cost as the usage cost.
 */
export const runwareAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['image_generation']),

  defaultBaseUrl: () => RUNWARE_DEFAULT_BASE_URL,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget): UpstreamCall {
    if (kind !== 'image_generation') throw unsupportedKind('runware', kind);
    return {
      method: 'POST',
      url: target.baseUrl.replace(/\/+$/, ''),
      headers: bearerHeaders(target),
      body: JSON.stringify(runwareImageTasks(body, target.model)),
    };
  },

  parseResponse(kind: InferenceKind, body: Json): ParsedResponse {
    if (kind !== 'image_generation') throw unsupportedKind('runware', kind);
    return fromRunwareImages(body);
  },

  streamDecoder(kind: InferenceKind): StreamDecoder {
    throw unsupportedKind('runware', kind);
  },

  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError {
    return providerErrorOf('runware', status, headers, body, runwareErrorDetail(parseJson(body)));
  },

  /** Runware lists models through its `modelSearch` task (the first page of its catalogue). */
  buildListModels(target: ProviderTarget): UpstreamCall {
    return {
      method: 'POST',
      url: target.baseUrl.replace(/\/+$/, ''),
      headers: bearerHeaders(target),
      body: JSON.stringify([{ taskType: 'modelSearch', taskUUID: randomUUID(), limit: LISTED_MODELS }]),
    };
  },

  parseListModels(body: Json): ListedModel[] {
    return runwareModelIds(body).map((id) => ({ id, owned_by: 'runware' }));
  },
};

function bearerHeaders(target: ProviderTarget): Record<string, string> {
  return nativeHeaders(target, { json: true, keyHeader: 'authorization', bearer: true });
}
