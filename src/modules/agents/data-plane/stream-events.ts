import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { AgentHistoryService } from '../history/agent-history.service.js';
import { PushRelayService } from '../push/push-relay.service.js';
import { taskInfoOf, type TaskInfo } from './a2a-wire.js';
import type { AuthorizedCall } from './agent-access.service.js';
import { relaySse, SseStreamTracker, type SseErrorEvent, type SseRelayResult } from '../../../core/http/sse-relay.js';
import type { UpstreamCall } from './upstream-call.js';

type Obj = Record<string, unknown>;

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

/** How one event reads for history: whether it reports a failure, and the error object it carries. */
export interface StreamEventOutcome {
  failed: boolean;
  error: Obj | null;
}

/** The parent row's binding-specific parts. */
export interface StreamSummary {
  operation: string;
  failed: boolean;
  error: Obj | null;
  request_payload: unknown;
}

/**
 * One relayed SSE stream, binding-neutral: one `StreamEvent` history row per event under a parent row written at the
 * end with the task info merged over all events, and the push config bound to the first task id the stream names.
 */
export class StreamEventTracker {
  readonly parentId = randomUUID();
  private info: TaskInfo;
  private bound = false;

  constructor(
    private readonly deps: StreamEventRecorder,
    private readonly binding: StreamBinding,
    private readonly call: StreamCall,
    private readonly pushRowId: string | undefined,
    initialInfo: TaskInfo,
  ) {
    this.info = initialInfo;
  }

  relay(
    request: FastifyRequest,
    reply: FastifyReply,
    upstream: Pick<UpstreamCall, 'response' | 'abort'>,
    handlers: StreamEventHandlers,
    extraHeaders: Record<string, string> = {},
  ): Promise<SseRelayResult> {
    return relaySse(
      {
        request,
        reply,
        upstream: upstream.response,
        abort: upstream.abort,
        tracker: this.deps.streams,
        onEvent: (data) => handlers.onEvent(parseSseData(data)),
        formatError: (err) => handlers.formatError(err),
      },
      extraHeaders,
    );
  }

  /** `taskSource` is the part of the event that names the task (the JSON-RPC `result`, the whole REST event). */
  record(event: unknown, taskSource: unknown, outcome: StreamEventOutcome): void {
    const eventInfo = taskInfoOf(taskSource);
    this.info = { ...this.info, ...Object.fromEntries(Object.entries(eventInfo).filter(([, v]) => v !== undefined)) };
    if (!this.bound && eventInfo.task_id && this.pushRowId) {
      this.bound = true;
      void this.deps.push.bind(this.pushRowId, eventInfo.task_id).catch(() => undefined);
    }
    this.deps.history.record({
      agent_name: this.call.name,
      operation: 'StreamEvent',
      protocol_binding: this.binding,
      virtual_key_id: this.call.call.virtualKey.id,
      ...eventInfo,
      status: outcome.failed ? 'error' : 'success',
      status_code: 200,
      latency_ms: performance.now() - this.call.started,
      error: outcome.error,
      response_payload: event,
      parent_id: this.parentId,
    });
  }

  /** Records the parent row (the access-log line of the request already carries the stream's outcome). */
  finish(_request: FastifyRequest, result: SseRelayResult, summary: StreamSummary): void {
    this.deps.history.record({
      id: this.parentId,
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
      response_payload: { events: result.events, client_closed: result.clientClosed },
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
