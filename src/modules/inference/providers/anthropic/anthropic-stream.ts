import { anthropicStreamError } from './anthropic-error.js';
import {
  type AnthropicUsageCounts,
  anthropicFinishReason,
  anthropicUsage,
  maxAnthropicUsage,
  readAnthropicUsage,
} from './anthropic-response.js';
import type { Json, ProviderError, ProviderTarget, StreamOutput, Usage } from '../shared/provider-adapter.js';
import { TranslatedChatStreamDecoder } from '../shared/translated-chat-stream.js';
import { isJsonObject } from '../shared/wire-json.js';

/** A client tool_use block being streamed: its OpenAI tool-call index and whether any argument text came. */
interface OpenToolCall {
  index: number;
  sawArguments: boolean;
}

/**
 * Anthropic Messages SSE → `chat.completion.chunk`s. message_start opens the assistant turn, content deltas become
 * content / tool-call argument / reasoning deltas, message_delta holds the finish reason and cumulative usage, and
 * message_stop (the only terminator) emits the finish chunk carrying the final usage. `event: error` and a stream cut
 * before message_stop are error outputs; nothing is emitted after either.
 */
export class AnthropicStreamDecoder extends TranslatedChatStreamDecoder {
  private started = false;
  private usage: AnthropicUsageCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, webSearch: 0 };
  private finishReason: string | null = null;
  private stopSequence: string | undefined;
  /** Content-block index → open client tool call; server tools (web search) are not the caller's tool calls. */
  private readonly toolCalls = new Map<number, OpenToolCall>();

  constructor(target: ProviderTarget) {
    super('anthropic', target.model);
  }

  protected endedEarly(): ProviderError {
    return { status: 502, reason: 'provider_server_error', message: 'anthropic stream ended before message_stop' };
  }

  protected event(event: string | undefined, payload: unknown, out: StreamOutput[]): void {
    if (!isJsonObject(payload)) return;
    const type = typeof payload.type === 'string' ? payload.type : (event ?? '');
    switch (type) {
      case 'message_start':
        this.onMessageStart(payload.message, out);
        break;
      case 'content_block_start':
        this.onBlockStart(payload, out);
        break;
      case 'content_block_delta':
        this.onBlockDelta(payload, out);
        break;
      case 'content_block_stop': {
        // A tool without arguments streams no (or only empty) input_json_delta; '{}' keeps the arguments valid JSON.
        const call = this.toolCalls.get(Number(payload.index));
        if (call && !call.sawArguments)
          out.push(this.delta({ tool_calls: [{ index: call.index, function: { arguments: '{}' } }] }));
        break;
      }
      case 'message_delta':
        this.usage = maxAnthropicUsage(this.usage, readAnthropicUsage(payload.usage));
        if (isJsonObject(payload.delta) && payload.delta.stop_reason !== undefined)
          this.finishReason = anthropicFinishReason(payload.delta.stop_reason);
        if (isJsonObject(payload.delta) && typeof payload.delta.stop_sequence === 'string')
          this.stopSequence = payload.delta.stop_sequence;
        break;
      case 'message_stop': {
        this.closed = true;
        const finish = this.delta({}, this.finishReason ?? 'stop', anthropicUsage(this.usage));
        // The stop sequence that ended the answer, for the /anthropic format's message_delta.
        if (this.stopSequence !== undefined && finish.kind === 'chunk')
          for (const choice of finish.chunk.choices as Json[]) choice.stop_sequence = this.stopSequence;
        out.push(finish);
        break;
      }
      case 'error':
        this.fail(out, anthropicStreamError(payload.error));
        break;
      default:
        // ping and event types added after this adapter was written.
        break;
    }
  }

  private onMessageStart(message: unknown, out: StreamOutput[]): void {
    const m = isJsonObject(message) ? message : {};
    if (typeof m.id === 'string') this.id = m.id;
    if (typeof m.model === 'string') this.model = m.model;
    this.usage = maxAnthropicUsage(this.usage, readAnthropicUsage(m.usage));
    this.started = true;
    const opening = this.delta({ role: 'assistant', content: '' });
    // Anthropic counts the input (and cache) tokens up front, for the `/anthropic` format's own message_start.
    if (isJsonObject(m.usage) && opening.kind === 'chunk') opening.opening = anthropicUsage(this.usage);
    out.push(opening);
  }

  private onBlockStart(payload: Json, out: StreamOutput[]): void {
    const block = isJsonObject(payload.content_block) ? payload.content_block : {};
    if (block.type === 'tool_use') {
      const call: OpenToolCall = { index: this.toolCalls.size, sawArguments: false };
      this.toolCalls.set(Number(payload.index), call);
      out.push(
        this.delta({
          tool_calls: [
            { index: call.index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } },
          ],
        }),
      );
    } else if (block.type === 'text' && typeof block.text === 'string' && block.text) {
      out.push(this.delta({ content: block.text }));
    } else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) {
      out.push(this.delta({ reasoning_content: block.thinking }));
    } else if (block.type === 'redacted_thinking') {
      out.push(this.delta({ thinking_blocks: [{ type: 'redacted_thinking', data: block.data }] }));
    }
  }

  private onBlockDelta(payload: Json, out: StreamOutput[]): void {
    const delta = isJsonObject(payload.delta) ? payload.delta : {};
    switch (delta.type) {
      case 'text_delta':
        if (typeof delta.text === 'string' && delta.text) out.push(this.delta({ content: delta.text }));
        break;
      case 'thinking_delta':
        if (typeof delta.thinking === 'string' && delta.thinking)
          out.push(this.delta({ reasoning_content: delta.thinking }));
        break;
      case 'input_json_delta': {
        const call = this.toolCalls.get(Number(payload.index));
        if (!call || typeof delta.partial_json !== 'string' || !delta.partial_json) break;
        call.sawArguments = true;
        out.push(this.delta({ tool_calls: [{ index: call.index, function: { arguments: delta.partial_json } }] }));
        break;
      }
      case 'signature_delta':
        // Opaque, and needed on the next turn: carried as `thinking_blocks`, as the unary answer carries it.
        if (typeof delta.signature === 'string' && delta.signature)
          out.push(this.delta({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: delta.signature }] }));
        break;
      default:
        // citations_delta has no chat-completions field.
        break;
    }
  }

  /** A chunk of the one choice Anthropic answers with. */
  private delta(delta: Json, finishReason: string | null = null, usage?: Usage): StreamOutput {
    return this.chunk([{ index: 0, delta, finish_reason: finishReason }], usage);
  }

  /** Once message_start arrived the input was read (and usually billed); what was counted goes with the error. */
  protected override billedUsage(): Usage | undefined {
    return this.started ? anthropicUsage(this.usage) : undefined;
  }
}
