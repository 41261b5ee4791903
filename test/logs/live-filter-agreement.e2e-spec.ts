import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveVerdict, type LogsQuery } from '../../ui/src/features/logs/live-filter.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * The dashboard's live-row filter (ui/src/features/logs/live-filter.ts) decides, for every pushed row, what the
 * server's `GET /api/logs` would decide for the same query. Proved on real rows: for each query, the rows the server
 * lists are exactly the rows the predicate admits among all rows (a live row outside the filter is a known failure of
 * a peer dashboard: maximhq/bifrost#1091).
 */
describe(`live rows are filtered as the API filters (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let rows: any[];

  beforeAll(async () => {
    s = await startInferenceStack();
    const chat = (model: string, extra: Record<string, unknown> = {}, content = 'agreement probe') =>
      s.inference.post('/v1/chat/completions', { model, messages: [{ role: 'user', content }], ...extra });
    // Varied rows: providers, models, a failure, a fallback pair, streams, a long answer, a second virtual key.
    s.sim.scenario({ match: { family: 'anthropic' }, responses: [{ fault: 'error', status: 500 }] });
    const answers = await Promise.all([
      chat('openai/gpt-4o-mini'),
      chat('openai/gpt-4o', {}, 'a somewhat longer prompt with many more words in it than the others'),
      chat('anthropic/claude-sonnet-4-5'),
      chat('gemini/gemini-2.0-flash'),
      chat('openai/sim-rate-limit', { fallbacks: ['anthropic/claude-haiku-4-5'] }),
      chat('openai/gpt-4o-mini', { stream: true, stream_options: { include_usage: true } }),
      chat('openai/unknown-priced-model-xyz'),
    ]);
    expect(answers.map((a) => a.status).filter((status) => status >= 500).length).toBeLessThanOrEqual(1);
    const other = await s.admin.post('/api/governance/virtual-keys', { name: 'agreement-other' });
    await s.gw.http
      .withHeaders({ authorization: `Bearer ${other.body.virtual_key.value}` })
      .post('/v1/chat/completions', {
        model: 'openai/gpt-4o-mini',
        messages: [{ role: 'user', content: 'other key' }],
      });
    rows = (await s.admin.get('/api/logs', { query: { limit: 1000 } })).body.logs;
    expect(rows.length).toBeGreaterThanOrEqual(9);
  });
  afterAll(() => s?.close());

  const pick = <K extends string>(key: K) => [...new Set(rows.map((r) => r[key]).filter((v) => v !== null))];

  function queries(): LogsQuery[] {
    const timestamps = rows.map((r) => r.timestamp as string).sort();
    const mid = timestamps[Math.floor(timestamps.length / 2)]!;
    const latencies = rows.map((r) => r.latency as number).sort((a, b) => a - b);
    const tokens = rows
      .map((r) => r.total_tokens)
      .filter((t) => t !== null)
      .sort((a, b) => a - b);
    const costs = rows
      .map((r) => r.cost)
      .filter((c) => c !== null)
      .sort((a, b) => a - b);
    const primary = rows.find((r) => r.parent_request_id)?.parent_request_id as string | undefined;
    return [
      {},
      { providers: 'openai' },
      { providers: 'anthropic, gemini' },
      { models: pick('model').slice(0, 2).join(',') },
      { status: 'error' },
      { status: 'success,processing' },
      { objects: 'chat_completion' },
      { virtual_key_ids: pick('virtual_key_id')[0] },
      { selected_key_ids: pick('selected_key_id').slice(0, 2).join(',') },
      { team_ids: 'no-such-team' },
      { start_time: mid },
      { end_time: mid },
      { start_time: timestamps[0], end_time: timestamps[0] },
      { min_latency: latencies[Math.floor(latencies.length / 2)] },
      { max_latency: latencies[1] },
      { min_tokens: tokens[1], max_tokens: tokens[tokens.length - 2] },
      { min_tokens: 0 },
      { max_cost: costs[Math.floor(costs.length / 2)] },
      { min_cost: 0 },
      { missing_cost_only: true },
      { missing_cost_only: false },
      { cache_hit: false },
      { cache_hit: true },
      ...(primary ? [{ parent_request_ids: primary }] : []),
      { providers: 'openai', status: 'success', min_latency: 0 },
    ];
  }

  it('for every filter, the server lists exactly the rows the live predicate admits', async () => {
    for (const query of queries()) {
      const listed = await s.admin.get('/api/logs', { query: { ...query, limit: 1000 } as any });
      expect(listed.status, `${JSON.stringify(query)}: ${listed.text}`).toBe(200);
      const served = listed.body.logs.map((r: any) => r.id).sort();
      const admitted = rows
        .filter((r) => liveVerdict(r, query) === 'match')
        .map((r) => r.id)
        .sort();
      expect(admitted, JSON.stringify(query)).toEqual(served);
    }
  });

  it('a content search is left to the server', () => {
    expect(rows.every((r) => liveVerdict(r, { content_search: 'probe' }) === 'unknown')).toBe(true);
  });
});
