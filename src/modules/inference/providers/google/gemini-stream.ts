import { geminiErrorOf, geminiStreamError } from './gemini-error.js';
import { geminiFinishReason, geminiSearchCount, geminiUsage, readParts } from './gemini-response.js';
import { bareModel } from './gemini-wire.js';
import type { Json, ProviderError, ProviderTarget, StreamOutput, Usage } from '../shared/provider-adapter.js';
import { TranslatedChatStreamDecoder } from '../shared/translated-chat-stream.js';
import { isJsonObject } from '../shared/wire-json.js';

/**
 * Gemini `streamGenerateContent?alt=sse` → `chat.completion.chunk`s. Every `data:` is a whole GenerateContentResponse
 * and becomes one chunk; there is no terminator, so the stream is complete only if some chunk carried a finishReason
 * (or a prompt block). Usage rides on the chunk that finishes, with the latest usageMetadata seen. An error object in
 * the stream, unreadable JSON or an end without a finish is an error output; nothing is emitted after one.
 */
export class GeminiStreamDecoder extends TranslatedChatStreamDecoder {
  /** Some chunk carried a finishReason (or a prompt block): the stream may end. */
  private finished = false;
  private usageMetadata: unknown;
  private searches = 0;
  private nextCall = 0;
  /** Per candidate: role sent, tool calls streamed so far (the OpenAI `index` of the next one). */
  private readonly candidates = new Map<number, { toolCalls: number }>();

  constructor(target: ProviderTarget) {
    super('gemini', bareModel(target.model));
  }

  protected endedEarly(): ProviderError | undefined {
    if (this.finished) return undefined;
    return { status: 502, reason: 'provider_server_error', message: 'gemini stream ended without a finishReason' };
  }

  protected event(_name: string | undefined, payload: unknown, out: StreamOutput[]): void {
    const error = geminiErrorOf(payload);
    if (error) {
      this.fail(out, geminiStreamError(error));
      return;
    }
    // Without alt=sse Gemini streams one JSON array; tolerate an array in a data line the same way.
    for (const response of Array.isArray(payload) ? (payload as unknown[]) : [payload])
      if (isJsonObject(response)) this.onResponse(response, out);
  }

  private onResponse(response: Json, out: StreamOutput[]): void {
    if (typeof response.responseId === 'string' && !this.id) this.id = response.responseId;
    if (typeof response.modelVersion === 'string') this.model = bareModel(response.modelVersion);
    if (response.usageMetadata !== undefined) this.usageMetadata = response.usageMetadata;
    this.searches = Math.max(this.searches, geminiSearchCount(response.candidates));

    const choices: Json[] = [];
    const candidates = Array.isArray(response.candidates) ? (response.candidates as unknown[]) : [];
    candidates.forEach((raw, i) => {
      if (!isJsonObject(raw)) return;
      const index = typeof raw.index === 'number' ? raw.index : i;
      choices.push(this.choice(index, raw));
    });
    if (choices.length === 0) {
      // A blocked prompt answers with promptFeedback and no candidate; other candidate-less chunks carry only usage.
      if (!isJsonObject(response.promptFeedback) || response.promptFeedback.blockReason === undefined) return;
      choices.push({ index: 0, delta: this.opening(0), finish_reason: 'content_filter' });
    }
    const finishes = choices.some((c) => c.finish_reason !== null);
    if (finishes) this.finished = true;
    out.push(this.chunk(choices, finishes ? geminiUsage(this.usageMetadata, this.searches) : undefined));
  }

  /** The delta of a candidate's first chunk opens the assistant turn. */
  private opening(index: number): Json {
    if (this.candidates.has(index)) return {};
    this.candidates.set(index, { toolCalls: 0 });
    return { role: 'assistant' };
  }

  private choice(index: number, candidate: Json): Json {
    const delta = this.opening(index);
    const state = this.candidates.get(index)!;
    const parts = readParts(candidate);
    if (parts.text.length > 0) delta.content = parts.text.join('');
    if (parts.thoughts.length > 0) delta.reasoning_content = parts.thoughts.join('');
    if (parts.calls.length > 0)
      // Gemini sends each function call whole: id, name and all arguments go in one fragment.
      delta.tool_calls = parts.calls.map((call) => ({
        index: state.toolCalls++,
        id: `call_${this.nextCall++}`,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
    return { index, delta, finish_reason: geminiFinishReason(candidate.finishReason, state.toolCalls > 0) };
  }

  /** The latest usage Gemini reported before failing is what it counted (and may bill). */
  protected override billedUsage(): Usage | undefined {
    return geminiUsage(this.usageMetadata, this.searches);
  }
}
