import { Injectable } from '@nestjs/common';
import { GovernancePolicies, type GovernanceSnapshot, type VirtualKeyPolicy } from './governed-levels.js';

/**
 * Placeholder until the governance objects (teams, customers, budgets, rate limits, provider configs, provider
 * governance, model configs) are stored: every virtual key is a level without budgets or limits and without provider
 * configs, so requests go through as before and the request path does no counter work. Replaced by the objects
 * module's implementation.
 */
@Injectable()
export class DefaultGovernancePolicies extends GovernancePolicies {
  private readonly view: GovernanceSnapshot = {
    virtualKey: (id: string): VirtualKeyPolicy => ({
      id,
      name: id,
      providerConfigs: [],
      level: { kind: 'virtual_key', id, name: id, budgets: [] },
      customers: [],
    }),
    provider: () => undefined,
    modelConfigs: () => [],
  };

  snapshot(): GovernanceSnapshot {
    return this.view;
  }
}
