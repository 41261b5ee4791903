import type { Schema } from '../../api/schemas';

export type VirtualKey = Schema<'VirtualKey'>;
type CreateRequest = Schema<'VirtualKeyCreateRequest'>;
type UpdateRequest = Schema<'VirtualKeyUpdateRequest'>;
type RateLimitInput = Schema<'RateLimitInput'>;

/** One allowed provider as the form holds it; key ids and blocked models are kept as stored (not edited here). */
export interface ProviderConfigValues extends Record<string, unknown> {
  provider: string;
  allowed_models: string[];
  weight: string;
  key_ids: string[];
  blacklisted_models: string[];
}

export interface BudgetValues extends Record<string, unknown> {
  max_limit: string;
  reset_duration: string;
  calendar_aligned: boolean;
}

export interface RateLimitValues extends Record<string, unknown> {
  request_max_limit: string;
  request_reset_duration: string;
  token_max_limit: string;
  token_reset_duration: string;
}

/** One MCP client the key may use, and which of its tools (`*` every tool the client executes). */
export interface McpGrantValues extends Record<string, unknown> {
  mcp_client_id: string;
  tools_to_execute: string[];
}

/** Who owns a key: nobody, a team or a customer (the API refuses both). Not an API field: it picks the one sent. */
export type Owner = 'none' | 'team' | 'customer';

/** The virtual key form's values, named as the API's fields (a refusal's `error.param` lands on its input). */
export interface VirtualKeyValues extends Record<string, unknown> {
  name: string;
  description: string;
  is_active: boolean;
  /** A `datetime-local` input's text, in the browser's time zone; empty: never expires. */
  expires_at: string;
  owner: Owner;
  team_id: string;
  customer_id: string;
  provider_configs: ProviderConfigValues[];
  budgets: BudgetValues[];
  rate_limit: RateLimitValues;
  mcp_configs: McpGrantValues[];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An RFC 3339 instant as a `datetime-local` input's text in the browser's time zone (to the minute). */
export function localInputOf(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A `datetime-local` text (the browser's time zone) as an RFC 3339 instant in UTC, or the text when it is not one. */
export function instantOf(local: string): string {
  const text = local.trim();
  const at = new Date(text);
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) && !Number.isNaN(at.getTime())
    ? at.toISOString().replace('.000Z', 'Z')
    : text;
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

export function emptyProviderConfig(): ProviderConfigValues {
  return { provider: '', allowed_models: ['*'], weight: '1', key_ids: ['*'], blacklisted_models: [] };
}

export function emptyBudget(): BudgetValues {
  return { max_limit: '', reset_duration: '1M', calendar_aligned: false };
}

export function emptyMcpGrant(): McpGrantValues {
  return { mcp_client_id: '', tools_to_execute: ['*'] };
}

export function virtualKeyValues(key?: VirtualKey): VirtualKeyValues {
  const rl = key?.rate_limit;
  return {
    name: key?.name ?? '',
    description: key?.description ?? '',
    is_active: key?.is_active ?? true,
    expires_at: localInputOf(key?.expires_at),
    owner: key?.team_id ? 'team' : key?.customer_id ? 'customer' : 'none',
    team_id: key?.team_id ?? '',
    customer_id: key?.customer_id ?? '',
    mcp_configs: (key?.mcp_configs ?? []).map((g) => ({
      mcp_client_id: g.mcp_client_id,
      tools_to_execute: [...g.tools_to_execute],
    })),
    provider_configs: (key?.provider_configs ?? []).map((c) => ({
      provider: c.provider,
      allowed_models: [...c.allowed_models],
      weight: text(c.weight),
      key_ids: [...c.key_ids],
      blacklisted_models: [...c.blacklisted_models],
    })),
    budgets: (key?.budgets ?? []).map((b) => ({
      max_limit: String(b.max_limit),
      reset_duration: b.reset_duration,
      calendar_aligned: b.calendar_aligned,
    })),
    rate_limit: {
      request_max_limit: text(rl?.request_max_limit),
      request_reset_duration: rl?.request_reset_duration ?? '',
      token_max_limit: text(rl?.token_max_limit),
      token_reset_duration: rl?.token_reset_duration ?? '',
    },
  };
}

/** A typed number, or the text as typed when it is not one (the constraints then name the field). */
const numberOf = (value: string): number | string => {
  const trimmed = value.trim();
  const n = Number(trimmed);
  return trimmed !== '' && Number.isFinite(n) ? n : trimmed;
};

/** The rate limit, or null when every field is blank (no limit). */
function rateLimitOf(values: RateLimitValues): RateLimitInput | null {
  const blank = [
    values.request_max_limit,
    values.request_reset_duration,
    values.token_max_limit,
    values.token_reset_duration,
  ].every((v) => v.trim() === '');
  if (blank) return null;
  const limit = (v: string) => (v.trim() === '' ? null : (numberOf(v) as number));
  const window = (v: string) => v.trim() || null;
  return {
    request_max_limit: limit(values.request_max_limit),
    request_reset_duration: window(values.request_reset_duration),
    token_max_limit: limit(values.token_max_limit),
    token_reset_duration: window(values.token_reset_duration),
  };
}

/** The fields a create and an update share, from the form. Lists replace what is stored; a blank rate limit is none. */
function policyOf(values: VirtualKeyValues) {
  return {
    name: values.name.trim(),
    description: values.description,
    is_active: values.is_active,
    provider_configs: values.provider_configs.map((c) => ({
      provider: c.provider as Schema<'VirtualKeyProviderConfigInput'>['provider'],
      allowed_models: c.allowed_models,
      weight: c.weight.trim() === '' ? null : (numberOf(c.weight) as number),
      key_ids: c.key_ids,
      blacklisted_models: c.blacklisted_models,
    })),
    budgets: values.budgets.map((b) => ({
      max_limit: numberOf(b.max_limit) as number,
      reset_duration: b.reset_duration.trim(),
      calendar_aligned: b.calendar_aligned,
    })),
    mcp_configs: values.mcp_configs.map((g) => ({
      mcp_client_id: g.mcp_client_id,
      tools_to_execute: g.tools_to_execute,
    })),
  };
}

/** The owner the form picks: the chosen one's id, the other null. */
function ownerOf(values: VirtualKeyValues): { team_id: string | null; customer_id: string | null } {
  return {
    team_id: values.owner === 'team' ? values.team_id || null : null,
    customer_id: values.owner === 'customer' ? values.customer_id || null : null,
  };
}

export function createRequest(values: VirtualKeyValues): CreateRequest {
  const rateLimit = rateLimitOf(values.rate_limit);
  const owner = ownerOf(values);
  return {
    ...policyOf(values),
    ...(values.expires_at.trim() ? { expires_at: instantOf(values.expires_at) } : {}),
    ...(owner.team_id ? { team_id: owner.team_id } : {}),
    ...(owner.customer_id ? { customer_id: owner.customer_id } : {}),
    ...(rateLimit ? { rate_limit: rateLimit } : {}),
  };
}

/**
 * The update: every field the form shows is sent, so what the form holds is what is stored; the owner as one id and
 * the other null. The expiry only when it changed (the API refuses a past one, and a key past its expiry keeps it
 * while its name is edited); emptied, it is removed (null).
 */
export function updateRequest(values: VirtualKeyValues, stored?: VirtualKey): UpdateRequest {
  const expiry = values.expires_at.trim();
  const changed = expiry !== localInputOf(stored?.expires_at);
  return {
    ...policyOf(values),
    ...(changed ? { expires_at: expiry ? instantOf(expiry) : null } : {}),
    ...ownerOf(values),
    rate_limit: rateLimitOf(values.rate_limit),
  };
}

/**
 * What the constraints cannot say, by form path: an expiry in the future (when set or changed), the chosen owner
 * picked, one grant per MCP client, and `*` alone among a grant's tools.
 */
export function virtualKeyProblems(
  values: VirtualKeyValues,
  stored?: VirtualKey,
  now: number = Date.now(),
): Record<string, string> {
  const problems: Record<string, string> = {};
  const expiry = values.expires_at.trim();
  if (expiry && expiry !== localInputOf(stored?.expires_at)) {
    const at = Date.parse(instantOf(expiry));
    if (Number.isNaN(at)) problems.expires_at = 'Must be a date and time';
    else if (at <= now) problems.expires_at = 'Must be in the future';
  }
  if (values.owner === 'team' && !values.team_id) problems.team_id = 'Pick a team';
  if (values.owner === 'customer' && !values.customer_id) problems.customer_id = 'Pick a customer';
  const seen = new Set<string>();
  values.mcp_configs.forEach((g, i) => {
    const id = g.mcp_client_id.toLowerCase();
    if (!id) problems[`mcp_configs.${i}.mcp_client_id`] = 'Required';
    else if (seen.has(id)) problems[`mcp_configs.${i}.mcp_client_id`] = 'This client has a grant already';
    seen.add(id);
    if (g.tools_to_execute.includes('*') && g.tools_to_execute.length > 1)
      problems[`mcp_configs.${i}.tools_to_execute`] = '* (every tool) stands alone';
  });
  return problems;
}

/** The providers a key may use, as a line: every one when it lists none. */
export function providersLine(key: Pick<VirtualKey, 'provider_configs'>): string {
  if (key.provider_configs.length === 0) return 'Every provider';
  return key.provider_configs
    .map((c) =>
      c.allowed_models.includes('*') ? c.provider : `${c.provider} (${c.allowed_models.join(', ') || 'no model'})`,
    )
    .join(', ');
}

/** The MCP clients a key may use beyond those open to all, as a line: `tools (echo, add)`; `names` by client id. */
export function grantsLine(grants: VirtualKey['mcp_configs'], names: ReadonlyMap<string, string> = new Map()): string {
  if (grants.length === 0) return 'Only those allowed on every key';
  return grants
    .map((g) => {
      const name = names.get(g.mcp_client_id) ?? g.mcp_client_id;
      if (g.tools_to_execute.includes('*')) return `${name} (every tool)`;
      return `${name} (${g.tools_to_execute.join(', ') || 'no tool'})`;
    })
    .join(', ');
}
