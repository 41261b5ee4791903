import type { ProviderId } from '../inference/index.js';
import type { BudgetInput, RateLimitInput } from '../governance/index.js';

/**
 * The shapes an access profile holds, shared by the template (`access_profiles`), every user's copy
 * (`access_profile_copies`) and its versions' snapshots. Stored as JSON: templates and copies carry no counters; the
 * usage lives on the managed virtual key's budget and rate-limit rows (see ManagedKeyWriter).
 */

/** The fields a propagation may copy from the template onto users' copies (the contract's enum, in its order). */
export const PROPAGATION_FIELDS = [
  'provider_configs',
  'budgets',
  'rate_limit',
  'mcp_tool_groups',
  'mcp_servers',
  'mcp_tool_overrides',
] as const;
export type PropagationField = (typeof PROPAGATION_FIELDS)[number];

/** Limits of one template or copy (400 naming the field above them). */
export const MAX_PROFILE_PROVIDER_CONFIGS = 100;
export const MAX_PROFILE_BUDGETS = 100;
export const MAX_PROFILE_TAGS = 50;

/** `total` (the whole key) or `provider:<provider id>` (that provider config of the key). */
export type ProfileBudgetScope = 'total' | `provider:${string}`;

export interface ProfileBudget extends BudgetInput {
  scope: ProfileBudgetScope;
}

/** One provider the profile grants, with the models and its own limits. */
export interface ProfileProviderConfig {
  provider_name: ProviderId;
  /** True: every model (allowed_models ignored). False: only `allowed_models` (`[]` none). */
  all_models_allowed: boolean;
  allowed_models: string[];
  blacklisted_models: string[];
  /** Share in weighted selection; null never picked by weight (as on a virtual key). */
  weight: number | null;
  budgets: BudgetInput[];
  rate_limit: RateLimitInput | null;
}

export interface McpToolGroupRef {
  tool_group_id: string;
}

/** A whole MCP client granted: every tool it executes. */
export interface McpServerRef {
  mcp_server_id: string;
}

export interface McpToolOverride {
  mcp_client_id: string;
  tool_name: string;
  action: 'include' | 'exclude';
}

/** What a template holds and a copy carries (validated on write; see docs/access-profiles.md). */
export interface ProfileFields {
  provider_configs: ProfileProviderConfig[];
  budgets: ProfileBudget[];
  rate_limit: RateLimitInput | null;
  calendar_aligned: boolean;
  mcp_tool_groups: McpToolGroupRef[];
  mcp_servers: McpServerRef[];
  mcp_tool_overrides: McpToolOverride[];
}

export const EMPTY_PROFILE_FIELDS: Readonly<ProfileFields> = Object.freeze({
  provider_configs: [],
  budgets: [],
  rate_limit: null,
  calendar_aligned: false,
  mcp_tool_groups: [],
  mcp_servers: [],
  mcp_tool_overrides: [],
});

/** The profile fields of a template or copy row (a plain copy, safe to modify). */
export function profileFieldsOf(row: ProfileFields): ProfileFields {
  return structuredClone({
    provider_configs: row.provider_configs,
    budgets: row.budgets,
    rate_limit: row.rate_limit,
    calendar_aligned: row.calendar_aligned,
    mcp_tool_groups: row.mcp_tool_groups,
    mcp_servers: row.mcp_servers,
    mcp_tool_overrides: row.mcp_tool_overrides,
  });
}
