import type { ModelPrice, Usage as PriceUsage } from '@pydantic/genai-prices';

/**
 * A model's price prepared once, so a request is priced with a few multiplications instead of `calcPrice`, which
 * re-parses and re-validates the price against its unit lattice on every call (~10 µs, a tenth of the gateway's own
 * work per request).
 *
 * Only the price keys of most of the table (about 90 % of its models: text input, output, cache reads and writes, the
 * per-request and search prices) are prepared; any other key, or dated prices, leaves the model to `calcPrice`.
 * For these keys the package's lattice is small: cache reads and writes are parts of `input_tokens`, and a price
 * applies to what is left of its usage key once the more specific *priced* keys are taken out. The arithmetic below
 * repeats the package's own, operation for operation, so the results are the same numbers to the last bit (checked
 * for every model of the bundled table in test/inference/pricing.spec.ts).
 */

type Direction = 'input' | 'output' | 'other';

interface PreparedUnit {
  usageKey:
    | keyof typeof NEVER_REPORTED
    | 'input_tokens'
    | 'cache_read_tokens'
    | 'cache_write_tokens'
    | 'output_tokens'
    | 'requests'
    | 'web_searches';
  per: number;
  direction: Direction;
}

/**
 * Units the gateway's usage never reports (toPriceUsage): priced at zero units. The 1-hour cache write is a part of
 * the cache write, so its zero leaves the cache write's share as it is.
 */
const NEVER_REPORTED = { cache_write_1h_tokens: 0, storage_searches: 0 } as const;

const PREPARABLE_UNITS: Readonly<Record<string, PreparedUnit>> = {
  input_mtok: { usageKey: 'input_tokens', per: 1e6, direction: 'input' },
  cache_read_mtok: { usageKey: 'cache_read_tokens', per: 1e6, direction: 'input' },
  cache_write_mtok: { usageKey: 'cache_write_tokens', per: 1e6, direction: 'input' },
  output_mtok: { usageKey: 'output_tokens', per: 1e6, direction: 'output' },
  requests_kcount: { usageKey: 'requests', per: 1e3, direction: 'other' },
  web_searches_kcount: { usageKey: 'web_searches', per: 1e3, direction: 'other' },
  cache_write_1h_mtok: { usageKey: 'cache_write_1h_tokens', per: 1e6, direction: 'input' },
  storage_searches_kcount: { usageKey: 'storage_searches', per: 1e3, direction: 'other' },
};

interface Tiered {
  base: number;
  /** By start, ascending (the package sorts them so). */
  tiers: Array<{ start: number; price: number }>;
}

interface PreparedEntry extends PreparedUnit {
  rate: number | Tiered;
}

export interface PreparedRates {
  /** The price these rates were prepared from (cost-breakdown reads its separate rates). */
  price: ModelPrice;
  /** In the price object's key order: the package sums each direction in that order. */
  entries: PreparedEntry[];
  /** A tiered rate is chosen by the request's whole input (`input_tokens`). */
  tiered: boolean;
  /** Cache reads (writes) are priced on their own, so they leave `input_tokens`' share. */
  readsPriced: boolean;
  writesPriced: boolean;
}

/** The three sums `calcPrice` returns. */
export interface PreparedPrice {
  input_price: number;
  output_price: number;
  total_price: number;
}

const isRate = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function prepareRate(value: unknown): number | Tiered | undefined {
  if (isRate(value)) return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { base, tiers } = value as { base?: unknown; tiers?: unknown };
  if (!isRate(base) || !Array.isArray(tiers)) return undefined;
  const prepared: Tiered['tiers'] = [];
  for (const tier of tiers as unknown[]) {
    const { start, price } = (tier ?? {}) as { start?: unknown; price?: unknown };
    if (typeof start !== 'number' || !Number.isSafeInteger(start) || start < 0 || !isRate(price)) return undefined;
    prepared.push({ start, price });
  }
  return { base, tiers: prepared.sort((a, b) => a.start - b.start) };
}

/** The prepared form of a model's (undated) price, or null when it has a key or a value left to `calcPrice`. */
export function prepareRates(price: ModelPrice): PreparedRates | null {
  const entries: PreparedEntry[] = [];
  for (const [key, value] of Object.entries(price)) {
    if (value === undefined) continue;
    const unit = PREPARABLE_UNITS[key];
    const rate = unit ? prepareRate(value) : undefined;
    if (!unit || rate === undefined) return null;
    entries.push({ ...unit, rate });
  }
  return {
    price,
    entries,
    tiered: entries.some((e) => typeof e.rate === 'object'),
    readsPriced: entries.some((e) => e.usageKey === 'cache_read_tokens'),
    writesPriced: entries.some((e) => e.usageKey === 'cache_write_tokens'),
  };
}

/** The package's tiered amount: the rate of the last tier the input passes, per million, then per the unit. */
function tieredAmount(rate: Tiered, units: number, inputTokens: number, per: number): number {
  if (units <= 0) return 0;
  let chosen = rate.base;
  for (const tier of rate.tiers) if (inputTokens > tier.start) chosen = tier.price;
  return (((chosen * units) / 1e6) * 1e6) / per;
}

/** Prices `usage` (as toPriceUsage gives it: counts that fit their wholes) with prepared rates. */
export function pricePrepared(rates: PreparedRates, usage: PriceUsage): PreparedPrice {
  const inputTokens = usage.input_tokens ?? 0;
  const reads = usage.cache_read_tokens ?? 0;
  const writes = usage.cache_write_tokens ?? 0;
  // What is left of input_tokens: the priced parts taken out, summed in the package's order (reads, then writes).
  let parts = 0;
  if (rates.readsPriced) parts += reads;
  if (rates.writesPriced) parts += writes;
  const left: Record<PreparedUnit['usageKey'], number> = {
    // Counts are clamped to fit (toPriceUsage); the package also reads a rounding residue below zero as zero.
    input_tokens: Math.max(0, inputTokens - parts),
    cache_read_tokens: reads,
    cache_write_tokens: writes,
    output_tokens: usage.output_tokens ?? 0,
    requests: 1,
    web_searches: usage.web_searches ?? 0,
    ...NEVER_REPORTED,
  };
  const tierBasis = rates.tiered ? inputTokens : 0;
  let input = 0;
  let output = 0;
  let other = 0;
  for (const entry of rates.entries) {
    const units = left[entry.usageKey];
    const amount =
      typeof entry.rate === 'number'
        ? (entry.rate * units) / entry.per
        : tieredAmount(entry.rate, units, tierBasis, entry.per);
    if (entry.direction === 'input') input += amount;
    else if (entry.direction === 'output') output += amount;
    else other += amount;
  }
  return { input_price: input, output_price: output, total_price: input + output + other };
}
