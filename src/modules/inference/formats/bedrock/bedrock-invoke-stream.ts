import type { ErrorResponse } from '../../../../core/errors/error-response.js';
import type { Json, Usage } from '../../providers/provider-adapter.js';
import { asString } from '../../providers/wire-json.js';
import type { NativeFrame, NativeStreamEncoder } from '../native-format.js';
import { ChatStreamBlocks, type BlockEvent } from './chat-stream-blocks.js';
import { EVENT_STREAM_CONTENT_TYPE, eventFrame, exceptionFrame } from './bedrock-event-stream.js';
import { claudeMessageId, claudeStopReason, claudeUsage } from './bedrock-invoke-response.js';

/** One Anthropic stream event as InvokeModelWithResponseStream sends it: a `chunk` frame, the event JSON in base64. */
function chunkFrame(event: Json): Uint8Array {
  return eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64') });
}

function blockEvent(event: BlockEvent): Json {
  switch (event.type) {
    case 'start': {
      const block =
        event.kind === 'text'
          ? { type: 'text', text: '' }
          : event.kind === 'reasoning'
            ? { type: 'thinking', thinking: '' }
            : { type: 'tool_use', id: event.toolId, name: event.toolName, input: {} };
      return { type: 'content_block_start', index: event.index, content_block: block };
    }
    case 'delta': {
      const delta =
        event.kind === 'text'
          ? { type: 'text_delta', text: event.text }
          : event.kind === 'reasoning'
            ? { type: 'thinking_delta', thinking: event.text }
            : { type: 'input_json_delta', partial_json: event.text };
      return { type: 'content_block_delta', index: event.index, delta };
    }
    case 'stop':
      return { type: 'content_block_stop', index: event.index };
  }
}

/**
 * InvokeModelWithResponseStream for a Claude body: the canonical chunks as Anthropic stream events (message_start …
 * message_stop), each in a `chunk` frame. The canonical stream reports usage last, so message_start carries zero
 * counts and message_delta the full usage; message_stop carries Bedrock's invocation metrics.
 */
export class ClaudeInvokeStreamEncoder implements NativeStreamEncoder {
  readonly contentType = EVENT_STREAM_CONTENT_TYPE;
  private readonly blocks = new ChatStreamBlocks();
  private started = false;
  private readonly began = performance.now();
  private firstByteMs: number | undefined;

  constructor(private readonly model: string) {}

  push(chunk: Json): NativeFrame[] {
    const frames = this.start(chunk);
    for (const event of this.blocks.push(chunk)) frames.push(chunkFrame(blockEvent(event)));
    return frames;
  }

  finish(usage: Usage | undefined): NativeFrame[] {
    const frames = this.start({});
    for (const event of this.blocks.close()) frames.push(chunkFrame(blockEvent(event)));
    const counts = claudeUsage(usage);
    frames.push(
      chunkFrame({
        type: 'message_delta',
        delta: { stop_reason: claudeStopReason(this.blocks.finishReason), stop_sequence: null },
        usage: counts,
      }),
    );
    frames.push(
      chunkFrame({
        type: 'message_stop',
        'amazon-bedrock-invocationMetrics': {
          inputTokenCount: counts.input_tokens,
          outputTokenCount: counts.output_tokens,
          invocationLatency: Math.round(performance.now() - this.began),
          firstByteLatency: Math.round(this.firstByteMs ?? 0),
        },
      }),
    );
    return frames;
  }

  error(response: ErrorResponse): NativeFrame[] {
    return [exceptionFrame(response)];
  }

  private start(chunk: Json): Uint8Array[] {
    if (this.started) return [];
    this.started = true;
    this.firstByteMs = performance.now() - this.began;
    const message = {
      id: claudeMessageId(chunk.id),
      type: 'message',
      role: 'assistant',
      model: asString(chunk.model) ?? this.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    return [chunkFrame({ type: 'message_start', message })];
  }
}
