import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { Json, Usage } from '../../shared/provider-adapter.js';
import { AnthropicStreamEncoder } from '../../anthropic/format/anthropic-stream-encoder.js';
import type { NativeFrame, NativeStreamEncoder } from '../../../formats/native-format.js';
import { EVENT_STREAM_CONTENT_TYPE, eventFrame, exceptionFrame } from './bedrock-event-stream.js';

/** One Anthropic stream event as InvokeModelWithResponseStream sends it: a `chunk` frame, the event JSON in base64. */
function chunkFrame(event: Json): Uint8Array {
  return eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64') });
}

/**
 * InvokeModelWithResponseStream for a Claude body: the `/anthropic` format's events (message_start … message_stop),
 * each re-framed from SSE into a `chunk` frame; message_stop carries Bedrock's invocation metrics, failures are
 * Bedrock exception frames.
 */
export class ClaudeInvokeStreamEncoder implements NativeStreamEncoder {
  readonly contentType = EVENT_STREAM_CONTENT_TYPE;
  private readonly events: AnthropicStreamEncoder;
  private readonly began = performance.now();
  private firstByteMs: number | undefined;
  private usage: Json = {};

  constructor(model: unknown) {
    this.events = new AnthropicStreamEncoder(model);
  }

  push(chunk: Json, usage: Usage | undefined, opening?: Usage): NativeFrame[] {
    this.firstByteMs ??= performance.now() - this.began;
    return this.reframe(this.events.push(chunk, usage, opening));
  }

  finish(usage: Usage | undefined): NativeFrame[] {
    this.firstByteMs ??= performance.now() - this.began;
    return this.reframe(this.events.finish(usage));
  }

  error(response: ErrorResponse): NativeFrame[] {
    return [exceptionFrame(response)];
  }

  /** Each `event: X\ndata: {…}\n\n` of the SSE encoder as a chunk frame of its data (Bedrock sends no `ping`). */
  private reframe(frames: NativeFrame[]): NativeFrame[] {
    const out: NativeFrame[] = [];
    for (const frame of frames) {
      const text = typeof frame === 'string' ? frame : Buffer.from(frame).toString('utf8');
      const event = JSON.parse(text.slice(text.indexOf('\ndata: ') + 7).trimEnd()) as Json;
      if (event.type === 'ping') continue;
      if (event.type === 'message_delta') this.usage = (event.usage as Json | undefined) ?? {};
      if (event.type === 'message_stop') {
        event['amazon-bedrock-invocationMetrics'] = {
          inputTokenCount: this.usage.input_tokens ?? 0,
          outputTokenCount: this.usage.output_tokens ?? 0,
          invocationLatency: Math.round(performance.now() - this.began),
          firstByteLatency: Math.round(this.firstByteMs ?? 0),
        };
      }
      out.push(chunkFrame(event));
    }
    return out;
  }
}
