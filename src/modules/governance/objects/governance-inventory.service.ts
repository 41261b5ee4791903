import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { VirtualKeyProviderConfigEntity } from '../virtual-keys/entities/virtual-key-provider-config.entity.js';
import { VirtualKeyEntity } from '../virtual-keys/entities/virtual-key.entity.js';
import type { GovernanceOwnerDto, OwnedBudgetDto, OwnedRateLimitDto } from './dto/inventory.dto.js';
import { BudgetEntity } from './entities/budget.entity.js';
import { CustomerEntity } from './entities/customer.entity.js';
import { ModelConfigEntity } from './entities/model-config.entity.js';
import type { OwnerColumn } from './entities/owner-columns.js';
import { RateLimitEntity } from './entities/rate-limit.entity.js';
import { TeamEntity } from './entities/team.entity.js';
import { LimitsStore } from './limits.store.js';

type OwnerRow = Pick<BudgetEntity, OwnerColumn>;

/** Every budget and rate limit with its owner and current usage (`GET /api/governance/budgets|rate-limits`). */
@Injectable()
export class GovernanceInventory {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly limits: LimitsStore,
  ) {}

  async budgets(): Promise<OwnedBudgetDto[]> {
    const rows = await this.dataSource.manager.find(BudgetEntity, { order: { created_at: 'ASC', id: 'ASC' } });
    const owners = await this.ownerResolver();
    const out: OwnedBudgetDto[] = [];
    for (const row of rows) out.push({ ...(await this.limits.budgetView(row)), owner: owners(row) });
    return out;
  }

  async rateLimits(): Promise<OwnedRateLimitDto[]> {
    const rows = await this.dataSource.manager.find(RateLimitEntity, { order: { created_at: 'ASC', id: 'ASC' } });
    const owners = await this.ownerResolver();
    const out: OwnedRateLimitDto[] = [];
    for (const row of rows) out.push({ ...(await this.limits.rateLimitView(row)), owner: owners(row) });
    return out;
  }

  private async ownerResolver(): Promise<(row: OwnerRow) => GovernanceOwnerDto> {
    const m = this.dataSource.manager;
    const names = async (entity: typeof TeamEntity | typeof CustomerEntity | typeof VirtualKeyEntity) =>
      new Map((await m.find(entity, { select: { id: true, name: true } })).map((r) => [r.id, r.name]));
    const keys = await names(VirtualKeyEntity);
    const teams = await names(TeamEntity);
    const customers = await names(CustomerEntity);
    const configs = new Map((await m.find(VirtualKeyProviderConfigEntity)).map((c) => [c.id, c]));
    const models = new Map((await m.find(ModelConfigEntity)).map((c) => [c.id, c]));
    return (row) => {
      const owner = (
        kind: GovernanceOwnerDto['kind'],
        id: string,
        name: string | undefined,
        vk: string | null = null,
      ) => ({
        kind,
        id,
        name: name ?? '',
        virtual_key_id: vk,
      });
      if (row.virtual_key_id)
        return owner('virtual_key', row.virtual_key_id, keys.get(row.virtual_key_id), row.virtual_key_id);
      if (row.team_id) return owner('team', row.team_id, teams.get(row.team_id));
      if (row.customer_id) return owner('customer', row.customer_id, customers.get(row.customer_id));
      if (row.provider_config_id) {
        const config = configs.get(row.provider_config_id);
        return owner('provider_config', row.provider_config_id, config?.provider, config?.virtual_key_id ?? null);
      }
      if (row.model_config_id) {
        const config = models.get(row.model_config_id);
        const name = config ? (config.provider ? `${config.provider}/${config.model_name}` : config.model_name) : '';
        return owner('model_config', row.model_config_id, name);
      }
      return owner('provider', row.provider ?? '', row.provider ?? '');
    };
  }
}
