import { Global, Module } from '@nestjs/common';
import { AppendLogLifecycleModule } from './append-log/append-log.lifecycle.js';
import { AppendLogWriter } from './append-log/append-log.writer.js';
import { DashboardBuild } from './dashboard/dashboard-build.js';
import { HealthController } from './health/health.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { MetricsService } from './metrics/metrics.service.js';
import { RootRedirectController } from './health/root-redirect.controller.js';
import { OutboundModule } from './outbound/outbound.module.js';
import { SseStreamTracker } from './http/sse/sse-writer.js';

/**
 * Base routes and what every module may use: metrics, the append-log writer, the SSE stream tracker, the outbound
 * client and upstream auth; the built dashboard (`/`, `/ui/`).
 */
@Global()
@Module({
  imports: [OutboundModule, AppendLogLifecycleModule],
  controllers: [HealthController, MetricsController, RootRedirectController],
  providers: [MetricsService, SseStreamTracker, AppendLogWriter, DashboardBuild],
  exports: [MetricsService, SseStreamTracker, OutboundModule, AppendLogWriter],
})
export class CoreModule {}
