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
import { McpToolGroupsService, type McpGroupTool } from '../mcp/index.js';
import type { ProfileFields } from './access-profile-fields.js';

/**
 * An MCP grant carried by a virtual key (`virtual_keys.mcp_configs`, defined with the authenticated key the MCP
 * catalog reads): profile-managed keys get theirs from the copy's `mcp_servers` (whole clients), `include` overrides
 * (single tools) and `mcp_tool_groups` (each group's tools, as they are when the key is written).
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

/** The tools of tool groups by group id (groups that no longer exist are absent and grant nothing). */
export type ToolGroupTools = ReadonlyMap<string, readonly McpGroupTool[]>;

/**
 * A copy's MCP grants: `mcp_servers` whole (`["*"]`), then each referenced group's tools and each `include` override
 * added to their client's list (a client granted whole stays `["*"]`). `exclude` grants nothing (a key carries
 * positive allow-lists only). Sorted by client id (as first granted), tools by name.
 */
export function mcpGrants(
  fields: Pick<ProfileFields, 'mcp_servers' | 'mcp_tool_groups' | 'mcp_tool_overrides'>,
  groups: ToolGroupTools,
): VirtualKeyMcpGrant[] {
  const grants = new Map<string, Set<string>>();
  const add = (client: string, tool: string) => {
    const tools = grants.get(client) ?? new Set<string>();
    if (!tools.has('*')) tools.add(tool);
    grants.set(client, tools);
  };
  for (const s of fields.mcp_servers) grants.set(s.mcp_server_id, new Set(['*']));
  for (const g of fields.mcp_tool_groups)
    for (const t of groups.get(g.tool_group_id) ?? []) add(t.mcp_client_id, t.tool_name);
  for (const o of fields.mcp_tool_overrides) if (o.action === 'include') add(o.mcp_client_id, o.tool_name);
  return [...grants].map(([mcp_client_id, tools]) => ({ mcp_client_id, tools_to_execute: [...tools].sort() }));
}

/**
 * The managed key's policy from a copy's fields. `budgets` scoped `provider:<name>` go to that provider's config (the
 * template's validation guarantees it is listed and no window length repeats); `calendar_aligned` is every budget's
 * default. MCP grants: `mcpGrants`.
 */
export function managedKeyPolicy(fields: ProfileFields, groups: ToolGroupTools = new Map()): ManagedKeyPolicy {
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
  return {
    provider_configs,
    budgets: fields.budgets.filter((b) => b.scope === 'total').map(aligned),
    rate_limit: fields.rate_limit,
    mcp_configs: mcpGrants(fields, groups),
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
    private readonly toolGroups: McpToolGroupsService,
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
    // The groups' rows are held until the commit: a change of their tools waits, then rewrites these keys itself.
    const groups = await this.toolGroups.toolsOf(
      m,
      keys.flatMap((k) => k.fields.mcp_tool_groups.map((g) => g.tool_group_id)),
    );
    const policies = keys.map((k) => ({ virtualKeyId: k.virtualKeyId, policy: managedKeyPolicy(k.fields, groups) }));
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

  /**
   * A tool group's tools changed (inside its transaction, the group locked): rewrites the MCP grants of every managed
   * key whose copy references it, nothing else of the keys. Returns how many keys changed; the caller invalidates the
   * virtual-key cache after the commit (`afterGrantsCommit`).
   */
  async rewriteGrantsOfGroup(m: EntityManager, groupId: string): Promise<number> {
    const rows = await m.query<
      Array<
        Pick<ProfileFields, 'mcp_servers' | 'mcp_tool_groups' | 'mcp_tool_overrides'> & {
          key_id: string;
          mcp_configs: VirtualKeyMcpGrant[];
        }
      >
    >(
      `SELECT vk.id AS key_id, vk.mcp_configs, c.mcp_servers, c.mcp_tool_groups, c.mcp_tool_overrides
         FROM access_profile_copies c JOIN virtual_keys vk ON vk.access_profile_copy_id = c.id
        WHERE c.mcp_tool_groups @> $1::jsonb`,
      [JSON.stringify([{ tool_group_id: groupId }])],
    );
    if (!rows.length) return 0;
    const groups = await this.toolGroups.toolsOf(
      m,
      rows.flatMap((r) => r.mcp_tool_groups.map((g) => g.tool_group_id)),
    );
    const changed = rows
      .map((r) => ({ id: r.key_id, before: r.mcp_configs, mcp_configs: mcpGrants(r, groups) }))
      .filter((r) => JSON.stringify(r.before) !== JSON.stringify(r.mcp_configs));
    await bulkUpdate(
      m,
      'virtual_keys',
      'uuid',
      { mcp_configs: 'jsonb' },
      changed.map((r) => ({ id: r.id, mcp_configs: r.mcp_configs })),
    );
    return changed.length;
  }

  /** After a grants-only rewrite: every replica's virtual-key cache (and with it the MCP catalog) is dropped. */
  async afterGrantsCommit(): Promise<void> {
    await this.cache.invalidate();
  }

  /** Zeroes the counters `write` returned and invalidates the request path's snapshots on every replica. */
  async afterCommit(toReset: RemovedLimits): Promise<void> {
    await this.cache.invalidate();
    await this.policies.invalidate();
    await this.limits.resetCounters(toReset);
  }
}
