import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../../../core/errors/routing-info.dto.js';
import { ProviderCatalog } from '../catalog/provider-catalog.service.js';
import type { ProviderSnapshot } from '../catalog/provider-snapshot.js';
import { providerTarget } from '../providers/provider-target.js';
import { RoutingRuleEngine } from '../../governance/routing-rules/routing-rule-engine.js';
import { REQUEST_TYPES, type InferenceCall, type RouteProgress, type RoutedResult } from './inference-call.js';
import { pickKey, resolveAlias } from './key-selector.js';
import { parseModelRef, type ModelRef } from './model-ref.js';
import { bareCandidates, resolveModel, type ResolvedModel } from './model-resolver.js';
import { allowsFallback, retryActionFor, waitBeforeRetry } from './retry-policy.js';
import { routingSnapshot, type RoutingInfo } from './routing-info.js';
import { AttemptFailure, exhausted, UpstreamAttempts } from './upstream-attempt.js';

/** A model's final failure and whether the next fallback may run. */
interface ModelFailure {
  error: GatewayException;
  fallback: boolean;
  keyId?: string;
}

/**
 * Routes one inference request: resolves the model (and its fallbacks) to providers, picks keys by weight, retries with
 * backoff or the provider's hint, rotates keys on 429 and drops dead keys on 401/402/403, and falls back on 429, 5xx,
 * timeouts, connection failures and exhausted keys. Routing rules decide first (the rule's target and fallbacks
 * replace the caller's model and fallbacks). Reads only in-memory snapshots.
 */
@Injectable()
export class InferenceRouter {
  constructor(
    private readonly catalog: ProviderCatalog,
    private readonly attempts: UpstreamAttempts,
    private readonly rules: RoutingRuleEngine,
  ) {}

  async route(call: InferenceCall): Promise<RoutedResult> {
    const current = this.catalog.snapshot();
    const snapshot = current instanceof Promise ? await current : current;
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
    const decision = deciding instanceof Promise ? await deciding : deciding;
    if (decision) {
      target = parseModelRef(decision.provider ? `${decision.provider}/${decision.model}` : decision.model);
      if (decision.fallbacks.length > 0) fallbacks = decision.fallbacks;
      // The rule's key applies to its target (a fallback to another provider ignores it, as a caller's pin).
      if (decision.keyId) call.pin = { id: decision.keyId };
    }
    const chain = [target, ...fallbacks.map(parseModelRef)];
    const primary = target;
    const state = call.progress;
    let last: ModelFailure | undefined;
    for (let index = 0; index < chain.length; index++) {
      const ref = chain[index]!;
      const info: RoutingInfo = { requested_provider: requested.provider, requested_model: requested.model };
      if (decision) {
        info.routing_rule_id = decision.ruleId;
        info.routing_rule_name = decision.ruleName;
      }
      const startedAt = performance.now();
      const retriesBefore = state.retries;
      let resolved: ResolvedModel;
      try {
        resolved = resolveModel(call, ref, snapshot, index === 0);
      } catch (err) {
        if (!(err instanceof GatewayException)) throw err;
        // An unknown model or an unsupported request is the caller's; a provider without usable keys is not.
        last = { error: err, fallback: err.code === 'model_not_available' || err.code === 'secret_unresolved' };
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
      const outcome = await this.runModel(call, resolved, info, state);
      if ('routing' in outcome) {
        return {
          ...outcome,
          fallbackIndex: index,
          modelStartedAt: startedAt,
          modelRetries: state.retries - retriesBefore,
        };
      }
      last = outcome;
      call.chain?.push({
        fallbackIndex: index,
        routing: routingSnapshot(info),
        keyId: outcome.keyId,
        retries: state.retries - retriesBefore,
        startedAt,
        endedAt: performance.now(),
        error: outcome.error,
      });
      if (!outcome.fallback || call.signal.aborted) break;
    }
    throw last!.error;
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
  ): Promise<Omit<RoutedResult, 'fallbackIndex' | 'modelStartedAt' | 'modelRetries'> | ModelFailure> {
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
      info.resolved_key_alias = alias;
      const target = providerTarget(provider, resolved.config, adapter, key.credentials, upstreamModel);
      const attempt = await this.attempts.attempt(call, resolved, target, info, state);
      if (!(attempt instanceof AttemptFailure)) {
        return {
          ...attempt,
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
