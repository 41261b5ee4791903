import { parseAnthropicError } from './anthropic-error.js';
import { toAnthropicCountTokensBody, toAnthropicMessagesBody } from './anthropic-messages.js';
import { fromAnthropicMessage } from './anthropic-response.js';
import { AnthropicStreamDecoder } from './anthropic-stream.js';
import { inputTokensBody, nativeHeaders, unsupportedKind } from '../shared/native-adapter-parts.js';
import type {
  InferenceKind,
  Json,
  ListedModel,
  ParsedResponse,
  ProviderAdapter,
  ProviderTarget,
  StreamDecoder,
  UpstreamCall,
} from '../shared/provider-adapter.js';
import { jsonObjects } from '../shared/wire-json.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
/** The API's page maximum: one call lists every model. */
const LIST_MODELS_LIMIT = 1000;

/**
 * Headers of every call: the provider's extra headers (e.g. `anthropic-beta`, or an `anthropic-version` override)
 * replace ours; the key comes last so no extra header can swap it.
 */
function headersFor(target: ProviderTarget, json: boolean, body?: Json): Record<string, string> {
  const headers = nativeHeaders(target, {
    json,
    keyHeader: 'x-api-key',
    fixed: { 'anthropic-version': ANTHROPIC_VERSION },
  });
  // The caller's betas (`anthropic_beta`, from the `/anthropic` route's `anthropic-beta` header) join the provider's.
  const beta = body?.anthropic_beta;
  if (typeof beta === 'string' && beta !== '') {
    headers['anthropic-beta'] = headers['anthropic-beta'] ? `${headers['anthropic-beta']},${beta}` : beta;
  }
  return headers;
}

const unsupported = (kind: InferenceKind) => unsupportedKind('anthropic', kind);

/** Anthropic Messages API (`POST /v1/messages`, `/v1/messages/count_tokens`, `GET /v1/models`). */
export const anthropicAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['chat', 'count_tokens']),

  defaultBaseUrl: () => ANTHROPIC_DEFAULT_BASE_URL,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const headers = headersFor(target, true, body);
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
    if (kind === 'count_tokens') return { body: inputTokensBody(body.input_tokens) };
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
    const data = jsonObjects(body.data);
    return data.flatMap((m) => {
      if (typeof m.id !== 'string') return [];
      const model: ListedModel = { id: m.id, owned_by: 'anthropic' };
      if (typeof m.display_name === 'string') model.display_name = m.display_name;
      const created = typeof m.created_at === 'string' ? Date.parse(m.created_at) : NaN;
      if (!Number.isNaN(created)) model.created = Math.floor(created / 1000);
      return [model];
    });
  },
};
