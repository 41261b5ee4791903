import type { Json } from '../../shared/provider-adapter.js';
import { asArray, asObject, asString } from '../../shared/wire-json.js';
import { reasoningTextOf } from '../../../translation/chat-to-responses.js';

/** The kind of a content block of a block-structured answer (Bedrock Converse, Anthropic Messages). */
export type BlockKind = 'text' | 'reasoning' | 'tool';

/** What one chat chunk means for a block-structured stream, in order. */
export type BlockEvent =
  | { type: 'start'; index: number; kind: BlockKind; toolId?: string; toolName?: string }
  | { type: 'delta'; index: number; kind: BlockKind; text: string }
  /** Claude's reasoning signature or redacted reasoning (`{ signature }`, `{ redactedContent }`), in its block. */
  | { type: 'reasoning_extra'; index: number; content: Json }
  | { type: 'stop'; index: number };

/**
 * Cuts a canonical chat stream (OpenAI chunks) into content blocks, as Converse and Anthropic streams send them: a
 * block opens when the kind of delta changes (reasoning, text, a new tool call) and closes before the next one opens.
 * Tool-call argument fragments are routed by their OpenAI `index` to the block their call opened.
 */
export class ChatStreamBlocks {
  /** The finish reason of the last chunk that had one. */
  finishReason: string | undefined;
  private open: { index: number; kind: BlockKind } | undefined;
  private next = 0;
  private readonly toolBlocks = new Map<number, number>();

  push(chunk: Json): BlockEvent[] {
    const out: BlockEvent[] = [];
    const choice = asObject(asArray(chunk.choices)?.[0]);
    if (!choice) return out;
    const delta = asObject(choice.delta) ?? {};
    const reasoning = reasoningTextOf(delta);
    if (reasoning) this.text('reasoning', reasoning, out);
    for (const block of asArray(delta.thinking_blocks) ?? []) this.reasoningExtra(asObject(block) ?? {}, out);
    const text = asString(delta.content);
    if (text) this.text('text', text, out);
    for (const raw of asArray(delta.tool_calls) ?? []) this.tool(asObject(raw) ?? {}, out);
    const finish = asString(choice.finish_reason);
    if (finish) this.finishReason = finish;
    return out;
  }

  /** Closes the open block at the end of the stream. */
  close(): BlockEvent[] {
    const out: BlockEvent[] = [];
    this.stopOpen(out);
    return out;
  }

  private text(kind: 'text' | 'reasoning', text: string, out: BlockEvent[]): void {
    if (this.open?.kind !== kind) this.start(kind, out);
    out.push({ type: 'delta', index: this.open!.index, kind, text });
  }

  private reasoningExtra(block: Json, out: BlockEvent[]): void {
    const content =
      block.type === 'redacted_thinking' && typeof block.data === 'string'
        ? { redactedContent: block.data }
        : typeof block.signature === 'string' && block.signature
          ? { signature: block.signature }
          : undefined;
    if (!content) return;
    if (this.open?.kind !== 'reasoning') this.start('reasoning', out);
    out.push({ type: 'reasoning_extra', index: this.open!.index, content });
  }

  private tool(call: Json, out: BlockEvent[]): void {
    const position = typeof call.index === 'number' ? call.index : 0;
    const fn = asObject(call.function) ?? {};
    let index = this.toolBlocks.get(position);
    if (index === undefined) {
      this.start('tool', out, asString(call.id) ?? `tooluse_${this.next}`, asString(fn.name) ?? '');
      index = this.open!.index;
      this.toolBlocks.set(position, index);
    }
    const args = asString(fn.arguments);
    // A fragment of a call whose block is no longer open (providers interleave rarely) still goes to its own block.
    if (args) out.push({ type: 'delta', index, kind: 'tool', text: args });
  }

  private start(kind: BlockKind, out: BlockEvent[], toolId?: string, toolName?: string): void {
    this.stopOpen(out);
    this.open = { index: this.next++, kind };
    out.push(
      kind === 'tool'
        ? { type: 'start', index: this.open.index, kind, toolId, toolName }
        : { type: 'start', index: this.open.index, kind },
    );
  }

  private stopOpen(out: BlockEvent[]): void {
    if (!this.open) return;
    out.push({ type: 'stop', index: this.open.index });
    this.open = undefined;
  }
}
