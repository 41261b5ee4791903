import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { PROVIDER_IDS } from '../../inference/index.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { isId } from '../../../core/validation/ids.js';
import { VirtualKeysService } from '../virtual-keys/virtual-keys.service.js';
import type {
  CreateRoutingRuleDto,
  RoutingRuleDto,
  RoutingRuleQueryDto,
  RoutingRuleTryResultDto,
  RoutingRuleValidationDto,
  RoutingTargetDto,
  TryRoutingRulesDto,
  UpdateRoutingRuleDto,
} from './dto/routing-rule.dto.js';
import { RoutingRuleEntity, type RoutingTarget, type RuleScope } from './entities/routing-rule.entity.js';
import { compileRule } from './routing-rule-compiler.js';
import { RoutingRuleEngine, SCOPE_ORDER, type RuleRequest } from './routing-rule-engine.js';

const NAME_CONFLICT = 'uq_routing_rules_scope_name';
const PROVIDERS: ReadonlySet<string> = new Set(PROVIDER_IDS);
/** Weights sum to 1 within this tolerance (0.1 + 0.2 + 0.7 is not exactly 1 in binary). */
const WEIGHT_TOLERANCE = 1e-6;

/** Routing rules (`/api/governance/routing-rules`): validated on write, compiled and evaluated by RoutingRuleEngine. */
@Injectable()
export class RoutingRulesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly engine: RoutingRuleEngine,
    private readonly virtualKeys: VirtualKeysService,
  ) {}

  static toView(rule: RoutingRuleEntity): RoutingRuleDto {
    return {
      id: rule.id,
      name: rule.name,
      description: rule.description,
      enabled: rule.enabled,
      cel_expression: rule.cel_expression,
      targets: rule.targets,
      fallbacks: rule.fallbacks,
      scope: rule.scope,
      scope_id: rule.scope === 'global' ? null : rule.scope_id,
      priority: rule.priority,
      chain_rule: rule.chain_rule,
      query: rule.query,
      created_at: rule.created_at.toISOString(),
      updated_at: rule.updated_at.toISOString(),
    };
  }

  async list(query: RoutingRuleQueryDto): Promise<RoutingRuleEntity[]> {
    const where: Partial<Pick<RoutingRuleEntity, 'scope' | 'scope_id'>> = {};
    if (query.scope) where.scope = query.scope;
    if (query.scope_id !== undefined) where.scope_id = query.scope_id;
    const rules = await this.dataSource.getRepository(RoutingRuleEntity).find({ where });
    return rules.sort(
      (a, b) =>
        SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] ||
        a.priority - b.priority ||
        a.created_at.getTime() - b.created_at.getTime(),
    );
  }

  async get(id: string): Promise<RoutingRuleEntity> {
    const rule = isId(id) ? await this.dataSource.getRepository(RoutingRuleEntity).findOneBy({ id }) : null;
    if (!rule) throw GatewayException.notFound('routing_rule', `Routing rule ${id} not found`);
    return rule;
  }

  async create(dto: CreateRoutingRuleDto): Promise<RoutingRuleEntity> {
    const scope = dto.scope ?? 'global';
    const rule = this.dataSource.getRepository(RoutingRuleEntity).create({
      id: randomUUID(),
      name: dto.name,
      description: dto.description ?? '',
      enabled: dto.enabled ?? true,
      cel_expression: dto.cel_expression,
      targets: targetsOf(dto.targets),
      fallbacks: fallbacksOf(dto.fallbacks),
      scope,
      scope_id: scopeIdOf(scope, dto.scope_id),
      priority: dto.priority ?? 0,
      chain_rule: dto.chain_rule ?? false,
      query: dto.query ?? null,
    });
    await assertCompiles(rule.cel_expression);
    return this.save(rule);
  }

  async update(id: string, dto: UpdateRoutingRuleDto): Promise<RoutingRuleEntity> {
    const rule = await this.get(id);
    if (dto.name !== undefined) rule.name = dto.name;
    if (dto.description !== undefined) rule.description = dto.description;
    if (dto.enabled !== undefined) rule.enabled = dto.enabled;
    if (dto.cel_expression !== undefined) rule.cel_expression = dto.cel_expression;
    if (dto.targets !== undefined) rule.targets = targetsOf(dto.targets);
    if (dto.fallbacks !== undefined) rule.fallbacks = fallbacksOf(dto.fallbacks);
    if (dto.scope !== undefined || dto.scope_id !== undefined) {
      const scope = dto.scope ?? rule.scope;
      // A scope change needs its own id; an id alone moves the rule within its scope.
      const scopeId = dto.scope_id !== undefined ? dto.scope_id : dto.scope === undefined ? rule.scope_id : undefined;
      rule.scope = scope;
      rule.scope_id = scopeIdOf(scope, scopeId);
    }
    if (dto.priority !== undefined) rule.priority = dto.priority;
    if (dto.chain_rule !== undefined) rule.chain_rule = dto.chain_rule;
    if (dto.query !== undefined) rule.query = dto.query;
    await assertCompiles(rule.cel_expression);
    return this.save(rule);
  }

  /** Whether an expression compiles, with the problem and its position: what a create would answer, without writing. */
  static async validate(expression: string): Promise<RoutingRuleValidationDto> {
    const compiled = await compileRule(expression);
    if (!('problem' in compiled)) return { valid: true, message: null, position: null };
    return {
      valid: false,
      message: `cel_expression does not compile: ${compiled.problem}`,
      position: compiled.position ?? null,
    };
  }

  /** What the stored rules decide for a sample request: the matched rules and the provider/model chain it would try. */
  async try(dto: TryRoutingRulesDto): Promise<RoutingRuleTryResultDto> {
    let virtualKey: RuleRequest['virtualKey'];
    if (dto.virtual_key_id !== undefined) {
      if ((await this.virtualKeys.findExistingIds([dto.virtual_key_id])).length === 0) {
        throw GatewayException.validation(
          'virtual_key_id',
          `virtual_key_id names no virtual key (${dto.virtual_key_id})`,
        );
      }
      const key = await this.virtualKeys.get(dto.virtual_key_id);
      virtualKey = { id: key.id, name: key.name, team_id: key.team_id, customer_id: key.customer_id };
    }
    const { decision, steps } = await this.engine.explain({
      provider: dto.provider,
      model: dto.model,
      requestType: dto.request_type ?? 'chat_completion',
      headers: dto.headers ?? {},
      query: dto.params ?? {},
      virtualKey,
    });
    const target = decision
      ? decision.provider
        ? `${decision.provider}/${decision.model}`
        : decision.model
      : dto.provider
        ? `${dto.provider}/${dto.model}`
        : dto.model;
    const fallbacks = decision && decision.fallbacks.length > 0 ? decision.fallbacks : (dto.fallbacks ?? []);
    return {
      matched: decision !== undefined,
      steps: steps.map((step) => ({
        rule_id: step.ruleId,
        rule_name: step.ruleName,
        targets: [...step.targets],
        provider: step.provider ?? null,
        model: step.model,
        key_id: step.keyId ?? null,
      })),
      chain: [target, ...fallbacks],
    };
  }

  async delete(id: string): Promise<void> {
    const rule = await this.get(id);
    await this.dataSource.getRepository(RoutingRuleEntity).delete({ id: rule.id });
    await this.engine.invalidate();
  }

  private async save(rule: RoutingRuleEntity): Promise<RoutingRuleEntity> {
    if (rule.scope === 'virtual_key' && (await this.virtualKeys.findExistingIds([rule.scope_id])).length === 0) {
      throw GatewayException.validation('scope_id', `scope_id names no virtual key (${rule.scope_id})`);
    }
    let saved: RoutingRuleEntity;
    try {
      saved = await this.dataSource.getRepository(RoutingRuleEntity).save(rule);
    } catch (error) {
      if (isUniqueViolation(error, NAME_CONFLICT)) {
        const where = rule.scope === 'global' ? 'the global scope' : `${rule.scope} ${rule.scope_id}`;
        throw GatewayException.conflict(`A routing rule named "${rule.name}" already exists in ${where}`, 'name');
      }
      throw error;
    }
    await this.engine.invalidate();
    return saved;
  }
}

async function assertCompiles(expression: string): Promise<void> {
  const compiled = await compileRule(expression);
  if ('problem' in compiled) {
    throw GatewayException.validation('cel_expression', `cel_expression does not compile: ${compiled.problem}`);
  }
}

function scopeIdOf(scope: RuleScope, scopeId: string | null | undefined): string {
  if (scope === 'global') {
    if (scopeId) throw GatewayException.validation('scope_id', 'scope_id must be absent or null for a global rule');
    return '';
  }
  if (!scopeId) throw GatewayException.validation('scope_id', `scope_id is required for a ${scope} rule`);
  if (!isUUID(scopeId)) throw GatewayException.validation('scope_id', `scope_id must be the ${scope}'s id (a UUID)`);
  return scopeId;
}

/** Targets as stored: only the fields set; `key_id` needs a provider; weights sum to 1. */
function targetsOf(targets: RoutingTargetDto[]): RoutingTarget[] {
  let sum = 0;
  const stored = targets.map((t, i) => {
    if (t.provider === undefined && t.model === undefined) {
      throw GatewayException.validation(`targets[${i}]`, `targets[${i}] must name a provider, a model or both`);
    }
    if (t.key_id !== undefined && t.provider === undefined) {
      throw GatewayException.validation(`targets[${i}].key_id`, `targets[${i}].key_id needs targets[${i}].provider`);
    }
    sum += t.weight;
    const target: RoutingTarget = { weight: t.weight };
    if (t.provider !== undefined) target.provider = t.provider;
    if (t.model !== undefined) target.model = t.model;
    if (t.key_id !== undefined) target.key_id = t.key_id;
    return target;
  });
  if (Math.abs(sum - 1) > WEIGHT_TOLERANCE) {
    throw GatewayException.validation('targets', `The weights of targets must sum to 1 (they sum to ${sum})`);
  }
  return stored;
}

/** `provider` or `provider/model`, the provider a known id. */
function fallbacksOf(fallbacks: unknown[] | undefined): string[] {
  return (fallbacks ?? []).map((value, i) => {
    const fallback = value as string;
    const slash = fallback.indexOf('/');
    const provider = slash < 0 ? fallback : fallback.slice(0, slash);
    if (!PROVIDERS.has(provider) || slash === fallback.length - 1) {
      throw GatewayException.validation(
        `fallbacks[${i}]`,
        `fallbacks[${i}] must be provider/model or a provider alone, with a known provider id`,
      );
    }
    return fallback;
  });
}
