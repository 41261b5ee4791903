// The public file of the inference module: what other modules may import (eslint.config.js, docs/architecture.md).
export { PROVIDER_IDS, PROVIDER_ID_SCHEMA } from './providers/provider-ids.js';
export type { ProviderId } from './providers/provider-ids.js';
export { ProviderKeyEntity } from './catalog/entities/provider-key.entity.js';
export { ProviderCatalog } from './catalog/provider-catalog.service.js';
