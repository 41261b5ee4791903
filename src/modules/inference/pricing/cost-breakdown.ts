import type { ModelPrice, PriceCalculation, Usage as PriceUsage } from '@pydantic/genai-prices';
import { COST_PART_FIELDS } from '../providers/shared/cost-fields.js';
import type { Cost } from '../providers/shared/provider-adapter.js';

/**
 * A cost the provider sent (Perplexity's object, OpenRouter's number as `total_cost`): it wins over the table. Parts
 * without a total get their sum as `total_cost`; an object with no number at all is no cost.
 */
export function providerSentCost(sent: Cost): Cost | undefined {
  if (isAmount(sent.total_cost)) return { ...sent };
  let total = 0;
  let parts = 0;
  for (const field of COST_PART_FIELDS) {
    const value = sent[field];
    if (isAmount(value)) {
      total += value;
      parts++;
    }
  }
  return parts ? { ...sent, total_cost: total } : undefined;
}

/**
 * The contract's seven Cost fields from one `calcPrice` result. The package splits its total by direction only
 * (input, output, the rest), so:
 * - `input_tokens_cost` is its input price: uncached input, cache reads and cache writes at their own rates (and
 *   audio or image input where the model prices them);
 * - `reasoning_tokens_cost` and `citation_tokens_cost` are their tokens at the model's separate rate (0 without one:
 *   they are then inside output at the output rate), and `output_tokens_cost` is the output price less those two;
 * - `request_cost` (one request) and `search_queries_cost` (web searches) are the rest, from their per-1000 rates;
 * - `total_cost` is the package's total, which the six parts add up to.
 */
export function costBreakdown(
  result: Pick<PriceCalculation, 'input_price' | 'output_price' | 'total_price' | 'model_price'>,
  usage: PriceUsage,
): Cost {
  const price = result.model_price;
  const tierBasis = usage.input_tokens ?? 0;
  const reasoning = rateAt(price, 'output_reasoning_mtok', tierBasis) * ((usage.output_reasoning_tokens ?? 0) / 1e6);
  const citation = rateAt(price, 'output_citation_mtok', tierBasis) * ((usage.output_citation_tokens ?? 0) / 1e6);
  return {
    input_tokens_cost: result.input_price,
    output_tokens_cost: Math.max(0, result.output_price - reasoning - citation),
    reasoning_tokens_cost: reasoning,
    citation_tokens_cost: citation,
    search_queries_cost: rateAt(price, 'web_searches_kcount', tierBasis) * ((usage.web_searches ?? 0) / 1000),
    request_cost: rateAt(price, 'requests_kcount', tierBasis) / 1000,
    total_cost: result.total_price,
  };
}

/**
 * One rate of a model, 0 when it has none. Tiered rates are cliffs on the request's total input tokens (cache
 * included), as the package prices them and as providers bill: the rate of the highest tier whose start the input
 * exceeds applies to every token. (Bifrost tiers on input + output tokens; we follow the package and the providers.)
 */
export function rateAt(price: ModelPrice, key: string, inputTokens: number): number {
  const rate = price[key];
  if (rate === undefined) return 0;
  if (typeof rate === 'number') return rate;
  let chosen = rate.base;
  let chosenStart = -1;
  for (const tier of rate.tiers) {
    if (inputTokens > tier.start && tier.start > chosenStart) {
      chosen = tier.price;
      chosenStart = tier.start;
    }
  }
  return chosen;
}

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
