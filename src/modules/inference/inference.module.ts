import { Module } from '@nestjs/common';
import { GovernanceModule } from '../governance/governance.module.js';
import { InferenceMetrics } from './inference-metrics.js';
import { PriceRefreshService } from './pricing/price-refresh.service.js';
import { PriceTable } from './pricing/price-table.js';
import { InferenceRouter } from './routing/inference-router.service.js';
import { InferenceAccess } from './v1/inference-access.js';
import { InferenceResponder } from './v1/inference-responder.js';
import { InferenceController } from './v1/inference.controller.js';

/**
 * The inference plane: providers and keys (catalog/), provider adapters (providers/), routing with retries and
 * fallbacks (routing/), prices (pricing/) and the unified /v1 API (v1/).
 */
@Module({
  imports: [
    GovernanceModule,
    // catalog: TypeOrmModule.forFeature([...])
  ],
  controllers: [
    // catalog controllers
    InferenceController,
  ],
  providers: [
    // catalog services
    PriceTable,
    PriceRefreshService,
    InferenceMetrics,
    InferenceAccess,
    InferenceRouter,
    InferenceResponder,
  ],
  exports: [PriceTable, InferenceMetrics, InferenceRouter],
})
export class InferenceModule {}
