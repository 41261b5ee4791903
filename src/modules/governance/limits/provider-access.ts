import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../../inference/index.js';
import type { ProviderConfigPolicy, VirtualKeyPolicy } from './governed-levels.js';

/**
 * What a virtual key's `provider_configs` allow (decisions.md: absent or empty, every configured provider and model;
 * present, only what they list). Pure functions over the policy snapshot; the router asks before each model of a
 * fallback chain.
 */

/** Whether a provider config allows `model`: the black list wins, then `*` or the exact name. */
export function configAllows(config: ProviderConfigPolicy, model: string): boolean {
  if (config.blacklistedModels.includes(model)) return false;
  return config.allowedModels.includes('*') || config.allowedModels.includes(model);
}

/**
 * The provider config an attempt at `provider`/`model` runs under: undefined when the key lists none (everything
 * allowed); else that provider's config, or 403 `model_blocked` naming why.
 */
export function providerConfigFor(
  policy: VirtualKeyPolicy,
  provider: ProviderId,
  model: string,
): ProviderConfigPolicy | undefined {
  if (policy.providerConfigs.length === 0) return undefined;
  const config = policy.providerConfigs.find((c) => c.provider === provider);
  if (!config) {
    throw new GatewayException(
      403,
      'model_blocked',
      `Virtual key '${policy.name}' may not use provider '${provider}'`,
      { reason: 'policy_provider_blocked', extraFields: { provider, model } },
    );
  }
  if (!configAllows(config, model)) {
    throw new GatewayException(
      403,
      'model_blocked',
      `Virtual key '${policy.name}' may not use model '${model}' of provider '${provider}'`,
      { reason: 'policy_model_blocked', extraFields: { provider, model } },
    );
  }
  if (config.keyIds !== '*' && config.keyIds.length === 0) {
    throw new GatewayException(
      403,
      'model_blocked',
      `Virtual key '${policy.name}' may use no key of provider '${provider}'`,
      { reason: 'policy_provider_blocked', extraFields: { provider, model } },
    );
  }
  return config;
}

/** The keys of `keys` the config lets the router pick (`key_ids`): all with `*`, else only those listed. */
export function allowedKeys<K extends { id: string }>(config: ProviderConfigPolicy | undefined, keys: K[]): K[] {
  if (!config || config.keyIds === '*') return keys;
  const ids = config.keyIds;
  return keys.filter((k) => ids.includes(k.id));
}

/**
 * For a model named without a provider, when the key has provider configs: a provider chosen by weight among the
 * configs that allow the model and whose provider `usable` accepts (configured and supported). Configs with a null
 * or zero weight are never picked. None: 403 `model_blocked`.
 */
export function pickProviderByWeight(
  policy: VirtualKeyPolicy,
  model: string,
  usable: (provider: ProviderId) => boolean,
  random: () => number = Math.random,
): ProviderId {
  const candidates = policy.providerConfigs.filter(
    (c) => c.weight !== null && c.weight > 0 && configAllows(c, model) && usable(c.provider),
  );
  let total = 0;
  for (const c of candidates) total += c.weight!;
  if (total <= 0) {
    throw new GatewayException(
      403,
      'model_blocked',
      `Virtual key '${policy.name}' allows model '${model}' on no provider it may use`,
      { reason: 'policy_model_blocked', extraFields: { model } },
    );
  }
  let point = random() * total;
  for (const c of candidates) {
    point -= c.weight!;
    if (point < 0) return c.provider;
  }
  return candidates[candidates.length - 1]!.provider;
}
