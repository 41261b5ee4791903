import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import { CatalogSealer } from './catalog-sealer.js';
import { CatalogStore, providerRecord } from './catalog-store.js';
import { providerView } from './catalog-views.js';
import type { CreateProviderDto, ProviderListDto, ProviderViewDto, UpdateProviderDto } from './dto/provider.dto.js';
import { ProviderKeyEntity } from './entities/provider-key.entity.js';
import { ProviderEntity } from './entities/provider.entity.js';
import { ProviderCatalog } from './provider-catalog.service.js';
import { sealProviderInput } from './provider-input.js';

export function providerNotFound(provider: ProviderId): GatewayException {
  return GatewayException.notFound('provider', `Provider ${provider} is not configured`);
}

export function configManaged(what: string): GatewayException {
  return new GatewayException(
    409,
    'config_managed',
    `${what} declared in the config file; change it there (providers: block) and restart`,
  );
}

/** Providers configured through the API, beside those of the config file (read-only here). */
@Injectable()
export class ProvidersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: CatalogStore,
    private readonly sealer: CatalogSealer,
    private readonly secrets: SecretsService,
    private readonly catalog: ProviderCatalog,
    private readonly config: GatewayConfig,
  ) {}

  /** `inference.network_defaults` changes at run time (PUT /api/config): read at each use. */
  private get networkDefaults() {
    return this.config.inference.network_defaults;
  }

  async list(): Promise<ProviderListDto> {
    const { providers, keys } = await this.store.everything();
    const counts = new Map<ProviderId, number>();
    for (const key of keys) counts.set(key.provider, (counts.get(key.provider) ?? 0) + 1);
    const views = providers.map((p) =>
      providerView(this.secrets, p, counts.get(p.provider) ?? 0, this.networkDefaults),
    );
    return { providers: views, count: views.length };
  }

  async get(provider: ProviderId): Promise<ProviderViewDto> {
    const record = await this.store.provider(provider);
    if (!record) throw providerNotFound(provider);
    return providerView(this.secrets, record, (await this.store.keys(provider)).length, this.networkDefaults);
  }

  async create(dto: CreateProviderDto): Promise<ProviderViewDto> {
    if (this.store.isConfigDeclared(dto.provider)) {
      throw GatewayException.conflict(
        `Provider ${dto.provider} is already configured (declared in the config file)`,
        'provider',
      );
    }
    const sealed = sealProviderInput(this.sealer, dto, null, this.networkDefaults);
    let row: ProviderEntity;
    try {
      // insert, not save: save would quietly update a provider configured meanwhile. Read back in the same
      // transaction, so a delete meanwhile cannot make the answer a 500.
      row = await this.dataSource.transaction(async (m) => {
        await m.insert(ProviderEntity, { provider: dto.provider, ...sealed });
        return m.findOneByOrFail(ProviderEntity, { provider: dto.provider });
      });
    } catch (error) {
      if (isUniqueViolation(error, 'pk_providers')) {
        throw GatewayException.conflict(`Provider ${dto.provider} is already configured`, 'provider');
      }
      throw error;
    }
    await this.catalog.invalidate();
    return providerView(this.secrets, providerRecord(row), 0, this.networkDefaults);
  }

  /** Changes the fields the body carries. */
  async update(provider: ProviderId, dto: UpdateProviderDto): Promise<ProviderViewDto> {
    if (this.store.isConfigDeclared(provider)) throw configManaged(`Provider ${provider} is`);
    const repository = this.dataSource.getRepository(ProviderEntity);
    const row = await repository.findOneBy({ provider });
    if (!row) throw providerNotFound(provider);
    Object.assign(row, sealProviderInput(this.sealer, dto, row, this.networkDefaults));
    // Touch the row even when nothing changed: updated_at says when it was last written.
    row.updated_at = new Date();
    const saved = await repository.save(row);
    await this.catalog.invalidate();
    const keyCount = await this.dataSource.getRepository(ProviderKeyEntity).countBy({ provider });
    return providerView(this.secrets, providerRecord(saved), keyCount, this.networkDefaults);
  }

  /** Removes the provider and its keys, in one transaction. */
  async delete(provider: ProviderId): Promise<void> {
    if (this.store.isConfigDeclared(provider)) throw configManaged(`Provider ${provider} is`);
    const deleted = await this.dataSource.transaction(async (m) => {
      await m.delete(ProviderKeyEntity, { provider });
      return (await m.delete(ProviderEntity, { provider })).affected ?? 0;
    });
    if (!deleted) throw providerNotFound(provider);
    await this.catalog.invalidate();
  }
}
