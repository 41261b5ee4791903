import { Global, Module } from '@nestjs/common';
import { HealthController } from './health/health.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { MetricsService } from './metrics/metrics.service.js';
import { OutboundModule } from './outbound/outbound.module.js';
import { SseStreamTracker } from './http/sse-relay.js';

/** Base routes and what every module may use: metrics, the SSE stream tracker, the outbound client and upstream auth. */
@Global()
@Module({
  controllers: [HealthController, MetricsController],
  imports: [OutboundModule],
  providers: [MetricsService, SseStreamTracker],
  exports: [MetricsService, SseStreamTracker, OutboundModule],
})
export class CoreModule {}
