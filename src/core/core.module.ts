import { Global, Module } from '@nestjs/common';
import { AppendLogLifecycleModule } from './append-log/append-log.lifecycle.js';
import { AppendLogWriter } from './append-log/append-log.writer.js';
import { HealthController } from './health/health.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { MetricsService } from './metrics/metrics.service.js';

/** Base routes and services every module may use. */
@Global()
@Module({
  imports: [AppendLogLifecycleModule],
  controllers: [HealthController, MetricsController],
  providers: [MetricsService, AppendLogWriter],
  exports: [MetricsService, AppendLogWriter],
})
export class CoreModule {}
