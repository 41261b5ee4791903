import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../provider-ids.js';
import {
  chatToResponsesRequest,
  ResponsesAsChatStreamDecoder,
  responsesToChatResponse,
} from '../../translation/responses-bridge.js';
import { anthropicAdapter } from '../anthropic/anthropic.adapter.js';
import { geminiAdapter } from '../google/gemini.adapter.js';
import { OpenAiCompatibleAdapter } from './openai-compatible.adapter.js';
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
import { isJsonObject, parseJson } from '../shared/wire-json.js';

type OpenCodeId = Extract<ProviderId, 'opencode-zen' | 'opencode-go'>;

/** The wire format a model is served in. */
type Route = 'responses' | 'anthropic' | 'gemini' | 'chat';

/** Model-name prefixes and their wire format, first match wins; any other model is a chat completion. */
const ROUTES: Readonly<Record<OpenCodeId, ReadonlyArray<readonly [string, Route]>>> = {
  'opencode-zen': [
    ['gpt-', 'responses'],
    ['claude-', 'anthropic'],
    ['qwen', 'anthropic'],
    ['gemini-', 'gemini'],
  ],
  // OpenCode Go also serves MiniMax models through its Anthropic surface.
  'opencode-go': [
    ['gpt-', 'responses'],
    ['claude-', 'anthropic'],
    ['gemini-', 'gemini'],
    ['qwen', 'anthropic'],
    ['minimax-', 'anthropic'],
  ],
};

const BASE_URLS: Readonly<Record<OpenCodeId, string>> = {
  'opencode-zen': 'https://opencode.ai/zen',
  'opencode-go': 'https://opencode.ai/zen/go',
};

/** The wire format OpenCode serves `model` in. */
export function openCodeRoute(provider: OpenCodeId, model: string): Route {
  const name = model.trim().toLowerCase();
  return ROUTES[provider].find(([prefix]) => name.startsWith(prefix))?.[1] ?? 'chat';
}

/**
 * OpenCode Zen and OpenCode Go: one key and one host (`https://opencode.ai/zen`, `…/zen/go`), each model family in
 * its own wire format, so every call is delegated by model to the adapter of that format:
 *
 * - `gpt-*` → OpenAI Responses `{base}/v1/responses` (Bearer); a chat request is sent as a Responses request and
 *   its answer (unary or streamed) comes back as a chat completion (`translation/responses-bridge.ts`);
 * - `claude-*`, `qwen*` (and on Go `minimax-*`) → Anthropic Messages `{base}/v1/messages` (`x-api-key`);
 * - `gemini-*` → Gemini `{base}/v1/models/{model}:generateContent` (`x-goog-api-key`);
 * - any other model → OpenAI chat completions `{base}/v1/chat/completions` (Bearer).
 *
 * A Responses request to a model of the last three is bridged by the router through chat (`bridgesResponses`).
 */
export class OpenCodeAdapter implements ProviderAdapter {
  readonly kinds: ReadonlySet<InferenceKind> = new Set<InferenceKind>(['chat', 'responses']);
  private readonly openai: OpenAiCompatibleAdapter;

  constructor(private readonly provider: OpenCodeId) {
    this.openai = new OpenAiCompatibleAdapter(provider, {
      requiredPrefix: '/v1',
      auth: 'bearer',
      kinds: ['chat', 'responses'],
    });
  }

  defaultBaseUrl(): string {
    return BASE_URLS[this.provider];
  }

  bridgesResponses(model: string): boolean {
    return openCodeRoute(this.provider, model) !== 'responses';
  }

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const route = openCodeRoute(this.provider, target.model);
    if (kind === 'responses' && route !== 'responses') throw this.wrongSurface(route, target.model);
    if (kind === 'chat' && route === 'responses') {
      return this.openai.buildRequest('responses', chatToResponsesRequest(body), target, stream);
    }
    const call = this.delegate(route).buildRequest(kind, body, target, stream);
    if (route !== 'gemini') return call;
    // OpenCode's Gemini surface is versioned v1, where Google's own API is v1beta.
    const base = target.baseUrl.replace(/\/+$/, '');
    return { ...call, url: call.url.replace(`${base}/v1beta/`, `${base}/v1/`) };
  }

  parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    const route = openCodeRoute(this.provider, target.model);
    if (kind === 'chat' && route === 'responses') {
      const parsed = this.openai.parseResponse('responses', body, target);
      return { ...parsed, body: responsesToChatResponse(parsed.body, parsed.usage) };
    }
    return this.delegate(route).parseResponse(kind, body, target);
  }

  streamDecoder(kind: InferenceKind, target: ProviderTarget): StreamDecoder {
    const route = openCodeRoute(this.provider, target.model);
    if (kind === 'chat' && route === 'responses') {
      return new ResponsesAsChatStreamDecoder(this.openai.streamDecoder('responses', target), target.model);
    }
    return this.delegate(route).streamDecoder(kind, target);
  }

  /** The error body says which surface answered: Anthropic's `{type: "error"}`, Gemini's `error.status`, or OpenAI's. */
  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError {
    const parsed = parseJson(body);
    if (isJsonObject(parsed)) {
      if (parsed.type === 'error') return anthropicAdapter.parseError(status, headers, body);
      if (isJsonObject(parsed.error) && typeof parsed.error.status === 'string') {
        return geminiAdapter.parseError(status, headers, body);
      }
    }
    return this.openai.parseError(status, headers, body);
  }

  buildListModels(target: ProviderTarget): UpstreamCall {
    return this.openai.buildListModels(target);
  }

  parseListModels(body: Json): ListedModel[] {
    return this.openai.parseListModels(body);
  }

  private delegate(route: Route): ProviderAdapter {
    if (route === 'anthropic') return anthropicAdapter;
    if (route === 'gemini') return geminiAdapter;
    return this.openai;
  }

  /**
   * A Responses request reaches a model of another surface only through a key alias naming a model of another
   * family than the name asked for (the router decides the bridge per key); such an alias cannot be served.
   */
  private wrongSurface(route: Route, model: string): GatewayException {
    return new GatewayException(
      400,
      'unsupported_operation',
      `${this.provider} serves ${model} through its ${route} surface: a Responses request cannot reach it through ` +
        'a key alias of another model family; send the model by its own name',
      { param: 'model', reason: 'caller_invalid_request' },
    );
  }
}
