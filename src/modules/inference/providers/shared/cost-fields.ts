import type { Cost } from './provider-adapter.js';

/** The parts of the contract's Cost object, which `total_cost` adds up. */
export const COST_PART_FIELDS = [
  'input_tokens_cost',
  'output_tokens_cost',
  'reasoning_tokens_cost',
  'citation_tokens_cost',
  'search_queries_cost',
  'request_cost',
] as const satisfies ReadonlyArray<keyof Cost>;

/** All seven fields of the contract's Cost object. */
export const COST_FIELDS = [...COST_PART_FIELDS, 'total_cost'] as const satisfies ReadonlyArray<keyof Cost>;
