import { GatewayException } from '../../../../core/errors/gateway.exception.js';
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
  TaskWait,
  UpstreamCall,
} from '../shared/provider-adapter.js';
import {
  chatInput,
  fromPrediction,
  imageInput,
  PENDING_PREDICTION,
  predictionCall,
  replicateErrorMessage,
} from './replicate-wire.js';
import { pollTask } from '../shared/task-polling.js';
import { asArray, asObject, asString, parseJson } from '../shared/wire-json.js';

export const REPLICATE_DEFAULT_BASE_URL = 'https://api.replicate.com';

const baseOf = (target: ProviderTarget) => target.baseUrl.replace(/\/+$/, '');

/** The provider's extra headers, then the key as Bearer (set last, so no extra header can swap it). */
function headersOf(target: ProviderTarget, json: boolean): Record<string, string> {
  return nativeHeaders(target, { json, keyHeader: 'authorization', bearer: true });
}

function servedKind(kind: InferenceKind): 'chat' | 'image_generation' {
  if (kind === 'chat' || kind === 'image_generation') return kind;
  throw unsupportedKind('replicate', kind);
}

/**
 * Replicate on the unified API: `/v1/images/generations` and `/v1/chat/completions` become a prediction of the model
 * (`POST /v1/models/{owner}/{name}/predictions`, or `/v1/predictions` with `version` for `owner/name:version`),
 * polled at `GET /v1/predictions/{id}` until it succeeds, fails or is canceled (`settle`). Image outputs are URLs
 * (`data[].url`); a language model's output tokens are joined into one chat.completion. Chat is never streamed: a
 * `stream: true` request is a 400 naming `stream`. A `Prefer: wait=<n>` extra header of the provider is sent as
 * is; a prediction that comes back finished is not polled.
 */
export const replicateAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['chat', 'image_generation']),

  defaultBaseUrl: () => REPLICATE_DEFAULT_BASE_URL,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const served = servedKind(kind);
    if (stream) throw GatewayException.validation('stream', 'replicate answers are not streamed: leave stream unset');
    const input = served === 'chat' ? chatInput(body) : imageInput(body);
    const call = predictionCall(target.model, input);
    return {
      method: 'POST',
      url: baseOf(target) + call.path,
      headers: headersOf(target, true),
      body: JSON.stringify(call.body),
    };
  },

  /** The prediction as Replicate sent it: `settle` waits for it and translates it. */
  parseResponse(kind: InferenceKind, body: Json): ParsedResponse {
    servedKind(kind);
    return { body };
  },

  async settle(kind: InferenceKind, parsed: ParsedResponse, target: ProviderTarget, wait: TaskWait) {
    let prediction = parsed.body;
    if (PENDING_PREDICTION.has(asString(prediction.status) ?? '')) {
      const id = asString(prediction.id);
      if (!id)
        throw new GatewayException(502, 'upstream_error', 'replicate answered a prediction without an id', {
          reason: 'provider_server_error',
        });
      prediction = await pollTask(
        {
          provider: 'replicate',
          url: `${baseOf(target)}/v1/predictions/${encodeURIComponent(id)}`,
          headers: headersOf(target, false),
          pending: (task) => PENDING_PREDICTION.has(asString(task.status) ?? ''),
          parseError: (status, text) => this.parseError(status, {}, text),
        },
        wait,
      );
    }
    return fromPrediction(servedKind(kind), prediction, target);
  },

  streamDecoder(kind: InferenceKind): StreamDecoder {
    throw unsupportedKind('replicate', kind);
  },

  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError {
    return providerErrorOf('replicate', status, headers, body, { message: replicateErrorMessage(parseJson(body)) });
  },

  buildListModels(target: ProviderTarget): UpstreamCall {
    return { method: 'GET', url: `${baseOf(target)}/v1/models`, headers: headersOf(target, false) };
  },

  /** `{results: [{owner, name}]}` (the first page). */
  parseListModels(body: Json): ListedModel[] {
    return (asArray(body.results) ?? []).flatMap((row) => {
      const model = asObject(row);
      const owner = asString(model?.owner);
      const name = asString(model?.name);
      return owner && name ? [{ id: `${owner}/${name}`, owned_by: owner }] : [];
    });
  },
};
