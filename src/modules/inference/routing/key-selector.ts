import type { ConfiguredKey, ConfiguredProvider, KeyAlias } from '../catalog/provider-snapshot.js';

/** A key pinned by the caller (`x-gateway-api-key-id` wins over `x-gateway-api-key`). */
export interface KeyPin {
  id?: string;
  name?: string;
}

/** Whether a key may serve `model` (the requested name): the block list wins, then `["*"]`, the list, or an alias. */
export function keyAllows(key: ConfiguredKey, model: string): boolean {
  if (key.blacklisted_models.includes(model)) return false;
  if (key.aliases[model]) return true;
  return key.models.includes('*') || key.models.includes(model);
}

/** The enabled, usable keys of a provider that allow the model, narrowed to the pinned one when a pin is given. */
export function eligibleKeys(provider: ConfiguredProvider, model: string, pin?: KeyPin): ConfiguredKey[] {
  const out: ConfiguredKey[] = [];
  for (const key of provider.keys) {
    if (pin?.id !== undefined ? key.id !== pin.id : pin?.name !== undefined && key.name !== pin.name) continue;
    if (key.enabled && !key.unusable && keyAllows(key, model)) out.push(key);
  }
  return out;
}

/** Weighted random choice among the keys not excluded (`excluded` holds key ids dead or rotated away from). */
export function pickKey(
  keys: readonly ConfiguredKey[],
  excluded: ReadonlySet<string>,
  random: () => number = Math.random,
): ConfiguredKey | undefined {
  let total = 0;
  for (const key of keys) if (!excluded.has(key.id)) total += key.weight;
  if (total <= 0) return undefined;
  let point = random() * total;
  let last: ConfiguredKey | undefined;
  for (const key of keys) {
    if (excluded.has(key.id)) continue;
    last = key;
    point -= key.weight;
    if (point < 0) return key;
  }
  return last;
}

/** The model id sent upstream and the alias that produced it, if the key has one for the requested model. */
export function resolveAlias(key: ConfiguredKey, model: string): { upstreamModel: string; alias?: KeyAlias } {
  const alias = key.aliases[model];
  return alias ? { upstreamModel: alias.model_id, alias } : { upstreamModel: model };
}
