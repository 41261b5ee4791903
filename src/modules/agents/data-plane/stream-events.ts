import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { logErrorResponse } from '../../../core/errors/gateway-error.filter.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { AgentHistoryService } from '../history/agent-history.service.js';
import { MAX_PAYLOAD_CHARS } from '../../../core/secrets/payload-redaction.js';
import { PushRelayService } from '../push/push-relay.service.js';
import { taskInfoOf, type TaskInfo } from './a2a-wire.js';
import type { AuthorizedCall } from './agent-access.service.js';
import { relaySse, type SseErrorEvent, type SseRelayResult } from '../../../core/http/sse/sse-relay.js';
import { SseStreamTracker } from '../../../core/http/sse/sse-writer.js';
import type { UpstreamCall } from './upstream-call.js';

type Obj = Record<string, unknown>;

/** Events kept in a stream's history row; later ones are only counted (`truncated_events`). */
export const MAX_STREAM_EVENTS = 1000;
/** Characters of event data kept in a stream's history row; the event that would pass it and later ones are counted. */
export const MAX_STREAM_EVENT_CHARS = 1024 * 1024;

/** What every relayed stream records to; `start` gives one stream its tracker. */
@Injectable()
export class StreamEventRecorder {
  constructor(
    readonly history: AgentHistoryService,
    readonly push: PushRelayService,
    readonly streams: SseStreamTracker,
    @Inject(LOGGER) readonly logger: Logger,
  ) {}

  start(
    binding: StreamBinding,
    call: StreamCall,
    pushRowId: string | undefined,
    initialInfo: TaskInfo,
  ): StreamEventTracker {
    return new StreamEventTracker(this, binding, call, pushRowId, initialInfo);
  }
}

export type StreamBinding = 'JSONRPC' | 'HTTP+JSON';

/** The streamed call (both bindings' call records have these). */
export interface StreamCall {
  name: string;
  call: Pick<AuthorizedCall, 'virtualKey'>;
  /** `performance.now()` when the call arrived. */
  started: number;
}

export interface StreamEventHandlers {
  /** Each event's data, parsed as JSON (the raw text when it is not JSON). */
  onEvent(event: unknown): void;
  formatError(err: unknown): SseErrorEvent;
}

/**
 * How one event reads for history: whether it reports a failure, and the error object it carries. The stream's row
 * takes its status and error from the StreamSummary the proxy builds from these.
 */
export interface StreamEventOutcome {
  failed: boolean;
  error: Obj | null;
}

/** The stream row's binding-specific parts. */
export interface StreamSummary {
  operation: string;
  failed: boolean;
  error: Obj | null;
  request_payload: unknown;
}

/**
 * One relayed SSE stream, binding-neutral: ONE history row written when the stream ends, whose `response_payload` holds
 * the events in order (`{ events, event_count, truncated_events?, client_closed }`, at most MAX_STREAM_EVENTS events
 * and MAX_STREAM_EVENT_CHARS of their data; the rest only counted) and whose task columns merge the task info of every
 * event. The push config is bound to the first task id the stream names.
 */
export class StreamEventTracker {
  private info: TaskInfo;
  private bound = false;
  private readonly events: unknown[] = [];
  private eventCount = 0;
  private keptChars = 0;
  /** Once an event does not fit, no later one is kept either: the stored events are the start of the stream. */
  private full = false;
  /** Length of the `data:` text of the event being recorded (set by the relay, which has the raw text). */
  private currentEventChars: number | undefined;

  constructor(
    private readonly deps: StreamEventRecorder,
    private readonly binding: StreamBinding,
    private readonly call: StreamCall,
    private readonly pushRowId: string | undefined,
    initialInfo: TaskInfo,
  ) {
    this.info = initialInfo;
  }

  /**
   * Relays the stream. A failure after it started is sent as its last event (`formatError`) and logged with the same
   * `event_id` the event carries (one id per failure, `eventIdOf`), so an operator finds the event's log line.
   */
  async relay(
    request: FastifyRequest,
    reply: FastifyReply,
    upstream: Pick<UpstreamCall, 'response' | 'abort'>,
    handlers: StreamEventHandlers,
    extraHeaders: Record<string, string> = {},
  ): Promise<SseRelayResult> {
    const result = await relaySse(
      {
        request,
        reply,
        upstream: upstream.response,
        abort: upstream.abort,
        tracker: this.deps.streams,
        onEvent: (data) => {
          this.currentEventChars = data.length;
          try {
            handlers.onEvent(parseSseData(data));
          } finally {
            this.currentEventChars = undefined;
          }
        },
        formatError: (err) => handlers.formatError(err),
      },
      extraHeaders,
    );
    if (result.error !== undefined) {
      logErrorResponse(this.deps.logger, request, toErrorResponse(result.error, request.errorFields), result.error);
    }
    return result;
  }

  /**
   * Accumulates one event for the stream's history row (in memory, bounded). `taskSource` is the part of the event
   * that names the task (the JSON-RPC `result`, the whole REST event). Failures are summarised by `finish`.
   */
  record(event: unknown, taskSource: unknown, _outcome: StreamEventOutcome): void {
    const eventInfo = taskInfoOf(taskSource);
    this.info = { ...this.info, ...Object.fromEntries(Object.entries(eventInfo).filter(([, v]) => v !== undefined)) };
    if (!this.bound && eventInfo.task_id && this.pushRowId) {
      this.bound = true;
      void this.deps.push.bind(this.pushRowId, eventInfo.task_id).catch(() => undefined);
    }
    this.eventCount++;
    if (this.full) return;
    const chars = this.currentEventChars ?? (JSON.stringify(event) ?? '').length;
    if (this.events.length >= MAX_STREAM_EVENTS || this.keptChars + chars > MAX_STREAM_EVENT_CHARS) {
      this.full = true;
      return;
    }
    this.events.push(event);
    this.keptChars += chars;
  }

  /** Records the stream's one history row (the request's access-log line already carries the stream's outcome). */
  finish(_request: FastifyRequest, result: SseRelayResult, summary: StreamSummary): void {
    const truncated = this.eventCount - this.events.length;
    this.deps.history.record({
      agent_name: this.call.name,
      operation: summary.operation,
      protocol_binding: this.binding,
      virtual_key_id: this.call.call.virtualKey.id,
      ...this.info,
      status: summary.failed ? 'error' : 'success',
      status_code: 200,
      latency_ms: performance.now() - this.call.started,
      error: summary.error,
      request_payload: summary.request_payload,
      response_payload: {
        events: this.events,
        event_count: this.eventCount,
        ...(truncated > 0 ? { truncated_events: truncated } : {}),
        client_closed: result.clientClosed,
      },
      // The kept events plus room for the envelope and redaction markers.
      payload_max_chars: MAX_STREAM_EVENT_CHARS + MAX_PAYLOAD_CHARS,
    });
  }
}

/** An SSE `data:` payload as JSON, or the raw text when it is not JSON (relayed and recorded as is). */
export function parseSseData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
