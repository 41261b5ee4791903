import { Module } from '@nestjs/common';
import { CircuitBreakerModule } from '../circuit-breaker/index.js';
import { GovernanceModule, PricingOverridesModule, RoutingRulesModule } from '../governance/index.js';
import { McpToolsModule } from '../mcp/index.js';
import { AsyncJobsModule } from './async/async-jobs.module.js';
import { CatalogModule } from './catalog/catalog.module.js';
import { InferenceCompletion } from './completion/completion.js';
import { RequestLogRecorder } from './logs/request-log.recorder.js';
import { RequestLogsModule } from './logs/request-logs.module.js';
import { InferenceCost } from './pricing/cost.js';
import { PriceRefreshService } from './pricing/price-refresh.service.js';
import { AnsweredRequestLimits } from './routing/answered-request-limits.js';
import { InferenceRouter } from './routing/inference-router.service.js';
import { InferenceMetrics } from './telemetry/inference-metrics.js';
import { InferenceAgent } from './v1/inference-agent.js';
import { InferencePipeline } from './v1/inference-pipeline.js';
import { InferenceResponder } from './v1/inference-responder.js';
import { InferenceController } from './v1/inference.controller.js';

/**
 * The inference path: the unified /v1 API (v1/), routing with retries and fallbacks (routing/), prices (pricing/),
 * the completion (completion/) and its request log rows. Beside it, imported here: providers and keys
 * (`CatalogModule`, catalog/), the request logs' store and read side (`RequestLogsModule`, logs/) and async jobs
 * (`AsyncJobsModule`, async/). Provider adapters (providers/) are plain code, no Nest.
 */
@Module({
  imports: [
    GovernanceModule,
    RoutingRulesModule,
    PricingOverridesModule,
    CircuitBreakerModule,
    McpToolsModule,
    CatalogModule,
    RequestLogsModule,
    AsyncJobsModule,
  ],
  controllers: [InferenceController],
  providers: [
    PriceRefreshService,
    InferenceMetrics,
    InferenceRouter,
    AnsweredRequestLimits,
    InferenceResponder,
    InferenceCost,
    InferenceCompletion,
    InferencePipeline,
    InferenceAgent,
    RequestLogRecorder,
  ],
  exports: [CatalogModule, InferenceMetrics, InferenceRouter, InferencePipeline],
})
export class InferenceModule {}
