import type { SecretValueView } from '../../../core/secrets/secret-value.js';
import type { SecretsService } from '../../../core/secrets/secrets.service.js';
import type { KeyRecord, ProviderRecord, StoredNetworkConfig } from './catalog-records.js';
import type { BedrockKeyConfigViewDto } from './dto/key-configs.dto.js';
import type { ProviderKeyViewDto } from './dto/provider-key.dto.js';
import type { ProviderViewDto } from './dto/provider.dto.js';
import { effectiveNetworkConfig } from './network-config.js';

/** The response form of a provider: every header value redacted, `network_config` in effect (its own over defaults). */
export function providerView(
  secrets: SecretsService,
  record: ProviderRecord,
  keyCount: number,
  networkDefaults: Readonly<StoredNetworkConfig>,
): ProviderViewDto {
  return {
    provider: record.provider,
    ...(record.base_url ? { base_url: record.base_url } : {}),
    extra_headers: secrets.viewMap(record.extra_headers) ?? {},
    network_config: effectiveNetworkConfig(record.network_config, networkDefaults),
    source: record.source,
    key_count: keyCount,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

/** The response form of a key: the value and every provider-specific secret redacted. */
export function keyView(secrets: SecretsService, record: KeyRecord): ProviderKeyViewDto {
  const view: ProviderKeyViewDto = {
    id: record.id,
    provider: record.provider,
    name: record.name,
    weight: record.weight,
    models: record.models,
    blacklisted_models: record.blacklisted_models,
    aliases: record.aliases,
    enabled: record.enabled,
    source: record.source,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
  const value = secrets.view(record.value);
  if (value) view.value = value;
  if (record.azure_key_config) view.azure_key_config = { ...record.azure_key_config };
  const bedrock = record.bedrock_key_config;
  if (bedrock) {
    const out: BedrockKeyConfigViewDto = { region: bedrock.region };
    for (const field of ['access_key', 'secret_key', 'session_token'] as const) {
      const secret = secrets.view(bedrock[field]);
      if (secret) out[field] = secret;
    }
    view.bedrock_key_config = out;
  }
  const vertex = record.vertex_key_config;
  if (vertex) {
    view.vertex_key_config = {
      project_id: vertex.project_id,
      region: vertex.region,
      auth_credentials: secrets.view(vertex.auth_credentials) as SecretValueView,
    };
  }
  return view;
}
