import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A `: keep-alive` comment goes out this often on an SSE response (proxies and clients drop silent connections). */
export const KEEP_ALIVE_MS = 15_000;
const KEEP_ALIVE = ': keep-alive\n\n';

/** What a stream in flight is cancelled through: an AbortController, or a Cancellation. */
export interface Abortable {
  abort(reason?: unknown): void;
}

/**
 * The streams in flight. A hijacked response keeps its connection open past Fastify's own shutdown handling, so on
 * shutdown every stream is aborted (upstream call cancelled, client stream ended) instead of holding the process.
 */
@Injectable()
export class SseStreamTracker implements BeforeApplicationShutdown {
  private readonly active = new Set<Abortable>();

  add(abort: Abortable): () => void {
    this.active.add(abort);
    return () => this.active.delete(abort);
  }

  beforeApplicationShutdown(): void {
    for (const abort of this.active) abort.abort(new Error('gateway shutting down'));
    this.active.clear();
  }
}

/**
 * Writes the SSE response head ourselves: after `hijack()` Fastify's hooks no longer run, so the headers the reply
 * already holds (CORS set by its onRequest hook, as `sendRawJson` does) go out with ours.
 */
export function startSse(
  request: FastifyRequest,
  reply: FastifyReply,
  extra: Record<string, string> = {},
  options: { flush?: boolean } = {},
): ServerResponse {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
    ...extra,
  });
  // Flushed at once by default, so a client sees the head before the first event; `flush: false` lets the head leave
  // with the first write (one system call fewer when that write follows at once).
  if (options.flush !== false) raw.flushHeaders();
  return raw;
}

export interface SseWriterOptions {
  /** Keep-alive comment interval; `false` for a framing that is not SSE text (a binary event stream, a JSON array). */
  keepAliveMs?: number | false;
}

/**
 * The one writer of a streamed response (inference in every caller framing, A2A relays): whole events are appended
 * as text (or binary frames, for a native binary framing) and leave together once the current turn of the event loop
 * is over, so a burst decoded from one upstream read costs one system call and no event waits for a later read; a
 * `: keep-alive` comment goes out every 15 s on SSE text; `end()` sends what is left with the end of the response.
 */
export class SseWriter {
  private out = '';
  /** Binary frames waiting for the next write; `out` stays empty then. */
  private frames: Uint8Array[] = [];
  /** The deferred flush waiting for the end of this event-loop turn. */
  private flushing: NodeJS.Immediate | undefined;
  private readonly keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly raw: ServerResponse,
    options: SseWriterOptions = {},
  ) {
    const every = options.keepAliveMs ?? KEEP_ALIVE_MS;
    if (every !== false) {
      this.keepAlive = setInterval(this.ping, every);
      this.keepAlive.unref();
    }
  }

  /** Whether the response is over (ended, or the client went away): nothing more is written. */
  get closed(): boolean {
    return this.raw.writableEnded || this.raw.destroyed;
  }

  /** Whole events of SSE text (or any text framing), written at the next flush. */
  text(events: string): void {
    this.out += events;
  }

  /** A binary frame, written at the next flush. */
  frame(bytes: Uint8Array): void {
    this.frames.push(bytes);
  }

  /** Sends what waits once this turn of the event loop is over (`setImmediate` runs before the next I/O poll). */
  flush(): void {
    if (this.flushing === undefined && (this.out !== '' || this.frames.length > 0)) {
      this.flushing = setImmediate(this.flushNow);
    }
  }

  /** Sends what is left with the end of the response (one write), and stops the keep-alives. */
  end(): void {
    this.stop();
    if (!this.raw.writableEnded) this.raw.end(this.take());
  }

  /** Stops the timers without ending the response (a relay whose response was ended by an abort). */
  stop(): void {
    if (this.flushing !== undefined) {
      clearImmediate(this.flushing);
      this.flushing = undefined;
    }
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
  }

  private readonly flushNow = (): void => {
    this.flushing = undefined;
    // A client that went away meanwhile: nothing more to send.
    if (this.closed) return;
    const pending = this.take();
    if (pending.length > 0) this.raw.write(pending);
  };

  private readonly ping = (): void => {
    if (this.closed || this.frames.length > 0) return;
    this.raw.write(`${this.out}${KEEP_ALIVE}`);
    this.out = '';
  };

  /** What waits to be written, taken: the binary frames (then `out` is empty), else the text. */
  private take(): Buffer | string {
    if (this.frames.length > 0) {
      const bytes = Buffer.concat(this.frames);
      this.frames = [];
      return bytes;
    }
    const text = this.out;
    this.out = '';
    return text;
  }
}

/** Sends a whole (non-SSE) upstream answer as one SSE event (a2a-python answers some stream errors as plain JSON). */
export function sendSingleSseEvent(request: FastifyRequest, reply: FastifyReply, data: string): void {
  const raw = startSse(request, reply);
  raw.end(`data: ${data}\n\n`);
}
