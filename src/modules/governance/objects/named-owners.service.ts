import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, EntityTarget } from 'typeorm';
import type { NotFoundResource } from '../../../core/errors/error-catalogue.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import type { GovernancePoliciesService } from '../policies/governance-policies.service.js';
import { isId } from '../../../core/validation/ids.js';
import type { VirtualKeyCache } from '../virtual-keys/virtual-key-cache.js';
import type { OwnerLimitsInputDto, OwnerLimitsUpdateDto } from './dto/owner-input.dto.js';
import type { OwnerColumn } from './entities/owner-columns.js';
import { assertBudgets, assertRateLimit } from './limits.js';
import type { LimitsStore, OwnerLimits, RemovedLimits } from './limits.store.js';

export interface NamedOwner {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export interface NamedOwnerView extends OwnerLimits {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** What tells teams and customers apart. */
export interface NamedOwnerKind<E> {
  entity: EntityTarget<E>;
  column: Extract<OwnerColumn, 'team_id' | 'customer_id'>;
  resource: Extract<NotFoundResource, 'team' | 'customer'>;
  /** "Team", "Customer". */
  label: string;
  nameConstraint: string;
}

/**
 * Create, read, update and delete of a named owner of budgets and a rate limit (teams, customers): validated whole
 * before anything is written, written in one transaction, and the policy snapshot invalidated after the commit.
 */
export abstract class NamedOwnersService<E extends NamedOwner> {
  protected constructor(
    protected readonly dataSource: DataSource,
    protected readonly limits: LimitsStore,
    protected readonly policies: GovernancePoliciesService,
    protected readonly keys: VirtualKeyCache,
    protected readonly kind: NamedOwnerKind<E>,
  ) {}

  async listViews(): Promise<NamedOwnerView[]> {
    const rows = await this.dataSource.manager.find(this.kind.entity, {
      order: { name: 'ASC', id: 'ASC' } as never,
    });
    return this.views(rows);
  }

  async find(id: string, m: EntityManager = this.dataSource.manager): Promise<E> {
    const row = isId(id) ? await m.findOneBy(this.kind.entity, { id } as never) : null;
    if (!row) throw GatewayException.notFound(this.kind.resource, `${this.kind.label} ${id} not found`);
    return row;
  }

  async getView(id: string): Promise<NamedOwnerView> {
    return (await this.views([await this.find(id)]))[0]!;
  }

  async create(dto: OwnerLimitsInputDto & { name: string }): Promise<NamedOwnerView> {
    this.assertLimits(dto);
    const id = randomUUID();
    try {
      await this.dataSource.transaction(async (m) => {
        await m.insert(this.kind.entity, { id, name: dto.name } as never);
        await this.limits.writeNew(m, { column: this.kind.column, id }, dto, false);
      });
    } catch (error) {
      throw this.mapConflict(error, dto.name);
    }
    await this.policies.invalidate();
    return this.getView(id);
  }

  async update(id: string, dto: OwnerLimitsUpdateDto & { name?: string }): Promise<NamedOwnerView> {
    this.assertLimits(dto);
    let toReset: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    try {
      await this.dataSource.transaction(async (m) => {
        const row = await this.find(id, m);
        if (dto.name !== undefined) row.name = dto.name;
        row.updated_at = new Date();
        await m.save(this.kind.entity, row);
        toReset = await this.writeLimits(m, id, dto);
        if (dto.reset_usage) {
          const all = await this.limits.idsOf(m, { column: this.kind.column, id });
          await this.limits.markReset(m, all.budgetIds);
          toReset = {
            budgetIds: [...toReset.budgetIds, ...all.budgetIds],
            rateLimitIds: [...toReset.rateLimitIds, ...all.rateLimitIds],
          };
        }
      });
    } catch (error) {
      throw this.mapConflict(error, dto.name ?? '');
    }
    await this.policies.invalidate();
    await this.limits.resetCounters(toReset);
    return this.getView(id);
  }

  /** Its budgets, rate limit and links go with it; its virtual keys stay, detached. */
  async delete(id: string): Promise<void> {
    const removed = await this.dataSource.transaction(async (m) => {
      await this.find(id, m);
      const limits = await this.limits.idsOf(m, { column: this.kind.column, id });
      await m.delete(this.kind.entity, { id });
      return limits;
    });
    await this.keys.invalidate();
    await this.policies.invalidate();
    await this.limits.resetCounters(removed);
  }

  protected async views(rows: E[]): Promise<NamedOwnerView[]> {
    const limits = await this.limits.loadMany(
      this.dataSource.manager,
      this.kind.column,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      ...limits.get(r.id)!,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    }));
  }

  private assertLimits(dto: OwnerLimitsInputDto): void {
    if (dto.budgets) assertBudgets(dto.budgets, 'budgets');
    if (dto.rate_limit) assertRateLimit(dto.rate_limit, 'rate_limit');
  }

  private async writeLimits(m: EntityManager, id: string, dto: OwnerLimitsInputDto): Promise<RemovedLimits> {
    const owner = { column: this.kind.column, id };
    const removed: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    if (dto.budgets) removed.budgetIds = await this.limits.replaceBudgets(m, owner, dto.budgets, false);
    if (dto.rate_limit !== undefined) removed.rateLimitIds = await this.limits.setRateLimit(m, owner, dto.rate_limit);
    return removed;
  }

  private mapConflict(error: unknown, name: string): unknown {
    if (isUniqueViolation(error, this.kind.nameConstraint)) {
      return GatewayException.conflict(`A ${this.kind.label.toLowerCase()} named "${name}" already exists`, 'name');
    }
    return error;
  }
}
