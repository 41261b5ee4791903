import { openAiErrorFields, openAiStreamError, truncatedStreamError } from './openai-error.js';
import { usageFromOpenAi, usageFromResponses } from './openai-usage.js';
import type { Json, ProviderError, StreamOutput } from '../shared/provider-adapter.js';
import type { SseMessage } from '../../../../core/http/sse/sse-parser.js';
import { SseStreamDecoder } from '../shared/sse-stream-decoder.js';
import { asArray, asObject, parseJson } from '../shared/wire-json.js';

const parseData = (data: string): Json | undefined => asObject(parseJson(data));

/**
 * Whether a parsed chunk without usage or error can go to the caller byte for byte: no `usage` key other than
 * OpenAI's compact `"usage":null` (the writer may cut that out). Inside JSON strings a quote is escaped, so the marker
 * cannot come from content.
 */
function relayable(data: string): boolean {
  return !data.includes('"usage"') || data.includes('"usage":null');
}

/** A member that needs reading: usage other than OpenAI's `"usage":null`, an error, Groq's `x_groq` (usage). */
const NEEDS_READING = /"(?:usage"(?!:null)|error"|x_groq")/;

/**
 * Whether a chunk's text can be relayed without parsing it: a whole JSON object by its ends (an event cut short fails
 * this) without any member that needs reading. As above, the markers cannot come from escaped content. Most chunks
 * of a stream are these; the caller's SDK parses them anyway, and parsing each here too was the largest single cost
 * of relaying a stream.
 */
function plainChunk(data: string): boolean {
  return data.charCodeAt(0) === 123 && data.charCodeAt(data.length - 1) === 125 && !NEEDS_READING.test(data);
}

/** Parses of relayed chunks that were asked for, kept off the chunk itself (whose own members are its wire form). */
const relayedParses = new WeakMap<RelayedChunk, Json>();

/** A chunk relayed as sent; parsed only if something asks for it (the Responses bridge). */
class RelayedChunk {
  readonly kind = 'chunk' as const;

  constructor(readonly raw: string) {}

  get chunk(): Json {
    let parsed = relayedParses.get(this);
    if (!parsed) {
      parsed = parseData(this.raw) ?? {};
      relayedParses.set(this, parsed);
    }
    return parsed;
  }
}

const UNREADABLE: ProviderError = {
  status: 502,
  message: 'The provider sent a stream event that is not a JSON object',
  reason: 'provider_server_error',
};

/** The OpenAI family's streams end with a named terminator; ending without it is a truncation. */
abstract class OpenAiFamilyStreamDecoder extends SseStreamDecoder {
  /** Name of the terminator, for the truncation message. */
  protected abstract readonly terminator: string;

  protected endedEarly(): ProviderError | undefined {
    return this.completeWithoutTerminator() ? undefined : truncatedStreamError(this.terminator);
  }

  /** Whether a stream that ended without its terminator still delivered everything (a provider quirk). */
  protected completeWithoutTerminator(): boolean {
    return false;
  }
}

export interface ChatStreamOptions {
  /**
   * Accept a stream that ends without `data: [DONE]` once every choice has finished and usage has arrived (for a
   * provider that omits the terminator). Off by default: a missing `[DONE]` means the stream was cut.
   */
  endsAfterFinish?: boolean;
}

/**
 * `chat.completion.chunk` and `text_completion` streams: `data: {…}` events ended by `data: [DONE]`. An in-stream
 * `{"error": {…}}` is an error output; a chunk's usage (OpenAI's final `choices: []` chunk, Groq's `x_groq.usage`,
 * Perplexity's usage on every chunk) comes as contract Usage beside the untouched chunk.
 */
export class OpenAiChatStreamDecoder extends OpenAiFamilyStreamDecoder {
  protected readonly terminator = 'data: [DONE]';
  private finished = false;
  private sawUsage = false;

  constructor(private readonly options: ChatStreamOptions = {}) {
    super();
  }

  protected message(message: SseMessage, out: StreamOutput[], flushed: boolean): void {
    const data = message.data.trim();
    if (data === '[DONE]') {
      this.closed = true;
      return;
    }
    if (data === '') return;
    // Read in full: an unterminated tail (a stream cut mid-event) and, for a provider that may omit [DONE], every
    // chunk (its finish reasons tell whether the stream was complete).
    if (!flushed && message.event !== 'error' && !this.options.endsAfterFinish && plainChunk(data)) {
      out.push(new RelayedChunk(data));
      return;
    }
    const chunk = parseData(data);
    if (!chunk) return this.fail(out, { ...UNREADABLE });
    if ((chunk.error !== undefined && chunk.error !== null) || message.event === 'error') {
      return this.fail(out, openAiStreamError(openAiErrorFields(chunk)));
    }
    const usage = usageFromOpenAi(chunk.usage) ?? usageFromOpenAi(asObject(chunk.x_groq)?.usage);
    const choices = asArray(chunk.choices) ?? [];
    if (choices.some((c) => asObject(c)?.finish_reason)) this.finished = true;
    if (usage) {
      this.sawUsage = true;
      out.push({ kind: 'chunk', chunk, usage });
    } else if (relayable(data)) {
      // Parsed to be sure it is whole and readable, but relayed as sent: no re-serialisation per chunk.
      out.push({ kind: 'chunk', chunk, raw: data });
    } else {
      out.push({ kind: 'chunk', chunk });
    }
  }

  protected override completeWithoutTerminator(): boolean {
    return !!this.options.endsAfterFinish && this.finished && this.sawUsage;
  }
}

const RESPONSES_TERMINAL = new Set(['response.completed', 'response.incomplete']);

/**
 * Responses API streams: typed `event:`/`data:` pairs, no `[DONE]`. `response.completed` and `response.incomplete`
 * end the stream (with usage); `response.failed` and `error` are error outputs (a failed response's usage is billed).
 */
export class OpenAiResponsesStreamDecoder extends OpenAiFamilyStreamDecoder {
  protected readonly terminator = 'response.completed';

  protected message(message: SseMessage, out: StreamOutput[]): void {
    const data = parseData(message.data);
    if (!data) {
      // A keep-alive without data is harmless; anything else unreadable is not.
      if (message.data.trim() === '' || message.data.trim() === '[DONE]') return;
      return this.fail(out, { ...UNREADABLE });
    }
    const event = message.event ?? (typeof data.type === 'string' ? data.type : 'message');
    if (event === 'error') {
      // `type` of the event itself is "error"; the error's own fields are beside it (or under `error`).
      const { type: _eventType, ...fields } = data;
      return this.fail(out, openAiStreamError(openAiErrorFields({ error: asObject(data.error) ?? fields })));
    }
    const response = asObject(data.response);
    if (event === 'response.failed') {
      const error = openAiStreamError(openAiErrorFields({ error: asObject(response?.error) ?? {} }));
      const billed = usageFromResponses(response?.usage, response?.output);
      if (billed) error.billedUsage = billed;
      return this.fail(out, error);
    }
    if (RESPONSES_TERMINAL.has(event)) {
      this.closed = true;
      const usage = usageFromResponses(response?.usage, response?.output);
      out.push(usage ? { kind: 'event', event, data, usage } : { kind: 'event', event, data });
      return;
    }
    out.push({ kind: 'event', event, data });
  }
}

/**
 * Speech with `stream_format: "sse"`: `data: {"type": "speech.audio.delta", "audio": <base64>}` events ended by
 * `speech.audio.done`, which carries the usage (`input_tokens`, `output_tokens`, `total_tokens`). No `[DONE]`.
 */
export class OpenAiSpeechStreamDecoder extends OpenAiFamilyStreamDecoder {
  protected readonly terminator = 'speech.audio.done';

  protected message(message: SseMessage, out: StreamOutput[]): void {
    const data = parseData(message.data);
    if (!data) {
      if (message.data.trim() === '') return;
      return this.fail(out, { ...UNREADABLE });
    }
    const event = message.event ?? (typeof data.type === 'string' ? data.type : 'message');
    if (event === 'error' || data.error !== undefined) {
      const { type: _eventType, ...fields } = data;
      return this.fail(out, openAiStreamError(openAiErrorFields({ error: asObject(data.error) ?? fields })));
    }
    if (event === 'speech.audio.done') {
      this.closed = true;
      const usage = usageFromResponses(data.usage);
      out.push(usage ? { kind: 'event', event, data, usage } : { kind: 'event', event, data });
      return;
    }
    out.push({ kind: 'event', event, data });
  }
}
