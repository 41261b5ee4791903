import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GovernanceModule } from '../governance/governance.module.js';
import { CatalogSealer } from './catalog/catalog-sealer.js'; // catalog
import { CatalogStore } from './catalog/catalog-store.js'; // catalog
import { ConfigProviders } from './catalog/config-providers.js'; // catalog
import { ProviderKeyEntity } from './catalog/entities/provider-key.entity.js'; // catalog
import { ProviderEntity } from './catalog/entities/provider.entity.js'; // catalog
import { ModelListingService } from './catalog/model-listing.service.js'; // catalog
import { ModelsController } from './catalog/models.controller.js'; // catalog
import { ProviderCatalog } from './catalog/provider-catalog.service.js'; // catalog
import { ProviderKeysController } from './catalog/provider-keys.controller.js'; // catalog
import { ProviderKeysService } from './catalog/provider-keys.service.js'; // catalog
import { ProvidersController } from './catalog/providers.controller.js'; // catalog
import { ProvidersService } from './catalog/providers.service.js'; // catalog

/**
 * The inference plane: providers and keys (catalog/), provider adapters (providers/), routing with retries and
 * fallbacks (routing/), prices (pricing/) and the unified /v1 API.
 */
@Module({
  imports: [
    GovernanceModule,
    TypeOrmModule.forFeature([ProviderEntity, ProviderKeyEntity]), // catalog
  ],
  controllers: [
    ProvidersController, // catalog
    ProviderKeysController, // catalog
    ModelsController, // catalog
    // v1 controllers
  ],
  providers: [
    ConfigProviders, // catalog
    CatalogSealer, // catalog
    CatalogStore, // catalog
    ProviderCatalog, // catalog
    ProvidersService, // catalog
    ProviderKeysService, // catalog
    ModelListingService, // catalog
    // pricing and metrics
    // routing
  ],
  exports: [
    ProviderCatalog, // catalog
  ],
})
export class InferenceModule {}
