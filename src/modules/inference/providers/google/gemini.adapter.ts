import { toGeminiCountTokens, toGeminiGenerateContent } from './gemini-contents.js';
import { fromGeminiEmbeddings, toGeminiEmbeddings } from './gemini-embeddings.js';
import { parseGeminiError } from './gemini-error.js';
import { fromGoogleImageAnswer, toGoogleImageCall } from './gemini-image.js';
import { fromGeminiResponse } from './gemini-response.js';
import { GeminiStreamDecoder } from './gemini-stream.js';
import { bareModel, geminiModelPath } from './gemini-wire.js';
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
import { jsonObjects, strings } from '../shared/wire-json.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
/** The API's page maximum: one call lists every model. */
const LIST_MODELS_PAGE_SIZE = 1000;

/** Extra headers replace ours; the key comes last so none can swap it. */
function headersFor(target: ProviderTarget, json: boolean): Record<string, string> {
  return nativeHeaders(target, { json, keyHeader: 'x-goog-api-key' });
}

function post(target: ProviderTarget, method: string, body: Json, query = ''): UpstreamCall {
  return {
    method: 'POST',
    url: `${target.baseUrl}/v1beta/${geminiModelPath(target.model)}:${method}${query}`,
    headers: headersFor(target, true),
    body: JSON.stringify(body),
  };
}

const unsupported = (kind: InferenceKind) => unsupportedKind('gemini', kind);

/**
 * Gemini API (generativelanguage.googleapis.com v1beta): generateContent, embeddings, countTokens, models, and image
 * generation (Imagen `:predict`, Gemini image models' `:generateContent`; `gemini-image.ts`).
 */
export const geminiAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['chat', 'embeddings', 'count_tokens', 'image_generation']),

  defaultBaseUrl: () => GEMINI_DEFAULT_BASE_URL,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    switch (kind) {
      case 'chat':
        return stream
          ? post(target, 'streamGenerateContent', toGeminiGenerateContent(body), '?alt=sse')
          : post(target, 'generateContent', toGeminiGenerateContent(body));
      case 'embeddings': {
        const call = toGeminiEmbeddings(body, target.model);
        return post(target, call.method, call.body);
      }
      case 'count_tokens':
        return post(target, 'countTokens', toGeminiCountTokens(body, target.model));
      case 'image_generation': {
        const call = toGoogleImageCall(body, target.model);
        return post(target, call.method, call.body);
      }
      case 'completions':
      case 'responses':
      case 'rerank':
      case 'speech':
      case 'transcription':
      case 'image_edit':
      case 'image_variation':
      case 'ocr':
        throw unsupported(kind);
    }
  },

  parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    switch (kind) {
      case 'chat':
        return fromGeminiResponse(body, target);
      case 'embeddings':
        return fromGeminiEmbeddings(body, target);
      case 'count_tokens':
        return { body: inputTokensBody(body.totalTokens) };
      case 'image_generation':
        return fromGoogleImageAnswer(body, target.model);
      case 'completions':
      case 'responses':
      case 'rerank':
      case 'speech':
      case 'transcription':
      case 'image_edit':
      case 'image_variation':
      case 'ocr':
        throw unsupported(kind);
    }
  },

  streamDecoder(kind: InferenceKind, target: ProviderTarget): StreamDecoder {
    if (kind !== 'chat') throw unsupported(kind);
    return new GeminiStreamDecoder(target);
  },

  parseError: parseGeminiError,

  buildListModels(target: ProviderTarget): UpstreamCall {
    return {
      method: 'GET',
      url: `${target.baseUrl}/v1beta/models?pageSize=${LIST_MODELS_PAGE_SIZE}`,
      headers: headersFor(target, false),
    };
  },

  parseListModels(body: Json): ListedModel[] {
    return jsonObjects(body.models).flatMap((m) => {
      if (typeof m.name !== 'string') return [];
      const model: ListedModel = { id: bareModel(m.name), owned_by: 'google' };
      if (typeof m.displayName === 'string') model.display_name = m.displayName;
      if (Array.isArray(m.supportedGenerationMethods)) model.methods = strings(m.supportedGenerationMethods);
      if (typeof m.inputTokenLimit === 'number') model.input_token_limit = m.inputTokenLimit;
      if (typeof m.outputTokenLimit === 'number') model.output_token_limit = m.outputTokenLimit;
      return [model];
    });
  },
};
