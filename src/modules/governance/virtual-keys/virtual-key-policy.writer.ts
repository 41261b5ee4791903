import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { CustomerEntity } from '../objects/entities/customer.entity.js';
import { TeamEntity } from '../objects/entities/team.entity.js';
import { assertBudgets, assertRateLimit } from '../objects/limits.js';
import { bulkInsert, bulkUpdate } from '../../../core/persistence/bulk-write.js';
import { LimitChanges, storedLimitsOf, type Owner, type StoredLimits } from '../objects/limit-changes.js';
import { LimitsStore, type OwnerLimits, type RemovedLimits } from '../objects/limits.store.js';
import { ProviderKeyIds } from '../shared/provider-key-ids.js';
import type { CreateVirtualKeyDto, ProviderConfigInputDto, ProviderConfigViewDto } from './dto/virtual-key.dto.js';
import { VirtualKeyProviderConfigEntity } from './entities/virtual-key-provider-config.entity.js';

type PolicyInput = Pick<CreateVirtualKeyDto, 'team_id' | 'customer_id' | 'provider_configs' | 'budgets' | 'rate_limit'>;

export interface VirtualKeyPolicyView extends OwnerLimits {
  provider_configs: ProviderConfigViewDto[];
}

/** One key's policy to write (VirtualKeyPolicyWriter.writeMany). */
export interface PolicyWrite {
  virtualKeyId: string;
  dto: PolicyInput;
}

/** What `writeMany` did to one key (its own limits and its provider configs'). */
export interface PolicyWritten {
  /** Budgets and rate limits removed (counters to forget after the commit). */
  removed: RemovedLimits;
  /** Every budget and rate limit the key and its configs hold afterwards. */
  held: RemovedLimits;
  /** Kept rate limits whose request or token window changed. */
  windowsChanged: string[];
}

interface ConfigChanges {
  inserts: Pick<
    VirtualKeyProviderConfigEntity,
    'id' | 'virtual_key_id' | 'provider' | 'weight' | 'allowed_models' | 'blacklisted_models' | 'key_ids'
  >[];
  updates: Pick<
    VirtualKeyProviderConfigEntity,
    'id' | 'weight' | 'allowed_models' | 'blacklisted_models' | 'key_ids'
  >[];
  deletes: string[];
}

const CONFIG_COLUMNS = {
  weight: 'double precision',
  allowed_models: 'jsonb',
  blacklisted_models: 'jsonb',
  key_ids: 'jsonb',
};

/**
 * The policy half of a virtual key: owner (team XOR customer), provider configs, budgets and rate limit. Validates the
 * whole input before anything is written (400 naming the field), then writes inside the caller's transaction.
 */
@Injectable()
export class VirtualKeyPolicyWriter {
  constructor(
    private readonly limits: LimitsStore,
    private readonly keyIds: ProviderKeyIds,
  ) {}

  /**
   * Checks of the input alone (and of the provider catalog): call before the transaction, since the catalog may read
   * the database (PGlite has one connection).
   */
  async validateInput(dto: PolicyInput): Promise<void> {
    if (dto.team_id && dto.customer_id) throw this.bothOwners('customer_id');
    if (dto.budgets) assertBudgets(dto.budgets, 'budgets');
    if (dto.rate_limit) assertRateLimit(dto.rate_limit, 'rate_limit');
    const seen = new Map<string, number>();
    for (const [i, pc] of (dto.provider_configs ?? []).entries()) {
      const param = `provider_configs[${i}]`;
      const first = seen.get(pc.provider);
      if (first !== undefined) {
        throw GatewayException.validation(
          `${param}.provider`,
          `${param}.provider ${pc.provider} is already configured by provider_configs[${first}]`,
        );
      }
      seen.set(pc.provider, i);
      await this.assertKeyIds(pc, param);
      if (pc.budgets) assertBudgets(pc.budgets, `${param}.budgets`);
      if (pc.rate_limit) assertRateLimit(pc.rate_limit, `${param}.rate_limit`);
    }
  }

  /** Checks against stored rows, inside the writing transaction: the team or customer exists, never both. */
  async validateOwner(
    m: EntityManager,
    dto: PolicyInput,
    current: { team_id: string | null; customer_id: string | null } | undefined,
  ): Promise<void> {
    const team = dto.team_id !== undefined ? dto.team_id : (current?.team_id ?? null);
    const customer = dto.customer_id !== undefined ? dto.customer_id : (current?.customer_id ?? null);
    if (team !== null && customer !== null) throw this.bothOwners(dto.customer_id ? 'customer_id' : 'team_id');
    if (dto.team_id && !(await m.existsBy(TeamEntity, { id: dto.team_id }))) {
      throw GatewayException.validation('team_id', `team_id ${dto.team_id} is not a known team`);
    }
    if (dto.customer_id && !(await m.existsBy(CustomerEntity, { id: dto.customer_id }))) {
      throw GatewayException.validation('customer_id', `customer_id ${dto.customer_id} is not a known customer`);
    }
  }

  private bothOwners(param: string): GatewayException {
    return GatewayException.validation(
      param,
      'A virtual key belongs to a team or to a customer, not both: set team_id or customer_id (and the other to null)',
    );
  }

  /**
   * Writes what the input carries; returns the budgets and rate limits it removed (their counters are reset after
   * the commit).
   */
  async write(m: EntityManager, virtualKeyId: string, dto: PolicyInput): Promise<RemovedLimits> {
    const [written] = await this.writeMany(m, [{ virtualKeyId, dto }]);
    return written!.removed;
  }

  /**
   * `write` for a key inserted in this same transaction: it holds nothing yet, so nothing is read first (a create
   * is then a handful of inserts: declarative applies create keys by the thousand).
   */
  async writeNew(m: EntityManager, virtualKeyId: string, dto: PolicyInput): Promise<void> {
    await this.writeMany(m, [{ virtualKeyId, dto }], { fresh: true });
  }

  /**
   * `write` for many keys at once (each key at most once), in a few statements: loads their provider configs,
   * budgets and rate limits, computes every key's changes in memory, and writes them in bulk. Per key, in input
   * order: what was removed, what the key and its configs hold afterwards, and the kept rate limits whose windows
   * changed.
   */
  async writeMany(
    m: EntityManager,
    writes: readonly PolicyWrite[],
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<PolicyWritten[]> {
    if (!writes.length) return [];
    const keyIds = writes.map((w) => w.virtualKeyId);
    // Fresh keys (inserted in this transaction) hold no configs or limits: nothing to read.
    const configs = fresh
      ? []
      : await m.find(VirtualKeyProviderConfigEntity, {
          where: { virtual_key_id: In(keyIds) },
          order: { provider: 'ASC' },
        });
    const own = await storedLimitsOf(m, 'virtual_key_id', fresh ? [] : keyIds);
    const ofConfigs = await storedLimitsOf(
      m,
      'provider_config_id',
      configs.map((c) => c.id),
    );
    const configsOf = new Map<string, VirtualKeyProviderConfigEntity[]>(keyIds.map((id) => [id, []]));
    for (const pc of configs) configsOf.get(pc.virtual_key_id)?.push(pc);

    const changes = new LimitChanges();
    const configChanges: ConfigChanges = { inserts: [], updates: [], deletes: [] };
    const out = writes.map(({ virtualKeyId, dto }): PolicyWritten => {
      const written: PolicyWritten = {
        removed: { budgetIds: [], rateLimitIds: [] },
        held: { budgetIds: [], rateLimitIds: [] },
        windowsChanged: [],
      };
      const stored = own.get(virtualKeyId) ?? { budgets: [], rateLimit: null };
      this.diffLimits(changes, { column: 'virtual_key_id', id: virtualKeyId }, stored, dto, written);
      const storedConfigs = configsOf.get(virtualKeyId)!;
      if (!dto.provider_configs) {
        for (const pc of storedConfigs) this.holdAll(ofConfigs.get(pc.id)!, written);
        return written;
      }
      const byProvider = new Map(storedConfigs.map((pc) => [pc.provider, pc]));
      const kept = new Set<string>();
      for (const pc of dto.provider_configs) {
        const existing = byProvider.get(pc.provider);
        const id = existing?.id ?? randomUUID();
        const fields = {
          weight: pc.weight === undefined ? 1 : pc.weight,
          allowed_models: pc.allowed_models ?? ['*'],
          blacklisted_models: pc.blacklisted_models ?? [],
          key_ids: pc.key_ids ?? ['*'],
        };
        if (existing) {
          kept.add(id);
          configChanges.updates.push({ id, ...fields });
        } else {
          configChanges.inserts.push({ id, virtual_key_id: virtualKeyId, provider: pc.provider, ...fields });
        }
        const limits = (existing && ofConfigs.get(existing.id)) || { budgets: [], rateLimit: null };
        this.diffLimits(
          changes,
          { column: 'provider_config_id', id },
          limits,
          { budgets: pc.budgets ?? [], rate_limit: pc.rate_limit ?? null },
          written,
        );
      }
      for (const pc of storedConfigs) {
        if (kept.has(pc.id)) continue;
        // Deleting the config takes its budgets and rate limit along (cascade).
        const limits = ofConfigs.get(pc.id)!;
        written.removed.budgetIds.push(...limits.budgets.map((b) => b.id));
        if (limits.rateLimit) written.removed.rateLimitIds.push(limits.rateLimit.id);
        configChanges.deletes.push(pc.id);
      }
      return written;
    });

    if (configChanges.deletes.length) {
      await m.delete(VirtualKeyProviderConfigEntity, { id: In(configChanges.deletes) });
    }
    await bulkUpdate(m, 'virtual_key_provider_configs', 'uuid', CONFIG_COLUMNS, configChanges.updates);
    await bulkInsert(m, VirtualKeyProviderConfigEntity, configChanges.inserts);
    await changes.apply(m);
    return out;
  }

  /** One owner's budgets and rate limit: replaced where the input carries them, else held as stored. */
  private diffLimits(
    changes: LimitChanges,
    owner: Owner,
    stored: StoredLimits,
    input: Pick<PolicyInput, 'budgets' | 'rate_limit'>,
    written: PolicyWritten,
  ): void {
    if (input.budgets) {
      const budgets = changes.budgets(owner, stored.budgets, input.budgets, false);
      written.removed.budgetIds.push(...budgets.removed);
      written.held.budgetIds.push(...budgets.held);
    } else {
      written.held.budgetIds.push(...stored.budgets.map((b) => b.id));
    }
    if (input.rate_limit !== undefined) {
      const limit = changes.rateLimit(owner, stored.rateLimit, input.rate_limit);
      written.removed.rateLimitIds.push(...limit.removed);
      if (limit.held) written.held.rateLimitIds.push(limit.held);
      if (limit.windowsChanged && limit.held) written.windowsChanged.push(limit.held);
    } else if (stored.rateLimit) {
      written.held.rateLimitIds.push(stored.rateLimit.id);
    }
  }

  private holdAll(stored: StoredLimits, written: PolicyWritten): void {
    written.held.budgetIds.push(...stored.budgets.map((b) => b.id));
    if (stored.rateLimit) written.held.rateLimitIds.push(stored.rateLimit.id);
  }

  /** Every budget and rate limit of the key and of its provider configs. */
  async allLimitIds(m: EntityManager, virtualKeyId: string): Promise<RemovedLimits> {
    const own = await this.limits.idsOf(m, { column: 'virtual_key_id', id: virtualKeyId });
    const configs = await m.findBy(VirtualKeyProviderConfigEntity, { virtual_key_id: virtualKeyId });
    const ofConfigs = await this.limitIdsOfConfigs(
      m,
      configs.map((c) => c.id),
    );
    return {
      budgetIds: [...own.budgetIds, ...ofConfigs.budgetIds],
      rateLimitIds: [...own.rateLimitIds, ...ofConfigs.rateLimitIds],
    };
  }

  /** Policy views of many keys at once. */
  async views(m: EntityManager, ids: readonly string[]): Promise<Map<string, VirtualKeyPolicyView>> {
    const own = await this.limits.loadMany(m, 'virtual_key_id', ids);
    const configs = ids.length
      ? await m.find(VirtualKeyProviderConfigEntity, {
          where: { virtual_key_id: In([...ids]) },
          order: { provider: 'ASC' },
        })
      : [];
    const configLimits = await this.limits.loadMany(
      m,
      'provider_config_id',
      configs.map((c) => c.id),
    );
    const out = new Map<string, VirtualKeyPolicyView>();
    for (const id of ids) out.set(id, { ...own.get(id)!, provider_configs: [] });
    for (const pc of configs) {
      const limits = configLimits.get(pc.id)!;
      out.get(pc.virtual_key_id)?.provider_configs.push({
        id: pc.id,
        provider: pc.provider,
        weight: pc.weight,
        allowed_models: pc.allowed_models,
        blacklisted_models: pc.blacklisted_models,
        key_ids: pc.key_ids,
        budgets: limits.budgets,
        rate_limit: limits.rate_limit,
      });
    }
    return out;
  }

  private async limitIdsOfConfigs(m: EntityManager, configIds: readonly string[]): Promise<RemovedLimits> {
    const out: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    for (const id of configIds) {
      const ids = await this.limits.idsOf(m, { column: 'provider_config_id', id });
      out.budgetIds.push(...ids.budgetIds);
      out.rateLimitIds.push(...ids.rateLimitIds);
    }
    return out;
  }

  private async assertKeyIds(pc: ProviderConfigInputDto, param: string): Promise<void> {
    const keyIds = pc.key_ids ?? ['*'];
    if (keyIds.includes('*')) {
      if (keyIds.length > 1) {
        throw GatewayException.validation(`${param}.key_ids`, `${param}.key_ids: "*" stands alone (every key)`);
      }
      return;
    }
    const known = keyIds.length ? await this.keyIds.of(pc.provider) : undefined;
    if (!known) return;
    const unknown = keyIds.findIndex((id) => !known.has(id));
    if (unknown >= 0) {
      throw GatewayException.validation(
        `${param}.key_ids[${unknown}]`,
        `${param}.key_ids[${unknown}] ${keyIds[unknown]} is not a key of provider ${pc.provider}`,
      );
    }
  }
}
