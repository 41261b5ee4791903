import { GatewayException } from '../../core/errors/gateway.exception.js';
import {
  resetDurationMs,
  assertBudgets,
  assertRateLimit,
  type BudgetInput,
  type RateLimitInput,
} from '../governance/index.js';
import type { ProfileFields } from './access-profile-fields.js';
import type { ProfileFieldsInputDto } from './templates/dto/profile-fields.dto.js';

/**
 * The fields after an input is applied to `base` (a template's current fields, or the empty set on create): a field
 * sent replaces the stored one, `rate_limit: null` clears it, an omitted field is kept. Defaults are filled in, so
 * stored fields are complete.
 */
export function applyProfileFields(base: ProfileFields, input: ProfileFieldsInputDto): ProfileFields {
  const rateLimit = (r: RateLimitInput | null | undefined): RateLimitInput | null =>
    r
      ? {
          request_max_limit: r.request_max_limit ?? null,
          request_reset_duration: r.request_reset_duration ?? null,
          token_max_limit: r.token_max_limit ?? null,
          token_reset_duration: r.token_reset_duration ?? null,
        }
      : null;
  const budget = (b: BudgetInput): BudgetInput => ({
    max_limit: b.max_limit,
    reset_duration: b.reset_duration,
    ...(b.calendar_aligned === undefined ? {} : { calendar_aligned: b.calendar_aligned }),
  });
  return {
    provider_configs:
      input.provider_configs?.map((pc) => ({
        provider_name: pc.provider_name,
        all_models_allowed: pc.all_models_allowed ?? true,
        allowed_models: pc.allowed_models ?? [],
        blacklisted_models: pc.blacklisted_models ?? [],
        weight: pc.weight === undefined ? 1 : pc.weight,
        budgets: (pc.budgets ?? []).map(budget),
        rate_limit: rateLimit(pc.rate_limit),
      })) ?? base.provider_configs,
    budgets: input.budgets?.map((b) => ({ ...budget(b), scope: b.scope ?? 'total' })) ?? base.budgets,
    rate_limit: input.rate_limit === undefined ? base.rate_limit : rateLimit(input.rate_limit),
    calendar_aligned: input.calendar_aligned ?? base.calendar_aligned,
    mcp_tool_groups: input.mcp_tool_groups?.map((g) => ({ tool_group_id: g.tool_group_id })) ?? base.mcp_tool_groups,
    mcp_servers: input.mcp_servers?.map((s) => ({ mcp_server_id: s.mcp_server_id })) ?? base.mcp_servers,
    mcp_tool_overrides:
      input.mcp_tool_overrides?.map((o) => ({
        mcp_client_id: o.mcp_client_id,
        tool_name: o.tool_name,
        action: o.action,
      })) ?? base.mcp_tool_overrides,
  };
}

/**
 * The rules across fields, checked on the complete result (400 naming the field, nothing written): one config per
 * provider; a `provider:<name>` budget names a listed provider; no two budgets of one target (the key, or one provider
 * config with its scoped budgets) share a window length; a rate limit sets a limit with its window; an MCP client
 * granted whole takes no `exclude` override (a key carries positive allow-lists only); no duplicate MCP entries.
 */
export function assertProfileFields(fields: ProfileFields): void {
  const providers = new Map<string, number>();
  fields.provider_configs.forEach((pc, i) => {
    const param = `provider_configs[${i}]`;
    const first = providers.get(pc.provider_name);
    if (first !== undefined) {
      throw GatewayException.validation(
        `${param}.provider_name`,
        `${param}.provider_name ${pc.provider_name} is already configured by provider_configs[${first}]`,
      );
    }
    providers.set(pc.provider_name, i);
    assertBudgets(pc.budgets, `${param}.budgets`);
    if (pc.rate_limit) assertRateLimit(pc.rate_limit, `${param}.rate_limit`);
  });
  // Window lengths taken per target: 'total', or a provider name (its config's own budgets first).
  const taken = new Map<string, Map<number, string>>();
  fields.provider_configs.forEach((pc, i) => {
    const lengths = new Map<number, string>();
    pc.budgets.forEach((b, j) =>
      lengths.set(resetDurationMs(b.reset_duration)!, `provider_configs[${i}].budgets[${j}]`),
    );
    taken.set(pc.provider_name, lengths);
  });
  taken.set('total', new Map());
  fields.budgets.forEach((b, i) => {
    const param = `budgets[${i}]`;
    const target = b.scope === 'total' ? 'total' : b.scope.slice('provider:'.length);
    const lengths = taken.get(target);
    if (!lengths) {
      throw GatewayException.validation(
        `${param}.scope`,
        `${param}.scope ${b.scope} names a provider the profile's provider_configs do not list`,
      );
    }
    const ms = resetDurationMs(b.reset_duration)!;
    const other = lengths.get(ms);
    if (other !== undefined) {
      throw GatewayException.validation(
        `${param}.reset_duration`,
        `${param}.reset_duration ${b.reset_duration} overlaps ${other}: one budget per window length and scope`,
      );
    }
    lengths.set(ms, param);
  });
  if (fields.rate_limit) assertRateLimit(fields.rate_limit, 'rate_limit');
  assertUnique(
    fields.mcp_tool_groups.map((g) => g.tool_group_id),
    'mcp_tool_groups',
    'tool_group_id',
  );
  assertUnique(
    fields.mcp_servers.map((s) => s.mcp_server_id),
    'mcp_servers',
    'mcp_server_id',
  );
  assertUnique(
    fields.mcp_tool_overrides.map((o) => `${o.mcp_client_id}\u0000${o.tool_name}`),
    'mcp_tool_overrides',
    'tool_name',
  );
  const whole = new Set(fields.mcp_servers.map((s) => s.mcp_server_id));
  fields.mcp_tool_overrides.forEach((o, i) => {
    if (o.action === 'exclude' && whole.has(o.mcp_client_id)) {
      throw GatewayException.validation(
        `mcp_tool_overrides[${i}].action`,
        `mcp_tool_overrides[${i}] excludes a tool of ${o.mcp_client_id}, which mcp_servers grants whole: a key carries positive allow-lists only (list the tools with include instead)`,
      );
    }
  });
}

function assertUnique(values: string[], param: string, field: string): void {
  const seen = new Map<string, number>();
  values.forEach((v, i) => {
    const first = seen.get(v);
    if (first !== undefined) {
      throw GatewayException.validation(`${param}[${i}].${field}`, `${param}[${i}] repeats ${param}[${first}]`);
    }
    seen.set(v, i);
  });
}
