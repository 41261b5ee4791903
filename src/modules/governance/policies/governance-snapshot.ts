import type { ProviderId } from '../../inference/index.js';
import type {
  GovernanceSnapshot,
  GovernedLevel,
  ProviderConfigPolicy,
  VirtualKeyPolicy,
} from '../limits/governed-levels.js';
import type { BudgetEntity } from '../objects/entities/budget.entity.js';
import type { CustomerEntity } from '../objects/entities/customer.entity.js';
import type { ModelConfigEntity } from '../objects/entities/model-config.entity.js';
import type { OwnerColumn } from '../objects/entities/owner-columns.js';
import type { ProviderGovernanceEntity } from '../objects/entities/provider-governance.entity.js';
import type { RateLimitEntity } from '../objects/entities/rate-limit.entity.js';
import type { TeamEntity } from '../objects/entities/team.entity.js';
import { budgetRule, rateLimitRule } from '../objects/limits.js';
import type { VirtualKeyProviderConfigEntity } from '../virtual-keys/entities/virtual-key-provider-config.entity.js';
import type { VirtualKeyEntity } from '../virtual-keys/entities/virtual-key.entity.js';

/** Every stored row the snapshot is built from. */
export interface GovernanceRows {
  virtualKeys: Pick<VirtualKeyEntity, 'id' | 'name' | 'team_id' | 'customer_id'>[];
  providerConfigs: VirtualKeyProviderConfigEntity[];
  teams: Pick<TeamEntity, 'id' | 'name'>[];
  customers: Pick<CustomerEntity, 'id' | 'name'>[];
  links: Array<{ team_id: string; customer_id: string }>;
  budgets: BudgetEntity[];
  rateLimits: RateLimitEntity[];
  providers: ProviderGovernanceEntity[];
  modelConfigs: ModelConfigEntity[];
}

const freeze = <T>(value: T): T => Object.freeze(value);

/**
 * The immutable view enforcement reads (governed-levels.ts): levels with their budget and rate-limit rules, by key,
 * provider and model. Built at `builtAt`; a budget override that ends later makes `validUntil` earlier than forever,
 * and the owner rebuilds then.
 */
export class BuiltGovernanceSnapshot implements GovernanceSnapshot {
  /** Epoch ms when an override ends and this snapshot's limits stop being right; Infinity when none does. */
  readonly validUntil: number;
  private readonly keys = new Map<string, VirtualKeyPolicy>();
  private readonly providerLevels = new Map<ProviderId, GovernedLevel>();
  private readonly globalModelConfigs: Array<{ config: ModelConfigEntity; level: GovernedLevel }> = [];
  private readonly keyModelConfigs = new Map<string, Array<{ config: ModelConfigEntity; level: GovernedLevel }>>();

  constructor(rows: GovernanceRows, now = Date.now()) {
    const budgetsBy = new Map<string, BudgetEntity[]>();
    let validUntil = Infinity;
    for (const budget of rows.budgets) {
      const key = ownerKeyOf(budget);
      budgetsBy.set(key, [...(budgetsBy.get(key) ?? []), budget]);
      const ends = budget.override_expires_at?.getTime();
      if (budget.override_amount !== null && ends !== undefined && ends > now) validUntil = Math.min(validUntil, ends);
    }
    this.validUntil = validUntil;
    const limitBy = new Map(rows.rateLimits.map((r) => [ownerKeyOf(r), r]));
    const level = (kind: GovernedLevel['kind'], column: OwnerColumn, id: string, name: string): GovernedLevel => {
      const budgets = (budgetsBy.get(`${column}:${id}`) ?? []).map((b) => freeze(budgetRule(b, now)));
      const limit = limitBy.get(`${column}:${id}`);
      return freeze({
        kind,
        id,
        name,
        budgets: freeze(budgets),
        ...(limit ? { rateLimit: freeze(rateLimitRule(limit)) } : {}),
      });
    };

    const teams = new Map(rows.teams.map((t) => [t.id, level('team', 'team_id', t.id, t.name)]));
    const customers = new Map(rows.customers.map((c) => [c.id, level('customer', 'customer_id', c.id, c.name)]));
    const customersOfTeam = new Map<string, GovernedLevel[]>();
    for (const link of rows.links) {
      const customer = customers.get(link.customer_id);
      if (customer) customersOfTeam.set(link.team_id, [...(customersOfTeam.get(link.team_id) ?? []), customer]);
    }
    const configsOf = new Map<string, ProviderConfigPolicy[]>();
    for (const pc of rows.providerConfigs) {
      const policy: ProviderConfigPolicy = freeze({
        provider: pc.provider,
        weight: pc.weight,
        allowedModels: freeze([...pc.allowed_models]),
        blacklistedModels: freeze([...pc.blacklisted_models]),
        keyIds: pc.key_ids.includes('*') ? '*' : freeze([...pc.key_ids]),
        level: level('provider_config', 'provider_config_id', pc.id, pc.provider),
      });
      configsOf.set(pc.virtual_key_id, [...(configsOf.get(pc.virtual_key_id) ?? []), policy]);
    }
    for (const vk of rows.virtualKeys) {
      const team = vk.team_id ? teams.get(vk.team_id) : undefined;
      const customer = vk.customer_id ? customers.get(vk.customer_id) : undefined;
      this.keys.set(
        vk.id,
        freeze({
          id: vk.id,
          name: vk.name,
          providerConfigs: freeze((configsOf.get(vk.id) ?? []).sort((a, b) => a.provider.localeCompare(b.provider))),
          level: level('virtual_key', 'virtual_key_id', vk.id, vk.name),
          ...(team ? { team } : {}),
          customers: freeze(team ? [...(customersOfTeam.get(team.id) ?? [])] : customer ? [customer] : []),
        }),
      );
    }
    for (const p of rows.providers)
      this.providerLevels.set(p.provider, level('provider', 'provider', p.provider, p.provider));
    for (const config of rows.modelConfigs) {
      const name = config.provider ? `${config.provider}/${config.model_name}` : config.model_name;
      const entry = { config, level: level('model_config', 'model_config_id', config.id, name) };
      if (config.scope === 'global') this.globalModelConfigs.push(entry);
      else if (config.scope === 'virtual_key' && config.scope_id) {
        this.keyModelConfigs.set(config.scope_id, [...(this.keyModelConfigs.get(config.scope_id) ?? []), entry]);
      }
    }
  }

  virtualKey(id: string): VirtualKeyPolicy | undefined {
    return this.keys.get(id);
  }

  provider(provider: ProviderId): GovernedLevel | undefined {
    return this.providerLevels.get(provider);
  }

  modelConfigs(model: string, provider: ProviderId, virtualKeyId: string | undefined): readonly GovernedLevel[] {
    const matches = ({ config }: { config: ModelConfigEntity }) =>
      (config.model_name === '*' || config.model_name === model) &&
      (config.provider === null || config.provider === provider);
    const scoped = virtualKeyId ? (this.keyModelConfigs.get(virtualKeyId) ?? []) : [];
    return [...this.globalModelConfigs.filter(matches), ...scoped.filter(matches)].map((e) => e.level);
  }
}

function ownerKeyOf(row: Pick<BudgetEntity, OwnerColumn>): string {
  if (row.virtual_key_id) return `virtual_key_id:${row.virtual_key_id}`;
  if (row.team_id) return `team_id:${row.team_id}`;
  if (row.customer_id) return `customer_id:${row.customer_id}`;
  if (row.provider_config_id) return `provider_config_id:${row.provider_config_id}`;
  if (row.model_config_id) return `model_config_id:${row.model_config_id}`;
  return `provider:${row.provider}`;
}
