import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import type { AuthenticatedVirtualKey } from '../../../core/auth/principal.js';
import { CacheFactory } from '../../../core/cache/cache.factory.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import type { ProviderId } from '../../inference/index.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { MetricsService } from '../../../core/metrics/metrics.service.js';
import { CounterStore } from '../../../core/redis/counter.store.js';
import { InvalidationBus } from '../../../core/redis/invalidation.bus.js';
import {
  budgetCounterKey,
  GovernancePolicies,
  requestCounterKey,
  tokenCounterKey,
  type GovernedLevel,
  type GovernanceSnapshot,
  type VirtualKeyPolicy,
} from '../limits/governed-levels.js';
import { SnapshotHolder } from '../../../core/cache/snapshot-holder.js';
import { CREDENTIAL_QUERY_PARAMS, isCredentialHeader } from '../../../core/auth/credential-headers.js';
import { RoutingRuleEntity, type RoutingTarget, type RuleScope } from './entities/routing-rule.entity.js';
import type { CompiledExpression, RuleVariables } from './routing-rule-cel.js';
import { compileRule, isMissingKey } from './routing-rule-compiler.js';
import { isPending } from '../../../core/async/maybe-promise.js';

/** Invalidation topic of routing rule changes. */
export const ROUTING_RULES_TOPIC = 'governance.routing-rules';

/** Evaluation order of the scopes: the most specific first. */
export const SCOPE_ORDER: Record<RuleScope, number> = { virtual_key: 0, team: 1, customer: 2, global: 3 };

interface CompiledRule {
  id: string;
  name: string;
  expression: CompiledExpression;
  targets: readonly RoutingTarget[];
  fallbacks: readonly string[];
  chainRule: boolean;
}

/** The enabled rules, compiled, by scope key (`global:`, `team:<id>`, …), each list in priority order. */
interface RuleSet {
  size: number;
  byScope: ReadonlyMap<string, readonly CompiledRule[]>;
  /** Some rule reads `headers` (`params`): only then are the request's headers (query) copied for the rules. */
  readsHeaders: boolean;
  readsParams: boolean;
}

/** What a rule decides: where the request goes (the caller's provider or model where the target names none). */
export interface RuleDecision {
  ruleId: string;
  ruleName: string;
  /** Undefined: the caller sent a bare model and the target names no provider. */
  provider?: ProviderId;
  model: string;
  keyId?: string;
  /** The rule's fallbacks as `provider/model` (a provider alone took the request's model); empty: the caller's. */
  fallbacks: string[];
}

/** One step of an evaluation as a try shows it: the decision and every target the matched rule could pick. */
export interface RuleStep extends RuleDecision {
  targets: readonly RoutingTarget[];
}

export interface RuleRequest {
  provider?: ProviderId;
  model: string;
  /** `chat_completion`, `embedding`, … */
  requestType: string;
  headers: Record<string, string | string[] | undefined>;
  query: unknown;
  virtualKey?: Pick<AuthenticatedVirtualKey, 'id' | 'name'> & {
    team_id?: string | null;
    customer_id?: string | null;
  };
}

interface Usage {
  budget_used: number;
  tokens_used: number;
  request: number;
}
const NO_USAGE: Usage = { budget_used: 0, tokens_used: 0, request: 0 };
const EMPTY_MAP: ReadonlyMap<string, string> = new Map();

/**
 * Evaluates routing rules on the request path from an in-memory snapshot of the compiled rules (rebuilt on change
 * through the invalidation bus; never the database per request). Scopes virtual key > team > customer > global, then
 * priority; the first rule whose expression holds wins; its target is picked by weight. A matched `chain_rule`
 * evaluates the rules again with its target, up to `inference.routing_chain_max_depth` steps, stopping at a
 * provider/model already visited. A rule whose evaluation fails is skipped and counted
 * (`gateway_routing_rule_errors_total`); a header or param the request lacks is simply no match.
 */
@Injectable()
export class RoutingRuleEngine implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly holder: SnapshotHolder<RuleSet>;
  private readonly errors: Counter<'rule' | 'reason'>;
  private readonly matches: Counter<'rule'>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: GatewayConfig,
    private readonly counters: CounterStore,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: MetricsService,
    caches: CacheFactory,
    bus: InvalidationBus,
    @Optional() private readonly policies?: GovernancePolicies,
  ) {
    this.holder = new SnapshotHolder(ROUTING_RULES_TOPIC, () => this.build(), logger, caches, bus);
    this.errors = new Counter({
      name: 'gateway_routing_rule_errors_total',
      help: 'Routing rules skipped because their evaluation failed, by rule name and reason',
      labelNames: ['rule', 'reason'] as const,
      registers: [metrics.registry],
    });
    this.matches = new Counter({
      name: 'gateway_routing_rule_matches_total',
      help: 'Requests a routing rule matched (each step of a chain counts), by rule name',
      labelNames: ['rule'] as const,
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap(): void {
    this.holder.warm();
  }

  onModuleDestroy(): void {
    this.holder.close();
  }

  invalidate(): Promise<void> {
    return this.holder.invalidate();
  }

  /**
   * The decision of the rules for one request, or undefined when none matched. Synchronous (no promise, no microtask)
   * when no rule exists.
   */
  decide(request: RuleRequest): RuleDecision | undefined | Promise<RuleDecision | undefined> {
    const current = this.holder.get();
    if (!isPending(current) && current.size === 0) return undefined;
    return this.evaluate(current, request);
  }

  /**
   * What the rules decide for a sample request (`POST /api/governance/routing-rules/try`), every step of a chain
   * with the matched rule's targets: the request path's own evaluation, without its metrics.
   */
  async explain(request: RuleRequest): Promise<{ decision?: RuleDecision; steps: RuleStep[] }> {
    const steps: RuleStep[] = [];
    const decision = await this.evaluate(this.holder.get(), request, steps);
    return { decision, steps };
  }

  private async evaluate(
    current: RuleSet | Promise<RuleSet>,
    request: RuleRequest,
    /** Collects each step and leaves the metrics alone (a try, not a request). */
    steps?: RuleStep[],
  ): Promise<RuleDecision | undefined> {
    const rules = isPending(current) ? await current : current;
    if (rules.size === 0) return undefined;
    const vk = request.virtualKey;
    const policySnapshot = vk ? await this.governance() : undefined;
    const policy = vk ? policySnapshot?.virtualKey(vk.id) : undefined;
    const teamId = vk?.team_id ?? policy?.team?.id ?? '';
    const customers = [
      ...new Set([...(vk?.customer_id ? [vk.customer_id] : []), ...(policy?.customers.map((c) => c.id) ?? [])]),
    ];
    const scopes = [
      ...(vk ? [`virtual_key:${vk.id}`] : []),
      ...(teamId ? [`team:${teamId}`] : []),
      ...customers.map((id) => `customer:${id}`),
      'global:',
    ].filter((s) => rules.byScope.has(s));
    if (scopes.length === 0) return undefined;
    const base: Omit<RuleVariables, 'model' | 'provider' | keyof Usage> = {
      request_type: request.requestType,
      headers: rules.readsHeaders ? headerMap(request.headers) : EMPTY_MAP,
      params: rules.readsParams ? paramMap(request.query) : EMPTY_MAP,
      virtual_key_id: vk?.id ?? '',
      virtual_key_name: vk?.name ?? '',
      team_id: teamId,
      team_name: policy?.team?.name ?? '',
      customer_id: customers[0] ?? '',
      customer_name: policy?.customers.find((c) => c.id === customers[0])?.name ?? '',
    };
    let provider = request.provider;
    let model = request.model;
    const visited = new Set([`${provider ?? ''}|${model}`]);
    let decision: RuleDecision | undefined;
    for (let step = 0; step < this.config.inference.routing_chain_max_depth; step++) {
      let usage: Usage | null | undefined;
      const variables = { ...base, provider: provider ?? '', model, ...NO_USAGE } as RuleVariables;
      let matched: CompiledRule | undefined;
      for (const scope of scopes) {
        for (const rule of rules.byScope.get(scope)!) {
          if (rule.expression.usesUsage) {
            usage ??= await this.usageOf(policySnapshot, policy, provider, model);
            if (usage === null) {
              if (!steps) this.errors.inc({ rule: rule.name, reason: 'usage_unavailable' });
              continue;
            }
            Object.assign(variables, usage);
          }
          const outcome = rule.expression.evaluate(variables);
          if ('error' in outcome) {
            if (!isMissingKey(outcome.error) && !steps) {
              this.errors.inc({ rule: rule.name, reason: 'evaluation_failed' });
              this.logger.debug({ rule: rule.name, err: outcome.error }, 'routing rule skipped: evaluation failed');
            }
            continue;
          }
          if (outcome.matched) {
            matched = rule;
            break;
          }
        }
        if (matched) break;
      }
      if (!matched) break;
      if (!steps) this.matches.inc({ rule: matched.name });
      const target = pickTarget(matched.targets);
      const nextProvider = target.provider ?? provider;
      const nextModel = target.model ?? model;
      decision = {
        ruleId: matched.id,
        ruleName: matched.name,
        provider: nextProvider,
        model: nextModel,
        keyId: target.key_id,
        fallbacks: matched.fallbacks.map((f) => (f.includes('/') ? f : `${f}/${nextModel}`)),
      };
      steps?.push({ ...decision, targets: matched.targets });
      if (!matched.chainRule) break;
      const state = `${nextProvider ?? ''}|${nextModel}`;
      if (visited.has(state)) break;
      visited.add(state);
      provider = nextProvider;
      model = nextModel;
    }
    return decision;
  }

  /** The governed levels (names, budgets and limits), when the governance objects provide them and can be read. */
  private async governance(): Promise<GovernanceSnapshot | undefined> {
    if (!this.policies) return undefined;
    try {
      return await this.policies.snapshot();
    } catch (err) {
      // Rules then see no team or customer names and no usage; routing goes on.
      this.logger.warn({ err: (err as Error).message }, 'routing rules: governance snapshot unavailable');
      return undefined;
    }
  }

  /**
   * The highest share (percent) used of the budgets, token limits and request limits covering this key on this
   * provider and model (0 where none); null when the counters cannot be read.
   */
  private async usageOf(
    snapshot: GovernanceSnapshot | undefined,
    policy: VirtualKeyPolicy | undefined,
    provider: ProviderId | undefined,
    model: string,
  ): Promise<Usage | null> {
    if (!snapshot) return NO_USAGE;
    const levels: GovernedLevel[] = [];
    if (policy) {
      const config = provider ? policy.providerConfigs.find((p) => p.provider === provider) : undefined;
      if (config) levels.push(config.level);
      levels.push(policy.level);
      if (policy.team) levels.push(policy.team);
      levels.push(...policy.customers);
    }
    if (provider) {
      const governed = snapshot.provider(provider);
      if (governed) levels.push(governed);
      levels.push(...snapshot.modelConfigs(model, provider, policy?.id));
    }
    const reads: Array<Promise<[keyof Usage, number]>> = [];
    const share = (name: keyof Usage, key: string, limit: number, window: Parameters<CounterStore['get']>[1]) =>
      reads.push(
        this.counters.get(key, window).then((s) => [name, limit > 0 ? (s.value / limit) * 100 : s.value > 0 ? 100 : 0]),
      );
    for (const level of levels) {
      for (const budget of level.budgets)
        share('budget_used', budgetCounterKey(budget.id), budget.limit, budget.window);
      const limit = level.rateLimit;
      if (limit?.tokens) share('tokens_used', tokenCounterKey(limit.id), limit.tokens.limit, limit.tokens.window);
      if (limit?.requests) share('request', requestCounterKey(limit.id), limit.requests.limit, limit.requests.window);
    }
    if (reads.length === 0) return NO_USAGE;
    try {
      const usage = { ...NO_USAGE };
      for (const [name, percent] of await Promise.all(reads)) usage[name] = Math.max(usage[name], percent);
      return usage;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'routing rules: usage counters could not be read');
      return null;
    }
  }

  private async build(): Promise<RuleSet> {
    const rows = await this.dataSource.getRepository(RoutingRuleEntity).find({ where: { enabled: true } });
    rows.sort((a, b) => a.priority - b.priority || a.created_at.getTime() - b.created_at.getTime());
    const byScope = new Map<string, CompiledRule[]>();
    let size = 0;
    let readsHeaders = false;
    let readsParams = false;
    for (const row of rows) {
      const expression = await compileRule(row.cel_expression);
      if ('problem' in expression) {
        // Refused at write time; a row written otherwise (an older version, by hand) is skipped and counted.
        this.errors.inc({ rule: row.name, reason: 'compile_failed' });
        continue;
      }
      const key = `${row.scope}:${row.scope === 'global' ? '' : row.scope_id}`;
      const list = byScope.get(key) ?? [];
      list.push({
        id: row.id,
        name: row.name,
        expression,
        targets: row.targets,
        fallbacks: row.fallbacks,
        chainRule: row.chain_rule,
      });
      byScope.set(key, list);
      size++;
      readsHeaders ||= expression.reads.has('headers');
      readsParams ||= expression.reads.has('params');
    }
    return { size, byScope, readsHeaders, readsParams };
  }
}

/** Weighted random choice (weights sum to 1; the last target takes any rounding remainder). */
function pickTarget(targets: readonly RoutingTarget[]): RoutingTarget {
  let r = Math.random();
  for (const target of targets) {
    r -= target.weight;
    if (r < 0) return target;
  }
  return targets[targets.length - 1]!;
}

function headerMap(headers: Record<string, string | string[] | undefined>): Map<string, string> {
  const map = new Map<string, string>();
  for (const name in headers) {
    const value = headers[name];
    const lower = name.toLowerCase();
    if (value === undefined || isCredentialHeader(lower)) continue;
    map.set(lower, Array.isArray(value) ? value.join(', ') : value);
  }
  return map;
}

function paramMap(query: unknown): Map<string, string> {
  const map = new Map<string, string>();
  if (typeof query !== 'object' || query === null) return map;
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    if (CREDENTIAL_QUERY_PARAMS.has(lower)) continue;
    if (typeof value === 'string') map.set(lower, value);
    else if (Array.isArray(value)) map.set(lower, value.map(String).join(','));
  }
  return map;
}
