import type { ProviderId } from '../providers/provider-ids.js';
import type { KeyCredentials } from '../providers/shared/provider-adapter.js';

/** Retry and timeout settings of one provider (`network_config`), in milliseconds. */
export interface NetworkSettings {
  /** Deadline for the upstream response headers (and for a unary body). Default 30 000. */
  timeoutMs: number;
  /** Extra attempts after the first, per model in the chain. Default 0. */
  maxRetries: number;
  /** Default 500. */
  backoffInitialMs: number;
  /** Default 5000. Also the longest provider retry hint the router waits for. */
  backoffMaxMs: number;
}

export interface KeyAlias {
  model_id: string;
  model_name?: string;
  model_family?: string;
}

/** One stored key as the request path sees it: secrets resolved, ready to use. */
export interface ConfiguredKey {
  id: string;
  name: string;
  /** > 0. */
  weight: number;
  /** `["*"]` every model, `[]` none, else an allow-list (matched against the requested model). */
  models: readonly string[];
  /** Wins over `models`. */
  blacklisted_models: readonly string[];
  /** Requested model → what to send upstream. */
  aliases: Readonly<Record<string, KeyAlias>>;
  enabled: boolean;
  credentials: KeyCredentials;
  /** Set when a secret of the key could not be resolved (env var missing, vault down): the key is skipped. */
  unusable?: string;
}

export interface ConfiguredProvider {
  id: ProviderId;
  /** Override of the adapter's default base URL, no trailing slash. */
  base_url?: string;
  extra_headers: Readonly<Record<string, string>>;
  network: NetworkSettings;
  source: 'api' | 'config';
  keys: readonly ConfiguredKey[];
}

/** Every configured provider, rebuilt on change (on every replica through the invalidation bus). */
export interface ProviderSnapshot {
  get(id: ProviderId): ConfiguredProvider | undefined;
  all(): readonly ConfiguredProvider[];
  /** `inference.network_defaults` as the snapshot was built: for a direct key to a provider not configured. */
  readonly defaultNetwork: NetworkSettings;
}
