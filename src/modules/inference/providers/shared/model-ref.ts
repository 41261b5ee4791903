import { PROVIDER_IDS, type ProviderId } from '../provider-ids.js';

const PROVIDERS: ReadonlySet<string> = new Set(PROVIDER_IDS);

/** A model as the caller named it: `<provider>/<model>`, or a bare model the router resolves. */
export interface ModelRef {
  /** Set when the string started with a provider id. */
  provider?: ProviderId;
  model: string;
  /** The string as sent. */
  requested: string;
}

/**
 * Splits at the first `/` only when the prefix is one of the provider ids; otherwise the whole string is a bare model
 * (Hugging Face style names such as `meta-llama/Llama-3.1-8B` keep their slash).
 */
export function parseModelRef(value: string): ModelRef {
  const slash = value.indexOf('/');
  if (slash > 0) {
    const prefix = value.slice(0, slash);
    if (PROVIDERS.has(prefix) && slash < value.length - 1) {
      return { provider: prefix as ProviderId, model: value.slice(slash + 1), requested: value };
    }
  }
  return { model: value, requested: value };
}
