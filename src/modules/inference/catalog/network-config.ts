import { parseDuration } from '../../../core/config/duration.js';
import type { StoredNetworkConfig } from './catalog-records.js';
import type { NetworkSettings } from './provider-snapshot.js';

/**
 * The built-in defaults of `network_config` (decisions.md; bifrost.md §4): those of `inference.network_defaults`, which
 * the config file or PUT /api/config may change.
 */
export const DEFAULT_NETWORK_CONFIG: Readonly<StoredNetworkConfig> = Object.freeze({
  default_request_timeout: '30s',
  max_retries: 0,
  retry_backoff_initial: '500ms',
  retry_backoff_max: '5s',
});

/** Upper bounds, so a timer never overflows and a retry loop never sleeps for hours. */
export const MAX_REQUEST_TIMEOUT_MS = 3_600_000;
export const MAX_BACKOFF_MS = 300_000;
export const MAX_RETRIES = 10;

/** What a request or the config file may carry: any subset of the fields. */
export type NetworkConfigInput = Partial<StoredNetworkConfig>;

/** A problem of one field, relative to the object that holds it (`network_config.retry_backoff_max`). */
export interface FieldProblem {
  param: string;
  message: string;
}

/** The carried fields over `base` (the provider's own fields on an update, none on a create). */
export function mergeNetworkConfig(
  base: NetworkConfigInput,
  input: NetworkConfigInput | undefined,
): NetworkConfigInput {
  const out = { ...base };
  if (!input) return out;
  if (input.default_request_timeout !== undefined) out.default_request_timeout = input.default_request_timeout;
  if (input.max_retries !== undefined) out.max_retries = input.max_retries;
  if (input.retry_backoff_initial !== undefined) out.retry_backoff_initial = input.retry_backoff_initial;
  if (input.retry_backoff_max !== undefined) out.retry_backoff_max = input.retry_backoff_max;
  return out;
}

/**
 * Checks what the field decorators cannot: durations within bounds and the backoff ordering. The decorators have
 * checked the syntax already; the config file goes through the same decorators.
 */
export function networkConfigProblem(config: StoredNetworkConfig, prefix = 'network_config'): FieldProblem | undefined {
  const field = (name: keyof StoredNetworkConfig) => `${prefix}.${name}`;
  const timeout = parseDuration(config.default_request_timeout);
  if (timeout === undefined || timeout <= 0 || timeout > MAX_REQUEST_TIMEOUT_MS) {
    return { param: field('default_request_timeout'), message: 'must be a duration between 1ms and 1h' };
  }
  const initial = parseDuration(config.retry_backoff_initial);
  if (initial === undefined || initial > MAX_BACKOFF_MS) {
    return { param: field('retry_backoff_initial'), message: 'must be a duration of at most 5m' };
  }
  const max = parseDuration(config.retry_backoff_max);
  if (max === undefined || max > MAX_BACKOFF_MS) {
    return { param: field('retry_backoff_max'), message: 'must be a duration of at most 5m' };
  }
  if (initial > max) {
    return {
      param: field('retry_backoff_initial'),
      message: `must not be longer than retry_backoff_max (${config.retry_backoff_max})`,
    };
  }
  return undefined;
}

/**
 * A provider's own fields over the current defaults. Each field was validated on its own; only the backoff ordering can
 * break when the defaults change under a provider's own values, and then the initial backoff is cut to the longest.
 */
export function effectiveNetworkConfig(
  own: NetworkConfigInput,
  defaults: Readonly<StoredNetworkConfig>,
): StoredNetworkConfig {
  const merged = { ...defaults, ...own };
  const initial = parseDuration(merged.retry_backoff_initial);
  const max = parseDuration(merged.retry_backoff_max);
  if (initial !== undefined && max !== undefined && initial > max)
    merged.retry_backoff_initial = merged.retry_backoff_max;
  return {
    default_request_timeout: merged.default_request_timeout,
    max_retries: merged.max_retries,
    retry_backoff_initial: merged.retry_backoff_initial,
    retry_backoff_max: merged.retry_backoff_max,
  };
}

/** The request path's form, in milliseconds. Only called on validated configs. */
export function toNetworkSettings(config: StoredNetworkConfig): NetworkSettings {
  return {
    timeoutMs: parseDuration(config.default_request_timeout) ?? 30_000,
    maxRetries: config.max_retries,
    backoffInitialMs: parseDuration(config.retry_backoff_initial) ?? 500,
    backoffMaxMs: parseDuration(config.retry_backoff_max) ?? 5_000,
  };
}
