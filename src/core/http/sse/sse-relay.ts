import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayException } from '../../errors/gateway.exception.js';
import type { OutboundResponse } from '../../outbound/outbound-http.service.js';
import { Utf8StreamText } from '../utf8-stream-text.js';
import { SseParser } from './sse-parser.js';
import { SseWriter, startSse, type SseStreamTracker } from './sse-writer.js';
import { streamFailure } from './stream-failure.js';

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
  formatError(err: GatewayException): SseErrorEvent;
  keepAliveMs?: number;
  tracker?: SseStreamTracker;
}

export type SseErrorEvent = string | { event: string; data: string };

export interface SseRelayResult {
  events: number;
  clientClosed: boolean;
  error?: GatewayException;
}

/**
 * Relays an upstream SSE body event by event (the A2A data plane): each complete event, comments included, is passed
 * on through the core's writer as soon as the read that completed it is handled; keep-alives every 15 s; a client
 * disconnect aborts the upstream call; a failure after the start is classified by `streamFailure` (a stall 504, a
 * break 502, as on the inference plane) and sent as the last event.
 */
export async function relaySse(
  options: SseRelayOptions,
  extraHeaders: Record<string, string> = {},
): Promise<SseRelayResult> {
  const { upstream, abort } = options;
  const raw = startSse(options.request, options.reply, extraHeaders);
  const writer = new SseWriter(raw, { keepAliveMs: options.keepAliveMs });
  const result: SseRelayResult = { events: 0, clientClosed: false };
  // The one access-log line of this request (written when the response ends) carries the stream's outcome.
  const logged = { sse_events: 0, client_closed: false };
  options.request.logFields = { ...options.request.logFields, stream: logged };
  let finished = false;
  const untrack = options.tracker?.add(abort);
  abort.signal.addEventListener('abort', () => {
    upstream.body.destroy();
    writer.end();
  });
  raw.on('close', () => {
    if (!finished) {
      result.clientClosed = true;
      logged.client_closed = true;
      abort.abort(new Error('client disconnected'));
      upstream.body.destroy();
    }
  });

  const text = new Utf8StreamText();
  const parser = new SseParser();
  const pass = (blocks: ReturnType<SseParser['pushBlocks']>) => {
    for (const block of blocks) {
      writer.text(`${block.raw}\n\n`);
      if (block.data !== undefined) {
        result.events++;
        logged.sse_events = result.events;
        options.onEvent(block.data);
      }
    }
  };
  try {
    for await (const chunk of upstream.body) {
      pass(parser.pushBlocks(text.write(chunk as Buffer)));
      writer.flush();
    }
    pass(parser.pushBlocks(text.end()));
    pass(parser.endBlocks());
  } catch (err) {
    if (!result.clientClosed) {
      result.error = streamFailure(err);
      if (!writer.closed) writer.text(errorBlock(options.formatError(result.error)));
    }
  } finally {
    finished = true;
    untrack?.();
    writer.end();
  }
  return result;
}

function errorBlock(event: SseErrorEvent): string {
  if (typeof event === 'string') return `data: ${event}\n\n`;
  return `event: ${event.event}\ndata: ${event.data}\n\n`;
}
