import { Injectable } from '@nestjs/common';
import { MetricsService } from '../../../core/metrics/metrics.service.js';
import { CounterSeries, HistogramSeries, PlainCounter, PlainHistogram } from '../../../core/metrics/plain-series.js';
import type { Cost, Usage } from '../providers/shared/provider-adapter.js';

/** One finished inference request (after the response was sent or the stream ended), as the metrics count it. */
export interface InferenceOutcome {
  provider: string;
  /** The model as routed (`resolved_model_used`); capped to MAX_MODEL_LABELS distinct values. */
  model: string;
  /** The provider key's name (`routing_info.key`); capped to MAX_KEY_LABELS distinct values. */
  key: string;
  /** The virtual key's name, empty without one; capped to MAX_VIRTUAL_KEY_LABELS distinct values. */
  virtual_key?: string;
  /** `chat`, `completions`, `responses`, `embeddings`, ... (the router's InferenceKind). */
  request_type: string;
  /** The HTTP status sent to the caller. */
  status: number;
  /** Set on failures: the error's `error_type`. */
  error_type?: string;
  /** Retries (backoff waits) the request made, over every model tried. */
  retries?: number;
  /** 0 when the primary model served (or nothing did), else the 1-based index of the fallback that served. */
  fallback_index?: number;
  latency_seconds: number;
  /** Streams: time to the first event sent. */
  ttft_seconds?: number;
  usage?: Usage;
  cost?: Cost;
}

/** Distinct label values kept per label before new ones are counted as `_other` (each value costs series). */
export const MAX_MODEL_LABELS = 500;
export const MAX_KEY_LABELS = 500;
export const MAX_VIRTUAL_KEY_LABELS = 500;
export const OTHER_LABEL = '_other';

const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];
const TTFT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type Labels = { provider: string; model: string; key: string; virtual_key: string };

/** The series of one (provider, model, key, virtual key), so a request looks them up once. */
interface SeriesSet {
  id: string;
  labels: Labels;
  requests: Map<string, CounterSeries>;
  errors: Map<string, CounterSeries>;
  latency: HistogramSeries;
  ttft: HistogramSeries;
  promptTokens: CounterSeries;
  completionTokens: CounterSeries;
  cachedReadTokens: CounterSeries;
  reasoningTokens: CounterSeries;
  cost: CounterSeries;
  retries: CounterSeries;
  fallbacks: CounterSeries;
}

/**
 * Prometheus series of the inference plane, by provider, model, key name and virtual key name: requests (by request
 * type, status and `error_type`), errors by `error_type`, latency and time-to-first-token, tokens by direction, cost
 * in USD, retries and requests served by a fallback. Registered on the application's registry (`GET /metrics`).
 * Recording is a map read and a few additions.
 */
@Injectable()
export class InferenceMetrics {
  private readonly requests: PlainCounter;
  private readonly errors: PlainCounter;
  private readonly latency: PlainHistogram;
  private readonly ttft: PlainHistogram;
  private readonly tokens: PlainCounter;
  private readonly costUsd: PlainCounter;
  private readonly retries: PlainCounter;
  private readonly fallbacks: PlainCounter;

  private readonly models = new LabelCap(MAX_MODEL_LABELS);
  private readonly keys = new LabelCap(MAX_KEY_LABELS);
  private readonly virtualKeys = new LabelCap(MAX_VIRTUAL_KEY_LABELS);
  private readonly series = new Map<string, SeriesSet>();

  constructor(metrics: MetricsService) {
    const registry = metrics.registry;
    this.requests = new PlainCounter(
      'gateway_inference_requests_total',
      'Finished inference requests by provider, model, key name, virtual key, request type, status and error_type',
      registry,
    );
    this.errors = new PlainCounter(
      'gateway_inference_errors_total',
      'Failed inference requests by provider, model, key name, virtual key and error_type',
      registry,
    );
    this.latency = new PlainHistogram(
      'gateway_inference_latency_seconds',
      'Inference request latency, to the last byte sent, by provider, model and key name (not by virtual key)',
      registry,
      LATENCY_BUCKETS,
    );
    this.ttft = new PlainHistogram(
      'gateway_inference_ttft_seconds',
      'Time to the first streamed event by provider, model and key name',
      registry,
      TTFT_BUCKETS,
    );
    this.tokens = new PlainCounter(
      'gateway_inference_tokens_total',
      'Tokens by provider, model, key name and direction (prompt, completion, cached_read, reasoning)',
      registry,
    );
    this.costUsd = new PlainCounter(
      'gateway_inference_cost_usd_total',
      'Cost in USD of inference requests by provider, model and key name (requests with a known cost)',
      registry,
    );
    this.retries = new PlainCounter(
      'gateway_inference_retries_total',
      'Retries of upstream calls (after a backoff) by provider, model, key name and virtual key of the finished request',
      registry,
    );
    this.fallbacks = new PlainCounter(
      'gateway_inference_fallbacks_total',
      'Inference requests served by a fallback model, by the provider, model and key name that served and virtual key',
      registry,
    );
  }

  /** Called once per finished request. */
  record(o: InferenceOutcome): void {
    const virtualKey = o.virtual_key ? this.virtualKeys.label(o.virtual_key) : '';
    const s = this.seriesOf(o.provider, this.models.label(o.model), this.keys.label(o.key), virtualKey);
    const requestKey = `${o.request_type}\n${o.status}\n${o.error_type ?? ''}`;
    let requests = s.requests.get(requestKey);
    if (!requests) {
      requests = this.requests.seriesFor(`${s.id}\n${requestKey}`, {
        ...s.labels,
        request_type: o.request_type,
        status: String(o.status),
        error_type: o.error_type ?? '',
      });
      s.requests.set(requestKey, requests);
    }
    requests.inc();
    if (o.error_type) {
      let errors = s.errors.get(o.error_type);
      if (!errors) {
        errors = this.errors.seriesFor(`${s.id}\n${o.error_type}`, { ...s.labels, error_type: o.error_type });
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
    addCount(s.retries, o.retries);
    if (o.fallback_index !== undefined && o.fallback_index > 0) s.fallbacks.inc();
  }

  private seriesOf(provider: string, model: string, key: string, virtualKey: string): SeriesSet {
    const id = `${provider}\n${model}\n${key}\n${virtualKey}`;
    let s = this.series.get(id);
    if (!s) {
      const labels: Labels = { provider, model, key, virtual_key: virtualKey };
      // Histograms stay by provider, model and key: a virtual key would multiply their bucket series.
      const histogramId = `${provider}\n${model}\n${key}`;
      const histogramLabels = { provider, model, key };
      const direction = (d: string) => this.tokens.seriesFor(`${id}\n${d}`, { ...labels, direction: d });
      s = {
        id,
        labels,
        requests: new Map(),
        errors: new Map(),
        latency: this.latency.seriesFor(histogramId, histogramLabels),
        ttft: this.ttft.seriesFor(histogramId, histogramLabels),
        promptTokens: direction('prompt'),
        completionTokens: direction('completion'),
        cachedReadTokens: direction('cached_read'),
        reasoningTokens: direction('reasoning'),
        cost: this.costUsd.seriesFor(id, labels),
        retries: this.retries.seriesFor(id, labels),
        fallbacks: this.fallbacks.seriesFor(id, labels),
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

/** Counters only go up: absent, negative or non-finite amounts add nothing. */
function addCount(counter: CounterSeries, value: number | undefined): void {
  if (isCount(value) && value > 0) counter.inc(value);
}
