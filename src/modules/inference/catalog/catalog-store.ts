import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ProviderId } from '../providers/provider-ids.js';
import { isId } from '../../../core/validation/ids.js';
import type { KeyRecord, ProviderRecord } from './catalog-records.js';
import { ConfigProviders } from './config-providers.js';
import { ProviderKeyEntity } from './entities/provider-key.entity.js';
import { ProviderEntity } from './entities/provider.entity.js';

export function providerRecord(row: ProviderEntity): ProviderRecord {
  return {
    provider: row.provider,
    base_url: row.base_url,
    extra_headers: row.extra_headers,
    network_config: row.network_config,
    source: 'api',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function keyRecord(row: ProviderKeyEntity): KeyRecord {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    value: row.value,
    weight: row.weight,
    models: row.models,
    blacklisted_models: row.blacklisted_models,
    aliases: row.aliases,
    enabled: row.enabled,
    azure_key_config: row.azure_key_config,
    bedrock_key_config: row.bedrock_key_config,
    vertex_key_config: row.vertex_key_config,
    source: 'api',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const KEY_ORDER = { created_at: 'ASC', name: 'ASC' } as const;

/**
 * Reads providers and keys from both places they are declared: the config file (which wins: a provider declared
 * there hides a stored provider of the same id, with its keys) and the database.
 */
@Injectable()
export class CatalogStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly fromConfig: ConfigProviders,
  ) {}

  /** Every provider and every key, in id order, keys in creation order (config keys in file order). */
  async everything(): Promise<{
    providers: ProviderRecord[];
    keys: KeyRecord[];
  }> {
    const [rows, keyRows] = await Promise.all([
      this.dataSource.manager.find(ProviderEntity, { order: { provider: 'ASC' } }),
      this.dataSource.manager.find(ProviderKeyEntity, { order: KEY_ORDER }),
    ]);
    const config = this.fromConfig.list();
    const declared = new Set(config.map((c) => c.provider.provider));
    const providers = [
      ...config.map((c) => c.provider),
      ...rows.filter((r) => !declared.has(r.provider)).map(providerRecord),
    ].sort((a, b) => a.provider.localeCompare(b.provider));
    const order = new Map(providers.map((p, i) => [p.provider, i]));
    const keys = [
      ...config.flatMap((c) => c.keys),
      ...keyRows.filter((k) => !declared.has(k.provider)).map(keyRecord),
    ].sort((a, b) => (order.get(a.provider) ?? 0) - (order.get(b.provider) ?? 0));
    return { providers, keys };
  }

  async provider(provider: ProviderId): Promise<ProviderRecord | undefined> {
    const config = this.fromConfig.get(provider);
    if (config) return config.provider;
    const row = await this.dataSource.manager.findOneBy(ProviderEntity, { provider });
    return row ? providerRecord(row) : undefined;
  }

  async keys(provider: ProviderId): Promise<KeyRecord[]> {
    const config = this.fromConfig.get(provider);
    if (config) return config.keys;
    const rows = await this.dataSource.manager.find(ProviderKeyEntity, { where: { provider }, order: KEY_ORDER });
    return rows.map(keyRecord);
  }

  async key(provider: ProviderId, id: string): Promise<KeyRecord | undefined> {
    const config = this.fromConfig.get(provider);
    if (config) return config.keys.find((k) => k.id === id);
    if (!isId(id)) return undefined;
    const row = await this.dataSource.manager.findOneBy(ProviderKeyEntity, { provider, id });
    return row ? keyRecord(row) : undefined;
  }

  /** Declared in the config file: read-only through the API. */
  isConfigDeclared(provider: ProviderId): boolean {
    return this.fromConfig.get(provider) !== undefined;
  }
}
