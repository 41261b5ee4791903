import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, type DataSource, type EntityManager } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { writeAlignedOwnerLimits } from '../objects/aligned-owner.js';
import { ModelConfigEntity } from '../objects/entities/model-config.entity.js';
import { assertBudgets, assertRateLimit } from '../objects/limits.js';
import { LimitsStore, type RemovedLimits } from '../objects/limits.store.js';
import { GovernancePoliciesService } from '../policies/governance-policies.service.js';
import { isId } from '../../../core/validation/ids.js';
import { UserEntity } from '../users/entities/user.entity.js';
import { VirtualKeyEntity } from '../virtual-keys/entities/virtual-key.entity.js';
import type { CreateModelConfigDto, ModelConfigDto, UpdateModelConfigDto } from './model-config.dto.js';

/** Budgets and rate limits per model (or `*`), optionally per provider, globally or for one key or user. */
@Injectable()
export class ModelConfigsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly limits: LimitsStore,
    private readonly policies: GovernancePoliciesService,
  ) {}

  async list(): Promise<ModelConfigDto[]> {
    const rows = await this.dataSource.manager.find(ModelConfigEntity, { order: { created_at: 'ASC', id: 'ASC' } });
    return this.views(rows);
  }

  async get(id: string): Promise<ModelConfigDto> {
    return (await this.views([await this.find(this.dataSource.manager, id)]))[0]!;
  }

  async create(dto: CreateModelConfigDto): Promise<ModelConfigDto> {
    const scope = dto.scope ?? 'global';
    if (scope === 'global' && dto.scope_id !== undefined) {
      throw GatewayException.validation('scope_id', 'scope_id is only for scope virtual_key or user');
    }
    if (scope !== 'global' && dto.scope_id === undefined) {
      throw GatewayException.validation('scope_id', `scope_id is required with scope ${scope}`);
    }
    this.assertLimits(dto);
    const id = randomUUID();
    await this.dataSource.transaction(async (m) => {
      if (scope === 'virtual_key' && !(await m.existsBy(VirtualKeyEntity, { id: dto.scope_id! }))) {
        throw GatewayException.validation('scope_id', `scope_id ${dto.scope_id} is not a known virtual key`);
      }
      if (scope === 'user' && !(await m.existsBy(UserEntity, { id: dto.scope_id! }))) {
        throw GatewayException.validation('scope_id', `scope_id ${dto.scope_id} is not a known user`);
      }
      const row = {
        model_name: dto.model_name,
        provider: dto.provider ?? null,
        scope,
        scope_id: dto.scope_id ?? null,
      };
      await this.assertUnique(m, row, undefined);
      const aligned = dto.calendar_aligned ?? false;
      await m.insert(ModelConfigEntity, { id, ...row, calendar_aligned: aligned });
      await writeAlignedOwnerLimits(m, this.limits, { column: 'model_config_id', id }, dto, aligned, false);
    });
    await this.policies.invalidate();
    return this.get(id);
  }

  async update(id: string, dto: UpdateModelConfigDto): Promise<ModelConfigDto> {
    this.assertLimits(dto);
    let toReset: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    await this.dataSource.transaction(async (m) => {
      const row = await this.find(m, id);
      if (dto.model_name !== undefined) row.model_name = dto.model_name;
      if (dto.provider !== undefined) row.provider = dto.provider;
      await this.assertUnique(m, row, id);
      const changed = dto.calendar_aligned !== undefined && dto.calendar_aligned !== row.calendar_aligned;
      if (dto.calendar_aligned !== undefined) row.calendar_aligned = dto.calendar_aligned;
      row.updated_at = new Date();
      await m.save(row);
      const owner = { column: 'model_config_id' as const, id };
      toReset = await writeAlignedOwnerLimits(m, this.limits, owner, dto, row.calendar_aligned, changed);
    });
    await this.policies.invalidate();
    await this.limits.resetCounters(toReset);
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const removed = await this.dataSource.transaction(async (m) => {
      await this.find(m, id);
      const ids = await this.limits.idsOf(m, { column: 'model_config_id', id });
      await m.delete(ModelConfigEntity, { id });
      return ids;
    });
    await this.policies.invalidate();
    await this.limits.resetCounters(removed);
  }

  private assertLimits(dto: CreateModelConfigDto | UpdateModelConfigDto): void {
    if (dto.model_name !== undefined && dto.model_name.trim() !== dto.model_name) {
      throw GatewayException.validation('model_name', 'model_name must not start or end with spaces');
    }
    if (dto.budgets) assertBudgets(dto.budgets, 'budgets');
    if (dto.rate_limit) assertRateLimit(dto.rate_limit, 'rate_limit');
  }

  /** One config per model, provider and scope: a second would double-count. */
  private async assertUnique(
    m: EntityManager,
    row: Pick<ModelConfigEntity, 'model_name' | 'provider' | 'scope' | 'scope_id'>,
    self: string | undefined,
  ): Promise<void> {
    const twin = await m.findOneBy(ModelConfigEntity, {
      model_name: row.model_name,
      provider: row.provider ?? IsNull(),
      scope: row.scope,
      scope_id: row.scope_id ?? IsNull(),
    });
    if (twin && twin.id !== self) {
      throw GatewayException.conflict(
        `A model config for ${row.provider ? `${row.provider}/` : ''}${row.model_name} with this scope already exists (${twin.id})`,
        'model_name',
      );
    }
  }

  private async find(m: EntityManager, id: string): Promise<ModelConfigEntity> {
    const row = isId(id) ? await m.findOneBy(ModelConfigEntity, { id }) : null;
    if (!row) throw GatewayException.notFound('model_config', `Model config ${id} not found`);
    return row;
  }

  private async views(rows: ModelConfigEntity[]): Promise<ModelConfigDto[]> {
    const limits = await this.limits.loadMany(
      this.dataSource.manager,
      'model_config_id',
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      id: r.id,
      model_name: r.model_name,
      provider: r.provider,
      scope: r.scope,
      scope_id: r.scope_id,
      calendar_aligned: r.calendar_aligned,
      ...limits.get(r.id)!,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    }));
  }
}
