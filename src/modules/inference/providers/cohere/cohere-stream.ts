import { cohereFinishReason, cohereUsage } from './cohere-response.js';
import type { Json, ProviderError, ProviderTarget, StreamOutput, Usage } from '../shared/provider-adapter.js';
import { TranslatedChatStreamDecoder } from '../shared/translated-chat-stream.js';
import { asObject, isJsonObject } from '../shared/wire-json.js';

/** `delta.message` of a v2 stream event. */
const messageOf = (payload: Json): Json => asObject(asObject(payload.delta)?.message) ?? {};

/**
 * Cohere v2 chat SSE → `chat.completion.chunk`s. The JSON `type` names each event (the `event:` line is not needed):
 * message-start opens the turn, content and tool-plan deltas become content (thinking parts: reasoning) deltas,
 * tool-call-start/delta become tool-call deltas, and message-end, the only terminator, carries the finish reason and
 * the usage. A stream that ends without message-end is an error output.
 */
export class CohereStreamDecoder extends TranslatedChatStreamDecoder {
  /** Content index → the part's type (`text` or `thinking`), from its content-start. */
  private readonly parts = new Map<number, string>();
  /** Tool-call event index → the OpenAI tool-call index. */
  private readonly calls = new Map<number, number>();

  constructor(target: ProviderTarget) {
    super('cohere', target.model);
  }

  protected endedEarly(): ProviderError {
    return { status: 502, reason: 'provider_server_error', message: 'cohere stream ended before message-end' };
  }

  protected event(name: string | undefined, payload: unknown, out: StreamOutput[]): void {
    if (!isJsonObject(payload)) return;
    const type = typeof payload.type === 'string' ? payload.type : (name ?? '');
    const index = Number(payload.index ?? 0);
    switch (type) {
      case 'message-start':
        if (typeof payload.id === 'string') this.id = payload.id;
        out.push(this.delta({ role: 'assistant', content: '' }));
        break;
      case 'content-start': {
        const content = asObject(messageOf(payload).content) ?? {};
        this.parts.set(index, typeof content.type === 'string' ? content.type : 'text');
        this.content(this.parts.get(index)!, content, out);
        break;
      }
      case 'content-delta':
        this.content(this.parts.get(index) ?? 'text', asObject(messageOf(payload).content) ?? {}, out);
        break;
      case 'tool-plan-delta': {
        const plan = messageOf(payload).tool_plan;
        if (typeof plan === 'string' && plan) out.push(this.delta({ content: plan }));
        break;
      }
      case 'tool-call-start': {
        const call = asObject(messageOf(payload).tool_calls) ?? {};
        const fn = asObject(call.function) ?? {};
        const at = this.calls.size;
        this.calls.set(index, at);
        const args = typeof fn.arguments === 'string' ? fn.arguments : '';
        out.push(
          this.delta({
            tool_calls: [{ index: at, id: call.id, type: 'function', function: { name: fn.name, arguments: args } }],
          }),
        );
        break;
      }
      case 'tool-call-delta': {
        const at = this.calls.get(index);
        const fn = asObject(asObject(messageOf(payload).tool_calls)?.function);
        if (at === undefined || typeof fn?.arguments !== 'string' || !fn.arguments) break;
        out.push(this.delta({ tool_calls: [{ index: at, function: { arguments: fn.arguments } }] }));
        break;
      }
      case 'message-end': {
        this.closed = true;
        const delta = asObject(payload.delta) ?? {};
        if (delta.finish_reason === 'ERROR' && typeof delta.error === 'string') {
          this.fail(out, { status: 502, reason: 'provider_server_error', message: delta.error });
          break;
        }
        out.push(this.delta({}, cohereFinishReason(delta.finish_reason), cohereUsage(delta.usage)));
        break;
      }
      default:
        // content-end, tool-call-end, citation-start/end and debug events carry nothing a chunk has a field for.
        break;
    }
  }

  private content(kind: string, content: Json, out: StreamOutput[]): void {
    if (kind === 'thinking') {
      if (typeof content.thinking === 'string' && content.thinking)
        out.push(this.delta({ reasoning_content: content.thinking }));
    } else if (typeof content.text === 'string' && content.text) {
      out.push(this.delta({ content: content.text }));
    }
  }

  /** A chunk of the one choice Cohere answers with. */
  private delta(delta: Json, finishReason: string | null = null, usage?: Usage): StreamOutput {
    return this.chunk([{ index: 0, delta, finish_reason: finishReason }], usage);
  }
}
