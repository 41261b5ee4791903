import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { type ProviderId, ProviderCatalog } from '../../inference/index.js';

/**
 * The provider key ids that exist (API and config file), for validating a virtual key's `key_ids`. The catalog
 * belongs to the inference module, which imports this one: it is found at call time, not injected.
 */
@Injectable()
export class ProviderKeyIds {
  private catalog: ProviderCatalog | null | undefined;

  constructor(private readonly modules: ModuleRef) {}

  /** Key ids of the provider; undefined when the catalog is not part of this application (nothing to check). */
  async of(provider: ProviderId): Promise<ReadonlySet<string> | undefined> {
    if (this.catalog === undefined) {
      try {
        this.catalog = this.modules.get(ProviderCatalog, { strict: false });
      } catch {
        this.catalog = null;
      }
    }
    if (!this.catalog) return undefined;
    const snapshot = await this.catalog.snapshot();
    return new Set(snapshot.get(provider)?.keys.map((k) => k.id) ?? []);
  }
}
