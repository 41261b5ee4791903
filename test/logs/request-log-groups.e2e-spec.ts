import { randomUUID } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/** `GET /api/logs/groups` (the dashboard's overview) over fixed rows whose every group has a known answer. */
const BASE = Date.parse('2026-11-20T12:00:00Z');
interface Seed {
  minutesAgo: number;
  provider: string;
  model: string;
  status: 'success' | 'error';
  latency: number;
  tokens: number | null;
  cost: number | null;
  vk: string | null;
  vkName: string | null;
}
const SEEDS: Seed[] = [
  {
    minutesAgo: 50,
    provider: 'openai',
    model: 'gpt-4o',
    status: 'success',
    latency: 100,
    tokens: 10,
    cost: 0.01,
    vk: 'vk-1',
    vkName: 'alpha-old',
  },
  {
    minutesAgo: 40,
    provider: 'openai',
    model: 'gpt-4o',
    status: 'success',
    latency: 200,
    tokens: 20,
    cost: 0.02,
    vk: 'vk-1',
    vkName: 'alpha',
  },
  {
    minutesAgo: 35,
    provider: 'openai',
    model: 'gpt-4o',
    status: 'error',
    latency: 50,
    tokens: null,
    cost: null,
    vk: 'vk-2',
    vkName: 'beta',
  },
  {
    minutesAgo: 30,
    provider: 'openai',
    model: 'gpt-4o-mini',
    status: 'success',
    latency: 10,
    tokens: 5,
    cost: 0.001,
    vk: 'vk-2',
    vkName: 'beta',
  },
  {
    minutesAgo: 20,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    status: 'success',
    latency: 400,
    tokens: 100,
    cost: 0.5,
    vk: 'vk-2',
    vkName: 'beta',
  },
  {
    minutesAgo: 10,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    status: 'error',
    latency: 30,
    tokens: null,
    cost: null,
    vk: null,
    vkName: null,
  },
  // Outside the range the tests ask for: it must count nowhere.
  {
    minutesAgo: 180,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    status: 'success',
    latency: 5000,
    tokens: 9000,
    cost: 9,
    vk: 'vk-1',
    vkName: 'alpha-older',
  },
];

describe(`request log groups (${RUN_MODE})`, () => {
  let s: InferenceStack;
  const at = (minutesAgo: number) => new Date(BASE - minutesAgo * 60_000).toISOString();
  const groups = async (query: Record<string, string | number>) => {
    const res = await s.admin.get('/api/logs/groups', { query: { start_time: at(120), end_time: at(0), ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const keyOf = (g: any) => [g.provider, g.model, g.virtual_key_id].filter((v) => v !== null).join('/') || '(none)';

  beforeAll(async () => {
    s = await startInferenceStack();
    const db = s.gw.app.get<DataSource>(getDataSourceToken());
    for (const seed of SEEDS) {
      const id = randomUUID();
      await db.query(
        `INSERT INTO request_logs (id, timestamp, object, provider, model, selected_key_id, selected_key_name,
           virtual_key_id, virtual_key_name, status, status_code, latency, total_tokens, cost)
         VALUES ($1, $2, 'chat_completion', $3, $4, 'k1', 'k1-name', $5, $6, $7, $8, $9, $10, $11)`,
        [
          id,
          at(seed.minutesAgo),
          seed.provider,
          seed.model,
          seed.vk,
          seed.vkName,
          seed.status,
          seed.status === 'success' ? 200 : 500,
          seed.latency,
          seed.tokens,
          seed.cost,
        ],
      );
      await db.query(`INSERT INTO request_log_contents (log_id, timestamp) VALUES ($1, $2)`, [id, at(seed.minutesAgo)]);
    }
  });
  afterAll(() => s?.close());

  it('groups by model (provider and model), most requests first, with every measure and the total', async () => {
    const body = await groups({});
    expect(body.group_by).toBe('model');
    expect(body.sort_by).toBe('requests');
    expect(body.group_count).toBe(3);
    expect(body.groups.map(keyOf)).toEqual(['openai/gpt-4o', 'anthropic/claude-sonnet-4-5', 'openai/gpt-4o-mini']);
    expect(body.groups[0]).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      virtual_key_id: null,
      virtual_key_name: null,
      requests: 3,
      errors: 1,
      success_rate: expect.closeTo(200 / 3, 9),
      tokens: 30,
      cost: expect.closeTo(0.03, 12),
      average_latency: expect.closeTo(350 / 3, 9),
      p50: 100,
      p90: expect.closeTo(180, 9),
      p95: expect.closeTo(190, 9),
      p99: expect.closeTo(198, 9),
    });
    // Latencies 10, 30, 50, 100, 200, 400: interpolated percentiles.
    expect(body.total).toEqual({
      requests: 6,
      errors: 2,
      success_rate: expect.closeTo(400 / 6, 9),
      tokens: 135,
      cost: expect.closeTo(0.531, 12),
      average_latency: expect.closeTo(790 / 6, 9),
      p50: 75,
      p90: 300,
      p95: 350,
      p99: 390,
    });
  });

  it('ranks by the measure asked for, ties by the group, and keeps the largest `limit`', async () => {
    expect((await groups({ sort_by: 'cost' })).groups.map(keyOf)).toEqual([
      'anthropic/claude-sonnet-4-5',
      'openai/gpt-4o',
      'openai/gpt-4o-mini',
    ]);
    expect((await groups({ sort_by: 'errors' })).groups.map(keyOf)).toEqual([
      'anthropic/claude-sonnet-4-5',
      'openai/gpt-4o',
      'openai/gpt-4o-mini',
    ]);
    expect((await groups({ sort_by: 'tokens' })).groups.map((g: any) => g.tokens)).toEqual([100, 30, 5]);
    const top = await groups({ sort_by: 'cost', limit: 1 });
    expect(top.groups.map(keyOf)).toEqual(['anthropic/claude-sonnet-4-5']);
    expect(top.group_count).toBe(3);
    expect(top.total.requests).toBe(6);
  });

  it('groups by provider', async () => {
    const body = await groups({ group_by: 'provider' });
    expect(body.groups.map((g: any) => [g.provider, g.model, g.requests, g.errors])).toEqual([
      ['openai', null, 4, 1],
      ['anthropic', null, 2, 1],
    ]);
  });

  it('top virtual keys by cost, named from their newest row; requests without a key are their own group', async () => {
    const body = await groups({ group_by: 'virtual_key', sort_by: 'cost' });
    expect(body.groups.map((g: any) => [g.virtual_key_id, g.virtual_key_name, g.requests, g.cost])).toEqual([
      ['vk-2', 'beta', 3, expect.closeTo(0.501, 12)],
      ['vk-1', 'alpha', 2, expect.closeTo(0.03, 12)],
      [null, null, 1, 0],
    ]);
    expect(body.groups.every((g: any) => g.provider === null && g.model === null)).toBe(true);
  });

  it('applies the filters of the logs list; no match gives no group and an empty total', async () => {
    const openai = await groups({ providers: 'openai', status: 'success' });
    expect(openai.groups.map((g: any) => [keyOf(g), g.requests])).toEqual([
      ['openai/gpt-4o', 2],
      ['openai/gpt-4o-mini', 1],
    ]);
    expect(openai.total).toMatchObject({ requests: 3, errors: 0, success_rate: 100 });
    const wide = await groups({ start_time: at(240) });
    expect(wide.total.requests).toBe(7);
    expect(wide.groups[0]).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      requests: 3,
      cost: expect.closeTo(9.5, 12),
    });
    const none = await groups({ providers: 'mistral' });
    expect(none).toEqual({
      group_by: 'model',
      sort_by: 'requests',
      groups: [],
      group_count: 0,
      total: {
        requests: 0,
        errors: 0,
        success_rate: 0,
        tokens: 0,
        cost: 0,
        average_latency: null,
        p50: null,
        p90: null,
        p95: null,
        p99: null,
      },
    });
  });

  it.each([
    [{ group_by: 'team' }, 'group_by'],
    [{ sort_by: 'latency' }, 'sort_by'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ min_latency: 500, max_latency: 100 }, 'min_latency'],
    [{ start_time: 'yesterday' }, 'start_time'],
  ] as Array<[Record<string, string | number>, string]>)('400 for %j naming %s', async (query, param) => {
    const res = await s.admin.get('/api/logs/groups', { query });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.param).toBe(param);
  });
});
