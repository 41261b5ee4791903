import type { TextMapPropagator } from '@opentelemetry/api';
import type { ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';
import { parseDuration } from '../config/duration.js';
import type { OtelConfig } from '../config/gateway-config.js';
import { APP_VERSION } from '../version.js';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from './semantic-attributes.js';

/** Failed exports are logged at most this often (a collector that is down would otherwise log every batch). */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/** The OTLP/HTTP traces URL of a collector's base URL (`http://collector:4318` → `http://collector:4318/v1/traces`). */
export function tracesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (!url.pathname.endsWith('/v1/traces')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url.toString();
}

/** Passes batches to the exporter and logs failed exports (the SDK's own diagnostics are off: no global logger). */
class LoggedExporter implements SpanExporter {
  private lastLogAt = 0;
  private failedSpans = 0;

  constructor(
    private readonly inner: SpanExporter,
    private readonly logger: Logger,
    private readonly success: ExportResultCode,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== this.success) this.failed(spans.length, result.error);
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }

  private failed(spans: number, error: Error | undefined): void {
    this.failedSpans += spans;
    const now = Date.now();
    if (now - this.lastLogAt < FAILURE_LOG_INTERVAL_MS) return;
    this.lastLogAt = now;
    this.logger.warn({ lost_spans: this.failedSpans, reason: error?.message }, 'otel: span export failed');
    this.failedSpans = 0;
  }
}

/**
 * The SDK pieces, loaded only when tracing is on: a private tracer provider (never registered as the global one)
 * exporting through a batch span processor, and the W3C trace-context propagator.
 */
export async function startTracerProvider(
  otel: OtelConfig,
  headers: Record<string, string>,
  logger: Logger,
): Promise<{ provider: TracerProvider; propagator: TextMapPropagator }> {
  const [sdk, exporterModule, resources, core] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
  ]);
  const exportTimeout = parseDuration(otel.export_timeout)!;
  const exporter = new exporterModule.OTLPTraceExporter({
    url: tracesUrl(otel.endpoint!),
    headers,
    timeoutMillis: exportTimeout,
  });
  const maxQueueSize = otel.max_queue_size;
  const processor = new sdk.BatchSpanProcessor({
    exporter: new LoggedExporter(exporter, logger, core.ExportResultCode.SUCCESS),
    maxQueueSize,
    maxExportBatchSize: Math.min(512, maxQueueSize),
    scheduledDelayMillis: parseDuration(otel.export_interval)!,
    exportTimeoutMillis: exportTimeout,
  });
  const resource = resources
    .defaultResource()
    .merge(
      resources.resourceFromAttributes({ [ATTR_SERVICE_NAME]: otel.service_name, [ATTR_SERVICE_VERSION]: APP_VERSION }),
    );
  const provider = new sdk.TracerProvider({ resource, spanProcessors: [processor] });
  return { provider, propagator: new core.W3CTraceContextPropagator() };
}
