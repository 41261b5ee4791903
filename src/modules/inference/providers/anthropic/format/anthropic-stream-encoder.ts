import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { Json, Usage } from '../../shared/provider-adapter.js';
import { isJsonObject, jsonObjects } from '../../shared/wire-json.js';
import type { NativeFrame, NativeStreamEncoder } from '../../../formats/native-format.js';
import { anthropicUsageOf, messageIdOf, requestedModel, stopReasonOf, toolInputOf } from './anthropic-answer.js';
import { anthropicErrorBody } from './anthropic-error-shape.js';

type OpenBlock = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; call: number; id: unknown };

const frame = (type: string, data: Json): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * Canonical `chat.completion.chunk`s → Anthropic's Messages events: message_start and ping before the first block,
 * one content block per run of reasoning (thinking_delta, signature_delta), text (text_delta) or tool call
 * (input_json_delta, keyed by the tool call's index), message_delta with the stop reason and the final usage, then
 * message_stop. No `[DONE]`; a failure after the start is one `event: error`.
 */
export class AnthropicStreamEncoder implements NativeStreamEncoder {
  readonly contentType = 'text/event-stream';
  private started = false;
  private index = -1;
  private open: OpenBlock | undefined;
  private finishReason: unknown = null;
  private stopSequence: string | null = null;

  constructor(private readonly model: unknown) {}

  push(chunk: Json, _usage: Usage | undefined, opening?: Usage): NativeFrame[] {
    const out: string[] = [];
    this.start(chunk, out, opening);
    for (const choice of jsonObjects(chunk.choices)) {
      const delta = isJsonObject(choice.delta) ? choice.delta : {};
      this.reasoning(delta, out);
      if (typeof delta.content === 'string' && delta.content) {
        this.openBlock({ kind: 'text' }, { type: 'text', text: '' }, out);
        this.delta({ type: 'text_delta', text: delta.content }, out);
      }
      for (const call of jsonObjects(delta.tool_calls)) this.toolCall(call, out);
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) this.finishReason = choice.finish_reason;
      if (typeof choice.stop_sequence === 'string') this.stopSequence = choice.stop_sequence;
    }
    return out;
  }

  finish(usage: Usage | undefined): NativeFrame[] {
    const out: string[] = [];
    this.start({}, out);
    this.closeBlock(out);
    out.push(
      frame('message_delta', {
        delta: {
          stop_reason: stopReasonOf(this.finishReason ?? 'stop', this.stopSequence),
          stop_sequence: this.stopSequence,
        },
        usage: anthropicUsageOf(usage),
      }),
    );
    out.push(frame('message_stop', {}));
    return out;
  }

  error(response: ErrorResponse): NativeFrame[] {
    return [`event: error\ndata: ${JSON.stringify(anthropicErrorBody(response))}\n\n`];
  }

  /**
   * message_start and ping, once. An Anthropic target (Claude on Bedrock InvokeModel and Vertex too) reports its input
   * and cache tokens in its own message_start (`opening`), repeated here; other targets report usage at the end only,
   * so input 0 and output 1 as Anthropic opens, and the real figures in message_delta.
   */
  private start(chunk: Json, out: string[], opening?: Usage): void {
    if (this.started) return;
    this.started = true;
    const message = {
      id: messageIdOf(chunk.id),
      type: 'message',
      role: 'assistant',
      model: requestedModel(this.model),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: opening
        ? { ...anthropicUsageOf(opening), output_tokens: Math.max(1, opening.completion_tokens) }
        : { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    out.push(frame('message_start', { message }));
    out.push(frame('ping', {}));
  }

  /** reasoning_content → thinking_delta; the Anthropic adapter's `thinking_blocks` add signatures and redactions. */
  private reasoning(delta: Json, out: string[]): void {
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) {
      this.openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' }, out);
      this.delta({ type: 'thinking_delta', thinking: delta.reasoning_content }, out);
    }
    for (const block of jsonObjects(delta.thinking_blocks)) {
      if (block.type === 'redacted_thinking') {
        this.closeBlock(out);
        this.openBlock({ kind: 'thinking' }, { type: 'redacted_thinking', data: block.data }, out);
        this.closeBlock(out);
      } else if (typeof block.signature === 'string' && block.signature) {
        this.openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' }, out);
        this.delta({ type: 'signature_delta', signature: block.signature }, out);
      }
    }
  }

  /** A tool call's first fragment (id and name) opens its tool_use block; later fragments are its input JSON. */
  private toolCall(call: Json, out: string[]): void {
    const index = typeof call.index === 'number' ? call.index : 0;
    const fn = isJsonObject(call.function) ? call.function : {};
    const open = this.open?.kind === 'tool' ? this.open : undefined;
    // Some providers repeat the id on every fragment: only a new index or a new id opens a block.
    if (open?.call !== index || (typeof call.id === 'string' && call.id !== open.id)) {
      const block = { type: 'tool_use', id: call.id, name: fn.name, input: {} };
      this.openBlock({ kind: 'tool', call: index, id: call.id }, block, out);
    }
    const args = fn.arguments;
    // A provider that sends whole arguments as an object (not text) is re-serialised once.
    const text = typeof args === 'string' ? args : isJsonObject(args) ? JSON.stringify(toolInputOf(args)) : '';
    if (text) this.delta({ type: 'input_json_delta', partial_json: text }, out);
  }

  /** Opens a block of `kind` unless one of that kind (text, thinking) is already open. */
  private openBlock(kind: OpenBlock, block: Json, out: string[]): void {
    if (this.open && this.open.kind === kind.kind && kind.kind !== 'tool') return;
    this.closeBlock(out);
    this.index += 1;
    this.open = kind;
    out.push(frame('content_block_start', { index: this.index, content_block: block }));
  }

  private delta(delta: Json, out: string[]): void {
    out.push(frame('content_block_delta', { index: this.index, delta }));
  }

  private closeBlock(out: string[]): void {
    if (!this.open) return;
    out.push(frame('content_block_stop', { index: this.index }));
    this.open = undefined;
  }
}
