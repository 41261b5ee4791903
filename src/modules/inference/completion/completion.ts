import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import type { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { PluginJson } from '../../plugins/index.js';
import { endFailedTrace, endServedTrace } from '../telemetry/inference-tracing.js';
import { InferenceMetrics } from '../telemetry/inference-metrics.js';
import { outputOf } from '../logs/log-content.js';
import { RequestLogRecorder, type CallOrigin, type ServedOutcome } from '../logs/request-log.recorder.js';
import { InferenceCost, freeUsage } from '../pricing/cost.js';
import type { Usage } from '../providers/shared/provider-adapter.js';
import {
  REQUEST_TYPES,
  type InferenceCall,
  type RoutedResult,
  type ServedAnswer,
  type StreamEnd,
  type StreamTap,
} from '../routing/inference-call.js';
import type { Outcome } from './outcome.js';
import { settleAnswered, settleFailed, settleServed, settleStreamed } from './settlement.js';

/** A second completion of the same call is a bug: it throws under test, is ignored in production. */
const STRICT = process.env.NODE_ENV === 'test';

/**
 * The one way an inference request ends (issue 49 item 1). Every exit of the pipeline, returned or thrown, passes
 * `complete` once, which in this order: prices the usage, settles the budget reservation (settlement.ts), records the
 * metrics, the span and the access line's fields, runs the plugins' post-hooks, and writes the log rows. The responder
 * only writes bytes. A unary answer is priced, settled and metered before its bytes (the cost header), its hooks and
 * rows run on a microtask after them, so the caller never waits for them; a stream's after its last byte.
 */
@Injectable()
export class InferenceCompletion {
  private readonly completed = new WeakSet<object>();

  constructor(
    private readonly cost: InferenceCost,
    private readonly metrics: InferenceMetrics,
    private readonly logs: RequestLogRecorder,
  ) {}

  /** The request's log origin, or undefined when logs are off (see `RequestLogRecorder.begin`). */
  origin(request: FastifyRequest, started: number, stream: boolean): CallOrigin | undefined {
    return this.logs.begin(request, started, stream);
  }

  /** A native route known to stream only from its path: its log row captures the stream too. */
  captureStream(origin: CallOrigin): void {
    this.logs.captureStream(origin);
  }

  /** What a provider's stream writer is given: usage chunks priced as `complete` prices, outputs captured. */
  tap(call: InferenceCall, result: RoutedResult): StreamTap {
    const capture = call.log?.capture;
    return {
      price: (usage) => this.cost.price(call, result, usage),
      see: capture ? (output) => capture.add(output) : undefined,
    };
  }

  /** What a replayed stream's writer is given: priced at zero. */
  freeTap(call: InferenceCall): StreamTap {
    const capture = call.log?.capture;
    return { price: freeUsage, see: capture ? (output) => capture.add(output) : undefined };
  }

  complete(
    call: InferenceCall,
    request: FastifyRequest,
    started: number,
    outcome: Extract<Outcome, { kind: 'served' | 'answered' }>,
  ): ServedAnswer;
  complete(
    call: InferenceCall,
    request: FastifyRequest,
    started: number,
    outcome: Extract<Outcome, { kind: 'streamed' | 'replayed' }>,
  ): Promise<void>;
  complete(
    call: InferenceCall | undefined,
    request: FastifyRequest,
    started: number,
    outcome: Extract<Outcome, { kind: 'failed' }>,
  ): void;
  complete(
    call: InferenceCall | undefined,
    request: FastifyRequest,
    started: number,
    outcome: Outcome,
  ): ServedAnswer | Promise<void> | undefined {
    const key: object = call ?? request;
    if (this.completed.has(key)) {
      if (STRICT) throw new Error(`An inference request was completed twice (${outcome.kind})`);
      return outcome.kind === 'streamed' || outcome.kind === 'replayed' ? Promise.resolve() : undefined;
    }
    this.completed.add(key);
    switch (outcome.kind) {
      case 'served':
      case 'answered':
        return this.unary(call!, request, started, outcome);
      case 'streamed':
      case 'replayed':
        return this.streamed(call!, request, started, outcome);
      case 'failed':
        this.failed(call, started, outcome);
        return undefined;
    }
  }

  private unary(
    call: InferenceCall,
    request: FastifyRequest,
    started: number,
    outcome: Extract<Outcome, { kind: 'served' | 'answered' }>,
  ): ServedAnswer {
    const result = outcome.result;
    const fromPlugin = outcome.kind === 'answered';
    // 1 price: a plugin's answer costs nothing.
    const usage = fromPlugin ? freeUsage(outcome.answer.usage) : this.cost.price(call, result, result.unary!.usage);
    let output: ServedOutcome['output'];
    const served = outcome.shape(usage, call.log ? (body) => (output = outputOf(call.kind, body)) : undefined);
    // 2 settle
    if (fromPlugin) settleAnswered(outcome.admission);
    else settleServed(result.admission, usage);
    // 3 metrics, span, access line
    this.record(call, result, request, 200, started, usage);
    // 4 post-response hooks, 5 rows: after the answer is written (the caller sends it synchronously once this
    // returns), the rows after the hooks so they carry what the hooks logged. The row waits, not the caller.
    const log = call.log;
    const plugins = call.plugins;
    const writeRow = log ? () => this.logs.served(call, log, result, { status: 200, usage, output }) : undefined;
    // A binary answer's body is not the answer: post-response hooks (a cache's write) see JSON answers only.
    if (plugins?.wantsResponse && !served.binary) {
      const response = {
        status: 200,
        provider: result.provider,
        model: result.routing.model ?? result.pricedModel,
        body: served.body,
        usage: usage as PluginJson | undefined,
        fromPlugin,
      };
      queueMicrotask(() => void plugins.response(response).then(writeRow));
    } else if (writeRow) queueMicrotask(writeRow);
    return served;
  }

  private async streamed(
    call: InferenceCall,
    request: FastifyRequest,
    started: number,
    outcome: Extract<Outcome, { kind: 'streamed' | 'replayed' }>,
  ): Promise<void> {
    const { result, end } = outcome;
    // 1 price: done by the tap as the usage chunks were written (the caller saw the cost in the stream).
    // 2 settle
    if (outcome.kind === 'replayed') settleAnswered(outcome.admission);
    else settleStreamed(result.admission, end);
    // 3 metrics, span, access line
    this.record(call, result, request, end.status, started, end.usage, end.ttftMs, end.failure);
    // 4 stream-end hooks, 5 rows (so they carry what the hooks logged)
    const plugins = call.plugins;
    if (plugins?.wantsEnd) {
      await plugins.streamEnd({
        status: end.status,
        provider: result.provider,
        model: result.routing.model ?? result.pricedModel,
        usage: end.usage as PluginJson | undefined,
        failed: end.status !== 200,
        fromPlugin: outcome.kind === 'replayed',
      });
    }
    if (call.log) this.logs.served(call, call.log, result, streamRow(end));
  }

  /** A request that failed before any answer (refused, invalid, every model failed) or on the way out. */
  private failed(
    call: InferenceCall | undefined,
    started: number,
    outcome: Extract<Outcome, { kind: 'failed' }>,
  ): void {
    const err = outcome.error;
    // 2 settle: nothing was answered, so nothing was used.
    settleFailed(outcome.admission);
    // 3 metrics and span (a request refused before its call was built has neither)
    if (call) {
      const view = toErrorResponse(err);
      const info = (view.body.extra_fields.routing_info ?? {}) as { provider?: string; model?: string; key?: string };
      this.metrics.record({
        provider: info.provider ?? 'unknown',
        model: info.model ?? String(call.body.model),
        key: info.key ?? '',
        virtual_key: call.virtualKey?.name,
        request_type: REQUEST_TYPES[call.kind],
        status: view.status,
        error_type: view.body.extra_fields.error_type as string | undefined,
        retries: call.progress.retries,
        latency_seconds: (performance.now() - started) / 1000,
      });
      if (call.trace) endFailedTrace(call.trace, call, view, info);
    }
    // 5 rows: an agent round that failed is logged as its own row (the earlier rounds were logged as served).
    const origin = call ? call.log : outcome.origin;
    if (origin) this.logs.failed(call, origin, outcome.requestKind, outcome.body, err);
  }

  private record(
    call: InferenceCall,
    result: RoutedResult,
    request: FastifyRequest,
    status: number,
    started: number,
    usage?: Usage,
    ttftMs?: number,
    failure?: GatewayException,
  ): void {
    if (call.trace) endServedTrace(call.trace, result, status, usage, failure);
    this.metrics.record({
      provider: result.provider,
      model: result.routing.model ?? '',
      key: result.keyName,
      virtual_key: call.virtualKey?.name,
      request_type: REQUEST_TYPES[call.kind],
      status,
      error_type: failure?.reason,
      retries: result.retries,
      fallback_index: result.fallbackIndex,
      latency_seconds: (performance.now() - started) / 1000,
      ttft_seconds: ttftMs === undefined ? undefined : ttftMs / 1000,
      usage,
      cost: usage?.cost,
    });
    // The access line of an inference request says who and what: never a secret (names and ids only).
    request.logFields = {
      ...request.logFields,
      virtual_key: call.virtualKey?.name,
      provider: result.provider,
      model: result.routing.model,
      total_tokens: usage?.total_tokens,
      cost_usd: usage?.cost?.total_cost,
    };
  }
}

function streamRow(end: StreamEnd): ServedOutcome {
  return { status: end.status, usage: end.usage, ttftMs: end.ttftMs, failure: end.failure };
}
