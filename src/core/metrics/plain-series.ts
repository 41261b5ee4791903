import type { Registry } from 'prom-client';

/**
 * Counters and histograms for per-request paths, registered on a prom-client registry. A prom-client child still
 * hashes its label set on every `inc`/`observe`; these keep each series as plain numbers behind a caller-held handle,
 * so recording is an addition (and a bucket scan), and the labels are only formatted at scrape time.
 */

type LabelValues = Record<string, string>;

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** What a prom-client registry reads from a registered metric (`registerMetric`, `metrics()`, `resetMetrics()`). */
interface RegistryMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): { name: string; help: string; type: string; values: MetricValue[]; aggregator: 'sum' };
  reset(): void;
}

/** One counter series: `inc` adds (amounts that are not finite and positive add nothing: counters only go up). */
export class CounterSeries {
  value = 0;

  constructor(readonly labels: LabelValues) {}

  inc(amount = 1): void {
    if (amount > 0 && Number.isFinite(amount)) this.value += amount;
  }
}

/** One histogram series: per-bucket counts (not cumulative until scraped), sum and count. */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: LabelValues,
    private readonly upperBounds: readonly number[],
  ) {
    this.counts = new Float64Array(upperBounds.length);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]! += 1;
        break;
      }
    }
    this.sum += value;
    this.count += 1;
  }
}

abstract class PlainMetric<S extends { labels: LabelValues }> implements RegistryMetric {
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum' as const;
  protected readonly series = new Map<string, S>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /**
   * The series of these label values, created on first use. `id` identifies the label values (the caller's own key,
   * e.g. the values joined by a character that cannot occur in them); keep the returned handle to skip the lookup.
   */
  seriesFor(id: string, labels: LabelValues): S {
    let series = this.series.get(id);
    if (!series) {
      series = this.create({ ...labels });
      this.series.set(id, series);
    }
    return series;
  }

  /** Zeroes every series (handles held by callers stay valid). */
  reset(): void {
    for (const series of this.series.values()) this.zero(series);
  }

  get(): { name: string; help: string; type: string; values: MetricValue[]; aggregator: 'sum' } {
    const values: MetricValue[] = [];
    // A series nothing was recorded in yet is not shown (as with prom-client, whose series appear on first use).
    for (const series of this.series.values()) if (this.recorded(series)) this.export(series, values);
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  protected abstract create(labels: LabelValues): S;
  protected abstract zero(series: S): void;
  protected abstract recorded(series: S): boolean;
  protected abstract export(series: S, into: MetricValue[]): void;
}

export class PlainCounter extends PlainMetric<CounterSeries> {
  readonly type = 'counter' as const;

  protected create(labels: LabelValues): CounterSeries {
    return new CounterSeries(labels);
  }

  protected recorded(series: CounterSeries): boolean {
    return series.value > 0;
  }

  protected zero(series: CounterSeries): void {
    series.value = 0;
  }

  protected export(series: CounterSeries, into: MetricValue[]): void {
    into.push({ value: series.value, labels: series.labels });
  }
}

export class PlainHistogram extends PlainMetric<HistogramSeries> {
  readonly type = 'histogram' as const;
  private readonly upperBounds: readonly number[];

  constructor(name: string, help: string, registry: Registry, buckets: readonly number[]) {
    super(name, help, registry);
    this.upperBounds = [...buckets].sort((a, b) => a - b);
  }

  protected create(labels: LabelValues): HistogramSeries {
    return new HistogramSeries(labels, this.upperBounds);
  }

  protected recorded(series: HistogramSeries): boolean {
    return series.count > 0;
  }

  protected zero(series: HistogramSeries): void {
    series.counts.fill(0);
    series.sum = 0;
    series.count = 0;
  }

  protected export(series: HistogramSeries, into: MetricValue[]): void {
    let cumulative = 0;
    for (let i = 0; i < this.upperBounds.length; i++) {
      cumulative += series.counts[i]!;
      into.push({
        value: cumulative,
        labels: { ...series.labels, le: this.upperBounds[i]! },
        metricName: `${this.name}_bucket`,
      });
    }
    into.push({ value: series.count, labels: { ...series.labels, le: '+Inf' }, metricName: `${this.name}_bucket` });
    into.push({ value: series.sum, labels: series.labels, metricName: `${this.name}_sum` });
    into.push({ value: series.count, labels: series.labels, metricName: `${this.name}_count` });
  }
}
