import { describe, expect, it } from 'vitest';
import type { BudgetEntity } from '../../src/modules/governance/objects/entities/budget.entity.js';
import {
  BuiltGovernanceSnapshot,
  type GovernanceRows,
} from '../../src/modules/governance/policies/governance-snapshot.js';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const KEY = '11111111-1111-4111-8111-111111111111';

function budget(fields: Partial<BudgetEntity>): BudgetEntity {
  return {
    id: 'b',
    max_limit: 10,
    reset_duration: '1d',
    calendar_aligned: false,
    last_reset: new Date(NOW),
    override_amount: null,
    override_mode: null,
    override_cycles: null,
    override_expires_at: null,
    virtual_key_id: KEY,
    team_id: null,
    customer_id: null,
    provider_config_id: null,
    model_config_id: null,
    provider: null,
    created_at: new Date(NOW),
    updated_at: new Date(NOW),
    ...fields,
  };
}

function rows(budgets: BudgetEntity[]): GovernanceRows {
  return {
    virtualKeys: [{ id: KEY, name: 'k', team_id: null, customer_id: null }],
    providerConfigs: [],
    teams: [],
    customers: [],
    links: [],
    budgets,
    rateLimits: [],
    providers: [],
    modelConfigs: [],
  };
}

/** Budget overrides as the snapshot applies them: the limit, and when the snapshot must be rebuilt. */
describe('governance snapshot: budget overrides', () => {
  it('adds a forever override and never expires', () => {
    const snapshot = new BuiltGovernanceSnapshot(rows([budget({ override_amount: 5, override_mode: 'forever' })]), NOW);
    expect(snapshot.virtualKey(KEY)!.level.budgets[0]!.limit).toBe(15);
    expect(snapshot.validUntil).toBe(Infinity);
  });

  it('adds a cycles override until it ends, and is valid only until then', () => {
    const ends = new Date(NOW + 3_600_000);
    const snapshot = new BuiltGovernanceSnapshot(
      rows([
        budget({ id: 'a', override_amount: 5, override_mode: 'cycles', override_cycles: 1, override_expires_at: ends }),
        budget({
          id: 'b',
          reset_duration: '1w',
          override_amount: 1,
          override_mode: 'cycles',
          override_expires_at: new Date(NOW + 7_200_000),
        }),
      ]),
      NOW,
    );
    expect(snapshot.virtualKey(KEY)!.level.budgets.map((b) => b.limit)).toEqual([15, 11]);
    expect(snapshot.validUntil).toBe(ends.getTime());
  });

  it('ignores an override that has ended', () => {
    const snapshot = new BuiltGovernanceSnapshot(
      rows([budget({ override_amount: 5, override_mode: 'cycles', override_expires_at: new Date(NOW - 1) })]),
      NOW,
    );
    expect(snapshot.virtualKey(KEY)!.level.budgets[0]!.limit).toBe(10);
    expect(snapshot.validUntil).toBe(Infinity);
  });
});
