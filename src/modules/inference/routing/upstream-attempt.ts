import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../providers/provider-ids.js';
import {
  OutboundHttpService,
  readBodyCapped,
  type OutboundResponse,
} from '../../../core/outbound/outbound-http.service.js';
import type { RequestTrace } from '../telemetry/inference-tracing.service.js';
import { endAttemptTrace, startAttemptTrace } from '../telemetry/inference-tracing.js';
import {
  type InferenceKind,
  type Json,
  type ParsedResponse,
  type ProviderAdapter,
  type ProviderTarget,
  type TaskWait,
  TOP_LEVEL_ARRAY,
} from '../providers/shared/provider-adapter.js';
import { OutboundAdapterIo } from '../catalog/outbound-adapter-io.js';
import { MEDIA_ANSWER_KINDS } from '../media/media-kinds.js';
import { providerException } from '../providers/shared/provider-exception.js';
import { copyWithout } from '../providers/shared/wire-json.js';
import { REQUEST_TYPES, type InferenceCall, type RouteProgress, type RoutedResult } from './inference-call.js';
import type { ResolvedModel } from './model-resolver.js';
import { routingErrorFields, routingHeaders, routingSnapshot, type RoutingInfo } from './routing-info.js';

const MAX_UNARY_BYTES = 64 * 1024 * 1024;
const MAX_ERROR_BYTES = 1024 * 1024;
/** Members of the caller's body that are the gateway's, not the provider's. */
const GATEWAY_ONLY_FIELDS: ReadonlySet<string> = new Set(['fallbacks']);

/** A failed attempt: the error to relay, the upstream status it stands for (0: no answer) and the provider's hint. */
export class AttemptFailure {
  constructor(
    readonly error: GatewayException,
    readonly upstreamStatus: number,
    readonly hintMs?: number,
    /** The provider's response headers, when it answered (circuit breakers read them). */
    readonly headers?: OutboundResponse['headers'],
  ) {}
}

/** An answered attempt: the parsed answer or live stream, and the provider's response headers. */
export type AttemptSuccess = Pick<RoutedResult, 'unary' | 'stream' | 'raw'> & { headers: OutboundResponse['headers'] };

/** One call to a provider: translate, send, read and parse the answer, or classify the failure. */
@Injectable()
export class UpstreamAttempts {
  constructor(
    private readonly outbound: OutboundHttpService,
    private readonly io: OutboundAdapterIo,
  ) {}

  /**
   * One upstream call. Resolves to the parsed answer (or live stream), or to the failure as a GatewayException. With
   * a trace, the call is an attempt span, ended with the answer, the failure or, for a stream, the response headers.
   */
  attempt(
    call: InferenceCall,
    resolved: ResolvedModel,
    target: ProviderTarget,
    info: RoutingInfo,
    state: RouteProgress,
  ): Promise<AttemptSuccess | AttemptFailure> {
    const trace = call.trace;
    if (trace === undefined) return this.send(call, resolved, target, info, state);
    return this.traced(trace, call, resolved, target, info, state);
  }

  private async traced(
    trace: RequestTrace,
    call: InferenceCall,
    resolved: ResolvedModel,
    target: ProviderTarget,
    info: RoutingInfo,
    state: RouteProgress,
  ): Promise<AttemptSuccess | AttemptFailure> {
    const span = startAttemptTrace(trace, call, target, info.key ?? '');
    try {
      const outcome = await this.send(call, resolved, target, info, state);
      endAttemptTrace(span, outcome);
      return outcome;
    } catch (err) {
      span.end({ errorType: err instanceof Error ? err.name : 'unknown' });
      throw err;
    }
  }

  private async send(
    call: InferenceCall,
    resolved: ResolvedModel,
    target: ProviderTarget,
    info: RoutingInfo,
    state: RouteProgress,
  ): Promise<AttemptSuccess | AttemptFailure> {
    const { adapter, upstreamKind } = resolved;
    const body = copyWithout(resolved.source, GATEWAY_ONLY_FIELDS);
    body.model = target.model;
    let request = adapter.buildRequest(upstreamKind, body, target, call.stream);
    const captureRaw = call.log?.captureRaw === true;
    const started = performance.now();
    // A task-polling provider (`settle`) gets the whole request timeout for the call and its polls together.
    const deadline = this.io.now() + resolved.network.timeoutMs;
    let upstream: OutboundResponse;
    try {
      if (adapter.authorize) request = await adapter.authorize(request, target, this.io);
      upstream = await this.outbound.request(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.binaryBody ?? request.body,
        timeoutMs: resolved.network.timeoutMs,
        bodyTimeoutMs: resolved.network.timeoutMs,
        signal: call.signal,
      });
    } catch (err) {
      state.upstreamLatencyMs += performance.now() - started;
      return asAttemptError(err, info, call);
    }
    try {
      if (upstream.status >= 200 && upstream.status < 300) {
        if (call.stream) {
          state.upstreamLatencyMs += performance.now() - started;
          const stream = { upstream, decoder: adapter.streamDecoder(upstreamKind, target) };
          const headers = upstream.headers;
          return captureRaw ? { stream, raw: { request: request.body }, headers } : { stream, headers };
        }
        const bytes = await readBodyCapped(upstream.body, MAX_UNARY_BYTES, target.provider);
        state.upstreamLatencyMs += performance.now() - started;
        if (adapter.parseMediaResponse && MEDIA_ANSWER_KINDS.has(upstreamKind)) {
          const contentType = headerText(upstream.headers['content-type']) ?? 'application/octet-stream';
          const unary = adapter.parseMediaResponse(upstreamKind, { contentType, bytes }, target);
          const headers = upstream.headers;
          // The bytes of audio never go into a log: the raw capture keeps the answer's summary instead.
          const response = unary.binary ? JSON.stringify(unary.body) : bytes.toString('utf8');
          return captureRaw ? { unary, raw: { request: request.body, response }, headers } : { unary, headers };
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(bytes.toString('utf8'));
        } catch {
          parsed = undefined;
        }
        if (Array.isArray(parsed)) parsed = { [TOP_LEVEL_ARRAY]: parsed };
        if (typeof parsed !== 'object' || parsed === null) {
          const error = new GatewayException(
            502,
            'upstream_error',
            `${target.provider} answered ${upstream.status} without a JSON object`,
            { reason: 'provider_server_error' },
          );
          return new AttemptFailure(withRouting(error, info, call), 502, undefined, upstream.headers);
        }
        let unary = adapter.parseResponse(upstreamKind, parsed as Json, target);
        if (adapter.settle) {
          const settle = adapter.settle.bind(adapter);
          const settled = await settleTask(settle, upstreamKind, unary, target, call, { io: this.io, deadline });
          state.upstreamLatencyMs += performance.now() - started;
          if (settled instanceof GatewayException) {
            return new AttemptFailure(withRouting(settled, info, call), settled.status, undefined, upstream.headers);
          }
          unary = settled;
        }
        if (unary.answeredModel && unary.answeredModel !== target.model) {
          info.server_side_fallback_model = unary.answeredModel;
        }
        const headers = upstream.headers;
        return captureRaw
          ? { unary, raw: { request: request.body, response: bytes.toString('utf8') }, headers }
          : { unary, headers };
      }
      const text = (await readBodyCapped(upstream.body, MAX_ERROR_BYTES, target.provider)).toString('utf8');
      state.upstreamLatencyMs += performance.now() - started;
      const error = adapter.parseError(upstream.status, upstream.headers, text);
      const extraFields = errorFields(info, call);
      if (captureRaw) Object.assign(extraFields, rawErrorFields(request.body, text));
      const relayed = providerException(error, { extraFields, headers: routingHeaders(info) });
      return new AttemptFailure(relayed, upstream.status, error.retryAfterMs, upstream.headers);
    } catch (err) {
      upstream.body.destroy();
      state.upstreamLatencyMs += performance.now() - started;
      return asAttemptError(err, info, call);
    }
  }
}

type Settle = NonNullable<ProviderAdapter['settle']>;

/**
 * The final answer of a task-polling provider, or the task's failure (failed, past the deadline) as the exception to
 * relay with its own status. A cancelled caller or a transport failure of a poll is thrown to the attempt's handler.
 */
async function settleTask(
  settle: Settle,
  kind: InferenceKind,
  parsed: ParsedResponse,
  target: ProviderTarget,
  call: InferenceCall,
  wait: Omit<TaskWait, 'signal'>,
): Promise<ParsedResponse | GatewayException> {
  try {
    return await settle(kind, parsed, target, { ...wait, signal: call.signal });
  } catch (err) {
    if (call.signal.aborted || !(err instanceof GatewayException)) throw err;
    return err;
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `raw_request` / `raw_response` of an error's extra fields: the bodies as JSON when they are, else as text. */
function rawErrorFields(request: string | undefined, response: string): Record<string, unknown> {
  const asJson = (text: string | undefined): unknown => {
    if (text === undefined || text === '') return text;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  return { raw_request: asJson(request), raw_response: asJson(response) };
}

/** A transport failure (connection refused, timeout, a body that broke off): status 0, retried and fallen back. */
function asAttemptError(err: unknown, info: RoutingInfo, call: InferenceCall): AttemptFailure {
  if (call.signal.aborted) {
    const cancelled = new GatewayException(499, 'bad_request', 'The client closed the request', {
      reason: 'caller_cancelled',
    });
    return new AttemptFailure(cancelled, 499);
  }
  if (err instanceof GatewayException) return new AttemptFailure(withRouting(err, info, call), 0);
  throw err;
}

function errorFields(info: RoutingInfo, call: InferenceCall): Record<string, unknown> {
  return { ...routingErrorFields(routingSnapshot(info)), request_type: REQUEST_TYPES[call.kind] };
}

function withRouting(err: GatewayException, info: RoutingInfo, call: InferenceCall): GatewayException {
  return new GatewayException(err.status, err.code, err.message, {
    type: err.type,
    param: err.param,
    reason: err.reason,
    isGatewayError: err.isGatewayError,
    wireCode: err.wireCode,
    extraFields: { ...err.extraFields, ...errorFields(info, call) },
    headers: { ...err.headers, ...routingHeaders(info) },
    cause: err.cause,
  });
}

/** Every key of the provider was refused (401/402/403): 502 `provider_credentials_exhausted`. */
export function exhausted(provider: ProviderId, last: GatewayException, info: RoutingInfo): GatewayException {
  return new GatewayException(
    502,
    'upstream_error',
    `Every key of ${provider} was refused by the provider; last: ${last.message}`,
    {
      reason: 'provider_credentials_exhausted',
      extraFields: { ...last.extraFields, routing_info: routingSnapshot(info) },
      headers: { ...last.headers, ...routingHeaders(info) },
    },
  );
}
