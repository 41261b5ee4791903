import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { nativeHeaders, nowSeconds, providerErrorOf, unsupportedKind } from '../shared/native-adapter-parts.js';
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
import { isRunwayVideoModel, runwayVideoTask } from './runway-video.js';
import { pollTask, taskFailed } from '../shared/task-polling.js';
import { asObject, asString, parseJson } from '../shared/wire-json.js';

export const RUNWAY_DEFAULT_BASE_URL = 'https://api.dev.runwayml.com';
/** The API version every Runway call names (`X-Runway-Version`). */
export const RUNWAY_API_VERSION = '2024-11-06';

/** Task statuses that are not terminal. */
const PENDING_TASK: ReadonlySet<string> = new Set(['PENDING', 'THROTTLED', 'RUNNING']);

const invalid = (param: string, message: string) => GatewayException.validation(param, message);
const baseOf = (target: ProviderTarget) => target.baseUrl.replace(/\/+$/, '');

/** The version header, the provider's extra headers, then the key as Bearer (last, so nothing can swap it). */
function headersOf(target: ProviderTarget, json: boolean): Record<string, string> {
  const fixed = { 'x-runway-version': RUNWAY_API_VERSION };
  return nativeHeaders(target, { json, keyHeader: 'authorization', bearer: true, fixed });
}

/** OpenAI `prompt`, `size` (`WIDTHxHEIGHT` → `WIDTH:HEIGHT`), model → `POST /v1/text_to_image`'s body. */
function textToImageBody(body: Json, model: string): Json {
  if (typeof body.prompt !== 'string' || body.prompt === '') throw invalid('prompt', 'prompt must be a string');
  if (body.n !== undefined && body.n !== 1) throw invalid('n', 'a runway task makes one image: n must be 1');
  if (body.response_format !== undefined && body.response_format !== 'url') {
    throw invalid('response_format', 'runway answers image URLs only: response_format must be url');
  }
  const out: Json = { promptText: body.prompt, model };
  // OpenAI's default size is 1024x1024; Runway requires a ratio.
  if (body.size === undefined || body.size === 'auto') out.ratio = '1024:1024';
  else {
    const match = typeof body.size === 'string' ? /^(\d+)x(\d+)$/.exec(body.size) : null;
    if (!match) throw invalid('size', 'size must be WIDTHxHEIGHT (a ratio runway takes, e.g. 1920x1080) or auto');
    out.ratio = `${match[1]}:${match[2]}`;
  }
  return out;
}

/** A terminal task → the OpenAI images answer; a failed or cancelled one throws the provider's message. */
function fromTask(task: Json): ParsedResponse {
  if (task.status !== 'SUCCEEDED') {
    const message = asString(task.failure) ?? `The runway task ended ${asString(task.status) ?? 'without a status'}`;
    throw taskFailed('runway', message, asString(task.failureCode));
  }
  const urls = Array.isArray(task.output) ? (task.output as unknown[]).filter((u) => typeof u === 'string') : [];
  const createdMs = typeof task.createdAt === 'string' ? Date.parse(task.createdAt) : NaN;
  const created = Number.isFinite(createdMs) ? Math.floor(createdMs / 1000) : nowSeconds();
  return { body: { created, data: urls.map((url) => ({ url })) } };
}

/**
 * Runway on the unified API: `/v1/images/generations` → `POST /v1/text_to_image` (`prompt` → `promptText`, `size` →
 * `ratio`, the model as `model`), or for a video model `POST /v1/image_to_video` / `/v1/text_to_video`
 * (`runway-video.ts`). The answer is a task `{id}`, polled at `GET /v1/tasks/{id}` until `SUCCEEDED` (output URLs →
 * `data[].url`: images, or the MP4 of a video) or `FAILED` / `CANCELLED` (502 with Runway's `failure`). Every call
 * carries `X-Runway-Version` and the key as Bearer. Runway has no model list.
 */
export const runwayAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['image_generation']),

  defaultBaseUrl: () => RUNWAY_DEFAULT_BASE_URL,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget): UpstreamCall {
    if (kind !== 'image_generation') throw unsupportedKind('runway', kind);
    const task = isRunwayVideoModel(target.model)
      ? runwayVideoTask(body, target.model)
      : { path: '/v1/text_to_image', body: textToImageBody(body, target.model) };
    return {
      method: 'POST',
      url: `${baseOf(target)}${task.path}`,
      headers: headersOf(target, true),
      body: JSON.stringify(task.body),
    };
  },

  /** The task as Runway sent it (`{id}`): `settle` waits for it and translates it. */
  parseResponse(kind: InferenceKind, body: Json): ParsedResponse {
    if (kind !== 'image_generation') throw unsupportedKind('runway', kind);
    return { body };
  },

  async settle(_kind: InferenceKind, parsed: ParsedResponse, target: ProviderTarget, wait: TaskWait) {
    const id = asString(parsed.body.id);
    if (!id) {
      throw new GatewayException(502, 'upstream_error', 'runway answered a task without an id', {
        reason: 'provider_server_error',
      });
    }
    // The create call answers only `{id}`: the task is polled at least once.
    const task = await pollTask(
      {
        provider: 'runway',
        url: `${baseOf(target)}/v1/tasks/${encodeURIComponent(id)}`,
        headers: headersOf(target, false),
        pending: (t) => PENDING_TASK.has(asString(t.status) ?? ''),
        parseError: (status, text) => this.parseError(status, {}, text),
      },
      wait,
    );
    return fromTask(task);
  },

  streamDecoder(kind: InferenceKind): StreamDecoder {
    throw unsupportedKind('runway', kind);
  },

  /** Runway's errors are `{error: "<message>"}` (a validation failure adds `issues`). */
  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError {
    return providerErrorOf('runway', status, headers, body, { message: asString(asObject(parseJson(body))?.error) });
  },

  buildListModels(): UpstreamCall {
    throw new GatewayException(400, 'unsupported_operation', 'runway has no model list', {
      reason: 'caller_invalid_request',
    });
  },

  parseListModels(): ListedModel[] {
    return [];
  },
};
