import { randomUUID } from 'node:crypto';
import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { Json, Usage } from '../../shared/provider-adapter.js';
import { asObject, copyWithout, jsonObjects } from '../../shared/wire-json.js';
import type { NativeFrame, NativeStreamEncoder } from '../../../formats/native-format.js';
import { cohereErrorBody, cohereFinish, cohereUsageOf } from './cohere-answer.js';

const EVENT_OWN: ReadonlySet<string> = new Set(['type', 'message']);

/** The part being streamed: a content part (text or thinking) or a tool call, each with its Cohere index. */
type OpenPart = { kind: 'content'; type: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number };

/**
 * `chat.completion.chunk`s → Cohere v2 stream events (`event: <type>` and `data:` JSON carrying `type`, as Cohere
 * sends them): message-start, content-start/delta/end per part, tool-call-start/delta/end per call, and message-end
 * with the finish reason and usage. Content and tool-call indexes count separately, as Cohere's do.
 */
export class CohereStreamEncoder implements NativeStreamEncoder {
  readonly contentType = 'text/event-stream; charset=utf-8';
  private id: string | undefined;
  private open: OpenPart | undefined;
  private contentCount = 0;
  /** OpenAI tool-call index → Cohere tool-call index. */
  private readonly tools = new Map<number, number>();
  private finishReason: unknown;

  push(chunk: Json): NativeFrame[] {
    const frames: string[] = [];
    this.start(chunk, frames);
    for (const choice of jsonObjects(chunk.choices)) {
      const delta = asObject(choice.delta) ?? {};
      if (typeof delta.reasoning_content === 'string' && delta.reasoning_content)
        this.content('thinking', delta.reasoning_content, frames);
      if (typeof delta.content === 'string' && delta.content) this.content('text', delta.content, frames);
      for (const call of jsonObjects(delta.tool_calls)) this.toolCall(call, frames);
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.finishReason = choice.finish_reason;
    }
    return frames;
  }

  finish(usage: Usage | undefined): NativeFrame[] {
    const frames: string[] = [];
    this.start({}, frames);
    this.close(frames);
    this.emit(frames, 'message-end', {
      id: this.id,
      delta: { finish_reason: cohereFinish(this.finishReason), usage: cohereUsageOf(usage) },
    });
    return frames;
  }

  /** A failure mid-stream ends the turn as Cohere does: message-end with finish_reason ERROR, our fields beside. */
  error(response: ErrorResponse): NativeFrame[] {
    const frames: string[] = [];
    this.start({}, frames);
    this.close(frames);
    // The event's own `type` stays message-end: the GatewayError's `type` and `message` are the ones left out.
    const fields = copyWithout(cohereErrorBody(response), EVENT_OWN);
    const delta = { finish_reason: 'ERROR', error: response.body.error.message };
    this.emit(frames, 'message-end', { id: this.id, delta, ...fields });
    return frames;
  }

  private start(chunk: Json, frames: string[]): void {
    if (this.id !== undefined) return;
    this.id = typeof chunk.id === 'string' && chunk.id ? chunk.id : randomUUID();
    this.emit(frames, 'message-start', {
      id: this.id,
      delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
    });
  }

  private content(type: 'text' | 'thinking', text: string, frames: string[]): void {
    const open = this.open;
    if (open?.kind !== 'content' || open.type !== type) {
      this.close(frames);
      const index = this.contentCount++;
      this.open = { kind: 'content', type, index };
      this.emit(frames, 'content-start', { index, delta: { message: { content: { type, [type]: '' } } } });
    }
    const index = (this.open as { index: number }).index;
    this.emit(frames, 'content-delta', { index, delta: { message: { content: { [type]: text } } } });
  }

  private toolCall(call: Json, frames: string[]): void {
    const at = Number(call.index ?? 0);
    const fn = asObject(call.function) ?? {};
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    let index = this.tools.get(at);
    if (index === undefined) {
      this.close(frames);
      index = this.tools.size;
      this.tools.set(at, index);
      this.open = { kind: 'tool', index };
      const start = { id: call.id, type: 'function', function: { name: fn.name, arguments: '' } };
      this.emit(frames, 'tool-call-start', { index, delta: { message: { tool_calls: start } } });
    }
    if (args) {
      const delta = { tool_calls: { function: { arguments: args } } };
      this.emit(frames, 'tool-call-delta', { index, delta: { message: delta } });
    }
  }

  private close(frames: string[]): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.emit(frames, open.kind === 'content' ? 'content-end' : 'tool-call-end', { index: open.index });
  }

  private emit(frames: string[], type: string, data: Json): void {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  }
}
