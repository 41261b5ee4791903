import { Global, Module } from '@nestjs/common';
import { AppendLogLifecycleModule } from './append-log/append-log.lifecycle.js';
import { AppendLogWriter } from './append-log/append-log.writer.js';
import { HealthController } from './health/health.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { MetricsService } from './metrics/metrics.service.js';
import { RootRedirectController } from './health/root-redirect.controller.js';
import { OutboundModule } from './outbound/outbound.module.js';
import { SseStreamTracker } from './http/sse-relay.js';
import { PluginCoreModule } from './plugins/plugin-core.module.js';
import { TracingModule } from './tracing/tracing.module.js';

/**
 * Base routes and what every module may use: metrics, traces, the append-log writer, the SSE stream tracker, the
 * outbound client and upstream auth, the plugin registry.
 */
@Global()
@Module({
  imports: [OutboundModule, AppendLogLifecycleModule, TracingModule, PluginCoreModule],
  controllers: [HealthController, MetricsController, RootRedirectController],
  providers: [MetricsService, SseStreamTracker, AppendLogWriter],
  exports: [MetricsService, SseStreamTracker, OutboundModule, AppendLogWriter, PluginCoreModule],
})
export class CoreModule {}
