import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayException } from '../errors/gateway.exception.js';
import type { OutboundResponse } from '../outbound/outbound-http.service.js';
import { Utf8StreamText } from './utf8-stream-text.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Fields the access-log line adds (a relayed stream's event count). */
    logFields?: Record<string, unknown>;
  }
}

export const KEEP_ALIVE_MS = 15_000;

/** What a relay in flight is cancelled through: an AbortController, or a Cancellation. */
export interface Abortable {
  abort(reason?: unknown): void;
}

/**
 * The SSE relays in flight. A hijacked response keeps its connection open past Fastify's own shutdown handling, so on
 * shutdown every relay is aborted (upstream call cancelled, client stream ended) instead of holding the process.
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

export interface SseRelayOptions {
  request: FastifyRequest;
  reply: FastifyReply;
  upstream: OutboundResponse;
  /** Aborted when the client goes away (cancels the upstream call). */
  abort: AbortController;
  /** Each event's joined `data:` payload, in order. */
  onEvent(data: string): void;
  /**
   * The last event describing a failure after the stream started (the status line is already sent): a `data:`
   * payload, or an event name with its payload.
   */
  formatError(err: unknown): SseErrorEvent;
  keepAliveMs?: number;
  tracker?: SseStreamTracker;
}

export type SseErrorEvent = string | { event: string; data: string };

export interface SseRelayResult {
  events: number;
  clientClosed: boolean;
  error?: unknown;
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

function dataOf(block: string): string | undefined {
  const lines = block.split(/\r?\n/);
  const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(l.startsWith('data: ') ? 6 : 5));
  return data.length ? data.join('\n') : undefined;
}

/**
 * Relays an upstream SSE body event by event: each complete event (blank-line terminated) is written and flushed as
 * soon as it arrives, comments included; a `: keep-alive` comment goes out every 15 s; a client disconnect aborts the
 * upstream call.
 */
export async function relaySse(
  options: SseRelayOptions,
  extraHeaders: Record<string, string> = {},
): Promise<SseRelayResult> {
  const { upstream, abort } = options;
  const raw = startSse(options.request, options.reply, extraHeaders);
  const result: SseRelayResult = { events: 0, clientClosed: false };
  // The one access-log line of this request (written when the response ends) carries the stream's outcome.
  const logged = { sse_events: 0, client_closed: false };
  options.request.logFields = { ...options.request.logFields, stream: logged };
  let finished = false;
  const untrack = options.tracker?.add(abort);
  abort.signal.addEventListener('abort', () => {
    upstream.body.destroy();
    if (!raw.writableEnded) raw.end();
  });
  raw.on('close', () => {
    if (!finished) {
      result.clientClosed = true;
      logged.client_closed = true;
      abort.abort(new Error('client disconnected'));
      upstream.body.destroy();
    }
  });
  const keepAlive = setInterval(() => {
    if (!raw.writableEnded) raw.write(': keep-alive\n\n');
  }, options.keepAliveMs ?? KEEP_ALIVE_MS);
  keepAlive.unref();

  const decoder = new Utf8StreamText();
  let buffer = '';
  const emit = (block: string) => {
    if (block.trim() === '') return;
    raw.write(`${block}\n\n`);
    const data = dataOf(block);
    if (data !== undefined) {
      result.events++;
      logged.sse_events = result.events;
      options.onEvent(data);
    }
  };
  try {
    for await (const chunk of upstream.body) {
      buffer += decoder.write(chunk as Buffer);
      for (;;) {
        const match = /\r?\n\r?\n/.exec(buffer);
        if (!match) break;
        emit(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    }
    buffer += decoder.end();
    emit(buffer);
  } catch (err) {
    if (!result.clientClosed) {
      result.error = midStreamFailure(err);
      if (!raw.writableEnded) raw.write(errorBlock(options.formatError(result.error)));
    }
  } finally {
    finished = true;
    untrack?.();
    clearInterval(keepAlive);
    if (!raw.writableEnded) raw.end();
  }
  return result;
}

/**
 * A failure reading the upstream's body after the stream started: the peer went away or broke the connection, so it
 * is the upstream's fault (502 `provider_connection_failed`), never a gateway 500.
 */
function midStreamFailure(err: unknown): GatewayException {
  if (err instanceof GatewayException) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const detail = typeof code === 'string' ? ` (${code})` : '';
  return new GatewayException(502, 'upstream_error', `The upstream connection failed during the stream${detail}`, {
    reason: 'provider_connection_failed',
    cause: err,
  });
}

function errorBlock(event: SseErrorEvent): string {
  if (typeof event === 'string') return `data: ${event}\n\n`;
  return `event: ${event.event}\ndata: ${event.data}\n\n`;
}

/** Sends a whole (non-SSE) upstream answer as one SSE event (a2a-python answers some stream errors as plain JSON). */
export function sendSingleSseEvent(request: FastifyRequest, reply: FastifyReply, data: string): void {
  const raw = startSse(request, reply);
  raw.end(`data: ${data}\n\n`);
}
