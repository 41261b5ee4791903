import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { redactPayload, redactSecrets } from '../../../core/secrets/payload-redaction.js';
import { foldForSearch } from '../../../core/persistence/log-sql.js';
import type { Json, Usage } from '../providers/shared/provider-adapter.js';
import {
  REQUEST_TYPES,
  type ChainFailure,
  type InferenceCall,
  type RawExchange,
  type RoutedResult,
} from '../routing/inference-call.js';
import type { RoutingInfo } from '../routing/routing-info.js';
import type { RequestLogContentEntity } from './entities/request-log-content.entity.js';
import type { RequestLogEntity } from './entities/request-log.entity.js';
import { inputOf, searchTextOf } from './log-content.js';
import { RequestLogStore } from './request-log.store.js';
import { StreamCapture } from './stream-capture.js';
import { logMetadataOf } from '../../../core/http/log-metadata.js';
import { type PluginLogEntry, PluginRegistry } from '../../plugins/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const EMPTY_CONTENT = {
  input_history: null,
  output_message: null,
  params: null,
  tools: null,
};

/** The raw bodies an error carries in its extra fields (`logs.capture_raw`), as text. */
function rawOf(body: { extra_fields?: Record<string, unknown> } | null): RawExchange | undefined {
  const fields = body?.extra_fields;
  if (!fields || (fields.raw_request === undefined && fields.raw_response === undefined)) return undefined;
  const text = (v: unknown) => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));
  return { request: text(fields.raw_request), response: text(fields.raw_response) };
}

/** What a row needs of the call (a request refused before its call was built has only these). */
type LoggedCall = Pick<InferenceCall, 'kind' | 'body' | 'stream'>;

/** Who sent a logged request and when: fixed when the request arrives. */
export interface CallOrigin {
  /** The primary row's id: the request's own id (`x-request-id` of the answer) unless the caller chose that id. */
  logId: string;
  /** Epoch ms and performance.now() at arrival. */
  startedAt: number;
  startedPerf: number;
  virtualKey?: { id: string; name: string; team_id: string | null; customer_id: string | null };
  metadata: Record<string, string> | null;
  capture: StreamCapture | undefined;
  /** `logs.capture_raw`: provider bodies go into the rows and into error extra fields. */
  captureRaw: boolean;
  /** What the plugins logged on the request (the run's array, filled until the row is written). */
  pluginLogs?: PluginLogEntry[];
  /** Set when a plugin answered (a cache hit): its `x-gateway-cache-type`, or null. */
  cacheType?: string | null;
}

/** The end of a served request (the answer sent, or the stream over). */
export interface ServedOutcome {
  status: number;
  usage?: Usage;
  ttftMs?: number;
  failure?: GatewayException;
  /** The answer's output and stop reason (unary); streams take theirs from the capture. */
  output?: { output: unknown; stopReason: string | null };
}

/**
 * Turns an inference request's end into its log rows, off the answer's path: the rows go to the append-log buffer.
 * A request that fell back writes a row per model tried (the primary's carries the request id and the input; each
 * fallback's points at it); the serving row carries the output, usage and cost.
 */
@Injectable()
export class RequestLogRecorder {
  constructor(
    private readonly store: RequestLogStore,
    private readonly config: GatewayConfig,
    private readonly plugins: PluginRegistry,
  ) {}

  // `logs.*` change at run time (PUT /api/config): read on every request, never copied.
  get enabled(): boolean {
    return this.config.logs.enabled;
  }

  private get captureContent(): boolean {
    return this.config.logs.capture_content;
  }

  private get maxContent(): number {
    return this.config.logs.max_content_bytes;
  }

  private get metadataPrefix(): string {
    return this.config.logs.metadata_header_prefix;
  }

  private get captureRaw(): boolean {
    return this.config.logs.capture_raw;
  }

  /**
   * The call's origin, or undefined when logs are off (`logs.enabled`, or the `logging` plugin switched off through
   * `/api/plugins/logging`); `started` is the handler's performance.now().
   */
  begin(request: FastifyRequest, started: number, stream: boolean): CallOrigin | undefined {
    if (!this.enabled || this.plugins.switchedOff('logging')) return undefined;
    const callerId = request.headers['x-request-id'];
    const logId = callerId === undefined && UUID.test(request.id) ? request.id : randomUUID();
    const vk = request.principal?.virtualKey;
    return {
      logId,
      startedAt: Date.now() - (performance.now() - started),
      startedPerf: started,
      virtualKey: vk ? { id: vk.id, name: vk.name, team_id: vk.team_id, customer_id: vk.customer_id } : undefined,
      metadata: logMetadataOf(request.headers, this.metadataPrefix) ?? null,
      capture: stream && this.captureContent ? new StreamCapture(this.maxContent) : undefined,
      captureRaw: this.captureRaw,
    };
  }

  /** Captures the stream of a request that was known to stream only once its native body was converted (by path). */
  captureStream(origin: CallOrigin): void {
    if (this.captureContent) origin.capture ??= new StreamCapture(this.maxContent);
  }

  /** A request that was answered by a provider (possibly after fallbacks). */
  served(call: InferenceCall, origin: CallOrigin, result: RoutedResult, outcome: ServedOutcome): void {
    const ended = performance.now();
    this.writeChain(call, origin, call.chain ?? []);
    const primary = result.fallbackIndex === 0;
    const row = this.baseRow(call, origin, result.routing, result.fallbackIndex, result.modelStartedAt, ended);
    row.provider = result.provider;
    // A plugin's answer (a cache hit) used no key.
    row.selected_key_id = result.keyId || null;
    row.selected_key_name = result.keyName || null;
    row.number_of_retries = result.modelRetries;
    row.status_code = outcome.status;
    if (outcome.ttftMs !== undefined) row.time_to_first_token = outcome.ttftMs;
    this.fillUsage(row, outcome.usage);
    if (outcome.status >= 400 || outcome.failure) {
      const failure =
        outcome.failure ??
        new GatewayException(499, 'bad_request', 'The client closed the request', { reason: 'caller_cancelled' });
      this.fillError(row, failure);
    }
    const produced = origin.capture ? origin.capture.result() : outcome.output;
    row.stop_reason = produced?.stopReason ?? null;
    this.store.append(row, this.content(call, row, primary, produced?.output, result.raw));
  }

  /** A request that got no provider's answer: a row per model tried, or one row when none was. */
  failed(
    call: InferenceCall | undefined,
    origin: CallOrigin,
    kind: InferenceCall['kind'],
    body: unknown,
    err: unknown,
  ): void {
    const ended = performance.now();
    const chain = call?.chain ?? [];
    const view = toErrorResponse(err);
    if (chain.length > 0) {
      const last = chain[chain.length - 1]!;
      this.writeChain(call!, origin, chain.slice(0, -1));
      const row = this.chainRow(call!, origin, last, ended);
      row.status_code = view.status;
      row.error_details = view.body as unknown as Json;
      row.error_type = (view.body.extra_fields.error_type as string | undefined) ?? row.error_type;
      this.store.append(row, this.content(call!, row, last.fallbackIndex === 0, undefined, rawOf(view.body)));
      return;
    }
    const pseudo: LoggedCall = call ?? {
      kind,
      body: body && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : {},
      stream: false,
    };
    const info = (view.body.extra_fields.routing_info ?? {}) as RoutingInfo;
    const row = this.baseRow(pseudo, origin, info, 0, origin.startedPerf, ended);
    if (!row.model && typeof pseudo.body.model === 'string') row.model = pseudo.body.model.slice(0, 255);
    row.stream = pseudo.body.stream === true;
    row.status_code = view.status;
    row.status = 'error';
    row.error_details = view.body as unknown as Json;
    row.error_type = (view.body.extra_fields.error_type as string | undefined) ?? null;
    this.store.append(row, this.content(pseudo, row, true, undefined));
  }

  /** Rows of the models that failed before the one that served (or before the last, on failure). */
  private writeChain(call: InferenceCall, origin: CallOrigin, chain: readonly ChainFailure[]): void {
    for (const failure of chain) {
      const row = this.chainRow(call, origin, failure, failure.endedAt);
      const raw = rawOf(row.error_details);
      this.store.append(row, this.content(call, row, failure.fallbackIndex === 0, undefined, raw));
    }
  }

  private chainRow(call: InferenceCall, origin: CallOrigin, failure: ChainFailure, ended: number): RequestLogEntity {
    const row = this.baseRow(call, origin, failure.routing, failure.fallbackIndex, failure.startedAt, ended);
    row.selected_key_id = failure.keyId ?? null;
    row.selected_key_name = failure.routing.key ?? null;
    row.number_of_retries = failure.retries;
    row.status_code = failure.error.status;
    this.fillError(row, failure.error);
    return row;
  }

  private baseRow(
    call: LoggedCall,
    origin: CallOrigin,
    routing: RoutingInfo,
    fallbackIndex: number,
    startedPerf: number,
    endedPerf: number,
  ): RequestLogEntity {
    const primary = fallbackIndex === 0;
    // The primary row spans the whole request; a fallback's row its own attempts.
    const from = primary ? origin.startedPerf : startedPerf;
    const alias = routing.resolved_key_alias;
    const vk = origin.virtualKey;
    return {
      id: primary ? origin.logId : randomUUID(),
      parent_request_id: primary ? null : origin.logId,
      timestamp: new Date(origin.startedAt + (from - origin.startedPerf)),
      object: REQUEST_TYPES[call.kind],
      provider: routing.provider ?? null,
      model: routing.model ?? null,
      alias: alias ? (routing.is_fallback ? null : (routing.requested_model ?? null)) : null,
      canonical_model_name: alias?.model_name ?? null,
      alias_model_family: alias?.model_family ?? null,
      fallback_index: fallbackIndex,
      number_of_retries: 0,
      selected_key_id: null,
      selected_key_name: routing.key ?? null,
      virtual_key_id: vk?.id ?? null,
      virtual_key_name: vk?.name ?? null,
      team_id: vk?.team_id ?? null,
      customer_id: vk?.customer_id ?? null,
      routing_rule_id: routing.routing_rule_id ?? null,
      status: 'success',
      status_code: 200,
      stream: call.stream,
      latency: Math.max(0, endedPerf - from),
      time_to_first_token: null,
      prompt_tokens: null,
      completion_tokens: null,
      total_tokens: null,
      cost: null,
      stop_reason: null,
      error_type: null,
      content_summary: null,
      search_text: null,
      token_usage: null,
      error_details: null,
      metadata: origin.metadata,
      cache_hit: origin.cacheType !== undefined,
      cache_type: origin.cacheType ?? null,
      plugin_logs: primary && origin.pluginLogs?.length ? JSON.stringify(origin.pluginLogs) : null,
    };
  }

  private fillUsage(row: RequestLogEntity, usage: Usage | undefined): void {
    if (!usage) return;
    row.prompt_tokens = usage.prompt_tokens;
    row.completion_tokens = usage.completion_tokens;
    row.total_tokens = usage.total_tokens;
    row.cost = usage.cost?.total_cost ?? null;
    row.token_usage = usage as unknown as Json;
  }

  private fillError(row: RequestLogEntity, error: GatewayException): void {
    const view = toErrorResponse(error);
    row.status = 'error';
    row.error_details = view.body as unknown as Json;
    row.error_type = (view.body.extra_fields.error_type as string | undefined) ?? error.reason ?? null;
  }

  /** The content row: the input on the primary's row, the output on the serving row; none when capture is off. */
  private content(
    call: LoggedCall,
    row: RequestLogEntity,
    primary: boolean,
    output: unknown,
    raw?: RawExchange,
  ): RequestLogContentEntity | null {
    const rawRequest = raw?.request === undefined ? null : raw.request.slice(0, this.maxContent);
    const rawResponse = raw?.response === undefined ? null : raw.response.slice(0, this.maxContent);
    if (!this.captureContent) {
      if (rawRequest === null && rawResponse === null) return null;
      return {
        ...EMPTY_CONTENT,
        log_id: row.id,
        timestamp: row.timestamp,
        raw_request: rawRequest,
        raw_response: rawResponse,
      };
    }
    const input = primary ? inputOf(call.kind, call.body) : undefined;
    if (input) row.content_summary = input.summary;
    row.search_text = foldForSearch(searchTextOf(input?.input, output).slice(0, this.maxContent)) || null;
    if (!input && output === undefined && rawRequest === null && rawResponse === null) return null;
    return {
      log_id: row.id,
      timestamp: row.timestamp,
      input_history: input ? redactPayload(input.input, this.maxContent) : null,
      output_message: output === undefined ? null : redactPayload(output, this.maxContent),
      params: input?.params ? redactSecrets(input.params) : null,
      tools: input ? redactPayload(input.tools, this.maxContent) : null,
      raw_request: rawRequest,
      raw_response: rawResponse,
    };
  }
}
