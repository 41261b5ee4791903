import type { Json, StreamDecoder, StreamOutput } from '../providers/shared/provider-adapter.js';
import { asObject, asString } from '../providers/shared/wire-json.js';
import { chatFinishReasonOf, chatIdFor } from './responses-to-chat-response.js';

/** A function call being streamed: its chat tool-call index and whether any argument text went out. */
interface OpenCall {
  index: number;
  sentArguments: boolean;
}

/**
 * A Responses API event stream → `chat.completion.chunk`s (the inverse of `ChatToResponsesStream`), for a chat
 * caller of a model served through `/responses` only. The first chunk opens the assistant turn; text, refusal and
 * reasoning deltas become `content`, `refusal` and `reasoning_content` deltas; a `function_call` item opens a tool
 * call (its `call_id` as id) whose argument deltas follow under the same index; `response.completed` (or
 * `.incomplete`) is the finish chunk. Bookkeeping events (content parts, `.done` events whose text was streamed)
 * produce nothing.
 */
export class ResponsesToChatStream {
  private id = '';
  private created = Math.floor(Date.now() / 1000);
  private started = false;
  /** Item id (and output index) → its tool call. */
  private readonly calls = new Map<string, OpenCall>();
  private callCount = 0;

  constructor(private model: string) {}

  /** One typed event → the chunks it stands for. */
  push(event: string, data: Json): Json[] {
    const out: Json[] = [];
    const response = asObject(data.response);
    if (response) this.identify(response);
    if (!this.started && event !== 'response.failed') {
      this.started = true;
      out.push(this.chunk({ role: 'assistant', content: '' }));
    }
    switch (event) {
      case 'response.output_item.added':
        this.openCall(data, out);
        break;
      case 'response.function_call_arguments.delta':
        this.arguments(data, asString(data.delta), out);
        break;
      case 'response.function_call_arguments.done': {
        // A provider that sends the arguments whole, without deltas.
        const call = this.callOf(data);
        if (call && !call.sentArguments) this.arguments(data, asString(data.arguments), out);
        break;
      }
      case 'response.output_text.delta':
        if (typeof data.delta === 'string' && data.delta) out.push(this.chunk({ content: data.delta }));
        break;
      case 'response.refusal.delta':
        if (typeof data.delta === 'string' && data.delta) out.push(this.chunk({ refusal: data.delta }));
        break;
      case 'response.reasoning_text.delta':
      case 'response.reasoning_summary_text.delta':
        if (typeof data.delta === 'string' && data.delta) out.push(this.chunk({ reasoning_content: data.delta }));
        break;
      case 'response.completed':
      case 'response.incomplete':
        out.push(this.chunk({}, chatFinishReasonOf(response ?? {}, this.callCount > 0)));
        break;
      default:
        break;
    }
    return out;
  }

  private identify(response: Json): void {
    if (!this.id && typeof response.id === 'string') this.id = chatIdFor(response.id);
    if (typeof response.model === 'string' && response.model) this.model = response.model;
    if (typeof response.created_at === 'number') this.created = response.created_at;
  }

  private openCall(data: Json, out: Json[]): void {
    const item = asObject(data.item);
    if (item?.type !== 'function_call') return;
    const call: OpenCall = { index: this.callCount++, sentArguments: false };
    if (typeof item.id === 'string') this.calls.set(item.id, call);
    this.calls.set(`#${String(data.output_index)}`, call);
    const args = asString(item.arguments) ?? '';
    call.sentArguments = args !== '';
    out.push(
      this.chunk({
        tool_calls: [
          {
            index: call.index,
            id: asString(item.call_id) ?? asString(item.id),
            type: 'function',
            function: { name: asString(item.name) ?? '', arguments: args },
          },
        ],
      }),
    );
  }

  private callOf(data: Json): OpenCall | undefined {
    return (
      (typeof data.item_id === 'string' ? this.calls.get(data.item_id) : undefined) ??
      this.calls.get(`#${String(data.output_index)}`)
    );
  }

  private arguments(data: Json, text: string | undefined, out: Json[]): void {
    const call = this.callOf(data);
    if (!call || !text) return;
    call.sentArguments = true;
    out.push(this.chunk({ tool_calls: [{ index: call.index, function: { arguments: text } }] }));
  }

  private chunk(delta: Json, finishReason: string | null = null): Json {
    return {
      id: this.id || chatIdFor(undefined),
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
  }
}

/**
 * A Responses stream decoder's outputs as chat outputs: typed events become chunks (the terminal event's usage goes
 * on the finish chunk), errors pass as they are.
 */
export class ResponsesAsChatStreamDecoder implements StreamDecoder {
  private readonly chat: ResponsesToChatStream;

  constructor(
    private readonly responses: StreamDecoder,
    model: string,
  ) {
    this.chat = new ResponsesToChatStream(model);
  }

  push(text: string): StreamOutput[] {
    return this.map(this.responses.push(text));
  }

  end(): StreamOutput[] {
    return this.map(this.responses.end());
  }

  private map(outputs: StreamOutput[]): StreamOutput[] {
    return outputs.flatMap((output): StreamOutput[] => {
      if (output.kind !== 'event') return [output];
      const chunks = this.chat.push(output.event, output.data);
      return chunks.map((chunk, i) =>
        output.usage && i === chunks.length - 1
          ? { kind: 'chunk', chunk, usage: output.usage }
          : { kind: 'chunk', chunk },
      );
    });
  }
}
