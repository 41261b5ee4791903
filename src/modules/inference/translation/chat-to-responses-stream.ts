import { toResponsesWireUsage, usageFromOpenAi } from '../providers/openai/openai-usage.js';
import type { Json, Usage } from '../providers/shared/provider-adapter.js';
import { asArray, asObject, asString } from '../providers/shared/wire-json.js';
import {
  citationsOf,
  itemIdFor,
  outcomeOf,
  reasoningTextOf,
  responseEnvelope,
  responseIdFor,
} from './chat-to-responses.js';
import type {
  ItemStatus,
  ResponsesEventData,
  ResponsesFunctionCallItem,
  ResponsesMessageItem,
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesReasoningItem,
  ResponsesStreamEvent,
  ResponsesUrlCitation,
} from './responses-wire.types.js';

/** Event data before `emit` stamps its sequence number. */
type Unsequenced = ResponsesEventData extends infer E
  ? E extends ResponsesEventData
    ? Omit<E, 'sequence_number'>
    : never
  : never;

/** An output item being streamed; `openPart` is the content index still receiving deltas (messages only). */
interface Tracked<T extends ResponsesOutputItem = ResponsesOutputItem> {
  item: T;
  index: number;
  open: boolean;
  openPart?: number;
}

export interface ChatToResponsesStreamOptions {
  /** The response id (default: derived from the first chunk's id when `start` was not called before it). */
  id?: string;
  /** Unix seconds (default: now). */
  createdAt?: number;
  /** The model to report (default: the chunks' model, else the request's). */
  model?: string;
}

/**
 * Turns a chat completion stream into the Responses API's typed events, for a provider without `/responses`:
 * `response.created`, `response.in_progress`, then per output item `response.output_item.added`, its content parts
 * and deltas (`response.output_text.delta`, `response.refusal.delta`, `response.reasoning_text.delta`,
 * `response.function_call_arguments.delta`) and their `.done` events, `response.output_item.done`, and finally
 * `response.completed` (or `response.incomplete` when the answer was cut by length or a content filter) carrying the
 * whole response with its usage. Every event has the next `sequence_number`. Only choice 0 is followed.
 *
 * Feed it the chunks in order (`push`), then `finish` with the final usage (the gateway's, with cost) when the chat
 * stream ended; `fail` ends it with `response.failed` instead.
 */
export class ChatToResponsesStream {
  private sequence = 0;
  private started = false;
  private ended = false;
  private id: string | undefined;
  private readonly createdAt: number;
  private model: string;
  private readonly items: Tracked[] = [];
  /** Chat tool-call index → its item (a reused index with a new call id starts a new item). */
  private readonly calls = new Map<number, Tracked<ResponsesFunctionCallItem>>();
  private finishReason: unknown;
  private usage: Usage | undefined;

  constructor(
    private readonly request: Json,
    private readonly options: ChatToResponsesStreamOptions = {},
  ) {
    this.id = options.id;
    this.createdAt = options.createdAt ?? Math.floor(Date.now() / 1000);
    this.model = options.model ?? asString(request.model) ?? '';
  }

  /** `response.created` and `response.in_progress` (once; `push` and `finish` call it when needed). */
  start(chatId?: unknown): ResponsesStreamEvent[] {
    if (this.started) return [];
    this.started = true;
    this.id ??= responseIdFor(chatId);
    const snapshot = this.response('in_progress');
    return [
      this.emit({ type: 'response.created', response: snapshot }),
      this.emit({ type: 'response.in_progress', response: snapshot }),
    ];
  }

  push(chunk: Json): ResponsesStreamEvent[] {
    if (this.ended) return [];
    const out = this.start(chunk.id);
    if (!this.options.model && typeof chunk.model === 'string' && chunk.model !== '') this.model = chunk.model;
    this.usage = usageFromOpenAi(chunk.usage) ?? this.usage;
    const choices = asArray(chunk.choices) ?? [];
    const choice = asObject(choices.find((c) => asObject(c)?.index === 0) ?? choices[0]);
    if (!choice) return out;
    const delta = asObject(choice.delta) ?? {};
    const reasoning = reasoningTextOf(delta);
    if (reasoning !== undefined) this.reasoningDelta(reasoning, out);
    const content = asString(delta.content);
    if (content) this.messageDelta('output_text', content, out);
    const citations = citationsOf(delta.annotations);
    if (citations.length > 0) this.messageCitations(citations, out);
    const refusal = asString(delta.refusal);
    if (refusal) this.messageDelta('refusal', refusal, out);
    (asArray(delta.tool_calls) ?? []).forEach((call, position) => {
      const c = asObject(call);
      if (c) this.toolCallDelta(c, position, out);
    });
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) this.finishReason = choice.finish_reason;
    return out;
  }

  /** Closes every open item and sends `response.completed` (or `response.incomplete`) with `usage` (default: the stream's). */
  finish(usage?: Usage): ResponsesStreamEvent[] {
    if (this.ended) return [];
    const out = this.start();
    this.ended = true;
    const outcome = outcomeOf(this.finishReason);
    const status: ItemStatus = outcome.status === 'incomplete' ? 'incomplete' : 'completed';
    for (const tracked of this.items) if (tracked.open) this.close(tracked, out, status);
    const finalUsage = usage ?? this.usage;
    const response = responseEnvelope(this.request, {
      ...this.base(),
      ...outcome,
      output: this.items.map((t) => t.item),
      usage: finalUsage ? toResponsesWireUsage(finalUsage) : undefined,
    });
    const type = outcome.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
    out.push(this.emit({ type, response }));
    return out;
  }

  /** Ends the stream with `response.failed` carrying the error and what was produced so far. */
  fail(error: { message: string; code?: string }): ResponsesStreamEvent[] {
    if (this.ended) return [];
    const out = this.start();
    this.ended = true;
    const response = responseEnvelope(this.request, {
      ...this.base(),
      status: 'failed',
      incomplete_details: null,
      error: { code: error.code ?? 'server_error', message: error.message },
      output: this.items.map((t) => t.item),
    });
    out.push(this.emit({ type: 'response.failed', response }));
    return out;
  }

  private base(): Pick<ResponsesObject, 'id' | 'created_at' | 'model'> {
    return { id: this.id ?? responseIdFor(undefined), created_at: this.createdAt, model: this.model };
  }

  private response(status: 'in_progress'): ResponsesObject {
    return responseEnvelope(this.request, { ...this.base(), status, incomplete_details: null, output: [] });
  }

  /** Stamps the sequence number and snapshots the data: later deltas must not change an event already handed out. */
  private emit(data: Unsequenced): ResponsesStreamEvent {
    const stamped: ResponsesEventData = structuredClone({ ...data, sequence_number: this.sequence++ });
    return { event: stamped.type, data: stamped };
  }

  private open<T extends ResponsesOutputItem>(item: T, out: ResponsesStreamEvent[]): Tracked<T> {
    const tracked: Tracked<T> = { item, index: this.items.length, open: true };
    this.items.push(tracked);
    out.push(
      this.emit({
        type: 'response.output_item.added',
        output_index: tracked.index,
        item,
      }),
    );
    return tracked;
  }

  /** Text and reasoning items end when another item starts; function calls stay open until the end (providers may
   * interleave the fragments of parallel calls). */
  private closeOpenText(out: ResponsesStreamEvent[]): void {
    for (const tracked of this.items) {
      if (tracked.open && tracked.item.type !== 'function_call') {
        this.close(tracked, out, 'completed');
      }
    }
  }

  private openMessage(): Tracked<ResponsesMessageItem> | undefined {
    const last = this.items[this.items.length - 1];
    return last?.open && last.item.type === 'message' ? (last as Tracked<ResponsesMessageItem>) : undefined;
  }

  private reasoningDelta(text: string, out: ResponsesStreamEvent[]): void {
    const last = this.items[this.items.length - 1];
    let tracked = last?.open && last.item.type === 'reasoning' ? (last as Tracked<ResponsesReasoningItem>) : undefined;
    if (!tracked) {
      this.closeOpenText(out);
      const id = itemIdFor('rs', this.id ?? '', this.items.length);
      tracked = this.open<ResponsesReasoningItem>(
        { id, type: 'reasoning', summary: [], content: [], status: 'in_progress' },
        out,
      );
      out.push(
        this.emit({
          type: 'response.content_part.added',
          item_id: id,
          output_index: tracked.index,
          content_index: 0,
          part: { type: 'reasoning_text', text: '' },
        }),
      );
    }
    const part = tracked.item.content[0] ?? { type: 'reasoning_text', text: '' };
    if (tracked.item.content.length === 0) tracked.item.content.push(part);
    part.text += text;
    out.push(
      this.emit({
        type: 'response.reasoning_text.delta',
        item_id: tracked.item.id,
        output_index: tracked.index,
        content_index: 0,
        delta: text,
      }),
    );
  }

  /** The open message's part of `kind`, opening the message and the part as needed. */
  private messagePart(kind: 'output_text' | 'refusal', out: ResponsesStreamEvent[]) {
    let tracked = this.openMessage();
    if (!tracked) {
      this.closeOpenText(out);
      const id = itemIdFor('msg', this.id ?? '', this.items.length);
      tracked = this.open<ResponsesMessageItem>(
        { id, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
        out,
      );
    }
    const content = tracked.item.content;
    let contentIndex = tracked.openPart;
    let part = contentIndex === undefined ? undefined : content[contentIndex];
    if (contentIndex === undefined || part?.type !== kind) {
      if (contentIndex !== undefined) this.closePart(tracked, out);
      part =
        kind === 'output_text' ? { type: kind, text: '', annotations: [], logprobs: [] } : { type: kind, refusal: '' };
      contentIndex = content.length;
      tracked.openPart = contentIndex;
      content.push(part);
      out.push(
        this.emit({
          type: 'response.content_part.added',
          item_id: tracked.item.id,
          output_index: tracked.index,
          content_index: contentIndex,
          part,
        }),
      );
    }
    return { part, at: { item_id: tracked.item.id, output_index: tracked.index, content_index: contentIndex } };
  }

  private messageDelta(kind: 'output_text' | 'refusal', text: string, out: ResponsesStreamEvent[]): void {
    const { part, at } = this.messagePart(kind, out);
    if (part.type === 'output_text') {
      part.text += text;
      out.push(this.emit({ type: 'response.output_text.delta', ...at, delta: text, logprobs: [] }));
    } else {
      part.refusal += text;
      out.push(this.emit({ type: 'response.refusal.delta', ...at, delta: text }));
    }
  }

  /** Citations (search models) join the open text part; they appear in its `.done` events. */
  private messageCitations(citations: ResponsesUrlCitation[], out: ResponsesStreamEvent[]): void {
    const { part } = this.messagePart('output_text', out);
    if (part.type === 'output_text') part.annotations.push(...citations);
  }

  private toolCallDelta(call: Json, position: number, out: ResponsesStreamEvent[]): void {
    const key = typeof call.index === 'number' ? call.index : position;
    const fn = asObject(call.function) ?? {};
    const callId = asString(call.id);
    let tracked = this.calls.get(key);
    if (!tracked || (callId && callId !== tracked.item.call_id)) {
      this.closeOpenText(out);
      const id = itemIdFor('fc', this.id ?? '', this.items.length);
      tracked = this.open<ResponsesFunctionCallItem>(
        {
          id,
          type: 'function_call',
          call_id: callId ?? id,
          name: asString(fn.name) ?? '',
          arguments: '',
          status: 'in_progress',
        },
        out,
      );
      this.calls.set(key, tracked);
    } else if (!tracked.item.name) {
      tracked.item.name = asString(fn.name) ?? '';
    }
    const args = asString(fn.arguments);
    if (args) {
      tracked.item.arguments += args;
      out.push(
        this.emit({
          type: 'response.function_call_arguments.delta',
          item_id: tracked.item.id,
          output_index: tracked.index,
          delta: args,
        }),
      );
    }
  }

  private closePart(tracked: Tracked<ResponsesMessageItem>, out: ResponsesStreamEvent[]): void {
    const contentIndex = tracked.openPart;
    const part = contentIndex === undefined ? undefined : tracked.item.content[contentIndex];
    tracked.openPart = undefined;
    if (!part || contentIndex === undefined) return;
    const at = { item_id: tracked.item.id, output_index: tracked.index, content_index: contentIndex };
    if (part.type === 'output_text') {
      out.push(this.emit({ type: 'response.output_text.done', ...at, text: part.text, logprobs: [] }));
    } else {
      out.push(this.emit({ type: 'response.refusal.done', ...at, refusal: part.refusal }));
    }
    out.push(this.emit({ type: 'response.content_part.done', ...at, part }));
  }

  private close(tracked: Tracked, out: ResponsesStreamEvent[], status: ItemStatus): void {
    tracked.open = false;
    const item = tracked.item;
    const at = { item_id: item.id, output_index: tracked.index };
    if (item.type === 'message') {
      this.closePart(tracked as Tracked<ResponsesMessageItem>, out);
    } else if (item.type === 'reasoning') {
      const part = item.content[0] ?? { type: 'reasoning_text', text: '' };
      out.push(this.emit({ type: 'response.reasoning_text.done', ...at, content_index: 0, text: part.text }));
      out.push(this.emit({ type: 'response.content_part.done', ...at, content_index: 0, part }));
    } else {
      out.push(
        this.emit({
          type: 'response.function_call_arguments.done',
          ...at,
          arguments: item.arguments,
          name: item.name,
        }),
      );
    }
    item.status = status;
    out.push(this.emit({ type: 'response.output_item.done', output_index: tracked.index, item }));
  }
}
