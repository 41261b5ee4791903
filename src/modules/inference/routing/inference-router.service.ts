import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../../../core/errors/routing-info.dto.js';
import {
  OutboundHttpService,
  readBodyCapped,
  type OutboundResponse,
} from '../../../core/outbound/outbound-http.service.js';
import { ProviderCatalog } from '../catalog/provider-catalog.service.js';
import type {
  ConfiguredKey,
  ConfiguredProvider,
  NetworkSettings,
  ProviderSnapshot,
} from '../catalog/provider-snapshot.js';
import { adapterFor } from '../providers/adapter-registry.js';
import type {
  InferenceKind,
  Json,
  ParsedResponse,
  ProviderAdapter,
  ProviderTarget,
  StreamDecoder,
} from '../providers/provider-adapter.js';
import { providerException } from '../providers/provider-exception.js';
import { eligibleKeys, keyAllows, pickKey, resolveAlias, type KeyPin } from './key-selector.js';
import { responsesToChatRequest } from '../translation/responses-bridge.js';
import { parseModelRef, type ModelRef } from './model-ref.js';
import { allowsFallback, retryActionFor, waitBeforeRetry } from './retry-policy.js';
import { routingErrorFields, routingHeaders, type RoutingInfo } from './routing-info.js';

/** Defaults of `network_config` (bifrost.md §4), used for direct keys to an unconfigured provider. */
const DEFAULT_NETWORK: NetworkSettings = {
  timeoutMs: 30_000,
  maxRetries: 0,
  backoffInitialMs: 500,
  backoffMaxMs: 5_000,
};
const MAX_UNARY_BYTES = 64 * 1024 * 1024;
const MAX_ERROR_BYTES = 1024 * 1024;

/** The `extra_fields.request_type` of each kind. */
export const REQUEST_TYPES: Record<InferenceKind, string> = {
  chat: 'chat_completion',
  completions: 'text_completion',
  responses: 'responses',
  embeddings: 'embedding',
  rerank: 'rerank',
  count_tokens: 'count_tokens',
};

export interface InferenceCall {
  kind: InferenceKind;
  /** The caller's body, validated; `model`, `fallbacks` and `stream` are read from it. */
  body: Json;
  stream: boolean;
  pin?: KeyPin;
  /** A provider key the caller passed through (`inference.allow_direct_keys`). */
  directKey?: string;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** A served request: the attempt that answered and what it answered. */
export interface RoutedResult {
  routing: RoutingInfo;
  /** 0 for the primary model, else the 1-based index of the fallback that served. */
  fallbackIndex: number;
  retries: number;
  /** Time spent waiting on providers, summed over attempts. */
  upstreamLatencyMs: number;
  provider: ProviderId;
  /** The kind the provider was called with (`chat` when a Responses request was bridged). */
  upstreamKind: InferenceKind;
  bridged: boolean;
  /** The model used for pricing: the alias's canonical name when it has one, else the model sent. */
  pricedModel: string;
  keyName: string;
  unary?: ParsedResponse;
  stream?: { upstream: OutboundResponse; decoder: StreamDecoder };
}

interface Resolved {
  ref: ModelRef;
  provider: ProviderId;
  config?: ConfiguredProvider;
  adapter: ProviderAdapter;
  upstreamKind: InferenceKind;
  bridged: boolean;
  keys: ConfiguredKey[];
  network: NetworkSettings;
  /** The body to translate: the caller's, or its chat form when a Responses request is bridged. */
  source: Json;
}

/** A model's final failure and whether the next fallback may run. */
interface ModelFailure {
  error: GatewayException;
  fallback: boolean;
}

/** A failed attempt: the error to relay, the upstream status it stands for (0: no answer) and the provider's hint. */
class AttemptFailure {
  constructor(
    readonly error: GatewayException,
    readonly upstreamStatus: number,
    readonly hintMs?: number,
  ) {}
}

/**
 * Routes one inference request: resolves the model (and its fallbacks) to providers, picks keys by weight, retries with
 * backoff or the provider's hint, rotates keys on 429 and drops dead keys on 401/402/403, and falls back on 429, 5xx,
 * timeouts, connection failures and exhausted keys. Reads only the in-memory provider snapshot.
 */
@Injectable()
export class InferenceRouter {
  constructor(
    private readonly catalog: ProviderCatalog,
    private readonly outbound: OutboundHttpService,
  ) {}

  async route(call: InferenceCall): Promise<RoutedResult> {
    const current = this.catalog.snapshot();
    const snapshot = current instanceof Promise ? await current : current;
    const model = call.body.model as string;
    const fallbacks = (call.body.fallbacks as string[] | undefined) ?? [];
    const chain = [model, ...fallbacks].map(parseModelRef);
    const primary = chain[0]!;
    const state = { retries: 0, upstreamLatencyMs: 0 };
    let last: ModelFailure | undefined;
    for (let index = 0; index < chain.length; index++) {
      const ref = chain[index]!;
      const info: RoutingInfo = {
        ...(primary.provider ? { requested_provider: primary.provider } : {}),
        requested_model: primary.model,
      };
      let resolved: Resolved;
      try {
        resolved = this.resolve(call, ref, snapshot, index === 0);
      } catch (err) {
        if (!(err instanceof GatewayException)) throw err;
        // An unknown model or an unsupported request is the caller's; a provider without usable keys is not.
        last = { error: err, fallback: err.code === 'model_not_available' || err.code === 'secret_unresolved' };
        if (!last.fallback) throw err;
        continue;
      }
      info.provider = resolved.provider;
      if (index > 0) {
        info.is_fallback = true;
        const first = this.primaryOf(primary, snapshot);
        if (first) info.primary_provider = first;
        info.primary_model = primary.model;
      }
      const outcome = await this.runModel(call, resolved, info, state);
      if ('routing' in outcome) return { ...outcome, fallbackIndex: index };
      last = outcome;
      if (!outcome.fallback || call.signal.aborted) break;
    }
    throw last!.error;
  }

  /** The primary's provider for routing info after a fallback (bare models resolve as they would have). */
  private primaryOf(primary: ModelRef, snapshot: ProviderSnapshot): ProviderId | undefined {
    return primary.provider ?? this.bareCandidates(primary.model, snapshot)[0]?.id;
  }

  private resolve(call: InferenceCall, ref: ModelRef, snapshot: ProviderSnapshot, isPrimary: boolean): Resolved {
    const param = isPrimary ? 'model' : 'fallbacks';
    let provider = ref.provider;
    if (!provider) {
      const candidates = this.bareCandidates(ref.model, snapshot);
      const chosen = candidates[Math.floor(Math.random() * candidates.length)];
      if (!chosen) {
        throw new GatewayException(
          400,
          'model_unknown',
          `Model '${ref.requested}' names no provider: send <provider>/<model>, or a model a configured key lists`,
          { param, reason: 'caller_model_unknown' },
        );
      }
      provider = chosen.id;
    }
    const adapter = adapterFor(provider);
    if (!adapter) {
      throw new GatewayException(400, 'unsupported_operation', `Provider '${provider}' is not supported on /v1 yet`, {
        param,
        reason: 'caller_model_not_available',
      });
    }
    const bridged = call.kind === 'responses' && !adapter.kinds.has('responses') && adapter.kinds.has('chat');
    const upstreamKind: InferenceKind = bridged ? 'chat' : call.kind;
    if (!adapter.kinds.has(upstreamKind)) {
      throw new GatewayException(
        400,
        'unsupported_operation',
        `Provider '${provider}' does not serve ${REQUEST_TYPES[call.kind]} requests`,
        { param, reason: 'caller_invalid_request' },
      );
    }
    const config = snapshot.get(provider);
    if (call.directKey !== undefined) {
      const key: ConfiguredKey = {
        id: 'direct',
        name: 'direct',
        weight: 1,
        models: ['*'],
        blacklisted_models: [],
        aliases: {},
        enabled: true,
        credentials: { id: 'direct', name: 'direct', value: call.directKey },
      };
      return {
        ref,
        provider,
        config,
        adapter,
        upstreamKind,
        bridged,
        keys: [key],
        network: config?.network ?? DEFAULT_NETWORK,
        source: sourceOf(call, bridged),
      };
    }
    if (!config) {
      throw new GatewayException(400, 'model_not_available', `Provider '${provider}' is not configured`, {
        param,
        reason: 'caller_model_not_available',
      });
    }
    // A pin names a key of the primary's provider; a fallback to another provider ignores it unless it has that key.
    const pin =
      isPrimary || config.keys.some((k) => k.id === call.pin?.id || k.name === call.pin?.name) ? call.pin : undefined;
    const keys = eligibleKeys(config, ref.model, pin);
    const broken =
      keys.length === 0 ? config.keys.find((k) => k.enabled && k.unusable && keyAllows(k, ref.model)) : undefined;
    if (broken) {
      // Configured for the model, but its secret cannot be read (env var unset, Vault down): the gateway's fault.
      throw new GatewayException(
        502,
        'secret_unresolved',
        `Key ${broken.name} of ${provider} cannot be used: ${broken.unusable}`,
        {
          reason: 'gateway_internal',
        },
      );
    }
    if (keys.length === 0) {
      const pinned = pin?.id ?? pin?.name;
      throw new GatewayException(
        400,
        'model_not_available',
        pinned
          ? `The pinned key '${pinned}' of ${provider} does not exist, is disabled or does not allow '${ref.model}'`
          : `No enabled key of ${provider} allows model '${ref.model}'`,
        {
          param: pinned ? (pin?.id ? 'x-gateway-api-key-id' : 'x-gateway-api-key') : param,
          reason: 'caller_model_not_available',
        },
      );
    }
    return {
      ref,
      provider,
      config,
      adapter,
      upstreamKind,
      bridged,
      keys,
      network: config.network,
      source: sourceOf(call, bridged),
    };
  }

  /**
   * Providers that can serve a bare model: a supported provider with an enabled key that names the model (or an alias
   * of it). A key allowing every model (`["*"]`) does not claim a bare name, or every bare name would be ambiguous.
   */
  private bareCandidates(model: string, snapshot: ProviderSnapshot): ConfiguredProvider[] {
    return snapshot
      .all()
      .filter(
        (p) =>
          adapterFor(p.id) &&
          p.keys.some(
            (k) => k.enabled && !k.unusable && keyAllows(k, model) && (k.models.includes(model) || !!k.aliases[model]),
          ),
      );
  }

  private async runModel(
    call: InferenceCall,
    resolved: Resolved,
    info: RoutingInfo,
    state: { retries: number; upstreamLatencyMs: number },
  ): Promise<Omit<RoutedResult, 'fallbackIndex'> | ModelFailure> {
    const { adapter, network, keys, provider } = resolved;
    const dead = new Set<string>();
    let avoid: string | undefined;
    let retry = 0;
    for (;;) {
      const excluded = avoid && keys.some((k) => !dead.has(k.id) && k.id !== avoid) ? new Set([...dead, avoid]) : dead;
      const key = pickKey(keys, excluded)!;
      const { upstreamModel, alias } = resolveAlias(key, resolved.ref.model);
      info.model = upstreamModel;
      info.key = key.name;
      if (alias) info.resolved_key_alias = alias;
      else delete info.resolved_key_alias;
      const target: ProviderTarget = {
        provider,
        baseUrl: (resolved.config?.base_url ?? adapter.defaultBaseUrl(provider) ?? '').replace(/\/+$/, ''),
        extraHeaders: resolved.config?.extra_headers ?? {},
        key: key.credentials,
        model: upstreamModel,
      };
      const attempt = await this.attempt(call, resolved, target, info, state);
      if (!(attempt instanceof AttemptFailure)) {
        return {
          ...attempt,
          routing: { ...info },
          retries: state.retries,
          upstreamLatencyMs: state.upstreamLatencyMs,
          provider,
          upstreamKind: resolved.upstreamKind,
          bridged: resolved.bridged,
          pricedModel: alias?.model_name ?? upstreamModel,
          keyName: key.name,
        };
      }
      const { error, upstreamStatus: status } = attempt;
      if (call.signal.aborted) return { error, fallback: false };
      const action = retryActionFor(status);
      if (action === 'fail') return { error, fallback: false };
      if (action === 'drop-key') {
        dead.add(key.id);
        if (call.directKey !== undefined) return { error, fallback: allowsFallback(status, false) };
        if (keys.every((k) => dead.has(k.id))) return { error: exhausted(provider, error, info), fallback: true };
        continue;
      }
      const wait = retry < network.maxRetries ? waitBeforeRetry(network, retry, attempt.hintMs) : undefined;
      if (wait === undefined) return { error, fallback: allowsFallback(status, false) };
      if (action === 'rotate-key') avoid = key.id;
      try {
        await sleep(wait, undefined, { signal: call.signal });
      } catch {
        return { error, fallback: false };
      }
      retry++;
      state.retries++;
    }
  }

  /** One upstream call. Resolves to the parsed answer (or live stream), or to the failure as a GatewayException. */
  private async attempt(
    call: InferenceCall,
    resolved: Resolved,
    target: ProviderTarget,
    info: RoutingInfo,
    state: { upstreamLatencyMs: number },
  ): Promise<Pick<RoutedResult, 'unary' | 'stream'> | AttemptFailure> {
    const { adapter, upstreamKind } = resolved;
    const body: Json = { ...resolved.source, model: target.model };
    delete body.fallbacks;
    const request = adapter.buildRequest(upstreamKind, body, target, call.stream);
    for (const [name, value] of Object.entries(target.extraHeaders)) request.headers[name.toLowerCase()] ??= value;
    const started = performance.now();
    let upstream: OutboundResponse;
    try {
      upstream = await this.outbound.request(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
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
          return { stream: { upstream, decoder: adapter.streamDecoder(upstreamKind, target) } };
        }
        const bytes = await readBodyCapped(upstream.body, MAX_UNARY_BYTES, target.provider);
        state.upstreamLatencyMs += performance.now() - started;
        let parsed: unknown;
        try {
          parsed = JSON.parse(bytes.toString('utf8'));
        } catch {
          parsed = undefined;
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          const error = new GatewayException(
            502,
            'upstream_error',
            `${target.provider} answered ${upstream.status} without a JSON object`,
            { reason: 'provider_server_error' },
          );
          return new AttemptFailure(withRouting(error, info, call), 502);
        }
        const unary = adapter.parseResponse(upstreamKind, parsed as Json, target);
        if (unary.answeredModel && unary.answeredModel !== target.model) {
          info.server_side_fallback_model = unary.answeredModel;
        }
        return { unary };
      }
      const text = (await readBodyCapped(upstream.body, MAX_ERROR_BYTES, target.provider)).toString('utf8');
      state.upstreamLatencyMs += performance.now() - started;
      const error = adapter.parseError(upstream.status, upstream.headers, text);
      const relayed = providerException(error, { extraFields: errorFields(info, call), headers: routingHeaders(info) });
      return new AttemptFailure(relayed, upstream.status, error.retryAfterMs);
    } catch (err) {
      upstream.body.destroy();
      state.upstreamLatencyMs += performance.now() - started;
      return asAttemptError(err, info, call);
    }
  }
}

function sourceOf(call: InferenceCall, bridged: boolean): Json {
  return bridged ? responsesToChatRequest(call.body) : call.body;
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
  return { ...routingErrorFields({ ...info }), request_type: REQUEST_TYPES[call.kind] };
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
function exhausted(provider: ProviderId, last: GatewayException, info: RoutingInfo): GatewayException {
  return new GatewayException(
    502,
    'upstream_error',
    `Every key of ${provider} was refused by the provider; last: ${last.message}`,
    {
      reason: 'provider_credentials_exhausted',
      extraFields: { ...last.extraFields, routing_info: { ...info } },
      headers: { ...last.headers, ...routingHeaders(info) },
    },
  );
}
