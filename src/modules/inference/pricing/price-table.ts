import { Inject, Injectable, Optional } from '@nestjs/common';
import { calcPrice, type ConditionalPrice, type ModelPrice, type Provider } from '@pydantic/genai-prices';
import type { Logger } from 'pino';
import type { ProviderId } from '../providers/provider-ids.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import type { Cost, Usage } from '../providers/shared/provider-adapter.js';
import { costBreakdown, providerSentCost } from './cost-breakdown.js';
import { priceDataVersion } from './price-data.js';
import { priceTarget } from './price-provider-ids.js';
import { prepareRates, pricePrepared, type PreparedRates } from './prepared-rates.js';
import { toPriceUsage } from './price-usage.js';
import { PATCH_FIELDS, type PatchField, type PricingPatch } from '../../governance/index.js';

/** A model found in the package's table, ready to price without searching again. */
interface PricedModel {
  /** The found provider with only the found model, passed as `calcPrice`'s custom provider. */
  provider: Provider;
  /** The model name that matched (one of priceTarget's candidates). */
  model: string;
  /** A pricing failure is logged once per model, not once per request. */
  warned: boolean;
  /** The model's price prepared for pricing without `calcPrice` (null: dated prices or keys left to it). */
  prepared: PreparedRates | null;
}

/** Lookups kept per process; beyond this (model names are caller-chosen) the cache starts over. */
const MAX_CACHED_LOOKUPS = 10_000;

/**
 * Cost of a request from the `@pydantic/genai-prices` table (pinned, offline unless `pricing.refresh` is on).
 *
 * `calcPrice` searches its provider list, then the provider's model list with match rules (OpenRouter has ~700
 * models, a regex each): tens of microseconds. The search runs once per (provider, model): the hit is kept as a
 * one-model provider with its price prepared (prepared-rates.ts), so most requests are priced by a few
 * multiplications; dated prices and rarer price keys still go through `calcPrice` with the one-model provider.
 */
@Injectable()
export class PriceTable {
  private readonly lookups = new Map<string, PricedModel | null>();
  private lookupsVersion = priceDataVersion();

  constructor(@Optional() @Inject(LOGGER) private readonly logger?: Logger) {}

  /**
   * The cost of one request, or undefined when it is unknown (provider without a table, model not in it): an
   * unknown cost is absent, never 0. A cost the provider sent (`usage.cost`) wins. `model` is the model the provider
   * answered with, or the alias's canonical `model_name`. `at` picks dated prices (default: now).
   */
  costOf(provider: ProviderId, model: string, usage: Usage, at?: Date, patch?: PricingPatch): Cost | undefined {
    if (patch) return this.patchedCost(provider, model, usage, patch, at);
    if (usage.cost) {
      const sent = providerSentCost(usage.cost);
      if (sent) return sent;
    }
    const found = this.lookup(provider, model);
    if (!found) return undefined;
    const priceUsage = toPriceUsage(provider, usage);
    if (found.prepared) {
      const prepared = found.prepared;
      return costBreakdown({ ...pricePrepared(prepared, priceUsage), model_price: prepared.price }, priceUsage);
    }
    try {
      const result = calcPrice(priceUsage, found.model, { provider: found.provider, timestamp: at });
      return result ? costBreakdown(result, priceUsage) : undefined;
    } catch (err) {
      // Refreshed data the pinned package cannot price, or usage it refuses: no cost rather than a failed request.
      if (!found.warned) {
        found.warned = true;
        this.logger?.warn({ provider, model, err: (err as Error).message }, 'the price table cannot price this model');
      }
      return undefined;
    }
  }

  /**
   * `costOf(...).total_cost` without the breakdown (an estimate needs the total only; most models are priced by their
   * prepared rates, a few multiplications, so the breakdown's lookups were most of its cost).
   */
  totalOf(provider: ProviderId, model: string, usage: Usage, patch?: PricingPatch): number | undefined {
    const prepared = patch || usage.cost ? undefined : this.lookup(provider, model)?.prepared;
    if (!prepared) return this.costOf(provider, model, usage, undefined, patch)?.total_cost;
    return pricePrepared(prepared, toPriceUsage(provider, usage)).total_price;
  }

  /**
   * The cost with a pricing override's patch over the model's table price (or over no price, for a model the table
   * lacks): the patch is the gateway owner's own rate, so it wins over a cost the provider sent too.
   */
  private patchedCost(
    provider: ProviderId,
    model: string,
    usage: Usage,
    patch: PricingPatch,
    at: Date | undefined,
  ): Cost | undefined {
    const found = this.lookup(provider, model);
    const priceUsage = toPriceUsage(provider, usage);
    const info = found?.provider.models[0];
    const prices = info ? info.prices : {};
    const patched = Array.isArray(prices)
      ? prices.map((p) => ({ ...p, prices: patchedPrice(p.prices, patch) }))
      : patchedPrice(prices, patch);
    if (!Array.isArray(patched)) {
      const prepared = prepareRates(patched);
      if (prepared) return costBreakdown({ ...pricePrepared(prepared, priceUsage), model_price: patched }, priceUsage);
    }
    const own: Provider = found
      ? { ...found.provider, models: [{ ...info!, prices: patched }] }
      : {
          id: 'override',
          name: 'override',
          api_pattern: '',
          models: [{ id: model, match: { equals: model }, prices: patched }],
        };
    try {
      const result = calcPrice(priceUsage, found?.model ?? model, { provider: own, timestamp: at });
      return result ? costBreakdown(result, priceUsage) : undefined;
    } catch (err) {
      this.logger?.warn({ provider, model, err: (err as Error).message }, 'a pricing override cannot price this model');
      return undefined;
    }
  }

  /**
   * The table's rates for a model in the units of a pricing override (USD per token, per request, per search), or
   * undefined when the table does not price it: what an override's fields replace. Dated prices give the rates in
   * force now.
   */
  catalogueRates(provider: ProviderId, model: string, at = new Date()): PricingPatch | undefined {
    const found = this.lookup(provider, model);
    if (!found) return undefined;
    const price = currentPrice(found.provider.models[0]!.prices, at);
    if (!price) return undefined;
    const rates: PricingPatch = {};
    for (const field of Object.keys(PATCH_FIELDS) as PatchField[]) {
      const { key, per } = PATCH_FIELDS[field];
      const value = price[key];
      if (typeof value === 'number') rates[field] = value / per;
    }
    return rates;
  }

  private lookup(provider: ProviderId, model: string): PricedModel | null {
    const version = priceDataVersion();
    if (version !== this.lookupsVersion || this.lookups.size >= MAX_CACHED_LOOKUPS) {
      this.lookups.clear();
      this.lookupsVersion = version;
    }
    const key = `${provider}\n${model}`;
    let found = this.lookups.get(key);
    if (found === undefined) {
      try {
        found = search(provider, model);
      } catch (err) {
        // A model whose price entry the package rejects (refreshed data it cannot read): unknown, said once.
        this.logger?.warn({ provider, model, err: (err as Error).message }, 'the price table cannot price this model');
        found = null;
      }
      this.lookups.set(key, found);
    }
    return found;
  }
}

/** The package's own search (provider, then model match rules, then dated-id forms), tried per candidate name. */
function search(provider: ProviderId, model: string): PricedModel | null {
  const target = priceTarget(provider, model);
  if (!target) return null;
  for (const candidate of target.models) {
    const hit = calcPrice({}, candidate, { providerId: target.providerId });
    if (hit) {
      const { id, name, api_pattern } = hit.provider;
      const prices = hit.model.prices;
      return {
        provider: { id, name, api_pattern, models: [hit.model] },
        model: candidate,
        warned: false,
        prepared: Array.isArray(prices) ? null : prepareRates(prices),
      };
    }
  }
  return null;
}

/**
 * The price in force at `at`: a plain price, or the last entry whose start date has passed (entries bound to a time
 * of day count as always started: the listing shows one rate, not a schedule).
 */
function currentPrice(prices: ModelPrice | ConditionalPrice[], at: Date): ModelPrice | undefined {
  if (!Array.isArray(prices)) return prices;
  let current: ModelPrice | undefined;
  for (const entry of prices) {
    const start = (entry.constraint as { start_date?: string } | undefined)?.start_date;
    if (!start || Date.parse(start) <= at.getTime()) current = entry.prices;
  }
  return current;
}

/** A model price with the patch's rates in place of the table's (USD per unit becomes per million or per thousand). */
function patchedPrice(price: ModelPrice, patch: PricingPatch): ModelPrice {
  const out: ModelPrice = { ...price };
  for (const field of Object.keys(patch) as PatchField[]) {
    const { key, per } = PATCH_FIELDS[field];
    out[key] = patch[field]! * per;
  }
  return out;
}
