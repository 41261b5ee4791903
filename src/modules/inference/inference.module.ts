import { Module } from '@nestjs/common';
import { GovernanceModule } from '../governance/governance.module.js';
import { InferenceMetrics } from './inference-metrics.js';
import { PriceRefreshService } from './pricing/price-refresh.service.js';
import { PriceTable } from './pricing/price-table.js';

/**
 * The inference plane: providers and keys (catalog/), provider adapters (providers/), routing with retries and
 * fallbacks (routing/), prices (pricing/) and the unified /v1 API.
 */
@Module({
  imports: [
    GovernanceModule,
    // catalog: TypeOrmModule.forFeature([...])
  ],
  controllers: [
    // catalog controllers
    // v1 controllers
  ],
  providers: [
    // catalog services
    // pricing and metrics (MetricsService, OutboundHttpService and GatewayConfig come from global modules)
    PriceTable,
    PriceRefreshService,
    InferenceMetrics,
    // routing
  ],
  exports: [
    // pricing and metrics
    PriceTable,
    InferenceMetrics,
  ],
})
export class InferenceModule {}
