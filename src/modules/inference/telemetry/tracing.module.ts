import { Global, Module } from '@nestjs/common';
import { InferenceTracing } from './inference-tracing.service.js';

/** OpenTelemetry traces (InferenceTracing), off unless `otel.endpoint` is set. */
@Global()
@Module({
  providers: [InferenceTracing],
  exports: [InferenceTracing],
})
export class InferenceTracingModule {}
