import { toAnthropicCountTokensBody, toAnthropicMessagesBody } from '../anthropic/anthropic-messages.js';
import { fromAnthropicMessage } from '../anthropic/anthropic-response.js';
import { AnthropicStreamDecoder } from '../anthropic/anthropic-stream.js';
import { toGeminiGenerateContent, toGeminiPrompt } from './gemini-contents.js';
import { fromGoogleImageAnswer, toGoogleImageCall } from './gemini-image.js';
import { fromGeminiResponse } from './gemini-response.js';
import { GeminiStreamDecoder } from './gemini-stream.js';
import { bareModel } from './gemini-wire.js';
import { inputTokensBody, nativeHeaders, unsupportedKind } from '../shared/native-adapter-parts.js';
import { openAiRequestBody } from '../openai/openai-request.js';
import { parseOpenAiResponse } from '../openai/openai-response.js';
import { OpenAiChatStreamDecoder } from '../openai/openai-stream.js';
import type {
  AdapterIo,
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
import { fromVertexPredictEmbeddings, toVertexPredictEmbeddings } from './vertex-embeddings.js';
import { parseVertexError } from './vertex-error.js';
import {
  openapiChatUrl,
  publisherModelUrl,
  publisherModelsUrl,
  VERTEX_ANTHROPIC_VERSION,
  vertexFamily,
} from './vertex-routes.js';
import { VertexTokenCache } from './vertex-token-cache.js';
import { jsonObjects } from '../shared/wire-json.js';

/** The model Vertex counts Claude tokens with: `publishers/anthropic/models/count-tokens:rawPredict`. */
const CLAUDE_COUNT_TOKENS_MODEL = 'count-tokens';

const unsupported = (kind: InferenceKind, family: string) => unsupportedKind(`vertex (${family} models)`, kind);

/** No key header: `authorize` adds the service account's Bearer token last. */
const headersFor = (target: ProviderTarget, json: boolean) => nativeHeaders(target, { json });

function post(target: ProviderTarget, url: string, body: Json): UpstreamCall {
  return { method: 'POST', url, headers: headersFor(target, true), body: JSON.stringify(body) };
}

/** The Anthropic body as Vertex takes it: the model is in the URL, the API version in the body. */
function vertexAnthropicBody(anthropicBody: Json): Json {
  const { model: _model, ...rest } = anthropicBody;
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
}

/** Claude: rawPredict / streamRawPredict on the model, count_tokens on Vertex's `count-tokens` model. */
function claudeCall(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
  const model = target.model;
  if (kind === 'chat') {
    const method = stream ? 'streamRawPredict' : 'rawPredict';
    const translated = vertexAnthropicBody(toAnthropicMessagesBody({ ...body, model }, stream));
    return post(target, publisherModelUrl(target, 'anthropic', model, method), translated);
  }
  if (kind === 'count_tokens') {
    const translated = {
      ...toAnthropicCountTokensBody({ ...body, model }),
      anthropic_version: VERTEX_ANTHROPIC_VERSION,
    };
    return post(target, publisherModelUrl(target, 'anthropic', CLAUDE_COUNT_TOKENS_MODEL, 'rawPredict'), translated);
  }
  throw unsupported(kind, 'anthropic');
}

/** Gemini and Google's other models: the Gemini API bodies on the publisher model's methods. */
function geminiCall(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
  const url = (method: string) => publisherModelUrl(target, 'google', bareModel(target.model), method);
  switch (kind) {
    case 'chat':
      return stream
        ? post(target, `${url('streamGenerateContent')}?alt=sse`, toGeminiGenerateContent(body))
        : post(target, url('generateContent'), toGeminiGenerateContent(body));
    case 'embeddings':
      return post(target, url('predict'), toVertexPredictEmbeddings(body));
    case 'count_tokens': {
      // Vertex's countTokens takes the prompt at the top level (no `generateContentRequest` wrapper, no `model`).
      const { contents, systemInstruction, tools } = toGeminiPrompt(body);
      const counted: Json = { contents };
      if (systemInstruction) counted.systemInstruction = systemInstruction;
      if (tools) counted.tools = tools;
      return post(target, url('countTokens'), counted);
    }
    case 'image_generation': {
      const call = toGoogleImageCall(body, target.model);
      return post(target, url(call.method), call.body);
    }
    case 'completions':
    case 'responses':
    case 'rerank':
    case 'speech':
    case 'transcription':
    case 'image_edit':
    case 'image_variation':
    case 'ocr':
      throw unsupported(kind, 'gemini');
  }
}

/**
 * Google Vertex AI: Gemini, Claude and the OpenAI-compatible MaaS models behind one provider id (the model name
 * picks the family, see `vertex-routes.ts`), on the key's project and region, with an OAuth access token from the
 * key's service-account JSON (JWT-bearer grant, cached per key; `vertex-token-cache.ts`).
 *
 * - Gemini: generateContent / streamGenerateContent?alt=sse / countTokens, the Gemini adapter's bodies and parsers;
 *   embeddings through `:predict`; images through Imagen's `:predict` or a Gemini image model (`gemini-image.ts`).
 * - Claude: rawPredict / streamRawPredict with the Anthropic adapter's bodies, answers and streams; count_tokens
 *   through `count-tokens:rawPredict`.
 * - MaaS: `endpoints/openapi/chat/completions` with the OpenAI body and parsers.
 * - A provider 401/403 drops every cached token (the answer does not say whose), so the next call exchanges again.
 */
export class VertexAdapter implements ProviderAdapter {
  readonly kinds: ReadonlySet<InferenceKind> = new Set<InferenceKind>([
    'chat',
    'embeddings',
    'count_tokens',
    'image_generation',
  ]);

  constructor(readonly tokens: VertexTokenCache = new VertexTokenCache()) {}

  /** The host depends on the key's region, so it is chosen per call (`vertex-routes.ts`). */
  defaultBaseUrl(): string | undefined {
    return undefined;
  }

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    switch (vertexFamily(target.model)) {
      case 'anthropic':
        return claudeCall(kind, body, target, stream);
      case 'openapi':
        if (kind !== 'chat') throw unsupported(kind, 'openapi');
        return post(target, openapiChatUrl(target), openAiRequestBody('chat', body, target.model, stream));
      case 'gemini':
        return geminiCall(kind, body, target, stream);
    }
  }

  async authorize(call: UpstreamCall, target: ProviderTarget, io: AdapterIo): Promise<UpstreamCall> {
    const token = await this.tokens.token(target.key, io);
    return { ...call, headers: { ...call.headers, authorization: `Bearer ${token}` } };
  }

  parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    const family = vertexFamily(target.model);
    if (family === 'anthropic') {
      if (kind === 'chat') return fromAnthropicMessage(body, target);
      if (kind === 'count_tokens') return { body: inputTokensBody(body.input_tokens) };
      throw unsupported(kind, family);
    }
    if (family === 'openapi') return parseOpenAiResponse(kind, body);
    switch (kind) {
      case 'chat':
        return fromGeminiResponse(body, target);
      case 'embeddings':
        return fromVertexPredictEmbeddings(body, target);
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
        throw unsupported(kind, family);
    }
  }

  streamDecoder(kind: InferenceKind, target: ProviderTarget): StreamDecoder {
    const family = vertexFamily(target.model);
    if (kind !== 'chat') throw unsupported(kind, family);
    if (family === 'anthropic') return new AnthropicStreamDecoder(target);
    if (family === 'openapi') return new OpenAiChatStreamDecoder({});
    return new GeminiStreamDecoder(target);
  }

  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError {
    if (status === 401 || status === 403) this.tokens.evictAll();
    return parseVertexError(status, headers, body);
  }

  /** Google's publisher catalogue: the Gemini models every project can call (Claude and MaaS need enabling). */
  buildListModels(target: ProviderTarget): UpstreamCall {
    return { method: 'GET', url: publisherModelsUrl(target), headers: headersFor(target, false) };
  }

  parseListModels(body: Json): ListedModel[] {
    return jsonObjects(body.publisherModels).flatMap((m) => {
      if (typeof m.name !== 'string') return [];
      const id = m.name.slice(m.name.lastIndexOf('/') + 1);
      return id ? [{ id, owned_by: 'google' }] : [];
    });
  }
}
