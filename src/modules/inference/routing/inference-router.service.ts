import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { ProviderCatalog } from '../catalog/provider-catalog.service.js';
import type { ProviderSnapshot } from '../catalog/provider-snapshot.js';
import {
  GovernanceEnforcer,
  type Admission,
  type GovernedCall,
  type UsageEstimate,
  RoutingRuleEngine,
} from '../../governance/index.js';
import { PriceTable } from '../pricing/price-table.js';
import { adapterFor } from '../providers/registry.js';
import { forwardedHeaders } from '../../../core/config/forward-headers.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { providerTarget } from '../providers/shared/provider-target.js';
import { REQUEST_TYPES, type InferenceCall, type RouteProgress, type RoutedResult } from './inference-call.js';
import { eligibleKeys, pickKey, resolveAlias } from './key-selector.js';
import { parseModelRef, type ModelRef } from '../providers/shared/model-ref.js';
import { bareCandidates, resolveModel, type ResolvedModel } from './model-resolver.js';
import { allowsFallback, retryActionFor, waitBeforeRetry } from './retry-policy.js';
import { routingSnapshot, type RoutingInfo } from './routing-info.js';
import { AttemptFailure, exhausted, UpstreamAttempts } from './upstream-attempt.js';
import { CircuitBreakerEngine, type CircuitTrip, type CircuitWatch } from '../../circuit-breaker/index.js';
import { estimateTokens } from './usage-estimate.js';
import { releaseUnused } from '../completion/settlement.js';
import { isPending } from '../../../core/async/maybe-promise.js';

/** A model's final failure and whether the next fallback may run. */
interface ModelFailure {
  error: GatewayException;
  fallback: boolean;
  keyId?: string;
  /** The `x-ratelimit-*` headers of the model's admission. */
  headers?: Record<string, string>;
  /** A circuit of the model opened on this answer: the policy's fallback runs next. */
  divert?: CircuitTrip['divert'];
}

/**
 * Routes one inference request: resolves the model (and its fallbacks) to providers, picks keys by weight, retries with
 * backoff or the provider's hint, rotates keys on 429 and drops dead keys on 401/402/403, and falls back on 429, 5xx,
 * timeouts, connection failures and exhausted keys. Routing rules decide first (the rule's target and fallbacks
 * replace the caller's model and fallbacks). With a virtual key, each model of the chain is then checked against the
 * key's provider configs and reserved at every level covering it (governance refusals fall back too: the next model
 * is checked against its own provider's levels). Reads only in-memory snapshots.
 */
@Injectable()
export class InferenceRouter {
  constructor(
    private readonly catalog: ProviderCatalog,
    private readonly attempts: UpstreamAttempts,
    private readonly rules: RoutingRuleEngine,
    private readonly governance: GovernanceEnforcer,
    private readonly prices: PriceTable,
    private readonly breakers: CircuitBreakerEngine,
    private readonly config: GatewayConfig,
  ) {}

  async route(call: InferenceCall): Promise<RoutedResult> {
    const current = this.catalog.snapshot();
    const snapshot = isPending(current) ? await current : current;
    const requested = parseModelRef(call.body.model as string);
    let fallbacks = (call.body.fallbacks as string[] | undefined) ?? [];
    let target = requested;
    const deciding = this.rules.decide({
      provider: requested.provider,
      model: requested.model,
      requestType: REQUEST_TYPES[call.kind],
      headers: call.headers ?? {},
      query: call.query,
      virtualKey: call.virtualKey,
    });
    const decision = isPending(deciding) ? await deciding : deciding;
    if (decision) {
      target = parseModelRef(decision.provider ? `${decision.provider}/${decision.model}` : decision.model);
      if (decision.fallbacks.length > 0) fallbacks = decision.fallbacks;
      // The rule's key applies to its target (a fallback to another provider ignores it, as a caller's pin).
      if (decision.keyId) call.pin = { id: decision.keyId };
    }
    const chain = [target, ...fallbacks.map(parseModelRef)];
    const primary = target;
    const state = call.progress;
    const begun = call.virtualKey ? this.governance.begin(call.virtualKey.id) : undefined;
    const governed = isPending(begun) ? await begun : begun;
    let last: ModelFailure | undefined;
    /** Policies whose fallback joined the chain (each diverts once per request, so two policies cannot loop). */
    let diverted: Set<string> | undefined;
    const divertTo = (index: number, to: NonNullable<CircuitTrip['divert']>) => {
      if ((diverted ??= new Set()).has(to.policy)) return;
      diverted.add(to.policy);
      chain.splice(index + 1, 0, { ...to.to, requested: `${to.to.provider}/${to.to.model}` });
    };
    for (let index = 0; index < chain.length; index++) {
      let ref = chain[index]!;
      const info: RoutingInfo = { requested_provider: requested.provider, requested_model: requested.model };
      if (decision) {
        info.routing_rule_id = decision.ruleId;
        info.routing_rule_name = decision.ruleName;
      }
      const startedAt = performance.now();
      const retriesBefore = state.retries;
      let resolved: ResolvedModel;
      let admission: Admission | undefined;
      let watch: CircuitWatch | undefined;
      try {
        if (governed?.placesBareModels && !ref.provider) {
          // A bare model goes to one of the key's providers, by their weights.
          ref = { ...ref, provider: governed.pickProvider(ref.model, (p) => usable(p, ref.model, snapshot)) };
        }
        resolved = resolveModel(call, ref, snapshot, index === 0);
        const admitting = this.breakers.admit(resolved.provider, resolved.ref.model, resolved.keys);
        const breaker = isPending(admitting) ? await admitting : admitting;
        if (breaker?.kind === 'divert') {
          // The primary's circuit is open: it is not called, and the policy's fallback is tried next.
          info.provider = resolved.provider;
          divertTo(index, breaker);
          throw breaker.error;
        }
        if (breaker) {
          watch = breaker.watch;
          if (watch.excluded.size > 0)
            resolved = { ...resolved, keys: resolved.keys.filter((k) => !watch!.excluded.has(k.id)) };
        }
        if (governed) ({ resolved, admission } = await this.govern(call, governed, resolved));
      } catch (err) {
        watch?.release();
        if (!(err instanceof GatewayException)) throw err;
        // An unknown model or an unsupported request is the caller's; a provider without usable keys is not, nor is a
        // governance refusal (the next model has levels of its own).
        last = {
          error: err,
          fallback:
            err.code === 'model_not_available' ||
            err.code === 'secret_unresolved' ||
            err.code === 'circuit_open' ||
            isPolicyRefusal(err),
        };
        if (!last.fallback) throw err;
        info.model ??= ref.model;
        call.chain?.push({
          fallbackIndex: index,
          routing: routingSnapshot(info),
          retries: 0,
          startedAt,
          endedAt: performance.now(),
          error: err,
        });
        continue;
      }
      info.provider = resolved.provider;
      state.fallbackIndex = index;
      if (index > 0) {
        info.is_fallback = true;
        const first = this.primaryOf(primary, snapshot);
        if (first) info.primary_provider = first;
        info.primary_model = primary.model;
      }
      let outcome: Awaited<ReturnType<InferenceRouter['runModel']>>;
      try {
        outcome = await this.runModel(call, resolved, info, state, watch);
      } catch (err) {
        releaseUnused(admission);
        throw err;
      } finally {
        watch?.release();
      }
      if ('routing' in outcome) {
        return {
          ...outcome,
          fallbackIndex: index,
          modelStartedAt: startedAt,
          modelRetries: state.retries - retriesBefore,
          admission,
        };
      }
      // Nothing was answered, so nothing was used: the reservation goes.
      releaseUnused(admission);
      last = admission ? { ...outcome, headers: admission.headers } : outcome;
      call.chain?.push({
        fallbackIndex: index,
        routing: routingSnapshot(info),
        keyId: outcome.keyId,
        retries: state.retries - retriesBefore,
        startedAt,
        endedAt: performance.now(),
        error: outcome.error,
      });
      if (outcome.divert) divertTo(index, outcome.divert);
      if (!outcome.fallback || call.signal.aborted) break;
    }
    // A governed request's rate-limit headers go with its provider failure too (every governed response has them).
    throw last!.headers ? last!.error.withHeaders(last!.headers) : last!.error;
  }

  /**
   * The key's provider config for this model (403 when it does not allow it), the keys it lets the router pick, and
   * the reservation at every level covering the attempt (402 / 429 / 503 when refused).
   */
  private async govern(
    call: InferenceCall,
    governed: GovernedCall,
    resolved: ResolvedModel,
  ): Promise<{ resolved: ResolvedModel; admission?: Admission }> {
    const model = resolved.ref.model;
    const config = governed.access(resolved.provider, model);
    if (config && call.directKey === undefined) {
      const keys = governed.keys(config, resolved.keys);
      if (keys.length === 0) {
        throw new GatewayException(
          403,
          'model_blocked',
          `Virtual key '${governed.policy.name}' may use no key of ${resolved.provider} that serves '${model}'`,
          { reason: 'policy_provider_blocked', extraFields: { provider: resolved.provider, model } },
        );
      }
      if (keys.length !== resolved.keys.length) resolved = { ...resolved, keys };
    }
    const levels = governed.levels(config, resolved.provider, model);
    const admission = await governed.admit(levels, () => this.estimate(call, resolved));
    return { resolved, admission };
  }

  /** The request's cost and tokens before the call, from the price table and its `max_tokens` and input size. */
  private estimate(call: InferenceCall, resolved: ResolvedModel): UsageEstimate {
    const { input, output } = estimateTokens(call.kind, call.body);
    const usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
    // A pricing override covering the request prices the estimate too (a key-scoped one is known only once the
    // key is picked: the settlement charges it).
    const override = call.pricing?.find({
      provider: resolved.provider,
      virtualKeyId: call.virtualKey?.id,
      model: resolved.ref.model,
      requestType: REQUEST_TYPES[call.kind],
    });
    const cost = this.prices.totalOf(resolved.provider, resolved.ref.model, usage, override?.patch);
    return { costUsd: cost ?? 0, tokens: usage.total_tokens };
  }

  /** The primary's provider for routing info after a fallback (bare models resolve as they would have). */
  private primaryOf(primary: ModelRef, snapshot: ProviderSnapshot): ProviderId | undefined {
    return primary.provider ?? bareCandidates(primary.model, snapshot)[0]?.id;
  }

  private async runModel(
    call: InferenceCall,
    resolved: ResolvedModel,
    info: RoutingInfo,
    state: RouteProgress,
    watch: CircuitWatch | undefined,
  ): Promise<Omit<RoutedResult, 'fallbackIndex' | 'modelStartedAt' | 'modelRetries'> | ModelFailure> {
    const { adapter, network, keys, provider } = resolved;
    const dead = new Set<string>();
    let avoid: string | undefined;
    let retry = 0;
    // `inference.forward_headers` changes at run time (PUT /api/config): read per request.
    const forwarded = forwardedHeaders(call.headers, this.config.inference.forward_headers);
    for (;;) {
      const excluded = avoid && keys.some((k) => !dead.has(k.id) && k.id !== avoid) ? new Set([...dead, avoid]) : dead;
      const key = pickKey(keys, excluded)!;
      const { upstreamModel, alias } = resolveAlias(key, resolved.ref.model);
      info.model = upstreamModel;
      info.key = key.name;
      info.resolved_key_alias = alias;
      const target = providerTarget(provider, resolved.config, adapter, key.credentials, upstreamModel, forwarded);
      const attempt = await this.attempts.attempt(call, resolved, target, info, state);
      const tripping = watch && attempt.headers ? watch.observe(attempt.headers, key.id) : undefined;
      const trip = tripping && (await tripping);
      if (!(attempt instanceof AttemptFailure)) {
        return {
          unary: attempt.unary,
          stream: attempt.stream,
          raw: attempt.raw,
          routing: routingSnapshot(info),
          retries: state.retries,
          upstreamLatencyMs: state.upstreamLatencyMs,
          provider,
          upstreamKind: resolved.upstreamKind,
          bridged: resolved.bridged,
          pricedModel: alias?.model_name ?? upstreamModel,
          keyName: key.name,
          keyId: key.id,
        };
      }
      const { error, upstreamStatus: status } = attempt;
      const keyId = key.id;
      if (call.signal.aborted) return { error, fallback: false, keyId };
      // The primary's circuit opened on this answer: no retry goes to it; the policy's fallback takes over.
      if (trip?.divert) return { error, fallback: true, keyId, divert: trip.divert };
      if (trip?.keyOpened) {
        // That key's sub-circuit is open: the request's retries skip it like a dead key.
        dead.add(trip.keyOpened);
        if (keys.every((k) => dead.has(k.id))) return { error, fallback: true, keyId };
      }
      const action = retryActionFor(status);
      if (action === 'fail') return { error, fallback: false, keyId };
      if (action === 'drop-key') {
        dead.add(key.id);
        if (call.directKey !== undefined) return { error, fallback: allowsFallback(status, false), keyId };
        if (keys.every((k) => dead.has(k.id)))
          return { error: exhausted(provider, error, info), fallback: true, keyId };
        continue;
      }
      const wait = retry < network.maxRetries ? waitBeforeRetry(network, retry, attempt.hintMs) : undefined;
      if (wait === undefined) return { error, fallback: allowsFallback(status, false), keyId };
      if (action === 'rotate-key') avoid = key.id;
      if (!(await call.signal.delay(wait))) return { error, fallback: false, keyId };
      retry++;
      state.retries++;
    }
  }
}

/** 402 budget, 429 governance limits, 403 provider-config refusals and 503 counters down: decided by governance. */
function isPolicyRefusal(err: GatewayException): boolean {
  return (
    err.reason === 'policy_budget_exceeded' ||
    err.reason === 'policy_rate_limited' ||
    err.reason === 'policy_model_blocked' ||
    err.reason === 'policy_provider_blocked' ||
    err.code === 'gateway_limits_unavailable'
  );
}

/** A provider a virtual key's weights may pick for a bare model: supported, configured, with a key for the model. */
function usable(provider: ProviderId, model: string, snapshot: ProviderSnapshot): boolean {
  const config = snapshot.get(provider);
  return !!adapterFor(provider) && !!config && eligibleKeys(config, model).length > 0;
}
