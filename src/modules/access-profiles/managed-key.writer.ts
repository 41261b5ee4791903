import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { bulkUpdate } from '../../core/persistence/bulk-write.js';
import {
  LimitsStore,
  type RemovedLimits,
  GovernancePoliciesService,
  type ProviderConfigInputDto,
  VirtualKeyCache,
  VirtualKeyPolicyWriter,
  type BudgetInput,
  type RateLimitInput,
} from '../governance/index.js';
import type { VirtualKeyMcpGrant } from '../../core/auth/principal.js';
import type { ProfileFields } from './access-profile-fields.js';

/**
 * An MCP grant carried by a virtual key (`virtual_keys.mcp_configs`, defined with the authenticated key the MCP
 * catalog reads): profile-managed keys get theirs from the copy's `mcp_servers` (whole clients) and `include`
 * overrides (single tools).
 */
export type { VirtualKeyMcpGrant };

/** One managed key to rewrite from a copy's fields (ManagedKeyWriter.writeMany). */
export interface ManagedKeyWrite {
  virtualKeyId: string;
  fields: ProfileFields;
}

/** The policy of a profile-managed key, in the virtual-key writer's input shape. */
export interface ManagedKeyPolicy {
  provider_configs: ProviderConfigInputDto[];
  budgets: BudgetInput[];
  rate_limit: RateLimitInput | null;
  mcp_configs: VirtualKeyMcpGrant[];
}

/**
 * The managed key's policy from a copy's fields. `budgets` scoped `provider:<name>` go to that provider's config (the
 * template's validation guarantees it is listed and no window length repeats); `calendar_aligned` is every budget's
 * default. `exclude` overrides grant nothing (a key carries positive allow-lists only).
 */
export function managedKeyPolicy(fields: ProfileFields): ManagedKeyPolicy {
  const aligned = (b: BudgetInput): BudgetInput => ({
    max_limit: b.max_limit,
    reset_duration: b.reset_duration,
    calendar_aligned: b.calendar_aligned ?? fields.calendar_aligned,
  });
  const provider_configs = fields.provider_configs.map((pc): ProviderConfigInputDto => ({
    provider: pc.provider_name,
    weight: pc.weight,
    allowed_models: pc.all_models_allowed ? ['*'] : [...pc.allowed_models],
    blacklisted_models: [...pc.blacklisted_models],
    key_ids: ['*'],
    budgets: [
      ...pc.budgets.map(aligned),
      ...fields.budgets.filter((b) => b.scope === `provider:${pc.provider_name}`).map(aligned),
    ],
    rate_limit: pc.rate_limit,
  }));
  const grants = new Map<string, Set<string>>();
  for (const s of fields.mcp_servers) grants.set(s.mcp_server_id, new Set(['*']));
  for (const o of fields.mcp_tool_overrides) {
    if (o.action !== 'include') continue;
    const tools = grants.get(o.mcp_client_id) ?? new Set<string>();
    if (!tools.has('*')) tools.add(o.tool_name);
    grants.set(o.mcp_client_id, tools);
  }
  return {
    provider_configs,
    budgets: fields.budgets.filter((b) => b.scope === 'total').map(aligned),
    rate_limit: fields.rate_limit,
    mcp_configs: [...grants].map(([mcp_client_id, tools]) => ({ mcp_client_id, tools_to_execute: [...tools].sort() })),
  };
}

/**
 * Writes a copy's policy onto its managed virtual key, inside the caller's transaction. Usage is kept where a window
 * keeps its length (budgets by reset window, rate limits by request/token window) and zeroed elsewhere, or everywhere
 * with `resetUsage`. Call `afterCommit` with the result once the transaction committed: it zeroes those counters and
 * tells every replica's request path (virtual-key cache and governance snapshot).
 */
@Injectable()
export class ManagedKeyWriter {
  constructor(
    private readonly policy: VirtualKeyPolicyWriter,
    private readonly limits: LimitsStore,
    private readonly cache: VirtualKeyCache,
    private readonly policies: GovernancePoliciesService,
  ) {}

  async write(
    m: EntityManager,
    virtualKeyId: string,
    fields: ProfileFields,
    options: { resetUsage: boolean },
  ): Promise<RemovedLimits> {
    return this.writeMany(m, [{ virtualKeyId, fields }], options);
  }

  /**
   * `write` for many keys (each at most once) in a handful of statements: the keys' MCP grants in one UPDATE, their
   * policies through VirtualKeyPolicyWriter.writeMany. Returns the counters to reset after the commit, for all keys.
   */
  async writeMany(
    m: EntityManager,
    keys: readonly ManagedKeyWrite[],
    options: { resetUsage: boolean },
  ): Promise<RemovedLimits> {
    const toReset: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    if (!keys.length) return toReset;
    const policies = keys.map((k) => ({ virtualKeyId: k.virtualKeyId, policy: managedKeyPolicy(k.fields) }));
    await bulkUpdate(
      m,
      'virtual_keys',
      'uuid',
      { mcp_configs: 'jsonb' },
      policies.map((p) => ({ id: p.virtualKeyId, mcp_configs: p.policy.mcp_configs })),
    );
    const written = await this.policy.writeMany(
      m,
      policies.map((p) => ({ virtualKeyId: p.virtualKeyId, dto: p.policy })),
    );
    for (const w of written) {
      toReset.budgetIds.push(...w.removed.budgetIds);
      toReset.rateLimitIds.push(...w.removed.rateLimitIds);
      if (options.resetUsage) {
        toReset.budgetIds.push(...w.held.budgetIds);
        toReset.rateLimitIds.push(...w.held.rateLimitIds);
      } else {
        toReset.rateLimitIds.push(...w.windowsChanged);
      }
    }
    if (options.resetUsage)
      await this.limits.markReset(
        m,
        written.flatMap((w) => w.held.budgetIds),
      );
    return toReset;
  }

  /** Zeroes the counters `write` returned and invalidates the request path's snapshots on every replica. */
  async afterCommit(toReset: RemovedLimits): Promise<void> {
    await this.cache.invalidate();
    await this.policies.invalidate();
    await this.limits.resetCounters(toReset);
  }
}
