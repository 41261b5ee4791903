import { AnthropicStreamDecoder } from '../anthropic/anthropic-stream.js';
import { bedrockStreamError } from './bedrock-error.js';
import { EventStreamCorruptError, type EventStreamFrame, EventStreamReader } from './bedrock-event-stream.js';
import { completionId, converseFinishReason, converseUsage, reasoningTextOf } from './bedrock-response.js';
import { nowSeconds } from '../shared/native-adapter-parts.js';
import type {
  Json,
  ProviderError,
  ProviderTarget,
  StreamDecoder,
  StreamOutput,
  Usage,
} from '../shared/provider-adapter.js';
import { isJsonObject } from '../shared/wire-json.js';

/**
 * Bedrock's binary event streams → canonical outputs. The frame life cycle is shared: exception frames and corrupt
 * frames fail the stream, nothing is decoded once it closed, and `end` reports a stream cut before its terminator.
 */
abstract class BedrockEventStreamDecoder implements StreamDecoder {
  private readonly reader = new EventStreamReader();
  protected closed = false;

  /** For callers that only have text: the responder always calls pushBytes, as binary frames do not survive UTF-8. */
  push(text: string): StreamOutput[] {
    return this.pushBytes(new TextEncoder().encode(text));
  }

  pushBytes(bytes: Uint8Array): StreamOutput[] {
    const out: StreamOutput[] = [];
    if (this.closed) return out;
    let frames: EventStreamFrame[];
    try {
      frames = this.reader.push(bytes);
    } catch (err) {
      if (!(err instanceof EventStreamCorruptError)) throw err;
      this.fail(out, {
        status: 502,
        reason: 'provider_server_error',
        message: `bedrock sent a corrupt frame: ${err.message}`,
      });
      return out;
    }
    for (const frame of frames) {
      if (this.closed) break;
      const type = frame.headers[':message-type'];
      if (type === 'exception' || type === 'error') {
        const name = frame.headers[':exception-type'] ?? frame.headers[':error-code'];
        this.fail(out, bedrockStreamError(name, frame.payload));
      } else this.event(frame.headers[':event-type'] ?? '', frame.payload, out);
    }
    return out;
  }

  end(): StreamOutput[] {
    const out: StreamOutput[] = [];
    if (!this.closed) this.finish(out);
    if (!this.closed) {
      const message = `bedrock stream ended before its last event${this.reader.pending ? ' (mid-frame)' : ''}`;
      this.fail(out, { status: 502, reason: 'provider_server_error', message });
    }
    return out;
  }

  protected fail(out: StreamOutput[], error: ProviderError): void {
    this.closed = true;
    const billedUsage = this.billedUsage();
    out.push({ kind: 'error', error: billedUsage ? { ...error, billedUsage } : error });
  }

  protected billedUsage(): Usage | undefined {
    return undefined;
  }

  protected abstract event(type: string, payload: unknown, out: StreamOutput[]): void;
  /** At the end of the bytes: closes the stream when what came is a complete answer. */
  protected abstract finish(out: StreamOutput[]): void;
}

/** A toolUse content block being streamed: its OpenAI tool-call index and whether any argument text came. */
interface OpenToolCall {
  index: number;
  sawArguments: boolean;
}

/**
 * Bedrock's chat streams → `chat.completion.chunk`s. ConverseStream: messageStart opens the turn, contentBlockStart opens a tool call,
 * contentBlockDelta carries text, tool input or reasoning, messageStop the stop reason and metadata the usage, which
 * goes on the finish chunk; a stream that ends after messageStop without metadata still finishes (without usage).
 * InvokeModelWithResponseStream (Claude) is recognised by its `chunk` events, so one decoder serves both APIs.
 */
export class BedrockStreamDecoder extends BedrockEventStreamDecoder {
  private readonly id = completionId();
  private readonly created = nowSeconds();
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private readonly toolCalls = new Map<number, OpenToolCall>();
  /** Set on the first `chunk` event: the stream is InvokeModelWithResponseStream of a Claude model. */
  private claude: AnthropicStreamDecoder | undefined;

  constructor(private readonly target: ProviderTarget) {
    super();
  }

  protected event(type: string, payload: unknown, out: StreamOutput[]): void {
    const p = isJsonObject(payload) ? payload : {};
    switch (type) {
      case 'chunk':
        this.onInvokeChunk(p, out);
        break;
      case 'messageStart':
        out.push(this.delta({ role: 'assistant', content: '' }));
        break;
      case 'contentBlockStart':
        this.onBlockStart(p, out);
        break;
      case 'contentBlockDelta':
        this.onBlockDelta(p, out);
        break;
      case 'contentBlockStop': {
        // A tool without arguments streams no input; '{}' keeps the arguments valid JSON.
        const call = this.toolCalls.get(Number(p.contentBlockIndex));
        if (call && !call.sawArguments)
          out.push(this.delta({ tool_calls: [{ index: call.index, function: { arguments: '{}' } }] }));
        break;
      }
      case 'messageStop':
        this.finishReason = converseFinishReason(p.stopReason);
        break;
      case 'metadata':
        this.usage = converseUsage(p.usage);
        this.finish(out);
        break;
      default:
        // Event types added after this adapter was written.
        break;
    }
  }

  protected finish(out: StreamOutput[]): void {
    if (this.claude) {
      // The Anthropic decoder knows whether message_stop came; its end() reports a cut stream.
      this.relay(this.claude.end(), out);
      this.closed = true;
      return;
    }
    if (this.finishReason === undefined) return;
    this.closed = true;
    out.push(this.delta({}, this.finishReason, this.usage));
  }

  protected override billedUsage(): Usage | undefined {
    return this.usage;
  }

  /**
   * InvokeModelWithResponseStream: `chunk` events whose `bytes` are base64 Anthropic Messages events, handed to the
   * Anthropic decoder as the SSE it would have read from Anthropic itself.
   */
  private onInvokeChunk(p: Json, out: StreamOutput[]): void {
    if (typeof p.bytes !== 'string') return;
    this.claude ??= new AnthropicStreamDecoder(this.target);
    this.relay(this.claude.push(`data: ${Buffer.from(p.bytes, 'base64').toString('utf8')}\n\n`), out);
  }

  private relay(outputs: StreamOutput[], out: StreamOutput[]): void {
    for (const o of outputs) {
      out.push(o);
      if (o.kind === 'error') this.closed = true;
    }
  }

  private onBlockStart(p: Json, out: StreamOutput[]): void {
    const start = isJsonObject(p.start) ? p.start : {};
    if (!isJsonObject(start.toolUse)) return;
    const call: OpenToolCall = { index: this.toolCalls.size, sawArguments: false };
    this.toolCalls.set(Number(p.contentBlockIndex), call);
    const tool = start.toolUse;
    out.push(
      this.delta({
        tool_calls: [
          { index: call.index, id: tool.toolUseId, type: 'function', function: { name: tool.name, arguments: '' } },
        ],
      }),
    );
  }

  private onBlockDelta(p: Json, out: StreamOutput[]): void {
    const delta = isJsonObject(p.delta) ? p.delta : {};
    if (typeof delta.text === 'string') {
      if (delta.text) out.push(this.delta({ content: delta.text }));
    } else if (isJsonObject(delta.toolUse)) {
      const call = this.toolCalls.get(Number(p.contentBlockIndex));
      const input = delta.toolUse.input;
      if (!call || typeof input !== 'string' || !input) return;
      call.sawArguments = true;
      out.push(this.delta({ tool_calls: [{ index: call.index, function: { arguments: input } }] }));
    } else if (delta.reasoningContent !== undefined) {
      const text = reasoningTextOf(delta.reasoningContent);
      if (text) out.push(this.delta({ reasoning_content: text }));
      // Claude's signature (and redacted reasoning), needed on the next turn: carried as the Anthropic stream carries it.
      const r = isJsonObject(delta.reasoningContent) ? delta.reasoningContent : {};
      if (typeof r.signature === 'string' && r.signature)
        out.push(this.delta({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: r.signature }] }));
      if (typeof r.redactedContent === 'string')
        out.push(this.delta({ thinking_blocks: [{ type: 'redacted_thinking', data: r.redactedContent }] }));
    }
  }

  private delta(delta: Json, finishReason: string | null = null, usage?: Usage): StreamOutput {
    const chunk: Json = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.target.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
    return usage ? { kind: 'chunk', chunk, usage } : { kind: 'chunk', chunk };
  }
}
