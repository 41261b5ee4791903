import type { Schema } from '../../api/schemas';
import { isBlank } from '../../shared/forms/constraints';
import { budgetInputs, limitValues, ownerProblems, rateLimitOf } from '../teams/owner-helpers';
import type { BudgetValues, RateLimitValues } from '../virtual-keys/virtual-key-values';
import { PATCH_FIELDS, SCOPE_IDS, type PatchField, type PricingOverride, type ScopeKind } from './effective-price';

export type ModelConfig = Schema<'ModelConfig'>;
export type ProviderGovernance = Schema<'ProviderGovernance'>;
type OverrideCreate = Schema<'PricingOverrideCreateRequest'>;
type ModelConfigCreate = Schema<'ModelConfigCreateRequest'>;
type ModelConfigUpdate = Schema<'ModelConfigUpdateRequest'>;
type ProviderGovernanceRequest = Schema<'ProviderGovernanceRequest'>;

/** A typed number, or the text as typed when it is not one (the constraints then name the field). */
const numberOf = (value: string): number | string => {
  const trimmed = value.trim();
  const n = Number(trimmed);
  return trimmed !== '' && Number.isFinite(n) ? n : trimmed;
};

/** Rates as typed: USD per 1M tokens, per search or per request (as price lists read), by the API's field name. */
export type PatchValues = Record<PatchField, string>;

/** A pricing override as the form holds it, named as the API's fields (`error.param` lands on its input). */
export interface OverrideValues extends Record<string, unknown> {
  name: string;
  scope_kind: ScopeKind;
  virtual_key_id: string;
  user_id: string;
  provider_id: string;
  provider_key_id: string;
  match_type: 'exact' | 'wildcard';
  pattern: string;
  request_types: string[];
  patch: PatchValues;
}

/** `0.0000025` USD per token as `2.5` per 1M tokens, without float noise (`2.4999999999999996`). */
function perUnitText(value: number | null | undefined, per: number): string {
  if (value === null || value === undefined) return '';
  return String(Number((value * per).toPrecision(12)));
}

export function overrideValues(o?: PricingOverride): OverrideValues {
  const patch = Object.fromEntries(
    PATCH_FIELDS.map(({ field, per }) => [field, perUnitText(o?.patch[field], per)]),
  ) as PatchValues;
  return {
    name: o?.name ?? '',
    scope_kind: o?.scope_kind ?? 'provider',
    virtual_key_id: o?.virtual_key_id ?? '',
    user_id: o?.user_id ?? '',
    provider_id: o?.provider_id ?? '',
    provider_key_id: o?.provider_key_id ?? '',
    match_type: o?.match_type ?? 'exact',
    pattern: o?.pattern ?? '',
    request_types: o?.request_types ?? ['chat_completion'],
    patch,
  };
}

/**
 * The create body, also sent whole on an edit (a PUT merges the fields sent; `scope_kind` resets every scope id, so
 * the ids the kind needs are sent with it; the patch replaces the stored one). Only the ids the kind names are sent;
 * rates typed per 1M tokens become USD per token.
 */
export function overrideRequest(values: OverrideValues): OverrideCreate {
  const patch: Record<string, number | string> = {};
  for (const { field, per } of PATCH_FIELDS) {
    const typed = values.patch[field];
    if (isBlank(typed)) continue;
    const n = numberOf(typed);
    patch[field] = typeof n === 'number' ? Number((n / per).toPrecision(12)) : n;
  }
  const body: Record<string, unknown> = {
    name: values.name.trim(),
    scope_kind: values.scope_kind,
    match_type: values.match_type,
    pattern: values.pattern.trim(),
    request_types: values.request_types,
    patch,
  };
  for (const field of SCOPE_IDS[values.scope_kind]) body[field] = values[field].trim();
  return body as unknown as OverrideCreate;
}

/** What the constraints cannot say: each id the scope needs, and at least one rate. */
export function overrideProblems(values: OverrideValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of SCOPE_IDS[values.scope_kind]) {
    if (isBlank(values[field])) problems[field] = 'Required for this scope';
  }
  if (PATCH_FIELDS.every(({ field }) => isBlank(values.patch[field])))
    problems['patch.input_cost_per_token'] = 'Set at least one price';
  if (values.request_types.length === 0) problems.request_types = 'Pick at least one request type';
  return problems;
}

/** A model config as the form holds it. */
export interface ModelConfigValues extends Record<string, unknown> {
  model_name: string;
  /** Empty: every provider. */
  provider: string;
  scope: ModelConfig['scope'];
  scope_id: string;
  calendar_aligned: boolean;
  budgets: BudgetValues[];
  rate_limit: RateLimitValues;
  reset_usage: boolean;
}

export function modelConfigValues(mc?: ModelConfig): ModelConfigValues {
  return {
    model_name: mc?.model_name ?? '',
    provider: mc?.provider ?? '',
    scope: mc?.scope ?? 'global',
    scope_id: mc?.scope_id ?? '',
    calendar_aligned: mc?.calendar_aligned ?? false,
    ...limitValues(mc),
    reset_usage: false,
  };
}

/** The create body (scope and scope id only when not global), or the update's (scope is immutable). */
export function modelConfigRequest(values: ModelConfigValues, editing: false): ModelConfigCreate;
export function modelConfigRequest(values: ModelConfigValues, editing: true): ModelConfigUpdate;
export function modelConfigRequest(values: ModelConfigValues, editing: boolean): ModelConfigCreate | ModelConfigUpdate {
  const rateLimit = rateLimitOf(values.rate_limit);
  const common = {
    model_name: values.model_name.trim(),
    budgets: budgetInputs(values.budgets),
  };
  if (editing)
    return {
      ...common,
      provider: (values.provider || null) as ModelConfigUpdate['provider'],
      rate_limit: rateLimit,
      ...(values.reset_usage ? { reset_usage: true } : {}),
    };
  return {
    ...common,
    ...(values.provider ? { provider: values.provider as ModelConfigCreate['provider'] } : {}),
    calendar_aligned: values.calendar_aligned,
    scope: values.scope,
    ...(values.scope !== 'global' ? { scope_id: values.scope_id.trim() } : {}),
    ...(rateLimit ? { rate_limit: rateLimit } : {}),
  };
}

export function modelConfigProblems(values: ModelConfigValues): Record<string, string> {
  const problems = ownerProblems(values);
  if (values.scope !== 'global' && isBlank(values.scope_id)) problems.scope_id = 'Required for this scope';
  return problems;
}

/** `gpt-4o` on `openai`, or on every provider; `*` is every model. */
export function modelConfigLabel(mc: Pick<ModelConfig, 'model_name' | 'provider'>): string {
  const model = mc.model_name === '*' ? 'every model' : mc.model_name;
  return mc.provider ? `${mc.provider}/${model}` : `${model} (every provider)`;
}

/** A provider's budgets and rate limit as the form holds them. */
export interface ProviderLimitsValues extends Record<string, unknown> {
  provider: string;
  calendar_aligned: boolean;
  budgets: BudgetValues[];
  rate_limit: RateLimitValues;
  reset_usage: boolean;
}

export function providerLimitsValues(pg?: ProviderGovernance): ProviderLimitsValues {
  return {
    provider: pg?.provider ?? '',
    calendar_aligned: pg?.calendar_aligned ?? false,
    ...limitValues(pg),
    reset_usage: false,
  };
}

/** The PUT body: the budgets replace the stored ones, a blank rate limit removes it (null). */
export function providerLimitsRequest(values: ProviderLimitsValues): ProviderGovernanceRequest {
  return {
    calendar_aligned: values.calendar_aligned,
    budgets: budgetInputs(values.budgets),
    rate_limit: rateLimitOf(values.rate_limit),
    ...(values.reset_usage ? { reset_usage: true } : {}),
  };
}

export function providerLimitsProblems(values: ProviderLimitsValues): Record<string, string> {
  const problems = ownerProblems(values);
  if (isBlank(values.provider)) problems.provider = 'Pick a provider';
  return problems;
}
