import { fromAnthropicMessage } from '../anthropic/anthropic-response.js';
import { authorizeBedrockCall } from './bedrock-auth.js';
import { toConverseBody } from './bedrock-converse.js';
import { parseBedrockError } from './bedrock-error.js';
import {
  fromEmbeddingInvoke,
  listedModelIds,
  toClaudeInvokeBody,
  toEmbeddingInvokeBody,
  wantsInvoke,
} from './bedrock-invoke.js';
import { fromConverseResponse } from './bedrock-response.js';
import { BedrockStreamDecoder } from './bedrock-stream.js';
import { nativeHeaders, unsupportedKind } from '../shared/native-adapter-parts.js';
import type {
  AdapterIo,
  InferenceKind,
  Json,
  ListedModel,
  ParsedResponse,
  ProviderAdapter,
  ProviderTarget,
  StreamDecoder,
  UpstreamCall,
} from '../shared/provider-adapter.js';

/** AWS's default region, used when a key names none (a bearer API key stored without `bedrock_key_config`). */
export const BEDROCK_DEFAULT_REGION = 'us-east-1';

const regionOf = (target: ProviderTarget): string => target.key.bedrock?.region || BEDROCK_DEFAULT_REGION;

const runtimeHost = (region: string) => `https://bedrock-runtime.${region}.amazonaws.com`;
/** What `defaultBaseUrl` answers; the region is the key's, so this base is re-resolved per call. */
const DEFAULT_RUNTIME_BASE = runtimeHost(BEDROCK_DEFAULT_REGION);
const usesDefaultBase = (target: ProviderTarget) => !target.baseUrl || target.baseUrl === DEFAULT_RUNTIME_BASE;

/** The runtime base: the provider's `base_url` override, else the key's regional endpoint. */
function runtimeBase(target: ProviderTarget): string {
  return usesDefaultBase(target) ? runtimeHost(regionOf(target)) : target.baseUrl;
}

/** `/model/{id}/{operation}`, the id one encoded path segment (`:` → `%3A`, an ARN's `/` → `%2F`). */
function modelUrl(target: ProviderTarget, operation: string): string {
  return `${runtimeBase(target)}/model/${encodeURIComponent(target.model)}/${operation}`;
}

/** No key header: `authorize` adds the API key or the SigV4 signature last. */
const headersFor = (target: ProviderTarget, json: boolean, accept: string) =>
  nativeHeaders(target, { json, fixed: { accept } });

const unsupported = (kind: InferenceKind) => unsupportedKind('bedrock', kind);

function post(target: ProviderTarget, operation: string, body: Json, stream: boolean): UpstreamCall {
  return {
    method: 'POST',
    url: modelUrl(target, operation),
    headers: headersFor(target, true, stream ? 'application/vnd.amazon.eventstream' : 'application/json'),
    body: JSON.stringify(body),
  };
}

/**
 * AWS Bedrock runtime: chat through Converse / ConverseStream (or InvokeModel / InvokeModelWithResponseStream with
 * Claude's Messages body when the caller sets `bedrock_api: "invoke"`), embeddings through InvokeModel (Titan,
 * Cohere), model listing on the control-plane host. Calls are signed with SigV4 or carry a Bedrock API key.
 */
export const bedrockAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['chat', 'embeddings']),

  defaultBaseUrl: () => DEFAULT_RUNTIME_BASE,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    if (kind === 'chat') {
      if (wantsInvoke(body, target.model))
        return post(target, stream ? 'invoke-with-response-stream' : 'invoke', toClaudeInvokeBody(body), stream);
      return post(target, stream ? 'converse-stream' : 'converse', toConverseBody(body, target.model), stream);
    }
    if (kind === 'embeddings') return post(target, 'invoke', toEmbeddingInvokeBody(body, target.model), false);
    throw unsupported(kind);
  },

  authorize(call: UpstreamCall, target: ProviderTarget, io: AdapterIo): Promise<UpstreamCall> {
    return authorizeBedrockCall(call, target, io.now());
  },

  parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    if (kind === 'chat') {
      // InvokeModel of Claude answers a Messages `message`; Converse an `output`.
      // Its `model` is Anthropic's name of the Bedrock id asked for, not a server-side fallback.
      if (body.type === 'message') return fromAnthropicMessage({ ...body, model: target.model }, target);
      return fromConverseResponse(body, target);
    }
    if (kind === 'embeddings') return fromEmbeddingInvoke(body, target);
    throw unsupported(kind);
  },

  streamDecoder(kind: InferenceKind, target: ProviderTarget): StreamDecoder {
    if (kind !== 'chat') throw unsupported(kind);
    return new BedrockStreamDecoder(target);
  },

  parseError: parseBedrockError,

  /** `GET /foundation-models` lives on the control-plane host `bedrock.{region}`, not `bedrock-runtime`. */
  buildListModels(target: ProviderTarget): UpstreamCall {
    const base = usesDefaultBase(target) ? `https://bedrock.${regionOf(target)}.amazonaws.com` : target.baseUrl;
    return { method: 'GET', url: `${base}/foundation-models`, headers: headersFor(target, false, 'application/json') };
  },

  parseListModels(body: Json): ListedModel[] {
    return listedModelIds(body).map((id) => ({ id, owned_by: 'bedrock' }));
  },
};
