import type { ProviderId } from '../providers/provider-ids.js';
import { priceIdOf } from '../providers/registry.js';

/** Where to look a model up in the package: its provider id and the model names to try, in order. */
export interface PriceTarget {
  providerId: string;
  models: string[];
}

const FIREWORKS_MODEL_PREFIX = 'accounts/fireworks/models/';

/**
 * Model names to try for one of our (provider, model) pairs: the exact id first, then the id without a `models/`
 * prefix (Gemini lists `models/gemini-2.5-flash`; Vertex `publishers/google/models/...`), then, for Fireworks, the
 * short name under the `accounts/fireworks/models/` path its table uses. `undefined`: the provider has no table.
 */
export function priceTarget(provider: ProviderId, model: string): PriceTarget | undefined {
  if (provider === 'huggingface') {
    // `org/model:novita` is routed to (and billed by) the named inference provider; without a suffix the router
    // picks one, so the price is unknown.
    const colon = model.lastIndexOf(':');
    if (colon <= 0 || colon === model.length - 1) return undefined;
    return { providerId: `huggingface_${model.slice(colon + 1).toLowerCase()}`, models: [model.slice(0, colon)] };
  }
  const providerId = priceIdOf(provider);
  if (!providerId) return undefined;
  const models = [model];
  const at = model.lastIndexOf('models/');
  if (at === 0 || (at > 0 && model[at - 1] === '/')) models.push(model.slice(at + 'models/'.length));
  if (provider === 'fireworks' && !model.includes('/')) models.push(FIREWORKS_MODEL_PREFIX + model);
  return { providerId, models };
}
