import type { ProviderId } from '../providers/provider-ids.js';
import type { StoredSecret } from '../../../core/secrets/secret-value.js';
import type { KeyAlias } from './provider-snapshot.js';

/** Where a provider or key was declared: through the API (stored rows) or in the config file (read-only). */
export type CatalogSource = 'api' | 'config';

/** `network_config` in full (durations as strings such as `30s`): a provider's own fields over the defaults. */
export interface StoredNetworkConfig {
  default_request_timeout: string;
  max_retries: number;
  retry_backoff_initial: string;
  retry_backoff_max: string;
}

export interface StoredAzureKeyConfig {
  endpoint: string;
  api_version?: string;
  deployments: Record<string, string>;
}

export interface StoredBedrockKeyConfig {
  region: string;
  access_key?: StoredSecret;
  secret_key?: StoredSecret;
  session_token?: StoredSecret;
}

export interface StoredVertexKeyConfig {
  project_id: string;
  region: string;
  auth_credentials: StoredSecret;
}

/** One provider, from a row or from the config file, secrets in their stored (sealed) form. */
export interface ProviderRecord {
  provider: ProviderId;
  base_url: string | null;
  extra_headers: Record<string, StoredSecret>;
  /**
   * The fields set for this provider; the others follow `inference.network_defaults` (a runtime setting). Rows written
   * before the defaults became a setting hold every field.
   */
  network_config: Partial<StoredNetworkConfig>;
  source: CatalogSource;
  created_at: Date;
  updated_at: Date;
}

/** One key, from a row or from the config file, secrets in their stored (sealed) form. */
export interface KeyRecord {
  id: string;
  provider: ProviderId;
  name: string;
  /** Null for a key of a self-hosted provider that needs none, or a key authenticated by its provider config. */
  value: StoredSecret | null;
  weight: number;
  models: string[];
  blacklisted_models: string[];
  aliases: Record<string, KeyAlias>;
  enabled: boolean;
  azure_key_config: StoredAzureKeyConfig | null;
  bedrock_key_config: StoredBedrockKeyConfig | null;
  vertex_key_config: StoredVertexKeyConfig | null;
  source: CatalogSource;
  created_at: Date;
  updated_at: Date;
}
