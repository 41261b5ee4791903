import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  calcPrice,
  findProvider,
  REMOTE_DATA_JSON_URL,
  waitForUpdate,
  type Provider,
  type ModelPrice,
} from '@pydantic/genai-prices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config/config.loader.js';
import { PROVIDER_IDS, type ProviderId } from '../../src/modules/inference/providers/provider-ids.js';
import { createLogger } from '../../src/core/logging/logger.js';
import { OutboundHttpService } from '../../src/core/outbound/outbound-http.service.js';
import { costBreakdown } from '../../src/modules/inference/pricing/cost-breakdown.js';
import { replacePriceData } from '../../src/modules/inference/pricing/price-data.js';
import { priceTarget } from '../../src/modules/inference/pricing/price-provider-ids.js';
import { prepareRates, pricePrepared } from '../../src/modules/inference/pricing/prepared-rates.js';
import { PriceRefreshService } from '../../src/modules/inference/pricing/price-refresh.service.js';
import { PriceTable } from '../../src/modules/inference/pricing/price-table.js';
import { toPriceUsage } from '../../src/modules/inference/pricing/price-usage.js';
import type { Cost, Usage } from '../../src/modules/inference/providers/shared/provider-adapter.js';
import { LogCapture } from '../helpers/log-capture.js';

const M = 1e6;
const SEVEN = [
  'input_tokens_cost',
  'output_tokens_cost',
  'reasoning_tokens_cost',
  'citation_tokens_cost',
  'search_queries_cost',
  'request_cost',
  'total_cost',
] as const;

function usage(prompt: number, completion: number, extra: Partial<Usage> = {}): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...extra };
}

/** All seven fields are numbers, and the six parts add up to the total. */
function expectComplete(cost: Cost | undefined): Required<Cost> {
  expect(cost).toBeDefined();
  for (const field of SEVEN) expect(typeof cost![field], field).toBe('number');
  const full = cost as Required<Cost>;
  const parts =
    full.input_tokens_cost +
    full.output_tokens_cost +
    full.reasoning_tokens_cost +
    full.citation_tokens_cost +
    full.search_queries_cost +
    full.request_cost;
  expect(Math.abs(parts - full.total_cost)).toBeLessThan(1e-12);
  return full;
}

function expectCost(cost: Cost | undefined, expected: Partial<Record<(typeof SEVEN)[number], number>>): void {
  const full = expectComplete(cost);
  const defaults = { reasoning_tokens_cost: 0, citation_tokens_cost: 0, search_queries_cost: 0, request_cost: 0 };
  for (const [field, value] of Object.entries({ ...defaults, ...expected })) {
    expect(full[field as keyof Cost], field).toBeCloseTo(value, 12);
  }
}

describe('price table: cost from @pydantic/genai-prices', () => {
  const table = new PriceTable();

  it('openai gpt-4o: cached reads at their own rate inside input', () => {
    // $2.50 input, $1.25 cached input, $10 output per million tokens.
    const cost = table.costOf(
      'openai',
      'gpt-4o',
      usage(1000, 500, { prompt_tokens_details: { cached_read_tokens: 200 } }),
    );
    expectCost(cost, {
      input_tokens_cost: (800 * 2.5 + 200 * 1.25) / M,
      output_tokens_cost: (500 * 10) / M,
      total_cost: 0.00725,
    });
  });

  it('totalOf is costOf’s total_cost: prepared rates, a tier, a provider-sent cost, a patch, an unknown model', () => {
    const cases: Array<[ProviderId, string, Usage]> = [
      ['openai', 'gpt-4o', usage(1000, 500, { prompt_tokens_details: { cached_read_tokens: 200 } })],
      ['anthropic', 'claude-sonnet-4-5', usage(250_000, 1000)],
      ['openrouter', 'openai/gpt-4o', { ...usage(10, 10), cost: 0.5 } as Usage],
      ['openai', 'no-such-model', usage(10, 10)],
    ];
    for (const [provider, model, used] of cases) {
      expect(table.totalOf(provider, model, used)).toBe(table.costOf(provider, model, used)?.total_cost);
    }
    const patch = { input_cost_per_token: 0.001, output_cost_per_token: 0.002 };
    expect(table.totalOf('openai', 'gpt-4o', usage(10, 10), patch)).toBeCloseTo(0.03, 12);
    expect(table.totalOf('openai', 'gpt-4o', usage(1000, 500))).toBeCloseTo((1000 * 2.5 + 500 * 10) / M, 15);
  });

  it('anthropic claude sonnet 4.5: cache write and read, then the tier above 200k input tokens', () => {
    // $3 input, $3.75 cache write, $0.30 cache read, $15 output per million; over 200k input: 6, 7.5, 0.6, 22.5.
    const small = usage(5000, 400, { prompt_tokens_details: { cached_read_tokens: 2000, cached_write_tokens: 1000 } });
    expectCost(table.costOf('anthropic', 'claude-sonnet-4-5-20250929', small), {
      input_tokens_cost: (2000 * 3 + 1000 * 3.75 + 2000 * 0.3) / M,
      output_tokens_cost: (400 * 15) / M,
      total_cost: 0.01635,
    });
    // The tier is chosen by input tokens (cache included), not input + output: 250k input prices every token higher.
    const large = usage(250_000, 1000, { prompt_tokens_details: { cached_read_tokens: 50_000 } });
    expectCost(table.costOf('anthropic', 'claude-sonnet-4-5-20250929', large), {
      input_tokens_cost: (200_000 * 6 + 50_000 * 0.6) / M,
      output_tokens_cost: (1000 * 22.5) / M,
      total_cost: 1.2525,
    });
    // Exactly at the threshold is still the base tier; output tokens never move it.
    expectCost(table.costOf('anthropic', 'claude-sonnet-4-5', usage(200_000, 150_000)), {
      input_tokens_cost: 0.6,
      output_tokens_cost: 2.25,
      total_cost: 2.85,
    });
  });

  it('dated prices follow `at`: claude sonnet 4.6 dropped its long-context tier on 2026-03-13', () => {
    const long = usage(250_000, 1000);
    expectCost(table.costOf('anthropic', 'claude-sonnet-4-6', long, new Date('2026-01-10T00:00:00Z')), {
      input_tokens_cost: 1.5,
      output_tokens_cost: 0.0225,
      total_cost: 1.5225,
    });
    expectCost(table.costOf('anthropic', 'claude-sonnet-4-6', long, new Date('2026-06-01T00:00:00Z')), {
      input_tokens_cost: 0.75,
      output_tokens_cost: 0.015,
      total_cost: 0.765,
    });
  });

  it('gemini 2.5 flash: thoughts at the output rate, audio input at its own, `models/` prefix, vertex alike', () => {
    // $0.30 input, $0.03 cached, $1.00 audio input, $0.10 cached audio, $2.50 output (thinking included).
    const u = usage(10_000, 2000, {
      prompt_tokens_details: { cached_read_tokens: 4000 },
      completion_tokens_details: { reasoning_tokens: 1500 },
    });
    const expected = {
      input_tokens_cost: (6000 * 0.3 + 4000 * 0.03) / M,
      output_tokens_cost: 0.005,
      total_cost: 0.00692,
    };
    expectCost(table.costOf('gemini', 'gemini-2.5-flash', u), expected);
    expectCost(table.costOf('gemini', 'models/gemini-2.5-flash', u), expected);
    expectCost(table.costOf('vertex', 'gemini-2.5-flash', u), expected);
    // Audio input with a cache read: cached tokens are taken as text, audio at its own rate.
    const audio = usage(1000, 0, { prompt_tokens_details: { audio_tokens: 100, cached_read_tokens: 200 } });
    expectCost(table.costOf('gemini', 'gemini-2.5-flash', audio), {
      input_tokens_cost: (700 * 0.3 + 200 * 0.03 + 100 * 1) / M,
      output_tokens_cost: 0,
      total_cost: 316 / M,
    });
  });

  it('a provider-sent cost wins: Perplexity’s object as sent, parts only get their sum as total', () => {
    const sent = { input_tokens_cost: 0.000019, output_tokens_cost: 0.0002, request_cost: 0.005, total_cost: 0.005219 };
    expect(table.costOf('perplexity', 'sonar', usage(19, 200, { cost: sent }))).toEqual(sent);
    expect(
      table.costOf('perplexity', 'sonar', usage(19, 200, { cost: { input_tokens_cost: 0.25, request_cost: 0.5 } })),
    ).toEqual({ input_tokens_cost: 0.25, request_cost: 0.5, total_cost: 0.75 });
    // Even for a model the table does not know.
    expect(table.costOf('perplexity', 'sonar-next', usage(1, 1, { cost: sent }))).toEqual(sent);
    // An empty object is no cost: the table prices it ($1/M in and out, $12 per 1000 requests).
    expectCost(table.costOf('perplexity', 'sonar', usage(19, 200, { cost: {} })), {
      input_tokens_cost: 19 / M,
      output_tokens_cost: 200 / M,
      request_cost: 0.012,
      total_cost: 0.012219,
    });
  });

  it('perplexity without a sent cost: reasoning, citations and searches each at their own rate', () => {
    // sonar-deep-research: $2 input, $8 output, $3 reasoning, $2 citation per million, $5 per 1000 searches.
    // Perplexity counts reasoning and citation tokens beside completion_tokens, and bills them.
    const u = usage(19, 7952, {
      completion_tokens_details: { reasoning_tokens: 114_608, citation_tokens: 9024, num_search_queries: 27 },
      tool_usage: { web_search: { num_requests: 27 } },
    });
    expectCost(table.costOf('perplexity', 'sonar-deep-research', u), {
      input_tokens_cost: (19 * 2) / M,
      output_tokens_cost: (7952 * 8) / M,
      reasoning_tokens_cost: (114_608 * 3) / M,
      citation_tokens_cost: (9024 * 2) / M,
      search_queries_cost: (27 * 5) / 1000,
      total_cost: 0.560526,
    });
  });

  it('openrouter: a numeric usage.cost (decoded as total_cost) wins; without it, its table', () => {
    expect(table.costOf('openrouter', 'openai/gpt-4o', usage(1000, 100, { cost: { total_cost: 0.0012 } }))).toEqual({
      total_cost: 0.0012,
    });
    expectCost(table.costOf('openrouter', 'openai/gpt-4o', usage(1000, 100)), {
      input_tokens_cost: 0.0025,
      output_tokens_cost: 0.001,
      total_cost: 0.0035,
    });
  });

  it('maps our provider ids onto the package: bedrock, xai, nebius, azure, fireworks, huggingface sub-providers', () => {
    const u = usage(1000, 1000);
    // aws Claude 3.5 Sonnet: $3 / $15.
    expect(table.costOf('bedrock', 'anthropic.claude-3-5-sonnet-20240620-v1:0', u)?.total_cost).toBeCloseTo(0.018, 12);
    // x-ai grok-4: $3 / $15.
    expect(table.costOf('xai', 'grok-4', u)?.total_cost).toBeCloseTo(0.018, 12);
    // huggingface_nebius Llama 3.3 70B: $0.25 / $0.75 (model ids compare case-insensitively).
    expect(table.costOf('nebius', 'meta-llama/Llama-3.3-70B-Instruct', u)?.total_cost).toBeCloseTo(0.001, 12);
    expect(table.costOf('huggingface', 'meta-llama/Llama-3.3-70B-Instruct:nebius', u)?.total_cost).toBeCloseTo(
      0.001,
      12,
    );
    // azure falls back to openai's models.
    expect(table.costOf('azure', 'gpt-4o', u)?.total_cost).toBeCloseTo(0.0125, 12);
    // Fireworks' table uses the account path; the short name finds it too (DeepSeek V3 0324: $0.90 / $0.90).
    expect(table.costOf('fireworks', 'accounts/fireworks/models/deepseek-v3-0324', u)?.total_cost).toBeCloseTo(
      0.0018,
      12,
    );
    expect(table.costOf('fireworks', 'deepseek-v3-0324', u)?.total_cost).toBeCloseTo(0.0018, 12);
  });

  it('every provider id we map names a provider of the package', () => {
    for (const id of PROVIDER_IDS) {
      const target = priceTarget(id, 'some-model:novita');
      if (target) expect(findProvider({ providerId: target.providerId })?.id, id).toBe(target.providerId);
    }
  });

  it('unknown model or provider, self-hosted providers: no cost (absent, never 0)', () => {
    const u = usage(1000, 1000);
    expect(table.costOf('openai', 'gpt-does-not-exist', u)).toBeUndefined();
    expect(table.costOf('openrouter', 'nobody/nothing', u)).toBeUndefined();
    for (const id of ['ollama', 'vllm', 'sgl', 'parasail', 'bedrock_mantle', 'databricks', 'zro'] as ProviderId[]) {
      expect(table.costOf(id, 'gpt-4o', u), id).toBeUndefined();
    }
    // The Hugging Face router without a `:provider` suffix picks one itself: unknown.
    expect(table.costOf('huggingface', 'meta-llama/Llama-3.3-70B-Instruct', u)).toBeUndefined();
    expect(table.costOf('huggingface', 'meta-llama/Llama-3.3-70B-Instruct:nowhere', u)).toBeUndefined();
    // Asked again (now from the lookup cache): still unknown.
    expect(table.costOf('openai', 'gpt-does-not-exist', u)).toBeUndefined();
  });

  it('a known free model costs 0 in every field', () => {
    expectCost(table.costOf('openrouter', 'agentica-org/deepcoder-14b-preview:free', usage(1000, 1000)), {
      input_tokens_cost: 0,
      output_tokens_cost: 0,
      total_cost: 0,
    });
  });

  it('clamps counts that do not fit their whole instead of failing', () => {
    // A cache read larger than the prompt, reasoning larger than the completion: priced as if they fit.
    const odd = usage(100, 10, {
      prompt_tokens_details: { cached_read_tokens: 500 },
      completion_tokens_details: { reasoning_tokens: 50 },
    });
    expectCost(table.costOf('openai', 'gpt-4o', odd), {
      input_tokens_cost: (100 * 1.25) / M,
      output_tokens_cost: (10 * 10) / M,
      total_cost: 225 / M,
    });
    expectCost(table.costOf('openai', 'gpt-4o', usage(Number.NaN, -5)), {
      input_tokens_cost: 0,
      output_tokens_cost: 0,
      total_cost: 0,
    });
  });

  it('every model of the bundled table: seven fields, parts adding up to calcPrice’s total', async () => {
    const providers = (await waitForUpdate())!;
    const full = usage(300_000, 20_000, {
      prompt_tokens_details: { cached_read_tokens: 40_000, cached_write_tokens: 10_000, audio_tokens: 3000 },
      completion_tokens_details: { reasoning_tokens: 5000, citation_tokens: 700, audio_tokens: 600 },
      tool_usage: { web_search: { num_requests: 3 } },
    });
    let priced = 0;
    const failures: string[] = [];
    for (const provider of providers) {
      for (const model of provider.models) {
        const name = provider.id === 'fireworks' ? `accounts/fireworks/models/${model.id}` : model.id;
        const priceUsage = toPriceUsage('openai', full);
        let result;
        try {
          result = calcPrice(priceUsage, name, { provider: { ...provider, models: [model] } });
        } catch (err) {
          failures.push(`${provider.id}/${model.id}: ${(err as Error).message}`);
          continue;
        }
        if (!result) continue;
        const cost = expectComplete(costBreakdown(result, priceUsage));
        expect(cost.total_cost).toBe(result.total_price);
        expect(cost.input_tokens_cost).toBe(result.input_price);
        // What the package counts beyond input and output is exactly the searches and the request.
        expect(cost.search_queries_cost + cost.request_cost).toBeCloseTo(
          result.total_price - result.input_price - result.output_price,
          12,
        );
        expect(cost.output_tokens_cost).toBeGreaterThanOrEqual(0);
        priced++;
      }
    }
    expect(failures).toEqual([]);
    expect(priced).toBeGreaterThan(1500);
  });

  it('prepared rates give calcPrice’s numbers to the last bit, for every model of the table they apply to', async () => {
    const providers = (await waitForUpdate())!;
    const usages: Usage[] = [
      usage(0, 0),
      usage(1, 2),
      usage(1200, 300, { prompt_tokens_details: { cached_read_tokens: 1000 } }),
      usage(5000, 400, { prompt_tokens_details: { cached_write_tokens: 900, cached_read_tokens: 77 } }),
      usage(199_999, 10, { prompt_tokens_details: { cached_read_tokens: 150_000 } }),
      usage(200_001, 33, { prompt_tokens_details: { cached_write_tokens: 100_000 } }),
      usage(272_001, 5000, { completion_tokens_details: { reasoning_tokens: 4000 } }),
      usage(1_000_001, 12_345, { prompt_tokens_details: { cached_read_tokens: 999_999, cached_write_tokens: 5 } }),
      usage(3333, 777, { tool_usage: { web_search: { num_requests: 3 } } }),
      usage(40, 2, { prompt_tokens_details: { cached_read_tokens: 90, audio_tokens: 10 } }),
    ];
    let prepared = 0;
    let checked = 0;
    for (const provider of providers) {
      for (const model of provider.models) {
        if (Array.isArray(model.prices)) continue;
        const rates = prepareRates(model.prices);
        if (!rates) continue;
        prepared++;
        const name = provider.id === 'fireworks' ? `accounts/fireworks/models/${model.id}` : model.id;
        for (const u of usages) {
          const priceUsage = toPriceUsage('openai', u);
          const expected = calcPrice(priceUsage, name, { provider: { ...provider, models: [model] } });
          if (!expected) continue;
          const got = pricePrepared(rates, priceUsage);
          const where = `${provider.id}/${model.id} ${JSON.stringify(priceUsage)}`;
          expect(got.input_price, where).toBe(expected.input_price);
          expect(got.output_price, where).toBe(expected.output_price);
          expect(got.total_price, where).toBe(expected.total_price);
          checked++;
        }
      }
    }
    // Most of the table is prepared; the rest (dated prices, other keys) stays with calcPrice.
    expect(prepared).toBeGreaterThan(1200);
    expect(checked).toBeGreaterThan(12_000);
    expect(prepareRates({ input_mtok: 1, output_mtok: 2, input_audio_mtok: 3 })).toBeNull();
    expect(prepareRates({ input_mtok: 1, output_mtok: -2 })).toBeNull();
  });

  it('a model with dated prices is still priced by calcPrice through the table', () => {
    const table = new PriceTable();
    const u = usage(250_000, 1000);
    const before = table.costOf('anthropic', 'claude-sonnet-4-6', u, new Date('2026-03-01T00:00:00Z'));
    const after = table.costOf('anthropic', 'claude-sonnet-4-6', u, new Date('2026-04-01T00:00:00Z'));
    expect(before?.total_cost).toBeGreaterThan(after!.total_cost!);
  });
});

describe('pricing config', () => {
  const appDir = mkdtempSync(join(tmpdir(), 'gw-pricing-'));

  it('defaults to no refresh, 24h, the package’s own data URL; env overrides; bad values stop the start', () => {
    const defaults = loadConfig({ env: { GATEWAY_APP_DIR: appDir } }).pricing;
    expect(defaults).toEqual({ refresh: false, refresh_interval: '24h', refresh_url: REMOTE_DATA_JSON_URL });
    const env = {
      GATEWAY_APP_DIR: appDir,
      GATEWAY_PRICING_REFRESH: 'true',
      GATEWAY_PRICING_REFRESH_INTERVAL: '6h',
      GATEWAY_PRICING_REFRESH_URL: 'https://mirror.example.com/prices.json',
    };
    expect(loadConfig({ env }).pricing).toEqual({
      refresh: true,
      refresh_interval: '6h',
      refresh_url: 'https://mirror.example.com/prices.json',
    });
    let problems: string[] = [];
    try {
      loadConfig({ env: { GATEWAY_APP_DIR: appDir, GATEWAY_PRICING_REFRESH_INTERVAL: '0h' } });
    } catch (err) {
      problems = (err as ConfigError).problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^pricing\.refresh_interval: .*duration greater than zero/);
  });
});

/** A loopback stand-in for the price data host: answers what the test sets, counts requests. */
class PriceDataHost {
  answer: { status: number; body: string } = { status: 200, body: '[]' };
  hits = 0;
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.hits++;
      res.writeHead(this.answer.status, { 'content-type': 'application/json' });
      res.end(this.answer.body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/prices/data.json`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('price table refresh (opt-in)', () => {
  const host = new PriceDataHost();
  const logs = new LogCapture();
  const logger = createLogger('debug', logs);
  const table = new PriceTable(logger);
  const gpt4o = usage(1_000_000, 0);
  const SECRET_BODY = 'body-text-that-must-never-be-logged';
  let bundled: Provider[];
  let url: string;

  function refresher(pricing: Record<string, unknown>): PriceRefreshService {
    const config = loadConfig({
      env: { GATEWAY_APP_DIR: mkdtempSync(join(tmpdir(), 'gw-pricing-')) },
      overrides: { outbound: { allow_loopback: true }, pricing: { refresh_url: url, ...pricing } },
    });
    return new PriceRefreshService(config, new OutboundHttpService(config), logger);
  }

  /** The bundled data with gpt-4o's input price changed. */
  function withGpt4oInput(price: number): string {
    const data = structuredClone(bundled);
    const model = data.find((p) => p.id === 'openai')!.models.find((m) => m.id === 'gpt-4o')!;
    (model.prices as ModelPrice).input_mtok = price;
    return JSON.stringify(data);
  }

  beforeAll(async () => {
    bundled = structuredClone((await waitForUpdate())!);
    url = await host.start();
  });
  afterAll(async () => {
    replacePriceData(bundled);
    await host.stop();
  });

  it('is off by default: no request at all, the bundled table prices', async () => {
    const service = refresher({});
    service.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, 100));
    service.onApplicationShutdown();
    expect(host.hits).toBe(0);
    expect(table.costOf('openai', 'gpt-4o', gpt4o)?.input_tokens_cost).toBeCloseTo(2.5, 12);
  });

  it('swaps in valid downloaded data; the lookups cached from the old table are dropped', async () => {
    host.answer = { status: 200, body: withGpt4oInput(4) };
    await expect(refresher({ refresh: true }).refresh()).resolves.toBe(true);
    expect(table.costOf('openai', 'gpt-4o', gpt4o)?.input_tokens_cost).toBeCloseTo(4, 12);
    expect(logs.records().some((r) => r.msg === 'price table refreshed' && r.level === 'info')).toBe(true);
  });

  it('keeps the last good table on a failed download, with one warning and never the body', async () => {
    const service = refresher({ refresh: true });
    const answers = [
      { status: 500, body: SECRET_BODY, why: 'answered HTTP 500' },
      { status: 200, body: `not json ${SECRET_BODY}`, why: 'is not JSON' },
      { status: 200, body: JSON.stringify({ providers: SECRET_BODY }), why: 'is not a provider list' },
      {
        // Shaped like providers, but a price constraint the package refuses (and would quote in its error).
        status: 200,
        body: JSON.stringify([
          {
            id: 'openai',
            name: 'OpenAI',
            api_pattern: 'x',
            models: [
              { id: 'gpt-4o', match: { equals: 'gpt-4o' }, prices: [{ constraint: { x: SECRET_BODY }, prices: {} }] },
            ],
          },
        ]),
        why: 'rejected the downloaded price data',
      },
    ];
    for (const answer of answers) {
      const before = logs.lines.length;
      host.answer = answer;
      await expect(service.refresh()).resolves.toBe(false);
      const added = logs.records().slice(before);
      expect(added.filter((r) => r.level === 'warn').map((r) => r.msg)).toEqual([expect.stringContaining(answer.why)]);
      expect(table.costOf('openai', 'gpt-4o', gpt4o)?.input_tokens_cost).toBeCloseTo(4, 12);
    }
    // The host unreachable: the same.
    const gone = loadConfig({
      env: { GATEWAY_APP_DIR: mkdtempSync(join(tmpdir(), 'gw-pricing-')) },
      overrides: {
        outbound: { allow_loopback: true },
        pricing: { refresh: true, refresh_url: 'http://127.0.0.1:1/x' },
      },
    });
    await expect(new PriceRefreshService(gone, new OutboundHttpService(gone), logger).refresh()).resolves.toBe(false);
    expect(logs.text()).not.toContain(SECRET_BODY);
    expect(table.costOf('openai', 'gpt-4o', gpt4o)?.input_tokens_cost).toBeCloseTo(4, 12);
  });

  it('when on, downloads at start and every interval until shutdown', async () => {
    host.answer = { status: 200, body: withGpt4oInput(5) };
    host.hits = 0;
    const service = refresher({ refresh: true, refresh_interval: '150ms' });
    service.onApplicationBootstrap();
    await waitFor(() => host.hits >= 1);
    await waitFor(() => table.costOf('openai', 'gpt-4o', gpt4o)?.input_tokens_cost === 5);
    await waitFor(() => host.hits >= 3);
    service.onApplicationShutdown();
    const hits = host.hits;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(host.hits).toBe(hits);
  });
});
