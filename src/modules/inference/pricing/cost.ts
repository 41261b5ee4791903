import { Injectable } from '@nestjs/common';
import type { PluginJson } from '../../plugins/index.js';
import type { Usage } from '../providers/shared/provider-adapter.js';
import { REQUEST_TYPES, type InferenceCall, type RoutedResult } from '../routing/inference-call.js';
import { PriceTable } from './price-table.js';

/** A usage priced at zero: what a plugin's answer (a cache hit) costs. */
export function freeUsage(usage: PluginJson | Usage | undefined): Usage | undefined {
  return usage ? { ...(usage as unknown as Usage), cost: { total_cost: 0 } } : undefined;
}

/** The cost of a served request's usage: what is logged, charged to budgets and sent in `x-gateway-cost-usd`. */
@Injectable()
export class InferenceCost {
  constructor(private readonly prices: PriceTable) {}

  /**
   * The priced usage: with a pricing override covering the request, the table's price patched with it; else the
   * provider's cost when it sent one, else the price table's; absent when unknown.
   */
  price(call: InferenceCall, result: RoutedResult, usage: Usage | undefined): Usage | undefined {
    if (!usage) return undefined;
    const override = call.pricing?.find({
      provider: result.provider,
      providerKeyId: result.keyId,
      virtualKeyId: call.virtualKey?.id,
      model: result.routing.model ?? result.pricedModel,
      requestType: REQUEST_TYPES[call.kind],
    });
    const cost = this.prices.costOf(result.provider, result.pricedModel, usage, undefined, override?.patch);
    return cost ? { ...usage, cost } : usage;
  }
}
