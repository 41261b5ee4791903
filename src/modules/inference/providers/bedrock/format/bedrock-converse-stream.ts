import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { Json, Usage } from '../../shared/provider-adapter.js';
import type { NativeFrame, NativeStreamEncoder } from '../../../formats/native-format.js';
import { ChatStreamBlocks, type BlockEvent } from './chat-stream-blocks.js';
import { EVENT_STREAM_CONTENT_TYPE, eventFrame, exceptionFrame } from './bedrock-event-stream.js';
import { converseStopReason, converseUsage } from './bedrock-usage.js';

function blockFrame(event: BlockEvent): Uint8Array {
  switch (event.type) {
    case 'start':
      // Text and reasoning blocks open with their first delta; only a tool use announces itself.
      return eventFrame('contentBlockStart', {
        contentBlockIndex: event.index,
        start: { toolUse: { toolUseId: event.toolId, name: event.toolName } },
      });
    case 'delta': {
      const delta =
        event.kind === 'text'
          ? { text: event.text }
          : event.kind === 'reasoning'
            ? { reasoningContent: { text: event.text } }
            : { toolUse: { input: event.text } };
      return eventFrame('contentBlockDelta', { contentBlockIndex: event.index, delta });
    }
    case 'reasoning_extra':
      return eventFrame('contentBlockDelta', {
        contentBlockIndex: event.index,
        delta: { reasoningContent: event.content },
      });
    case 'stop':
      return eventFrame('contentBlockStop', { contentBlockIndex: event.index });
  }
}

/**
 * ConverseStream: the canonical chunks as Bedrock event-stream frames, messageStart, the content blocks, messageStop
 * with the stop reason, then metadata with the priced usage and the latency; a failure ends it with an exception frame.
 */
export class ConverseStreamEncoder implements NativeStreamEncoder {
  readonly contentType = EVENT_STREAM_CONTENT_TYPE;
  private readonly blocks = new ChatStreamBlocks();
  private started = false;
  private readonly began = performance.now();

  push(chunk: Json): NativeFrame[] {
    const frames = this.start();
    for (const event of this.blocks.push(chunk)) {
      if (event.type !== 'start' || event.kind === 'tool') frames.push(blockFrame(event));
    }
    return frames;
  }

  finish(usage: Usage | undefined): NativeFrame[] {
    const frames = this.start();
    for (const event of this.blocks.close()) frames.push(blockFrame(event));
    frames.push(eventFrame('messageStop', { stopReason: converseStopReason(this.blocks.finishReason) }));
    frames.push(
      eventFrame('metadata', {
        usage: converseUsage(usage),
        metrics: { latencyMs: Math.round(performance.now() - this.began) },
      }),
    );
    return frames;
  }

  error(response: ErrorResponse): NativeFrame[] {
    return [exceptionFrame(response)];
  }

  private start(): Uint8Array[] {
    if (this.started) return [];
    this.started = true;
    return [eventFrame('messageStart', { role: 'assistant' })];
  }
}
