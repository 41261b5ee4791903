import { parseCohereError } from './cohere-error.js';
import { toCohereChatBody, toCohereEmbedBody, toCohereRerankBody } from './cohere-chat.js';
import { fromCohereChat, fromCohereEmbed, fromCohereRerank } from './cohere-response.js';
import { CohereStreamDecoder } from './cohere-stream.js';
import { nativeHeaders, unsupportedKind } from '../shared/native-adapter-parts.js';
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
import { jsonObjects, strings } from '../shared/wire-json.js';

export const COHERE_DEFAULT_BASE_URL = 'https://api.cohere.ai';

/** Where each kind goes under the base. */
const PATHS: Partial<Record<InferenceKind, string>> = {
  chat: '/v2/chat',
  embeddings: '/v2/embed',
  rerank: '/v2/rerank',
};

const headersFor = (target: ProviderTarget, call: { json: boolean; stream: boolean }) =>
  nativeHeaders(target, {
    json: call.json,
    keyHeader: 'authorization',
    bearer: true,
    fixed: { accept: call.stream ? 'text/event-stream' : 'application/json' },
  });

const unsupported = (kind: InferenceKind) => unsupportedKind('cohere', kind);

function bodyFor(kind: InferenceKind, body: Json, model: string, stream: boolean): Json {
  switch (kind) {
    case 'chat':
      return toCohereChatBody(body, model, stream);
    case 'embeddings':
      return toCohereEmbedBody(body, model);
    case 'rerank':
      return toCohereRerankBody(body, model);
    case 'completions':
    case 'responses':
    case 'count_tokens':
    case 'speech':
    case 'transcription':
    case 'image_generation':
    case 'image_edit':
    case 'image_variation':
    case 'ocr':
      throw unsupported(kind);
  }
}

/** Cohere v2 (`/v2/chat`, `/v2/embed`, `/v2/rerank`, `GET /v1/models`), Bearer auth. */
export const cohereAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['chat', 'embeddings', 'rerank']),

  defaultBaseUrl: () => COHERE_DEFAULT_BASE_URL,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const path = PATHS[kind];
    if (!path) throw unsupported(kind);
    return {
      method: 'POST',
      url: `${target.baseUrl}${path}`,
      headers: headersFor(target, { json: true, stream }),
      body: JSON.stringify(bodyFor(kind, body, target.model, stream)),
    };
  },

  parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    switch (kind) {
      case 'chat':
        return fromCohereChat(body, target);
      case 'embeddings':
        return fromCohereEmbed(body, target);
      case 'rerank':
        return fromCohereRerank(body, target);
      case 'completions':
      case 'responses':
      case 'count_tokens':
      case 'speech':
      case 'transcription':
      case 'image_generation':
      case 'image_edit':
      case 'image_variation':
      case 'ocr':
        throw unsupported(kind);
    }
  },

  streamDecoder(kind: InferenceKind, target: ProviderTarget): StreamDecoder {
    if (kind !== 'chat') throw unsupported(kind);
    return new CohereStreamDecoder(target);
  },

  parseError: parseCohereError,

  buildListModels(target: ProviderTarget): UpstreamCall {
    return {
      method: 'GET',
      url: `${target.baseUrl}/v1/models`,
      headers: headersFor(target, { json: false, stream: false }),
    };
  },

  parseListModels(body: Json): ListedModel[] {
    return jsonObjects(body.models).flatMap((m) => {
      if (typeof m.name !== 'string') return [];
      const model: ListedModel = { id: m.name, owned_by: 'cohere' };
      if (Array.isArray(m.endpoints)) model.methods = strings(m.endpoints);
      if (typeof m.context_length === 'number') model.input_token_limit = m.context_length;
      return [model];
    });
  },
};
