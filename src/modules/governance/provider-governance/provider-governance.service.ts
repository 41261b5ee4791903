import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../../inference/index.js';
import { writeAlignedOwnerLimits } from '../objects/aligned-owner.js';
import { ProviderGovernanceEntity } from '../objects/entities/provider-governance.entity.js';
import { assertBudgets, assertRateLimit } from '../objects/limits.js';
import { LimitsStore, type RemovedLimits } from '../objects/limits.store.js';
import { GovernancePoliciesService } from '../policies/governance-policies.service.js';
import type { ProviderGovernanceDto, PutProviderGovernanceDto } from './provider-governance.dto.js';

/** Budgets and a rate limit over everything sent to a provider, by any key. */
@Injectable()
export class ProviderGovernanceService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly limits: LimitsStore,
    private readonly policies: GovernancePoliciesService,
  ) {}

  async list(): Promise<ProviderGovernanceDto[]> {
    const rows = await this.dataSource.manager.find(ProviderGovernanceEntity, { order: { provider: 'ASC' } });
    return this.views(rows);
  }

  /** Creates or changes the provider's governance (budgets: omitted unchanged, `[]` removed, a list replaces). */
  async put(provider: ProviderId, dto: PutProviderGovernanceDto): Promise<ProviderGovernanceDto> {
    if (dto.budgets) assertBudgets(dto.budgets, 'budgets');
    if (dto.rate_limit) assertRateLimit(dto.rate_limit, 'rate_limit');
    let toReset: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    // Read back in the same transaction, so a delete meanwhile cannot make the answer a 500.
    const saved = await this.dataSource.transaction(async (m) => {
      const row = await m.findOneBy(ProviderGovernanceEntity, { provider });
      const aligned = dto.calendar_aligned ?? row?.calendar_aligned ?? false;
      const changed = row !== null && row.calendar_aligned !== aligned;
      if (!row) {
        await m.insert(ProviderGovernanceEntity, { provider, calendar_aligned: aligned });
      } else {
        row.calendar_aligned = aligned;
        row.updated_at = new Date();
        await m.save(row);
      }
      toReset = await writeAlignedOwnerLimits(
        m,
        this.limits,
        { column: 'provider', id: provider },
        dto,
        aligned,
        changed,
      );
      return m.findOneByOrFail(ProviderGovernanceEntity, { provider });
    });
    await this.policies.invalidate();
    await this.limits.resetCounters(toReset);
    return (await this.views([saved]))[0]!;
  }

  async delete(provider: ProviderId): Promise<void> {
    const removed = await this.dataSource.transaction(async (m) => {
      if (!(await m.existsBy(ProviderGovernanceEntity, { provider }))) {
        throw GatewayException.notFound('provider_governance', `Provider ${provider} has no governance`);
      }
      const ids = await this.limits.idsOf(m, { column: 'provider', id: provider });
      await m.delete(ProviderGovernanceEntity, { provider });
      return ids;
    });
    await this.policies.invalidate();
    await this.limits.resetCounters(removed);
  }

  private async views(rows: ProviderGovernanceEntity[]): Promise<ProviderGovernanceDto[]> {
    const limits = await this.limits.loadMany(
      this.dataSource.manager,
      'provider',
      rows.map((r) => r.provider),
    );
    return rows.map((r) => ({
      provider: r.provider,
      calendar_aligned: r.calendar_aligned,
      ...limits.get(r.provider)!,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    }));
  }
}
