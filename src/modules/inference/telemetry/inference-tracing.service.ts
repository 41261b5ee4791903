import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import {
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from '../../../core/tracing/semantic-attributes.js';
import type { Logger } from 'pino';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import { startTracerProvider } from '../../../core/tracing/tracer-provider.js';
import { PluginRegistry } from '../../plugins/index.js';

/** How a span ended. */
export interface SpanOutcome {
  /** The HTTP status: the caller's on a request span, the provider's on an attempt span (0 or absent: no answer). */
  status?: number;
  /** Set when the operation failed: a low-cardinality class of the failure (the gateway's `error_type`). */
  errorType?: string;
  /** Attributes known only at the end (usage, response model, ...). Values must be defined. */
  attributes?: Attributes;
}

function endSpan(span: Span, outcome: SpanOutcome): void {
  if (outcome.attributes) span.setAttributes(outcome.attributes);
  if (outcome.status) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.status);
  if (outcome.errorType !== undefined) {
    span.setAttribute(ATTR_ERROR_TYPE, outcome.errorType);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** One upstream attempt (a CLIENT span, child of its request's span). */
export class AttemptTrace {
  private ended = false;

  constructor(private readonly span: Span) {}

  end(outcome: SpanOutcome): void {
    if (this.ended) return;
    this.ended = true;
    endSpan(this.span, outcome);
  }
}

/** One inference request (a SERVER span whose parent is the caller's `traceparent`, when it sent a valid one). */
export class RequestTrace {
  private ended = false;
  private readonly context: Context;
  /** Attempts started so far (each retry, key rotation and fallback is one). */
  attempts = 0;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
  ) {
    this.context = trace.setSpan(ROOT_CONTEXT, span);
  }

  /** The W3C trace id of this request (32 hex digits). */
  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  attempt(name: string, attributes: Attributes): AttemptTrace {
    this.attempts++;
    return new AttemptTrace(this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, this.context));
  }

  /** Ends the span once; later calls do nothing. */
  end(outcome: SpanOutcome): void {
    if (this.ended) return;
    this.ended = true;
    endSpan(this.span, outcome);
  }
}

/**
 * Traces of the inference plane, exported over OTLP/HTTP when `otel.endpoint` is set. The tracer provider is this
 * service's own (never registered globally, no auto-instrumentation) with a batch span processor, flushed and shut
 * down with the application. Without an endpoint nothing is loaded or created: `startRequest` answers undefined
 * after one null check, and callers skip every other step on that undefined.
 */
@Injectable()
export class InferenceTracing implements OnModuleInit, OnApplicationShutdown {
  private provider: TracerProvider | undefined;
  private tracer: Tracer | undefined;
  private propagator: TextMapPropagator | undefined;

  constructor(
    private readonly config: GatewayConfig,
    private readonly secrets: SecretsService,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly plugins: PluginRegistry,
  ) {}

  /**
   * Whether spans are recorded: an endpoint is configured, the exporter started, and the `telemetry` plugin is not
   * switched off (`/api/plugins/telemetry`).
   */
  get enabled(): boolean {
    return this.tracer !== undefined && !this.plugins.switchedOff('telemetry');
  }

  async onModuleInit(): Promise<void> {
    const otel = this.config.otel;
    if (!otel.endpoint) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(otel.headers ?? {})) {
      headers[name] = await this.secrets.resolveConfigSecret(value);
    }
    const started = await startTracerProvider(otel, headers, this.logger.child({ context: 'otel' }));
    this.provider = started.provider;
    this.propagator = started.propagator;
    this.tracer = started.provider.getTracer('ai-gateway');
    this.logger.info({ endpoint: otel.endpoint, service_name: otel.service_name }, 'otel: exporting traces');
  }

  /** Exports what is buffered and stops the exporter (after the HTTP server closed, so every request span ended). */
  async onApplicationShutdown(): Promise<void> {
    const provider = this.provider;
    if (!provider) return;
    this.provider = undefined;
    this.tracer = undefined;
    try {
      await provider.shutdown();
    } catch (err) {
      this.logger.warn({ err }, 'otel: the last export failed');
    }
  }

  /**
   * Starts a request's span, continuing the caller's W3C trace context (`traceparent`, `tracestate`); an absent or
   * invalid `traceparent` starts a new trace. Undefined when tracing is off.
   */
  startRequest(headers: IncomingHttpHeaders, name: string, attributes: Attributes): RequestTrace | undefined {
    const tracer = this.tracer;
    if (tracer === undefined || this.plugins.switchedOff('telemetry')) return undefined;
    const parent = this.propagator!.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    return new RequestTrace(tracer, tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent));
  }
}
