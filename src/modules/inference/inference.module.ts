import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GovernanceModule } from '../governance/governance.module.js';
import { PricingOverridesModule } from '../governance/pricing-overrides/pricing-overrides.module.js';
import { CircuitBreakerModule } from '../circuit-breaker/circuit-breaker.module.js';
import { RoutingRulesModule } from '../governance/routing-rules/routing-rules.module.js';
import { CatalogSealer } from './catalog/catalog-sealer.js';
import { CatalogStore } from './catalog/catalog-store.js';
import { ConfigProviders } from './catalog/config-providers.js';
import { ProviderKeyEntity } from './catalog/entities/provider-key.entity.js';
import { ProviderEntity } from './catalog/entities/provider.entity.js';
import { ModelListingService } from './catalog/model-listing.service.js';
import { ModelsController } from './catalog/models.controller.js';
import { ProviderCatalog } from './catalog/provider-catalog.service.js';
import { ProviderKeysController } from './catalog/provider-keys.controller.js';
import { ProviderKeysService } from './catalog/provider-keys.service.js';
import { ProvidersController } from './catalog/providers.controller.js';
import { ProvidersService } from './catalog/providers.service.js';
import { InferenceMetrics } from './inference-metrics.js';
import { RequestLogContentEntity } from './logs/entities/request-log-content.entity.js';
import { RequestLogEntity } from './logs/entities/request-log.entity.js';
import { LogsController } from './logs/logs.controller.js';
import { RequestLogQuery } from './logs/request-log.query.js';
import { RequestLogRecorder } from './logs/request-log.recorder.js';
import { RequestLogStore } from './logs/request-log.store.js';
import { PriceRefreshService } from './pricing/price-refresh.service.js';
import { PriceTable } from './pricing/price-table.js';
import { AnsweredRequestLimits } from './routing/answered-request-limits.js';
import { InferenceRouter } from './routing/inference-router.service.js';
import { UpstreamAttempts } from './routing/upstream-attempt.js';
import { McpToolsModule } from '../mcp/tools/mcp-tools.module.js';
import { InferenceAccess } from './v1/inference-access.js';
import { InferenceAgent } from './v1/inference-agent.js';
import { InferenceResponder } from './v1/inference-responder.js';
import { InferencePipeline } from './v1/inference-pipeline.js';
import { OutboundAdapterIo } from './providers/adapter-io.js';
import { InferenceController } from './v1/inference.controller.js';
import { AsyncJobMetrics } from './async/async-job.metrics.js';
import { AsyncJobRunner } from './async/async-job.runner.js';
import { AsyncJobsAdminController } from './async/async-jobs-admin.controller.js';
import { AsyncJobsController } from './async/async-jobs.controller.js';
import { AsyncJobsService } from './async/async-jobs.service.js';
import { NativeAsync } from './async/native-async.js';
import { AsyncJobEntity } from './async/entities/async-job.entity.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';

/**
 * The inference plane: providers and keys (catalog/), provider adapters (providers/), routing with retries and
 * fallbacks (routing/), prices (pricing/), the unified /v1 API (v1/) and its request logs (logs/).
 */
@Module({
  imports: [
    GovernanceModule,
    RoutingRulesModule,
    PricingOverridesModule,
    CircuitBreakerModule,
    McpToolsModule,
    WebhooksModule,
    TypeOrmModule.forFeature([
      ProviderEntity,
      ProviderKeyEntity,
      RequestLogEntity,
      RequestLogContentEntity,
      AsyncJobEntity,
    ]),
  ],
  controllers: [
    ProvidersController,
    ProviderKeysController,
    ModelsController,
    InferenceController,
    AsyncJobsController,
    AsyncJobsAdminController,
    LogsController,
  ],
  providers: [
    ConfigProviders,
    CatalogSealer,
    CatalogStore,
    ProviderCatalog,
    ProvidersService,
    ProviderKeysService,
    ModelListingService,
    PriceTable,
    PriceRefreshService,
    InferenceMetrics,
    InferenceAccess,
    UpstreamAttempts,
    InferenceRouter,
    AnsweredRequestLimits,
    InferenceResponder,
    InferencePipeline,
    OutboundAdapterIo,
    InferenceAgent,
    RequestLogStore,
    RequestLogRecorder,
    RequestLogQuery,
    AsyncJobsService,
    AsyncJobRunner,
    AsyncJobMetrics,
    NativeAsync,
  ],
  exports: [
    ProviderCatalog,
    PriceTable,
    InferenceMetrics,
    InferenceRouter,
    InferencePipeline,
    ModelListingService,
    InferenceAccess,
  ],
})
export class InferenceModule {}
