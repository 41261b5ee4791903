import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsService } from '../../src/core/metrics/metrics.service.js';
import {
  InferenceMetrics,
  MAX_MODEL_LABELS,
  MAX_VIRTUAL_KEY_LABELS,
  OTHER_LABEL,
  type InferenceOutcome,
} from '../../src/modules/inference/telemetry/inference-metrics.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { samples } from '../helpers/prometheus-samples.js';

/** The value of the one sample whose labels include `labels`; undefined when there is none. */
function value(text: string, name: string, labels: Record<string, string>): number | undefined {
  const hits = samples(text, name).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(hits.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return hits[0]?.value;
}

const SERIES = { provider: 'openai', model: 'gpt-4o', key: 'primary' };

function chat(extra: Partial<InferenceOutcome> = {}): InferenceOutcome {
  return { ...SERIES, request_type: 'chat', status: 200, latency_seconds: 0.42, ...extra };
}

describe('inference metrics', () => {
  it('counts requests, errors, latency, time to first token, tokens by direction and cost', async () => {
    const metrics = new MetricsService();
    const inference = new InferenceMetrics(metrics);
    inference.record(
      chat({
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 500,
          total_tokens: 1500,
          prompt_tokens_details: { cached_read_tokens: 200 },
          completion_tokens_details: { reasoning_tokens: 120 },
        },
        cost: { input_tokens_cost: 0.00225, output_tokens_cost: 0.005, total_cost: 0.00725 },
      }),
    );
    inference.record(
      chat({
        latency_seconds: 3,
        ttft_seconds: 0.2,
        usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
        cost: { total_cost: 0.00025 },
      }),
    );
    inference.record(chat({ status: 429, error_type: 'provider_rate_limited', latency_seconds: 0.03 }));
    inference.record(
      chat({
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        key: 'team-b',
        request_type: 'responses',
        status: 503,
      }),
    );
    const text = await metrics.render();

    expect(value(text, 'gateway_inference_requests_total', { ...SERIES, request_type: 'chat', status: '200' })).toBe(2);
    expect(value(text, 'gateway_inference_requests_total', { ...SERIES, request_type: 'chat', status: '429' })).toBe(1);
    expect(
      value(text, 'gateway_inference_requests_total', {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        key: 'team-b',
        request_type: 'responses',
        status: '503',
      }),
    ).toBe(1);
    expect(samples(text, 'gateway_inference_errors_total')).toEqual([
      { labels: { ...SERIES, virtual_key: '', error_type: 'provider_rate_limited' }, value: 1 },
    ]);

    expect(value(text, 'gateway_inference_latency_seconds_count', SERIES)).toBe(3);
    expect(value(text, 'gateway_inference_latency_seconds_sum', SERIES)).toBeCloseTo(3.45, 12);
    expect(value(text, 'gateway_inference_latency_seconds_bucket', { ...SERIES, le: '0.05' })).toBe(1);
    expect(value(text, 'gateway_inference_latency_seconds_bucket', { ...SERIES, le: '0.5' })).toBe(2);
    expect(value(text, 'gateway_inference_latency_seconds_bucket', { ...SERIES, le: '5' })).toBe(3);
    // Only the stream had a first token.
    expect(value(text, 'gateway_inference_ttft_seconds_count', SERIES)).toBe(1);
    expect(value(text, 'gateway_inference_ttft_seconds_bucket', { ...SERIES, le: '0.1' })).toBe(0);
    expect(value(text, 'gateway_inference_ttft_seconds_bucket', { ...SERIES, le: '0.25' })).toBe(1);

    const tokens = (direction: string) => value(text, 'gateway_inference_tokens_total', { ...SERIES, direction });
    expect([tokens('prompt'), tokens('completion'), tokens('cached_read'), tokens('reasoning')]).toEqual([
      1010, 520, 200, 120,
    ]);
    expect(value(text, 'gateway_inference_cost_usd_total', SERIES)).toBeCloseTo(0.0075, 12);
    // No usage, no cost: no token or cost series for that request's labels (an unknown cost is not a 0 cost).
    expect(samples(text, 'gateway_inference_tokens_total').filter((s) => s.labels.provider === 'anthropic')).toEqual(
      [],
    );
    expect(samples(text, 'gateway_inference_cost_usd_total').map((s) => s.labels.provider)).toEqual(['openai']);
  });

  it(`keeps model label values bounded: beyond ${MAX_MODEL_LABELS} distinct ones, ${OTHER_LABEL}`, async () => {
    const metrics = new MetricsService();
    const inference = new InferenceMetrics(metrics);
    for (let i = 0; i < MAX_MODEL_LABELS + 25; i++) inference.record(chat({ model: `model-${i}` }));
    // A model seen before the cap keeps its own label.
    inference.record(chat({ model: 'model-7' }));
    const requests = samples(await metrics.render(), 'gateway_inference_requests_total');
    expect(new Set(requests.map((s) => s.labels.model)).size).toBe(MAX_MODEL_LABELS + 1);
    expect(requests.find((s) => s.labels.model === OTHER_LABEL)?.value).toBe(25);
    expect(requests.find((s) => s.labels.model === 'model-7')?.value).toBe(2);
    expect(requests.some((s) => s.labels.model === `model-${MAX_MODEL_LABELS}`)).toBe(false);
  });

  it('labels by virtual key and error_type, and counts retries and requests served by a fallback', async () => {
    const metrics = new MetricsService();
    const inference = new InferenceMetrics(metrics);
    inference.record(chat({ virtual_key: 'team-a', retries: 2 }));
    inference.record(chat({ virtual_key: 'team-a', retries: 1, fallback_index: 1 }));
    inference.record(chat({ virtual_key: 'team-b', status: 503, error_type: 'provider_overloaded', retries: 2 }));
    inference.record(chat({ latency_seconds: 1 }));
    const text = await metrics.render();
    const a = { ...SERIES, virtual_key: 'team-a' };
    const b = { ...SERIES, virtual_key: 'team-b' };

    expect(value(text, 'gateway_inference_requests_total', { ...a, status: '200', error_type: '' })).toBe(2);
    expect(
      value(text, 'gateway_inference_requests_total', { ...b, status: '503', error_type: 'provider_overloaded' }),
    ).toBe(1);
    expect(value(text, 'gateway_inference_requests_total', { ...SERIES, virtual_key: '', status: '200' })).toBe(1);
    expect(value(text, 'gateway_inference_errors_total', { ...b, error_type: 'provider_overloaded' })).toBe(1);
    expect(value(text, 'gateway_inference_retries_total', a)).toBe(3);
    expect(value(text, 'gateway_inference_retries_total', b)).toBe(2);
    // Requests without retries add no sample.
    expect(value(text, 'gateway_inference_retries_total', { ...SERIES, virtual_key: '' })).toBeUndefined();
    expect(samples(text, 'gateway_inference_fallbacks_total')).toEqual([{ labels: a, value: 1 }]);
    // Histograms stay by provider, model and key: one series for all four requests.
    expect(samples(text, 'gateway_inference_latency_seconds_count')).toEqual([{ labels: SERIES, value: 4 }]);
  });

  it(`keeps virtual key label values bounded: beyond ${MAX_VIRTUAL_KEY_LABELS} distinct ones, ${OTHER_LABEL}`, async () => {
    const metrics = new MetricsService();
    const inference = new InferenceMetrics(metrics);
    for (let i = 0; i < MAX_VIRTUAL_KEY_LABELS + 3; i++) inference.record(chat({ virtual_key: `vk-${i}` }));
    const requests = samples(await metrics.render(), 'gateway_inference_requests_total');
    expect(new Set(requests.map((s) => s.labels.virtual_key)).size).toBe(MAX_VIRTUAL_KEY_LABELS + 1);
    expect(requests.find((s) => s.labels.virtual_key === OTHER_LABEL)?.value).toBe(3);
  });

  it('ignores amounts a counter or histogram cannot take instead of throwing', async () => {
    const metrics = new MetricsService();
    const inference = new InferenceMetrics(metrics);
    inference.record(
      chat({
        latency_seconds: Number.NaN,
        ttft_seconds: -1,
        usage: { prompt_tokens: -5, completion_tokens: Number.POSITIVE_INFINITY, total_tokens: 0 },
        cost: { total_cost: -0.5 },
      }),
    );
    const text = await metrics.render();
    expect(value(text, 'gateway_inference_requests_total', { ...SERIES, status: '200' })).toBe(1);
    expect(samples(text, 'gateway_inference_latency_seconds_count')).toEqual([]);
    expect(samples(text, 'gateway_inference_ttft_seconds_count')).toEqual([]);
    expect(samples(text, 'gateway_inference_tokens_total')).toEqual([]);
    expect(samples(text, 'gateway_inference_cost_usd_total')).toEqual([]);
  });
});

describe(`inference metrics on GET /metrics (${RUN_MODE})`, () => {
  const SETUP_TOKEN = 'setup-token-123456';
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('records through the module’s InferenceMetrics onto the application registry', async () => {
    gw.app.get(InferenceMetrics).record(
      chat({
        key: 'from-app',
        usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
        cost: { total_cost: 0.5 },
      }),
    );
    const res = await gw.http.get('/metrics', { headers: { 'X-Gateway-Setup-Token': SETUP_TOKEN } });
    expect(res.status).toBe(200);
    const labels = { ...SERIES, key: 'from-app' };
    expect(value(res.text, 'gateway_inference_requests_total', { ...labels, status: '200' })).toBe(1);
    expect(value(res.text, 'gateway_inference_tokens_total', { ...labels, direction: 'prompt' })).toBe(7);
    expect(value(res.text, 'gateway_inference_cost_usd_total', labels)).toBe(0.5);
  });
});
