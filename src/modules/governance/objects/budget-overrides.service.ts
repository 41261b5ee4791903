import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { CounterStore } from '../../../core/redis/counter.store.js';
import { calendarPeriod } from '../../../core/redis/counter-window.js';
import { budgetCounterKey } from '../limits/governed-levels.js';
import { GovernancePoliciesService } from '../policies/governance-policies.service.js';
import { isId } from '../../../core/validation/ids.js';
import { VirtualKeyProviderConfigEntity } from '../virtual-keys/entities/virtual-key-provider-config.entity.js';
import { VirtualKeyEntity } from '../virtual-keys/entities/virtual-key.entity.js';
import type { BudgetOverrideDto, BudgetOverrideResponseDto } from './dto/inventory.dto.js';
import { BudgetEntity } from './entities/budget.entity.js';
import { budgetWindow } from './limits.js';
import { LimitsStore } from './limits.store.js';

/**
 * Temporary raises of a virtual key's budget (its own, or one of its provider configs'): `max_limit + amount` for
 * ever or for a number of windows. The end of a `cycles` override is fixed when it is set (from the counter's current
 * window), so every replica agrees on it.
 */
/** The stored columns of an override. */
type OverrideFields = Pick<
  BudgetEntity,
  'override_amount' | 'override_mode' | 'override_cycles' | 'override_expires_at'
>;

@Injectable()
export class BudgetOverridesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly counters: CounterStore,
    private readonly limits: LimitsStore,
    private readonly policies: GovernancePoliciesService,
  ) {}

  async set(vkId: string, budgetId: string, dto: BudgetOverrideDto): Promise<BudgetOverrideResponseDto> {
    if (dto.mode === 'cycles' && dto.cycles === undefined) {
      throw GatewayException.validation('cycles', 'cycles is required with mode cycles');
    }
    if (dto.mode === 'forever' && dto.cycles !== undefined) {
      throw GatewayException.validation('cycles', 'cycles is only for mode cycles');
    }
    return this.write(vkId, budgetId, async (budget) => ({
      override_amount: dto.amount,
      override_mode: dto.mode,
      override_cycles: dto.cycles ?? null,
      override_expires_at: dto.mode === 'cycles' ? await this.endOfCycles(budget, dto.cycles!) : null,
    }));
  }

  async clear(vkId: string, budgetId: string): Promise<BudgetOverrideResponseDto> {
    return this.write(vkId, budgetId, () => ({
      override_amount: null,
      override_mode: null,
      override_cycles: null,
      override_expires_at: null,
    }));
  }

  /**
   * Checks, writes and re-reads the budget in one transaction holding its row: a concurrent change of the key's
   * budgets (a PUT replacing them, a delete) either waits or makes this a 404, never a write to a vanished row.
   */
  private async write(
    vkId: string,
    budgetId: string,
    patch: (budget: BudgetEntity) => OverrideFields | Promise<OverrideFields>,
  ): Promise<BudgetOverrideResponseDto> {
    const saved = await this.dataSource.transaction(async (m) => {
      const budget = await this.find(m, vkId, budgetId);
      await m.update(BudgetEntity, { id: budget.id }, await patch(budget));
      return m.findOneByOrFail(BudgetEntity, { id: budget.id });
    });
    await this.policies.invalidate();
    const budget = await this.limits.budgetView(saved);
    return { budget, effective_max_limit: budget.effective_max_limit };
  }

  private async find(m: EntityManager, vkId: string, budgetId: string): Promise<BudgetEntity> {
    if (!isId(vkId) || !(await m.existsBy(VirtualKeyEntity, { id: vkId }))) {
      throw GatewayException.notFound('virtual_key', `Virtual key ${vkId} not found`);
    }
    const budget = isId(budgetId)
      ? await m.findOne(BudgetEntity, { where: { id: budgetId }, lock: { mode: 'pessimistic_write' } })
      : null;
    let belongs = budget?.virtual_key_id === vkId;
    if (budget?.provider_config_id) {
      belongs = await m.existsBy(VirtualKeyProviderConfigEntity, {
        id: budget.provider_config_id,
        virtual_key_id: vkId,
      });
    }
    if (!budget || !belongs) {
      throw GatewayException.notFound('budget', `Budget ${budgetId} not found on virtual key ${vkId}`);
    }
    return budget;
  }

  /** The end of the current window plus `cycles - 1` more. */
  private async endOfCycles(budget: BudgetEntity, cycles: number): Promise<Date> {
    const window = budgetWindow(budget);
    let end = (await this.counters.get(budgetCounterKey(budget.id), window)).resetAt;
    for (let i = 1; i < cycles; i++) {
      end =
        window.kind === 'calendar'
          ? calendarPeriod(window.unit, end, window.quarterStartMonth).end
          : end + (window.kind === 'fixed' ? window.ms : 0);
    }
    return new Date(end);
  }
}
