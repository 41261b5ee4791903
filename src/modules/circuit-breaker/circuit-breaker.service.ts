import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, In } from 'typeorm';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { type ProviderId, ProviderKeyEntity } from '../inference/index.js';
import { isUniqueViolation } from '../../core/persistence/db-errors.js';
import { ProviderKeyIds } from '../governance/index.js';
import { CircuitBreakerEngine } from './circuit-breaker.engine.js';
import { CircuitStates } from './circuit-states.js';
import type {
  CircuitBreakerPolicyDto,
  CircuitConditionInputDto,
  CreateCircuitBreakerPolicyDto,
  ReplaceCircuitBreakerPolicyDto,
} from './dto/circuit-breaker-policy.dto.js';
import {
  CircuitBreakerPolicyEntity,
  type CircuitCondition,
  type CircuitSignal,
} from './entities/circuit-breaker-policy.entity.js';

const PRIMARY_KEY = 'pk_circuit_breaker_policies';
const DEFAULT_COOLDOWN = '30s';

/** The stored fields of a policy, everything but its name and timestamps. */
type PolicyFields = Omit<CircuitBreakerPolicyEntity, 'name' | 'created_at' | 'updated_at'>;

/**
 * Circuit breaker policies (`/api/circuit-breaker/policies`): validated and stored here; after every committed write
 * the engine rebuilds its policy snapshot, and a policy whose primary changed (or that was disabled or deleted) loses
 * its circuits.
 */
@Injectable()
export class CircuitBreakerService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly engine: CircuitBreakerEngine,
    private readonly states: CircuitStates,
    private readonly keyIds: ProviderKeyIds,
  ) {}

  static toView(policy: CircuitBreakerPolicyEntity): CircuitBreakerPolicyDto {
    return {
      name: policy.name,
      primary_provider: policy.primary_provider,
      primary_model: policy.primary_model,
      fallback_provider: policy.fallback_provider,
      fallback_model: policy.fallback_model,
      condition: policy.condition,
      enabled: policy.enabled,
      primary_key_ids: policy.primary_key_ids ?? [],
      default_cooldown: policy.default_cooldown,
      cooldown_header: policy.cooldown_header ?? null,
      created_at: policy.created_at.toISOString(),
      updated_at: policy.updated_at.toISOString(),
    };
  }

  private get repository() {
    return this.dataSource.getRepository(CircuitBreakerPolicyEntity);
  }

  async list(): Promise<CircuitBreakerPolicyEntity[]> {
    const policies = await this.repository.find();
    return policies.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async get(name: string): Promise<CircuitBreakerPolicyEntity> {
    const policy = await this.repository.findOneBy({ name });
    if (!policy) throw GatewayException.notFound('circuit_breaker_policy', `Circuit breaker policy ${name} not found`);
    return policy;
  }

  async create(dto: CreateCircuitBreakerPolicyDto): Promise<CircuitBreakerPolicyEntity> {
    const fields = await this.fieldsOf(dto);
    const conflict = () =>
      GatewayException.conflict(`A circuit breaker policy named "${dto.name}" already exists`, 'name');
    if (await this.repository.existsBy({ name: dto.name })) throw conflict();
    try {
      await this.repository.insert({ name: dto.name, ...fields });
    } catch (error) {
      if (isUniqueViolation(error, PRIMARY_KEY)) throw conflict();
      throw error;
    }
    await this.engine.policiesChanged();
    return this.get(dto.name);
  }

  async replace(name: string, dto: ReplaceCircuitBreakerPolicyDto): Promise<CircuitBreakerPolicyEntity> {
    if (dto.name !== undefined && dto.name !== name) {
      throw GatewayException.validation('name', `name must be absent or equal to the policy in the path (${name})`);
    }
    const before = await this.get(name);
    const fields = await this.fieldsOf(dto);
    const result = await this.repository.update({ name }, fields);
    if (!result.affected) {
      throw GatewayException.notFound('circuit_breaker_policy', `Circuit breaker policy ${name} not found`);
    }
    await this.engine.policiesChanged();
    const primaryChanged =
      before.primary_provider !== fields.primary_provider ||
      before.primary_model !== fields.primary_model ||
      !sameIds(before.primary_key_ids ?? [], fields.primary_key_ids);
    if (primaryChanged || !fields.enabled) await this.states.discard(name);
    return this.get(name);
  }

  async delete(name: string): Promise<void> {
    const result = await this.repository.delete({ name });
    if (!result.affected) {
      throw GatewayException.notFound('circuit_breaker_policy', `Circuit breaker policy ${name} not found`);
    }
    await this.engine.policiesChanged();
    await this.states.discard(name);
  }

  /** The fields as stored, with their defaults; what the DTO cannot check alone is checked here (before any write). */
  private async fieldsOf(dto: CreateCircuitBreakerPolicyDto | ReplaceCircuitBreakerPolicyDto): Promise<PolicyFields> {
    if (dto.primary_provider === dto.fallback_provider && dto.primary_model === dto.fallback_model) {
      throw GatewayException.validation(
        'fallback_model',
        'fallback_model must differ from primary_model when fallback_provider is primary_provider',
      );
    }
    const keyIds = dto.primary_key_ids ?? [];
    await this.assertKeysExist(dto.primary_provider, keyIds);
    return {
      primary_provider: dto.primary_provider,
      primary_model: dto.primary_model,
      fallback_provider: dto.fallback_provider,
      fallback_model: dto.fallback_model,
      condition: conditionOf(dto.condition),
      enabled: dto.enabled ?? true,
      primary_key_ids: keyIds,
      default_cooldown: dto.default_cooldown ?? DEFAULT_COOLDOWN,
      cooldown_header: dto.cooldown_header ?? null,
    };
  }

  /** Every id names a key of the provider: an API key (its table) or a key of the config file (the catalog). */
  private async assertKeysExist(provider: ProviderId, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const uuids = ids.filter((id) => isUUID(id));
    const stored = uuids.length
      ? await this.dataSource.getRepository(ProviderKeyEntity).find({
          select: { id: true },
          where: { provider, id: In(uuids) },
        })
      : [];
    const found = new Set(stored.map((k) => k.id));
    let missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      const known = await this.keyIds.of(provider);
      if (known) missing = missing.filter((id) => !known.has(id));
    }
    if (missing.length) {
      throw GatewayException.validation(
        'primary_key_ids',
        `primary_key_ids names no key of ${provider}: ${missing.join(', ')}`,
      );
    }
  }
}

/** The condition as stored: defaults filled in, only the fields set. */
function conditionOf(condition: CircuitConditionInputDto): CircuitCondition {
  return {
    operator: condition.operator ?? 'OR',
    signals: condition.signals.map((s) => {
      const signal: CircuitSignal = { source: s.source ?? 'response_header', header_name: s.header_name };
      if (s.header_value !== undefined) signal.header_value = s.header_value;
      if (s.header_contains !== undefined) signal.header_contains = s.header_contains;
      return signal;
    }),
  };
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
}
