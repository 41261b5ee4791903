import { nowSeconds } from './native-adapter-parts.js';
import type { Json, StreamOutput, Usage } from './provider-adapter.js';
import type { SseMessage } from '../../../../core/http/sse/sse-parser.js';
import { SseStreamDecoder } from './sse-stream-decoder.js';
import { parseJson } from './wire-json.js';

/**
 * A provider's own JSON stream events (Anthropic, Gemini) turned into `chat.completion.chunk`s: each event's data is
 * parsed here, and the chunks share one id, model and creation time.
 */
export abstract class TranslatedChatStreamDecoder extends SseStreamDecoder {
  protected readonly created = nowSeconds();
  protected id = '';

  protected constructor(
    private readonly provider: string,
    protected model: string,
  ) {
    super();
  }

  protected message(message: SseMessage, out: StreamOutput[], flushed: boolean): void {
    if (message.data === '') return;
    const payload = parseJson(message.data);
    if (payload === undefined) {
      // A cut-off event in the tail read at end() is the truncation that end() reports.
      if (!flushed) {
        const unreadable = `${this.provider} sent an unreadable event`;
        this.fail(out, { status: 502, reason: 'provider_server_error', message: unreadable });
      }
      return;
    }
    this.event(message.event, payload, out);
  }

  /** One parsed event (`name` is the SSE `event:` field, if any). */
  protected abstract event(name: string | undefined, payload: unknown, out: StreamOutput[]): void;

  protected chunk(choices: Json[], usage?: Usage): StreamOutput {
    const chunk: Json = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices,
    };
    return usage ? { kind: 'chunk', chunk, usage } : { kind: 'chunk', chunk };
  }
}
