import type { Schema } from '../../api/schemas';
import { formatCost } from '../../shared/format/format';

export type PricingOverride = Schema<'PricingOverride'>;
export type PricingPatch = Schema<'PricingPatch'>;
export type ScopeKind = PricingOverride['scope_kind'];
export type PatchField = keyof PricingPatch;

/**
 * The scope kinds, the most specific first: the order in which the gateway looks for an override (its
 * `PRICING_SCOPE_KINDS`, src/modules/governance/pricing-overrides/pricing-scopes.ts). The first scope holding a
 * match wins; scopes are never compared otherwise.
 */
export const SCOPE_KINDS: readonly ScopeKind[] = [
  'virtual_key_provider_key',
  'virtual_key_provider',
  'virtual_key',
  'user_provider_key',
  'user_provider',
  'user',
  'provider_key',
  'provider',
  'global',
];

type IdField = 'virtual_key_id' | 'user_id' | 'provider_id' | 'provider_key_id';

/** The ids each scope kind needs, exactly (the gateway's `SCOPE_IDS`). */
export const SCOPE_IDS: Record<ScopeKind, readonly IdField[]> = {
  virtual_key_provider_key: ['virtual_key_id', 'provider_key_id'],
  virtual_key_provider: ['virtual_key_id', 'provider_id'],
  virtual_key: ['virtual_key_id'],
  user_provider_key: ['user_id', 'provider_key_id'],
  user_provider: ['user_id', 'provider_id'],
  user: ['user_id'],
  provider_key: ['provider_key_id'],
  provider: ['provider_id'],
  global: [],
};

/** A request as the gateway prices it (its `PricedRequest`). */
export interface PricedRequest {
  provider: string;
  /** The provider key that served it; unknown (a key-scoped override does not match) when not given. */
  providerKeyId?: string;
  virtualKeyId?: string;
  /** Data-plane requests carry no user yet: user scopes never match on the gateway. */
  userId?: string;
  /** The model sent to the provider, without the `<provider>/` prefix. */
  model: string;
  /** `chat_completion`, `embedding`… (a stream is priced as its base type). */
  requestType: string;
}

const createdAt = (o: PricingOverride) => Date.parse(o.created_at);
const stem = (o: PricingOverride) => (o.match_type === 'exact' ? o.pattern : o.pattern.slice(0, -1));

/**
 * The override the gateway charges a request at, or undefined (the price table's price): the most specific scope
 * whose ids the request has and that holds a match; within it an exact pattern first, then the longest wildcard
 * prefix, then the newest. The same search as the gateway's `PricingOverrideSet.find`.
 */
export function findOverride(
  overrides: readonly PricingOverride[],
  request: PricedRequest,
): PricingOverride | undefined {
  const ids: Record<IdField, string | undefined> = {
    virtual_key_id: request.virtualKeyId,
    user_id: request.userId,
    provider_id: request.provider,
    provider_key_id: request.providerKeyId,
  };
  for (const kind of SCOPE_KINDS) {
    const needed = SCOPE_IDS[kind];
    if (needed.some((field) => !ids[field])) continue;
    const candidates = overrides
      .filter((o) => o.scope_kind === kind && needed.every((field) => o[field] === ids[field]))
      .sort(
        (a, b) =>
          Number(b.match_type === 'exact') - Number(a.match_type === 'exact') ||
          stem(b).length - stem(a).length ||
          createdAt(b) - createdAt(a),
      );
    const hit = candidates.find((o) => coversModel(o, request.model, request.requestType));
    if (hit) return hit;
  }
  return undefined;
}

/** Whether the override's pattern and request types cover the model and request type (its scope aside). */
export function coversModel(o: PricingOverride, model: string, requestType: string): boolean {
  if (!o.request_types.includes(requestType.replace(/_stream$/, ''))) return false;
  return o.match_type === 'exact' ? o.pattern === model : model.startsWith(stem(o));
}

/**
 * Overrides covering the model and request type in a scope narrower than a provider's (a virtual key's, a provider
 * key's, a user's) on this provider or any: some requests for the model may be charged at these instead.
 */
export function narrowerOverrides(
  overrides: readonly PricingOverride[],
  request: Pick<PricedRequest, 'provider' | 'model' | 'requestType'>,
): PricingOverride[] {
  return overrides.filter(
    (o) =>
      o.scope_kind !== 'global' &&
      o.scope_kind !== 'provider' &&
      (o.provider_id === null || o.provider_id === request.provider) &&
      coversModel(o, request.model, request.requestType),
  );
}

/** The price fields of a patch in the order a person reads them, with their unit. */
export const PATCH_FIELDS: ReadonlyArray<{ field: PatchField; label: string; per: number; unit: string }> = [
  { field: 'input_cost_per_token', label: 'Input', per: 1e6, unit: '1M tokens' },
  { field: 'output_cost_per_token', label: 'Output', per: 1e6, unit: '1M tokens' },
  { field: 'cache_read_input_token_cost', label: 'Cache read', per: 1e6, unit: '1M tokens' },
  { field: 'cache_creation_input_token_cost', label: 'Cache write', per: 1e6, unit: '1M tokens' },
  { field: 'output_cost_per_reasoning_token', label: 'Reasoning', per: 1e6, unit: '1M tokens' },
  { field: 'search_context_cost_per_query', label: 'Web search', per: 1, unit: 'search' },
  { field: 'input_cost_per_request', label: 'Request', per: 1, unit: 'request' },
];

/**
 * The rates a request is charged at: the override's rates where it sets them, the price table's (`catalogue_price`
 * of `GET /api/models`) for the rest, as the gateway's price table patches a model's price.
 */
export function effectiveRates(
  catalogue: PricingPatch | undefined,
  override: PricingOverride | undefined,
): PricingPatch {
  const rates: PricingPatch = { ...catalogue };
  for (const { field } of PATCH_FIELDS) {
    const rate = override?.patch[field];
    if (rate !== undefined && rate !== null) rates[field] = rate;
  }
  return rates;
}

/** `Input $2.50 / 1M tokens`: each rate the patch sets, per the unit a price list uses. */
export function patchLines(patch: PricingPatch, locale?: string): string[] {
  return PATCH_FIELDS.filter(({ field }) => patch[field] !== undefined && patch[field] !== null).map(
    ({ field, label, per, unit }) => `${label} ${formatCost(patch[field]! * per, { locale })} / ${unit}`,
  );
}

/** The scope as a person reads it: `Provider openai`, `Virtual key research · provider openai`, `Everyone`. */
export function scopeLabel(
  o: Pick<PricingOverride, 'scope_kind' | 'virtual_key_id' | 'user_id' | 'provider_id' | 'provider_key_id'>,
  names: { virtualKey?: (id: string) => string | undefined; providerKey?: (id: string) => string | undefined } = {},
): string {
  const parts: string[] = [];
  if (o.virtual_key_id) parts.push(`Virtual key ${names.virtualKey?.(o.virtual_key_id) ?? o.virtual_key_id}`);
  if (o.user_id) parts.push(`User ${o.user_id}`);
  if (o.provider_id) parts.push(`Provider ${o.provider_id}`);
  if (o.provider_key_id) parts.push(`Provider key ${names.providerKey?.(o.provider_key_id) ?? o.provider_key_id}`);
  if (parts.length === 0) return 'Every request';
  return [parts[0]!, ...parts.slice(1).map((p) => p[0]!.toLowerCase() + p.slice(1))].join(' · ');
}

/** `openai/gpt-4o-mini` as its provider and the model the provider is sent. */
export function splitModelId(id: string): { provider: string; model: string } {
  const at = id.indexOf('/');
  return at < 0 ? { provider: '', model: id } : { provider: id.slice(0, at), model: id.slice(at + 1) };
}
