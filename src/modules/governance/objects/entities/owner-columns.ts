/** The owner columns of budgets and rate limits: exactly one is set (a check constraint says so). */
export const OWNER_COLUMNS = [
  'virtual_key_id',
  'team_id',
  'customer_id',
  'provider_config_id',
  'model_config_id',
  'provider',
] as const;
export type OwnerColumn = (typeof OWNER_COLUMNS)[number];

export const ONE_OWNER_CHECK = `num_nonnulls(${OWNER_COLUMNS.map((c) => `"${c}"`).join(', ')}) = 1`;
