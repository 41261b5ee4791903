import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import { isId } from '../../../core/validation/ids.js';
import { CatalogSealer } from './catalog-sealer.js';
import { CatalogStore, keyRecord } from './catalog-store.js';
import { keyView } from './catalog-views.js';
import type {
  CreateProviderKeyDto,
  ProviderKeyListDto,
  ProviderKeyViewDto,
  UpdateProviderKeyDto,
} from './dto/provider-key.dto.js';
import { ProviderKeyEntity } from './entities/provider-key.entity.js';
import { sealKeyInput } from './key-input.js';
import { ProviderCatalog } from './provider-catalog.service.js';
import { configManaged, providerNotFound } from './providers.service.js';

const NAME_CONFLICT = 'uq_provider_keys_provider_name';

function keyNotFound(provider: ProviderId, id: string): GatewayException {
  return GatewayException.notFound('provider_key', `Provider ${provider} has no key ${id}`);
}

function nameTaken(provider: ProviderId, name: string): GatewayException {
  return GatewayException.conflict(`Provider ${provider} already has a key named "${name}"`, 'name');
}

/** Keys of the providers configured through the API; config-file keys are shown but read-only. */
@Injectable()
export class ProviderKeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: CatalogStore,
    private readonly sealer: CatalogSealer,
    private readonly secrets: SecretsService,
    private readonly catalog: ProviderCatalog,
  ) {}

  /** Every key of every provider. */
  async listAll(): Promise<ProviderKeyListDto> {
    const { keys } = await this.store.everything();
    const views = keys.map((k) => keyView(this.secrets, k));
    return { keys: views, count: views.length };
  }

  async list(provider: ProviderId): Promise<ProviderKeyListDto> {
    await this.requireProvider(provider);
    const views = (await this.store.keys(provider)).map((k) => keyView(this.secrets, k));
    return { keys: views, count: views.length };
  }

  async get(provider: ProviderId, id: string): Promise<ProviderKeyViewDto> {
    await this.requireProvider(provider);
    const key = await this.store.key(provider, id);
    if (!key) throw keyNotFound(provider, id);
    return keyView(this.secrets, key);
  }

  async create(provider: ProviderId, dto: CreateProviderKeyDto): Promise<ProviderKeyViewDto> {
    await this.requireApiProvider(provider, `Keys of provider ${provider} are`);
    const sealed = sealKeyInput(this.sealer, provider, dto, null);
    const id = randomUUID();
    let row: ProviderKeyEntity;
    try {
      // Read back in the same transaction, so a delete meanwhile cannot make the answer a 500.
      row = await this.dataSource.transaction(async (m) => {
        await m.insert(ProviderKeyEntity, { id, provider, ...sealed });
        return m.findOneByOrFail(ProviderKeyEntity, { id });
      });
    } catch (error) {
      if (isUniqueViolation(error, NAME_CONFLICT)) throw nameTaken(provider, sealed.name);
      // The provider was deleted between the check and the insert.
      if (isForeignKeyViolation(error)) throw providerNotFound(provider);
      throw error;
    }
    await this.catalog.invalidate();
    return keyView(this.secrets, keyRecord(row));
  }

  /** Changes the fields the body carries; `<REDACTED>` secrets keep their stored values. */
  async update(provider: ProviderId, id: string, dto: UpdateProviderKeyDto): Promise<ProviderKeyViewDto> {
    await this.requireApiProvider(provider, `Key ${id} of provider ${provider} is`);
    const repository = this.dataSource.getRepository(ProviderKeyEntity);
    const row = isId(id) ? await repository.findOneBy({ provider, id }) : null;
    if (!row) throw keyNotFound(provider, id);
    Object.assign(row, sealKeyInput(this.sealer, provider, dto, row));
    row.updated_at = new Date();
    let saved: ProviderKeyEntity;
    try {
      saved = await repository.save(row);
    } catch (error) {
      if (isUniqueViolation(error, NAME_CONFLICT)) throw nameTaken(provider, row.name);
      throw error;
    }
    await this.catalog.invalidate();
    return keyView(this.secrets, keyRecord(saved));
  }

  async delete(provider: ProviderId, id: string): Promise<void> {
    await this.requireApiProvider(provider, `Key ${id} of provider ${provider} is`);
    const deleted = isId(id)
      ? ((await this.dataSource.getRepository(ProviderKeyEntity).delete({ provider, id })).affected ?? 0)
      : 0;
    if (!deleted) throw keyNotFound(provider, id);
    await this.catalog.invalidate();
  }

  private async requireProvider(provider: ProviderId): Promise<void> {
    if (!(await this.store.provider(provider))) throw providerNotFound(provider);
  }

  /** A provider configured through the API (config-file providers: 409, unknown: 404). */
  private async requireApiProvider(provider: ProviderId, what: string): Promise<void> {
    if (this.store.isConfigDeclared(provider)) throw configManaged(what);
    await this.requireProvider(provider);
  }
}
