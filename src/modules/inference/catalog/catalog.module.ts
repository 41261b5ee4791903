import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundAdapterIo } from './outbound-adapter-io.js';
import { PriceTable } from '../pricing/price-table.js';
import { UpstreamAttempts } from '../routing/upstream-attempt.js';
import { CatalogSealer } from './catalog-sealer.js';
import { CatalogStore } from './catalog-store.js';
import { ConfigProviders } from './config-providers.js';
import { ProviderKeyEntity } from './entities/provider-key.entity.js';
import { ProviderEntity } from './entities/provider.entity.js';
import { ModelListingService } from './model-listing.service.js';
import { ModelsController } from './models.controller.js';
import { ProviderCatalog } from './provider-catalog.service.js';
import { ProviderKeysController } from './provider-keys.controller.js';
import { ProviderKeysService } from './provider-keys.service.js';
import { ProviderTestService } from './provider-test.service.js';
import { ProvidersController } from './providers.controller.js';
import { ProvidersService } from './providers.service.js';

/**
 * Providers and their keys (`/api/providers`, `/api/models`): the stored and configured providers, the snapshot the
 * request path reads (`ProviderCatalog`), model listing and the provider test. The provider test makes one upstream
 * attempt, so the catalog provides `UpstreamAttempts` (and the adapters' I/O) and the inference path uses them from
 * here. The listing shows each model's catalogue price, so the price table is provided here too.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ProviderEntity, ProviderKeyEntity])],
  controllers: [ProvidersController, ProviderKeysController, ModelsController],
  providers: [
    ConfigProviders,
    CatalogSealer,
    CatalogStore,
    ProviderCatalog,
    ProvidersService,
    ProviderKeysService,
    ProviderTestService,
    ModelListingService,
    OutboundAdapterIo,
    UpstreamAttempts,
    PriceTable,
  ],
  exports: [ProviderCatalog, ModelListingService, OutboundAdapterIo, UpstreamAttempts, PriceTable],
})
export class CatalogModule {}
