import type { ProviderError, StreamDecoder, StreamOutput, Usage } from './provider-adapter.js';
import { SseParser, type SseMessage } from '../../../../core/http/sse/sse-parser.js';

/**
 * The life cycle every provider stream shares: SSE framing, nothing decoded once the stream is closed (its
 * terminator arrived or it failed), and `end` reporting a stream that stopped early. A failure carries the usage the
 * provider reported before it, since the provider bills it.
 */
export abstract class SseStreamDecoder implements StreamDecoder {
  private readonly sse = new SseParser();
  /** The terminator arrived, or the stream failed: whatever follows is ignored. */
  protected closed = false;

  push(text: string): StreamOutput[] {
    return this.decode(this.sse.push(text), false);
  }

  end(): StreamOutput[] {
    const out = this.decode(this.sse.end(), true);
    if (!this.closed) {
      const error = this.endedEarly();
      if (error) this.fail(out, error);
      this.closed = true;
    }
    return out;
  }

  protected fail(out: StreamOutput[], error: ProviderError): void {
    this.closed = true;
    const billedUsage = this.billedUsage();
    out.push({ kind: 'error', error: billedUsage ? { ...error, billedUsage } : error });
  }

  /** What the provider counted (and bills) so far, attached to a failure; none unless a decoder knows. */
  protected billedUsage(): Usage | undefined {
    return undefined;
  }

  /** `flushed`: the unterminated tail read at end(), which a stream cut mid-event leaves behind. */
  protected abstract message(message: SseMessage, out: StreamOutput[], flushed: boolean): void;

  /** The error of a stream that ended without closing, or undefined when it still delivered everything. */
  protected abstract endedEarly(): ProviderError | undefined;

  private decode(messages: SseMessage[], flushed: boolean): StreamOutput[] {
    const out: StreamOutput[] = [];
    for (const message of messages) {
      if (this.closed) break;
      this.message(message, out, flushed);
    }
    return out;
  }
}
