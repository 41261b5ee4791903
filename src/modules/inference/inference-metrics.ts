import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsService } from '../../core/metrics/metrics.service.js';
import type { Cost, Usage } from './providers/provider-adapter.js';

/** One finished inference request (after the response was sent or the stream ended), as the metrics count it. */
export interface InferenceOutcome {
  provider: string;
  /** The model as routed (`resolved_model_used`); capped to MAX_MODEL_LABELS distinct values. */
  model: string;
  /** The provider key's name (`routing_info.key`); capped to MAX_KEY_LABELS distinct values. */
  key: string;
  /** `chat`, `completions`, `responses`, `embeddings`, ... (the router's InferenceKind). */
  request_type: string;
  /** The HTTP status sent to the caller. */
  status: number;
  /** Set on failures: the error's `error_type`. */
  error_type?: string;
  latency_seconds: number;
  /** Streams: time to the first event sent. */
  ttft_seconds?: number;
  usage?: Usage;
  cost?: Cost;
}

/** Distinct label values kept per label before new ones are counted as `_other` (each value costs series). */
export const MAX_MODEL_LABELS = 500;
export const MAX_KEY_LABELS = 500;
export const OTHER_LABEL = '_other';

const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];
const TTFT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type Labels = { provider: string; model: string; key: string };
type Inc = { inc(value?: number): void };
type Observe = { observe(value: number): void };

/** The children of one (provider, model, key), so a request looks its series up once. */
interface SeriesSet {
  labels: Labels;
  requests: Map<string, Inc>;
  errors: Map<string, Inc>;
  latency: Observe;
  ttft: Observe;
  promptTokens: Inc;
  completionTokens: Inc;
  cachedReadTokens: Inc;
  reasoningTokens: Inc;
  cost: Inc;
}

/**
 * Prometheus series of the inference plane, by provider, model and key name: requests, errors by `error_type`,
 * latency and time-to-first-token, tokens by direction and cost in USD. Registered on the application's registry
 * (`GET /metrics`). Recording is a few map reads and increments.
 */
@Injectable()
export class InferenceMetrics {
  private readonly requests: Counter<'provider' | 'model' | 'key' | 'request_type' | 'status'>;
  private readonly errors: Counter<'provider' | 'model' | 'key' | 'error_type'>;
  private readonly latency: Histogram<'provider' | 'model' | 'key'>;
  private readonly ttft: Histogram<'provider' | 'model' | 'key'>;
  private readonly tokens: Counter<'provider' | 'model' | 'key' | 'direction'>;
  private readonly costUsd: Counter<'provider' | 'model' | 'key'>;

  private readonly models = new LabelCap(MAX_MODEL_LABELS);
  private readonly keys = new LabelCap(MAX_KEY_LABELS);
  private readonly series = new Map<string, SeriesSet>();

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.requests = new Counter({
      name: 'gateway_inference_requests_total',
      help: 'Finished inference requests by provider, model, key name, request type and status',
      labelNames: ['provider', 'model', 'key', 'request_type', 'status'] as const,
      registers,
    });
    this.errors = new Counter({
      name: 'gateway_inference_errors_total',
      help: 'Failed inference requests by provider, model, key name and error_type',
      labelNames: ['provider', 'model', 'key', 'error_type'] as const,
      registers,
    });
    this.latency = new Histogram({
      name: 'gateway_inference_latency_seconds',
      help: 'Inference request latency, to the last byte sent, by provider, model and key name',
      labelNames: ['provider', 'model', 'key'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.ttft = new Histogram({
      name: 'gateway_inference_ttft_seconds',
      help: 'Time to the first streamed event by provider, model and key name',
      labelNames: ['provider', 'model', 'key'] as const,
      buckets: TTFT_BUCKETS,
      registers,
    });
    this.tokens = new Counter({
      name: 'gateway_inference_tokens_total',
      help: 'Tokens by provider, model, key name and direction (prompt, completion, cached_read, reasoning)',
      labelNames: ['provider', 'model', 'key', 'direction'] as const,
      registers,
    });
    this.costUsd = new Counter({
      name: 'gateway_inference_cost_usd_total',
      help: 'Cost in USD of inference requests by provider, model and key name (requests with a known cost)',
      labelNames: ['provider', 'model', 'key'] as const,
      registers,
    });
  }

  /** Called once per finished request. */
  record(o: InferenceOutcome): void {
    const s = this.seriesOf(o.provider, this.models.label(o.model), this.keys.label(o.key));
    const requestKey = `${o.request_type}\n${o.status}`;
    let requests = s.requests.get(requestKey);
    if (!requests) {
      requests = this.requests.labels({ ...s.labels, request_type: o.request_type, status: String(o.status) });
      s.requests.set(requestKey, requests);
    }
    requests.inc();
    if (o.error_type) {
      let errors = s.errors.get(o.error_type);
      if (!errors) {
        errors = this.errors.labels({ ...s.labels, error_type: o.error_type });
        s.errors.set(o.error_type, errors);
      }
      errors.inc();
    }
    if (isCount(o.latency_seconds)) s.latency.observe(o.latency_seconds);
    if (isCount(o.ttft_seconds)) s.ttft.observe(o.ttft_seconds);

    const usage = o.usage;
    if (usage) {
      addCount(s.promptTokens, usage.prompt_tokens);
      addCount(s.completionTokens, usage.completion_tokens);
      addCount(s.cachedReadTokens, usage.prompt_tokens_details?.cached_read_tokens);
      addCount(s.reasoningTokens, usage.completion_tokens_details?.reasoning_tokens);
    }
    addCount(s.cost, o.cost?.total_cost);
  }

  private seriesOf(provider: string, model: string, key: string): SeriesSet {
    const id = `${provider}\n${model}\n${key}`;
    let s = this.series.get(id);
    if (!s) {
      const labels: Labels = { provider, model, key };
      s = {
        labels,
        requests: new Map(),
        errors: new Map(),
        latency: this.latency.labels(labels),
        ttft: this.ttft.labels(labels),
        promptTokens: this.tokens.labels({ ...labels, direction: 'prompt' }),
        completionTokens: this.tokens.labels({ ...labels, direction: 'completion' }),
        cachedReadTokens: this.tokens.labels({ ...labels, direction: 'cached_read' }),
        reasoningTokens: this.tokens.labels({ ...labels, direction: 'reasoning' }),
        cost: this.costUsd.labels(labels),
      };
      this.series.set(id, s);
    }
    return s;
  }
}

/** Keeps the first `limit` distinct values of a label; later ones become `_other`. */
class LabelCap {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  label(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.limit) return OTHER_LABEL;
    this.seen.add(value);
    return value;
  }
}

function isCount(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Counters only go up: absent, negative or non-finite amounts add nothing (and a zero creates no series). */
function addCount(counter: Inc, value: number | undefined): void {
  if (isCount(value) && value > 0) counter.inc(value);
}
