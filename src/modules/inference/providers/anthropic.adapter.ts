import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { parseAnthropicError } from './anthropic-error.js';
import { isJsonObject, toAnthropicCountTokensBody, toAnthropicMessagesBody } from './anthropic-messages.js';
import { fromAnthropicMessage } from './anthropic-response.js';
import { AnthropicStreamDecoder } from './anthropic-stream.js';
import type {
  InferenceKind,
  Json,
  ListedModel,
  ParsedResponse,
  ProviderAdapter,
  ProviderTarget,
  StreamDecoder,
  UpstreamCall,
} from './provider-adapter.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
/** The API's page maximum: one call lists every model. */
const LIST_MODELS_LIMIT = 1000;

/**
 * Headers of every call: the provider's extra headers (e.g. `anthropic-beta`, or an `anthropic-version` override),
 * lower-cased so they replace rather than duplicate ours, and the key last so no extra header can swap it.
 */
function headersFor(target: ProviderTarget, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
  if (json) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(target.extraHeaders)) headers[name.toLowerCase()] = value;
  if (target.key.value) headers['x-api-key'] = target.key.value;
  return headers;
}

function unsupported(kind: InferenceKind): GatewayException {
  return new GatewayException(400, 'unsupported_operation', `anthropic does not support ${kind} requests`, {
    reason: 'caller_invalid_request',
  });
}

/** Anthropic Messages API (`POST /v1/messages`, `/v1/messages/count_tokens`, `GET /v1/models`). */
export const anthropicAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['chat', 'count_tokens']),

  defaultBaseUrl: () => ANTHROPIC_DEFAULT_BASE_URL,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const headers = headersFor(target, true);
    if (kind === 'chat') {
      const translated = toAnthropicMessagesBody({ ...body, model: target.model }, stream);
      return { method: 'POST', url: `${target.baseUrl}/v1/messages`, headers, body: JSON.stringify(translated) };
    }
    if (kind === 'count_tokens') {
      const translated = toAnthropicCountTokensBody({ ...body, model: target.model });
      return {
        method: 'POST',
        url: `${target.baseUrl}/v1/messages/count_tokens`,
        headers,
        body: JSON.stringify(translated),
      };
    }
    throw unsupported(kind);
  },

  parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    if (kind === 'chat') return fromAnthropicMessage(body, target);
    if (kind === 'count_tokens') {
      const tokens = typeof body.input_tokens === 'number' ? body.input_tokens : 0;
      return { body: { object: 'response.input_tokens', input_tokens: tokens } };
    }
    throw unsupported(kind);
  },

  streamDecoder(kind: InferenceKind, target: ProviderTarget): StreamDecoder {
    if (kind !== 'chat') throw unsupported(kind);
    return new AnthropicStreamDecoder(target);
  },

  parseError: parseAnthropicError,

  buildListModels(target: ProviderTarget): UpstreamCall {
    return {
      method: 'GET',
      url: `${target.baseUrl}/v1/models?limit=${LIST_MODELS_LIMIT}`,
      headers: headersFor(target, false),
    };
  },

  parseListModels(body: Json): ListedModel[] {
    const data = Array.isArray(body.data) ? (body.data as unknown[]).filter(isJsonObject) : [];
    return data.flatMap((m) => {
      if (typeof m.id !== 'string') return [];
      const model: ListedModel = { id: m.id, owned_by: 'anthropic' };
      const created = typeof m.created_at === 'string' ? Date.parse(m.created_at) : NaN;
      if (!Number.isNaN(created)) model.created = Math.floor(created / 1000);
      return [model];
    });
  },
};
