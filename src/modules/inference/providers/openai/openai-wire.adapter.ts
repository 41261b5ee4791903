import { parseMediaAnswer } from '../../media/media-answer.js';
import { parseOpenAiError } from './openai-error.js';
import { parseOpenAiModelList, parseOpenAiResponse } from './openai-response.js';
import {
  type ChatStreamOptions,
  OpenAiChatStreamDecoder,
  OpenAiResponsesStreamDecoder,
  OpenAiSpeechStreamDecoder,
} from './openai-stream.js';
import type {
  InferenceKind,
  Json,
  ListedModel,
  MediaAnswer,
  ParsedResponse,
  ProviderAdapter,
  ProviderError,
  ProviderTarget,
  StreamDecoder,
  UpstreamCall,
} from '../shared/provider-adapter.js';

const SPEECH: ReadonlySet<InferenceKind> = new Set(['speech']);
const NONE: ReadonlySet<InferenceKind> = new Set();

/**
 * The OpenAI wire format (the OpenAI-compatible providers and Azure OpenAI): bodies, streams, errors and model lists
 * are read the same way; where a call goes and how it carries the key is each adapter's own.
 */
export abstract class OpenAiWireAdapter implements ProviderAdapter {
  abstract readonly kinds: ReadonlySet<InferenceKind>;
  abstract defaultBaseUrl(): string | undefined;
  abstract buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall;
  abstract buildListModels(target: ProviderTarget): UpstreamCall;

  parseResponse(kind: InferenceKind, body: Json, _target: ProviderTarget): ParsedResponse {
    return parseOpenAiResponse(kind, body);
  }

  parseMediaResponse(kind: InferenceKind, answer: MediaAnswer, target: ProviderTarget): ParsedResponse {
    return parseMediaAnswer(kind, answer, (body) => this.parseResponse(kind, body, target));
  }

  /** Speech streams as OpenAI's `stream_format: "sse"` events wherever the provider serves speech. */
  get mediaStreams(): ReadonlySet<InferenceKind> {
    return this.kinds.has('speech') ? SPEECH : NONE;
  }

  streamDecoder(kind: InferenceKind, _target?: ProviderTarget): StreamDecoder {
    if (kind === 'responses') return new OpenAiResponsesStreamDecoder();
    if (kind === 'speech') return new OpenAiSpeechStreamDecoder();
    return new OpenAiChatStreamDecoder(this.chatStreamOptions());
  }

  /** Errors are OpenAI's shapes (`retry-after-ms` included), e.g. Azure's `{ error: { code: "content_filter" } }`. */
  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError {
    return parseOpenAiError(status, headers, body);
  }

  parseListModels(body: Json): ListedModel[] {
    return parseOpenAiModelList(body);
  }

  /** Chat and completions stream quirks of the provider; none by default. */
  protected chatStreamOptions(): ChatStreamOptions {
    return {};
  }
}
