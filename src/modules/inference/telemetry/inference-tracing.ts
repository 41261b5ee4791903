import type { Attributes } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { ErrorResponse } from '../../../core/errors/error-response.js';
import type { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { AttemptTrace, InferenceTracing, RequestTrace } from './inference-tracing.service.js';
import { otelNameOf } from '../providers/registry.js';
import type {
  InferenceKind,
  Json,
  ParsedResponse,
  ProviderTarget,
  Usage,
} from '../providers/shared/provider-adapter.js';
import type { InferenceCall, RoutedResult } from '../routing/inference-call.js';

/**
 * What the inference plane puts in its spans (docs/observability.md): the OpenTelemetry GenAI conventions
 * (`gen_ai.*`, development status, as of semantic conventions 1.37+ which name the provider `gen_ai.provider.name`)
 * plus `gateway.*` attributes. Never message content, keys, virtual key values or headers. Every function here runs
 * only when the request has a trace.
 */

/** `gen_ai.operation.name` of each request kind; rerank and count_tokens have no GenAI value and keep their own. */
const OPERATIONS: Record<InferenceKind, string> = {
  chat: 'chat',
  completions: 'text_completion',
  responses: 'chat',
  embeddings: 'embeddings',
  rerank: 'rerank',
  count_tokens: 'count_tokens',
  speech: 'speech',
  transcription: 'transcription',
  image_generation: 'image_generation',
  image_edit: 'image_edit',
  image_variation: 'image_variation',
  ocr: 'ocr',
};

/** Numeric request settings copied to `gen_ai.request.*` when the caller sent them. */
const NUMERIC_SETTINGS: ReadonlyArray<[field: string, attribute: string]> = [
  ['max_tokens', 'gen_ai.request.max_tokens'],
  ['max_completion_tokens', 'gen_ai.request.max_tokens'],
  ['max_output_tokens', 'gen_ai.request.max_tokens'],
  ['temperature', 'gen_ai.request.temperature'],
  ['top_p', 'gen_ai.request.top_p'],
  ['frequency_penalty', 'gen_ai.request.frequency_penalty'],
  ['presence_penalty', 'gen_ai.request.presence_penalty'],
  ['seed', 'gen_ai.request.seed'],
];

/** The request's span (SERVER, `{operation} {model}` as the caller named the model), or undefined when tracing is off. */
export function startInferenceTrace(
  tracing: InferenceTracing,
  kind: InferenceKind,
  body: Json,
  stream: boolean,
  request: FastifyRequest,
): RequestTrace | undefined {
  if (!tracing.enabled) return undefined;
  const operation = OPERATIONS[kind];
  const model = String(body.model);
  const attributes: Attributes = {
    'gen_ai.operation.name': operation,
    'gen_ai.request.model': model,
    'gen_ai.request.stream': stream,
  };
  for (const [field, attribute] of NUMERIC_SETTINGS) {
    const value = body[field];
    if (typeof value === 'number' && Number.isFinite(value)) attributes[attribute] = value;
  }
  if (typeof body.n === 'number' && body.n !== 1) attributes['gen_ai.request.choice.count'] = body.n;
  const virtualKey = request.principal?.virtualKey;
  if (virtualKey) {
    attributes['gateway.virtual_key.id'] = virtualKey.id;
    attributes['gateway.virtual_key.name'] = virtualKey.name;
  }
  return tracing.startRequest(request.headers, `${operation} ${model}`, attributes);
}

/** An attempt's span (CLIENT, `{operation} {upstream model}`). */
export function startAttemptTrace(
  trace: RequestTrace,
  call: InferenceCall,
  target: ProviderTarget,
  key: string,
): AttemptTrace {
  const operation = OPERATIONS[call.kind];
  return trace.attempt(`${operation} ${target.model}`, {
    'gen_ai.operation.name': operation,
    'gen_ai.provider.name': otelNameOf(target.provider),
    'gen_ai.request.model': target.model,
    'gateway.provider': target.provider,
    'gateway.provider_key.name': key,
    'gateway.fallback_index': call.progress.fallbackIndex,
    'gateway.attempt': trace.attempts + 1,
  });
}

/** A failed attempt as its span reads it (routing/upstream-attempt.ts `AttemptFailure`). */
interface FailedAttempt {
  readonly error: GatewayException;
  readonly upstreamStatus: number;
}

/** Ends an attempt's span: the provider's status, and on a failure its `error_type`. */
export function endAttemptTrace(
  span: AttemptTrace,
  outcome: Pick<RoutedResult, 'unary' | 'stream'> | FailedAttempt,
): void {
  if ('error' in outcome) {
    span.end({ status: outcome.upstreamStatus, errorType: outcome.error.reason ?? String(outcome.error.status) });
    return;
  }
  if (outcome.stream) {
    // A stream's attempt ends with the provider's response headers; its usage is on the request's span.
    span.end({ status: outcome.stream.upstream.status });
    return;
  }
  const unary = outcome.unary;
  span.end({ status: 200, attributes: unary ? responseAttributes(unary, undefined) : undefined });
}

/** Ends the request's span after the answer (or the stream) was sent. */
export function endServedTrace(
  trace: RequestTrace,
  result: RoutedResult,
  status: number,
  usage: Usage | undefined,
  failure: GatewayException | undefined,
): void {
  const attributes: Attributes = {
    'gen_ai.provider.name': otelNameOf(result.provider),
    'gateway.provider': result.provider,
    'gateway.provider_key.name': result.keyName,
    'gateway.fallback_index': result.fallbackIndex,
    'gateway.retries': result.retries,
    'gateway.attempts': trace.attempts,
    ...(result.unary ? responseAttributes(result.unary, usage) : usageAttributes(usage)),
  };
  if (!attributes['gen_ai.response.model'] && result.routing.model) {
    attributes['gen_ai.response.model'] = result.routing.model;
  }
  const rule = result.routing;
  if (rule.routing_rule_id) attributes['gateway.routing_rule.id'] = rule.routing_rule_id;
  if (rule.routing_rule_name) attributes['gateway.routing_rule.name'] = rule.routing_rule_name;
  const cost = usage?.cost?.total_cost;
  if (typeof cost === 'number' && Number.isFinite(cost)) attributes['gateway.cost_usd'] = cost;
  const errorType = failure
    ? (failure.reason ?? String(failure.status))
    : status === 499
      ? 'caller_cancelled'
      : undefined;
  trace.end({ status, errorType, attributes });
}

/** Ends the request's span of a request that failed before any answer. */
export function endFailedTrace(
  trace: RequestTrace,
  call: InferenceCall,
  view: ErrorResponse,
  routing: { provider?: string; key?: string },
): void {
  const attributes: Attributes = {
    'gateway.retries': call.progress.retries,
    'gateway.attempts': trace.attempts,
  };
  if (routing.provider) {
    attributes['gen_ai.provider.name'] = otelNameOf(routing.provider);
    attributes['gateway.provider'] = routing.provider;
  }
  if (routing.key) attributes['gateway.provider_key.name'] = routing.key;
  const errorType = view.body.extra_fields.error_type;
  trace.end({
    status: view.status,
    errorType: typeof errorType === 'string' ? errorType : String(view.status),
    attributes,
  });
}

/** Response model, id, finish reasons and usage of a unary answer (the caller's view after pricing when given). */
function responseAttributes(unary: ParsedResponse, priced: Usage | undefined): Attributes {
  const attributes = usageAttributes(priced ?? unary.usage);
  const body = unary.body;
  const model = unary.answeredModel ?? body.model;
  if (typeof model === 'string' && model) attributes['gen_ai.response.model'] = model;
  if (typeof body.id === 'string' && body.id) attributes['gen_ai.response.id'] = body.id;
  const reasons = finishReasons(body);
  if (reasons.length) attributes['gen_ai.response.finish_reasons'] = reasons;
  return attributes;
}

function usageAttributes(usage: Usage | undefined): Attributes {
  const attributes: Attributes = {};
  if (!usage) return attributes;
  const put = (name: string, value: number | undefined) => {
    if (typeof value === 'number' && Number.isFinite(value)) attributes[name] = value;
  };
  put('gen_ai.usage.input_tokens', usage.prompt_tokens);
  put('gen_ai.usage.output_tokens', usage.completion_tokens);
  put('gen_ai.usage.cache_read.input_tokens', usage.prompt_tokens_details?.cached_read_tokens);
  put('gen_ai.usage.cache_write.input_tokens', usage.prompt_tokens_details?.cached_write_tokens);
  put('gen_ai.usage.reasoning.output_tokens', usage.completion_tokens_details?.reasoning_tokens);
  return attributes;
}

/** `choices[].finish_reason` of a chat or text completion (the adapters answer in OpenAI's shape). */
function finishReasons(body: Json): string[] {
  const choices = body.choices;
  if (!Array.isArray(choices)) return [];
  const reasons: string[] = [];
  for (const choice of choices as Json[]) {
    if (typeof choice?.finish_reason === 'string') reasons.push(choice.finish_reason);
  }
  return reasons;
}
