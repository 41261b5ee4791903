import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { Json, Usage } from '../../shared/provider-adapter.js';
import { isJsonObject, jsonObjects } from '../../shared/wire-json.js';
import type { NativeFrame, NativeStreamEncoder } from '../../../formats/native-format.js';
import { genaiErrorBody } from './genai-error.js';
import { genaiFinishReason, genaiParts, usageMetadata } from './genai-response.js';

/** A tool call being streamed: OpenAI sends its arguments in pieces, Gemini each functionCall whole. */
interface OpenCall {
  name: unknown;
  arguments: string;
}

/** One candidate's state across chunks. */
class CandidateState {
  /** Tool calls by their OpenAI index, until sent. */
  readonly calls = new Map<number, OpenCall>();
  finishReason: string | undefined;
  /** Parts withheld for the last event (the finishing candidate goes out with the usage). */
  readonly held: Json[] = [];
}

/**
 * `chat.completion.chunk`s → `streamGenerateContent` events: each chunk with something to say becomes one whole
 * GenerateContentResponse (text and thought deltas as parts; a tool call once its arguments are complete, that is
 * when the next call starts or the candidate finishes). The finishing candidates, `finishReason` and `usageMetadata`
 * ride on the last event, as Gemini sends them. With `alt=sse` each event is a `data:` line (no event names, no
 * terminator); without it the events are the elements of one streamed JSON array.
 */
export class GenaiStreamEncoder implements NativeStreamEncoder {
  readonly contentType: string;
  private readonly candidates = new Map<number, CandidateState>();
  private model: string | undefined;
  private responseId: string | undefined;
  private sent = 0;

  constructor(private readonly sse: boolean) {
    this.contentType = sse ? 'text/event-stream' : 'application/json; charset=UTF-8';
  }

  push(chunk: Json): NativeFrame[] {
    if (typeof chunk.model === 'string') this.model = chunk.model;
    if (typeof chunk.id === 'string' && chunk.id !== '') this.responseId ??= chunk.id;
    const candidates: Json[] = [];
    for (const choice of jsonObjects(chunk.choices)) {
      const index = typeof choice.index === 'number' ? choice.index : 0;
      const state = this.stateOf(index);
      const delta = isJsonObject(choice.delta) ? choice.delta : {};
      const parts = genaiParts(delta.reasoning_content, delta.content, this.completedCalls(state, delta.tool_calls));
      const finish = genaiFinishReason(choice.finish_reason);
      if (finish) {
        state.finishReason = finish;
        parts.push(...this.drain(state));
        state.held.push(...parts);
      } else if (parts.length > 0) candidates.push({ content: { role: 'model', parts }, index });
    }
    return candidates.length > 0 ? [this.frame({ candidates })] : [];
  }

  finish(usage: Usage | undefined): NativeFrame[] {
    const candidates = [...this.candidates].map(([index, state]) => {
      const parts = [...state.held, ...this.drain(state)];
      const candidate: Json = { content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] } };
      candidate.finishReason = state.finishReason ?? 'STOP';
      candidate.index = index;
      return candidate;
    });
    const last: Json = { candidates };
    if (usage) last.usageMetadata = usageMetadata(usage);
    return [this.frame(last), ...this.close()];
  }

  error(response: ErrorResponse): NativeFrame[] {
    const error = genaiErrorBody(response);
    return [this.sse ? `data: ${JSON.stringify(error)}\r\n\r\n` : this.element(error), ...this.close()];
  }

  private stateOf(index: number): CandidateState {
    let state = this.candidates.get(index);
    if (!state) {
      state = new CandidateState();
      this.candidates.set(index, state);
    }
    return state;
  }

  /** Adds the deltas' fragments; returns the calls a newer call has closed. */
  private completedCalls(state: CandidateState, toolCalls: unknown): OpenCall[] {
    const done: OpenCall[] = [];
    for (const fragment of jsonObjects(toolCalls)) {
      const index = typeof fragment.index === 'number' ? fragment.index : state.calls.size;
      const fn = isJsonObject(fragment.function) ? fragment.function : {};
      let call = state.calls.get(index);
      if (!call) {
        // A new call: every earlier one of this candidate is complete.
        for (const [k, open] of state.calls) {
          if (k < index) {
            done.push(open);
            state.calls.delete(k);
          }
        }
        call = { name: fn.name, arguments: '' };
        state.calls.set(index, call);
      }
      if (typeof fn.name === 'string' && fn.name !== '') call.name = fn.name;
      if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    }
    return done;
  }

  /** Every call still open, as parts (the candidate finished). */
  private drain(state: CandidateState): Json[] {
    const calls = [...state.calls.values()];
    state.calls.clear();
    return genaiParts(undefined, undefined, calls);
  }

  private frame(event: Json): string {
    if (this.model !== undefined) event.modelVersion = this.model;
    if (this.responseId !== undefined) event.responseId = this.responseId;
    return this.sse ? `data: ${JSON.stringify(event)}\r\n\r\n` : this.element(event);
  }

  /** One element of the streamed JSON array (the opening bracket with the first). */
  private element(value: Json): string {
    return `${this.sent++ === 0 ? '[' : ',\r\n'}${JSON.stringify(value)}`;
  }

  private close(): string[] {
    if (this.sse) return [];
    return [this.sent === 0 ? '[]' : ']'];
  }
}
