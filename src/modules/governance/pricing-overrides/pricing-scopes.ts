/** The scope kinds of pricing overrides, the most specific first (governance.md §4): that order is the precedence. */
export const PRICING_SCOPE_KINDS = [
  'virtual_key_provider_key',
  'virtual_key_provider',
  'virtual_key',
  'user_provider_key',
  'user_provider',
  'user',
  'provider_key',
  'provider',
  'global',
] as const;
export type PricingScopeKind = (typeof PRICING_SCOPE_KINDS)[number];

export const SCOPE_ID_FIELDS = ['virtual_key_id', 'user_id', 'provider_id', 'provider_key_id'] as const;
export type ScopeIdField = (typeof SCOPE_ID_FIELDS)[number];

/** The ids each scope kind needs, exactly (any other id set is refused). */
export const SCOPE_IDS: Record<PricingScopeKind, readonly ScopeIdField[]> = {
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

/**
 * Request types an override may name (ours, and the other kinds of this product family so their configs load);
 * stream variants are folded into their base type when written.
 */
export const PRICING_REQUEST_TYPES = [
  'chat_completion',
  'text_completion',
  'responses',
  'embedding',
  'rerank',
  'count_tokens',
  'speech',
  'transcription',
  'image_generation',
  'image_edit',
  'image_variation',
  'ocr',
] as const;

/**
 * The price fields a patch may set, in USD per unit as LiteLLM and this product family name them, with the price
 * table key each replaces (per million tokens, or per thousand requests and searches).
 */
export const PATCH_FIELDS = {
  input_cost_per_token: { key: 'input_mtok', per: 1e6 },
  output_cost_per_token: { key: 'output_mtok', per: 1e6 },
  cache_read_input_token_cost: { key: 'cache_read_mtok', per: 1e6 },
  cache_creation_input_token_cost: { key: 'cache_write_mtok', per: 1e6 },
  output_cost_per_reasoning_token: { key: 'output_reasoning_mtok', per: 1e6 },
  search_context_cost_per_query: { key: 'web_searches_kcount', per: 1e3 },
  input_cost_per_request: { key: 'requests_kcount', per: 1e3 },
} as const;
export type PatchField = keyof typeof PATCH_FIELDS;
export type PricingPatch = Partial<Record<PatchField, number>>;
