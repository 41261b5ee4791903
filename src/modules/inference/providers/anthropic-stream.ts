import { anthropicStreamError } from './anthropic-error.js';
import { isJsonObject } from './anthropic-messages.js';
import {
  type AnthropicUsageCounts,
  anthropicFinishReason,
  anthropicUsage,
  maxAnthropicUsage,
  nowSeconds,
  readAnthropicUsage,
} from './anthropic-response.js';
import type { Json, ProviderTarget, StreamDecoder, StreamOutput, Usage } from './provider-adapter.js';
import { SseDecoder } from './sse-decoder.js';

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
export class AnthropicStreamDecoder implements StreamDecoder {
  private readonly sse = new SseDecoder();
  private readonly created = nowSeconds();
  private id = '';
  private model: string;
  private started = false;
  private finished = false;
  private usage: AnthropicUsageCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, webSearch: 0 };
  private finishReason: string | null = null;
  /** Content-block index → open client tool call; server tools (web search) are not the caller's tool calls. */
  private readonly toolCalls = new Map<number, OpenToolCall>();

  constructor(target: ProviderTarget) {
    this.model = target.model;
  }

  push(text: string): StreamOutput[] {
    if (this.finished) return [];
    const out: StreamOutput[] = [];
    for (const message of this.sse.push(text)) {
      this.handle(message.event, message.data, out);
      if (this.finished) break;
    }
    return out;
  }

  end(): StreamOutput[] {
    if (this.finished) return [];
    const out: StreamOutput[] = [];
    for (const message of this.sse.end()) {
      this.handle(message.event, message.data, out, true);
      if (this.finished) return out;
    }
    this.fail(out, {
      status: 502,
      reason: 'provider_server_error',
      message: 'anthropic stream ended before message_stop',
    });
    return out;
  }

  /** `flushed`: the unterminated tail read at end(); a cut-off event there is the truncation reported below. */
  private handle(event: string | undefined, data: string, out: StreamOutput[], flushed = false): void {
    if (data === '') return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      if (flushed) return;
      this.fail(out, { status: 502, reason: 'provider_server_error', message: 'anthropic sent an unreadable event' });
      return;
    }
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
          out.push(this.chunk({ tool_calls: [{ index: call.index, function: { arguments: '{}' } }] }));
        break;
      }
      case 'message_delta':
        this.usage = maxAnthropicUsage(this.usage, readAnthropicUsage(payload.usage));
        if (isJsonObject(payload.delta) && payload.delta.stop_reason !== undefined)
          this.finishReason = anthropicFinishReason(payload.delta.stop_reason);
        break;
      case 'message_stop': {
        this.finished = true;
        out.push(this.chunk({}, this.finishReason ?? 'stop', anthropicUsage(this.usage)));
        break;
      }
      case 'error':
        this.finished = true;
        out.push({ kind: 'error', error: anthropicStreamError(payload.error, this.billed()) });
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
    out.push(this.chunk({ role: 'assistant', content: '' }));
  }

  private onBlockStart(payload: Json, out: StreamOutput[]): void {
    const block = isJsonObject(payload.content_block) ? payload.content_block : {};
    if (block.type === 'tool_use') {
      const call: OpenToolCall = { index: this.toolCalls.size, sawArguments: false };
      this.toolCalls.set(Number(payload.index), call);
      out.push(
        this.chunk({
          tool_calls: [
            { index: call.index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } },
          ],
        }),
      );
    } else if (block.type === 'text' && typeof block.text === 'string' && block.text) {
      out.push(this.chunk({ content: block.text }));
    } else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) {
      out.push(this.chunk({ reasoning_content: block.thinking }));
    }
  }

  private onBlockDelta(payload: Json, out: StreamOutput[]): void {
    const delta = isJsonObject(payload.delta) ? payload.delta : {};
    switch (delta.type) {
      case 'text_delta':
        if (typeof delta.text === 'string' && delta.text) out.push(this.chunk({ content: delta.text }));
        break;
      case 'thinking_delta':
        if (typeof delta.thinking === 'string' && delta.thinking)
          out.push(this.chunk({ reasoning_content: delta.thinking }));
        break;
      case 'input_json_delta': {
        const call = this.toolCalls.get(Number(payload.index));
        if (!call || typeof delta.partial_json !== 'string' || !delta.partial_json) break;
        call.sawArguments = true;
        out.push(this.chunk({ tool_calls: [{ index: call.index, function: { arguments: delta.partial_json } }] }));
        break;
      }
      default:
        // signature_delta (opaque, for multi-turn thinking) and citations_delta have no chat-completions field.
        break;
    }
  }

  private chunk(delta: Json, finishReason: string | null = null, usage?: Usage): StreamOutput {
    const chunk: Json = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
    return usage ? { kind: 'chunk', chunk, usage } : { kind: 'chunk', chunk };
  }

  /** Once message_start arrived the input was read (and usually billed); what was counted goes with the error. */
  private billed(): Usage | undefined {
    return this.started ? anthropicUsage(this.usage) : undefined;
  }

  private fail(out: StreamOutput[], error: { status: number; reason: 'provider_server_error'; message: string }): void {
    this.finished = true;
    const billedUsage = this.billed();
    out.push({ kind: 'error', error: billedUsage ? { ...error, billedUsage } : error });
  }
}
