import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CounterStore } from '../../src/core/redis/counter.store.js';
import {
  budgetCounterKey,
  counterWindowOf,
  requestCounterKey,
  tokenCounterKey,
} from '../../src/modules/governance/limits/governed-levels.js';
import { RoutingRuleEngine } from '../../src/modules/governance/routing-rules/routing-rule-engine.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import { created, seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { expectError, OSS_CONFIG, ossClient } from './governance-test-kit.js';

const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'route me' }],
  ...extra,
});
const RULES = '/api/governance/routing-rules';

/** Routing rules (issue 11 §4): CRUD and validation, then rules routing real requests through /v1. */
describe(`routing rules (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let vkId: string;

  async function rule(body: Record<string, unknown>): Promise<any> {
    return (await created(s.admin.post(RULES, { targets: [{ provider: 'anthropic', weight: 1 }], ...body }))).rule;
  }
  async function removeAll(): Promise<void> {
    const listed = await s.admin.get(RULES);
    for (const r of listed.body.rules) {
      const res = await s.admin.delete(`${RULES}/${r.id}`);
      expect(res.status, res.text).toBe(200);
    }
  }
  const served = (res: { headers: Headers }) => ({
    provider: res.headers.get('x-gateway-routing-info-provider'),
    model: res.headers.get('x-gateway-routing-info-model'),
    rule: res.headers.get('x-gateway-routing-info-routing-rule-name'),
  });

  beforeAll(async () => {
    s = await startInferenceStack();
    const vks = await s.admin.get('/api/governance/virtual-keys');
    vkId = vks.body.virtual_keys.find((k: any) => k.name === 'inference-tests').id;
  });
  afterAll(() => s?.close());
  beforeEach(async () => {
    s.sim.reset();
    await removeAll();
  });

  describe('management', () => {
    it('creates, lists in evaluation order, reads, updates and deletes', async () => {
      const res = await s.admin.post(RULES, {
        name: 'premium',
        description: 'premium callers get claude',
        cel_expression: 'headers["x-tier"] == "premium"',
        targets: [
          { provider: 'anthropic', model: 'claude-sonnet-4-5', weight: 0.25 },
          { provider: 'openai', model: 'gpt-4o', weight: 0.75 },
        ],
        fallbacks: ['gemini/gemini-2.5-flash', 'openai'],
        priority: 5,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.message).toBe('Routing rule created successfully');
      expect(res.body.rule).toMatchObject({
        name: 'premium',
        enabled: true,
        scope: 'global',
        scope_id: null,
        priority: 5,
        chain_rule: false,
        fallbacks: ['gemini/gemini-2.5-flash', 'openai'],
      });
      const vkRule = await rule({ name: 'mine', cel_expression: 'true', scope: 'virtual_key', scope_id: vkId });
      const listed = await s.admin.get(RULES);
      expect(listed.body.count).toBe(2);
      expect(listed.body.rules.map((r: any) => r.name)).toEqual(['mine', 'premium']);
      expect((await s.admin.get(RULES, { query: { scope: 'global' } })).body.count).toBe(1);
      const id = res.body.rule.id;
      expect((await s.admin.get(`${RULES}/${id}`)).body.cel_expression).toBe('headers["x-tier"] == "premium"');
      const updated = await s.admin.put(`${RULES}/${id}`, {
        enabled: false,
        targets: [{ model: 'gpt-4o', weight: 1 }],
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.message).toBe('Routing rule updated successfully');
      expect(updated.body.rule).toMatchObject({
        enabled: false,
        targets: [{ model: 'gpt-4o', weight: 1 }],
        priority: 5,
      });
      const gone = await s.admin.delete(`${RULES}/${vkRule.id}`);
      expect(gone.body).toEqual({ message: 'Routing rule deleted successfully' });
      expectError(await s.admin.get(`${RULES}/${vkRule.id}`), 404, 'routing_rule_not_found');
    });

    it('a name is unique per scope and scope id', async () => {
      await rule({ name: 'dup', cel_expression: 'true' });
      expectError(
        await s.admin.post(RULES, { name: 'dup', cel_expression: 'true', targets: [{ model: 'x', weight: 1 }] }),
        409,
        'already_exists',
        'name',
      );
      await rule({ name: 'dup', cel_expression: 'true', scope: 'virtual_key', scope_id: vkId });
    });

    it('refuses a bad rule naming the field, and writes nothing', async () => {
      const base = { name: 'bad', cel_expression: 'true', targets: [{ provider: 'openai', weight: 1 }] };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ cel_expression: 'model ==' }, 'cel_expression'],
        [{ cel_expression: 'unknown_variable == "x"' }, 'cel_expression'],
        [{ cel_expression: 'nosuchfunction(model)' }, 'cel_expression'],
        [{ targets: [{ provider: 'openai', weight: 0.5 }] }, 'targets'],
        [{ targets: [{ provider: 'openai', weight: 0 }] }, 'targets[0].weight'],
        [{ targets: [{ model: 'gpt-4o', key_id: 'k', weight: 1 }] }, 'targets[0].key_id'],
        [{ targets: [{ weight: 1 }] }, 'targets[0]'],
        [{ targets: [] }, 'targets'],
        [{ targets: [{ provider: 'nope', weight: 1 }] }, 'targets[0].provider'],
        [{ fallbacks: ['nope/model'] }, 'fallbacks[0]'],
        [{ scope: 'team' }, 'scope_id'],
        [{ scope: 'team', scope_id: 'not-a-uuid' }, 'scope_id'],
        [{ scope_id: vkId }, 'scope_id'],
        [{ scope: 'virtual_key', scope_id: '00000000-0000-4000-8000-000000000000' }, 'scope_id'],
        [{ scope: 'user', scope_id: vkId }, 'scope'],
      ];
      for (const [change, param] of cases) {
        const res = await s.admin.post(RULES, { ...base, ...change });
        expectError(res, 400, 'validation_failed', param);
      }
      const compile = await s.admin.post(RULES, { ...base, cel_expression: 'model ==' });
      expect(compile.body.error.message).toMatch(/cel_expression does not compile/);
      expect((await s.admin.get(RULES)).body.count).toBe(0);
      const kept = await rule({ name: 'kept', cel_expression: 'true' });
      expectError(
        await s.admin.put(`${RULES}/${kept.id}`, { cel_expression: 'model ==' }),
        400,
        'validation_failed',
        'cel_expression',
      );
      expect((await s.admin.get(`${RULES}/${kept.id}`)).body.cel_expression).toBe('true');
    });
  });

  describe('on the request path', () => {
    it('a matching rule routes the request to its target, shown in routing info and the log row', async () => {
      const r = await rule({
        name: 'premium',
        cel_expression: 'headers["x-tier"] == "premium" && request_type == "chat_completion"',
        targets: [{ provider: 'anthropic', model: 'claude-sonnet-4-5', weight: 1 }],
      });
      const routed = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'), {
        headers: { 'x-tier': 'premium' },
      });
      expect(routed.status, routed.text).toBe(200);
      expect(served(routed)).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5', rule: 'premium' });
      expect(routed.headers.get('x-gateway-routing-info-routing-rule-id')).toBe(r.id);
      expect(routed.headers.get('x-gateway-routing-info-requested-provider')).toBe('openai');
      expect(routed.headers.get('x-gateway-routing-info-requested-model')).toBe('gpt-4o-mini');
      expect(seen(s.sim).map((c) => c.family)).toEqual(['anthropic']);
      const row = await s.admin.get(`/api/logs/${routed.headers.get('x-request-id')}`);
      expect(row.body).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', routing_rule_id: r.id });
      const byRule = await s.admin.get('/api/logs', { query: { routing_rule_ids: r.id } });
      expect(byRule.body.logs.map((l: any) => l.id)).toContain(routed.headers.get('x-request-id'));

      // No header: the rule's map key is missing, which is no match (and not an error).
      const plain = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
      expect(served(plain)).toEqual({ provider: 'openai', model: 'gpt-4o-mini', rule: null });
      const plainRow = await s.admin.get(`/api/logs/${plain.headers.get('x-request-id')}`);
      expect(plainRow.body.routing_rule_id).toBeNull();
    });

    it('scopes: virtual key before global; then priority; a disabled rule is skipped', async () => {
      await rule({
        name: 'global',
        cel_expression: 'true',
        priority: -100,
        targets: [{ provider: 'gemini', model: 'gemini-2.5-flash', weight: 1 }],
      });
      await rule({
        name: 'vk-late',
        cel_expression: 'true',
        priority: 10,
        scope: 'virtual_key',
        scope_id: vkId,
        targets: [{ model: 'gpt-4o', weight: 1 }],
      });
      const early = await rule({
        name: 'vk-early',
        cel_expression: `virtual_key_id == "${vkId}" && virtual_key_name == "inference-tests"`,
        priority: 1,
        scope: 'virtual_key',
        scope_id: vkId,
        targets: [{ provider: 'anthropic', model: 'claude-sonnet-4-5', weight: 1 }],
      });
      const first = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
      expect(served(first)).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5', rule: 'vk-early' });
      expect((await s.admin.put(`${RULES}/${early.id}`, { enabled: false })).status).toBe(200);
      const second = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
      // The target names only a model: the request's provider stays.
      expect(served(second)).toEqual({ provider: 'openai', model: 'gpt-4o', rule: 'vk-late' });
    });

    it('a team rule applies to the team’s keys only', async () => {
      const team = (await created(s.admin.post('/api/governance/teams', { name: 'rules-team' }))).team;
      const key = await created(s.admin.post('/api/governance/virtual-keys', { name: 'team-key', team_id: team.id }));
      await rule({
        name: 'team',
        cel_expression: `team_id == "${team.id}" && team_name == "rules-team"`,
        scope: 'team',
        scope_id: team.id,
        targets: [{ provider: 'anthropic', model: 'claude-sonnet-4-5', weight: 1 }],
      });
      const teamClient = s.gw.http.withHeaders({ authorization: `Bearer ${key.virtual_key.value}` });
      expect(served(await teamClient.post('/v1/chat/completions', chat('openai/gpt-4o-mini')))).toMatchObject({
        rule: 'team',
      });
      expect(served(await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini')))).toMatchObject({
        rule: null,
      });
    });

    it('a target’s key_id pins that key of its provider', async () => {
      const keys = await s.admin.get('/api/keys');
      const oa2 = keys.body.keys.find((k: any) => k.name === 'oa-2').id;
      await rule({ name: 'pinned', cel_expression: 'true', targets: [{ provider: 'openai', key_id: oa2, weight: 1 }] });
      for (let i = 0; i < 5; i++) {
        const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get('x-gateway-routing-info-key')).toBe('oa-2');
      }
    });

    it('weighted targets split traffic by weight (within statistical bounds)', async () => {
      await rule({
        name: 'split',
        cel_expression: 'model == "gpt-4o-mini"',
        targets: [
          { provider: 'openai', model: 'gpt-4o', weight: 0.7 },
          { provider: 'anthropic', model: 'claude-sonnet-4-5', weight: 0.3 },
        ],
      });
      const n = 200;
      let anthropic = 0;
      for (let i = 0; i < n; i += 20) {
        const batch = await Promise.all(
          Array.from({ length: 20 }, () => s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'))),
        );
        for (const res of batch) {
          expect(res.status).toBe(200);
          if (served(res).provider === 'anthropic') anthropic++;
          else expect(served(res)).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
        }
      }
      // Binomial(200, 0.3): mean 60, sd 6.5; ±5 sd fails by chance about once in two million runs.
      expect(anthropic).toBeGreaterThanOrEqual(28);
      expect(anthropic).toBeLessThanOrEqual(92);
    });

    it('chain_rule evaluates again with the new target; a cycle stops the chain', async () => {
      await rule({
        name: 'mini-to-4o',
        chain_rule: true,
        cel_expression: 'model == "gpt-4o-mini"',
        targets: [{ provider: 'openai', model: 'gpt-4o', weight: 1 }],
      });
      const last = await rule({
        name: '4o-to-claude',
        cel_expression: 'provider == "openai" && model == "gpt-4o"',
        targets: [{ provider: 'anthropic', model: 'claude-sonnet-4-5', weight: 1 }],
      });
      const chained = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
      expect(served(chained)).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5', rule: '4o-to-claude' });
      expect(chained.headers.get('x-gateway-routing-info-routing-rule-id')).toBe(last.id);

      // gpt-4o → gpt-4o-mini → (gpt-4o again: a cycle) stops at gpt-4o-mini.
      await s.admin.put(`${RULES}/${last.id}`, { chain_rule: true, targets: [{ model: 'gpt-4o-mini', weight: 1 }] });
      const cycle = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o'));
      expect(cycle.status, cycle.text).toBe(200);
      expect(served(cycle)).toEqual({ provider: 'openai', model: 'gpt-4o', rule: 'mini-to-4o' });
    });

    it('the rule’s fallbacks replace the caller’s when its target fails', async () => {
      await rule({
        name: 'with-fallbacks',
        cel_expression: 'true',
        targets: [{ provider: 'openai', model: 'gpt-4o', weight: 1 }],
        fallbacks: ['anthropic/claude-sonnet-4-5'],
      });
      s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 503 }], repeat: true });
      const res = await s.inference.post(
        '/v1/chat/completions',
        chat('openai/gpt-4o-mini', { fallbacks: ['gemini/gemini-2.5-flash'] }),
      );
      expect(res.status, res.text).toBe(200);
      expect(served(res)).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5', rule: 'with-fallbacks' });
      expect(res.headers.get('x-gateway-fallback-index')).toBe('1');
      expect(res.headers.get('x-gateway-routing-info-primary-model')).toBe('gpt-4o');
      expect(seen(s.sim).some((c) => c.family === 'gemini')).toBe(false);
    });

    it('a rule failing at evaluation is skipped and counted; the next rule decides', async () => {
      await rule({ name: 'broken', cel_expression: 'model > 5', priority: 1 });
      await rule({ name: 'working', cel_expression: 'true', priority: 2, targets: [{ model: 'gpt-4o', weight: 1 }] });
      const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
      expect(served(res)).toEqual({ provider: 'openai', model: 'gpt-4o', rule: 'working' });
      const metrics = await s.admin.get('/metrics');
      expect(metrics.text).toMatch(
        /gateway_routing_rule_errors_total\{rule="broken",reason="evaluation_failed"\} [1-9]/,
      );
      expect(metrics.text).toMatch(/gateway_routing_rule_matches_total\{rule="working"\} [1-9]/);
    });

    it('usage variables are 0 without budgets or limits; params are the query parameters', async () => {
      await rule({
        name: 'usage',
        cel_expression: 'budget_used == 0.0 && tokens_used == 0.0 && request == 0.0 && params["tier"] == "gold"',
        targets: [{ model: 'gpt-4o', weight: 1 }],
      });
      const res = await s.inference.post('/v1/chat/completions?tier=gold', chat('openai/gpt-4o-mini'));
      expect(res.status, res.text).toBe(200);
      expect(served(res)).toEqual({ provider: 'openai', model: 'gpt-4o', rule: 'usage' });
    });
  });
});

/** What `budget_used`, `tokens_used` and `request` read: the governed levels' counters, in percent of their limits. */
describe(`routing rules over governed usage (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let counters: CounterStore;
  let governed: any;
  let teamBudgetId: string;
  const DAY = counterWindowOf('1d', false);
  const served = async () => {
    const client = s.gw.http.withHeaders({ authorization: `Bearer ${governed.value}` });
    const res = await client.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
    expect(res.status, res.text).toBe(200);
    return res.headers.get('x-gateway-routing-info-routing-rule-name');
  };

  beforeAll(async () => {
    s = await startInferenceStack({ inference: { routing_chain_max_depth: 2 } });
    counters = s.gw.app.get(CounterStore);
    const team = (
      await created(
        s.admin.post('/api/governance/teams', {
          name: 'research',
          budgets: [{ max_limit: 100, reset_duration: '1d' }],
        }),
      )
    ).team;
    teamBudgetId = team.budgets[0].id;
    governed = (
      await created(
        s.admin.post('/api/governance/virtual-keys', {
          name: 'governed',
          team_id: team.id,
          budgets: [{ max_limit: 10, reset_duration: '1d' }],
          // Limits far above what these few requests use, so enforcement never refuses them.
          rate_limit: {
            request_max_limit: 1000,
            request_reset_duration: '1d',
            token_max_limit: 1_000_000,
            token_reset_duration: '1d',
          },
        }),
      )
    ).virtual_key;
  });
  afterAll(() => s?.close());

  it('budget_used, request and tokens_used are the highest percent used of the levels covering the request', async () => {
    const make = (name: string, cel_expression: string, priority: number) =>
      created(s.admin.post(RULES, { name, cel_expression, priority, targets: [{ model: 'gpt-4o', weight: 1 }] }));
    await make('budget', 'budget_used >= 50.0 && team_name == "research"', 1);
    await make('requests', 'request >= 75.0', 2);
    await make('tokens', 'tokens_used > 90.0', 3);
    expect(await served()).toBeNull();
    await counters.increment(tokenCounterKey(governed.rate_limit.id), 950_000, DAY);
    expect(await served()).toBe('tokens');
    await counters.increment(requestCounterKey(governed.rate_limit.id), 800, DAY);
    expect(await served()).toBe('requests');
    // 6 of the key's 10 USD: 60 % (the team's 100 USD budget is at 6 %; the highest counts).
    await counters.increment(budgetCounterKey(governed.budgets[0].id), 6, DAY);
    await counters.increment(budgetCounterKey(teamBudgetId), 6, DAY);
    expect(await served()).toBe('budget');
  });

  it('a chain stops at routing_chain_max_depth', async () => {
    const listed = await s.admin.get(RULES);
    for (const r of listed.body.rules) await s.admin.delete(`${RULES}/${r.id}`);
    const step = (name: string, from: string, to: string) =>
      created(
        s.admin.post(RULES, {
          name,
          chain_rule: true,
          cel_expression: `model == "${from}"`,
          targets: [{ model: to, weight: 1 }],
        }),
      );
    await step('a', 'gpt-4o-mini', 'gpt-4o');
    await step('b', 'gpt-4o', 'gpt-4.1');
    await step('c', 'gpt-4.1', 'gpt-4.1-mini');
    const res = await s.inference.post('/v1/chat/completions', chat('openai/gpt-4o-mini'));
    expect(res.status, res.text).toBe(200);
    // Depth 2: a then b; c never runs.
    expect(res.headers.get('x-gateway-routing-info-model')).toBe('gpt-4.1');
    expect(res.headers.get('x-gateway-routing-info-routing-rule-name')).toBe('b');
  });
});

describe.skipIf(!TEST_REDIS_URL || RUN_MODE !== 'postgres')(`routing rules across replicas (${RUN_MODE})`, () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ config: OSS_CONFIG, keepDatabase: true });
    second = await startTestApp({
      config: { ...OSS_CONFIG, encryption_key: first.config.encryption_key },
      databaseUrl: first.databaseUrl,
      redisPrefix: first.config.redis_prefix,
    });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('a rule written on one replica decides on the other at once (invalidation bus, no restart)', async () => {
    const engine = second.app.get(RoutingRuleEngine);
    const request = {
      provider: 'openai' as const,
      model: 'gpt-4o-mini',
      requestType: 'chat_completion',
      headers: {},
      query: {},
    };
    expect(await engine.decide(request)).toBeUndefined();
    const res = await ossClient(first).post(RULES, {
      name: 'replicated',
      cel_expression: 'model == "gpt-4o-mini"',
      targets: [{ provider: 'anthropic', model: 'claude-sonnet-4-5', weight: 1 }],
    });
    expect(res.status, res.text).toBe(201);
    await vi.waitFor(async () => expect((await engine.decide(request))?.ruleName).toBe('replicated'), {
      timeout: 1000,
      interval: 20,
    });
    expect((await ossClient(first).put(`${RULES}/${res.body.rule.id}`, { enabled: false })).status).toBe(200);
    await vi.waitFor(async () => expect(await engine.decide(request)).toBeUndefined(), { timeout: 1000, interval: 20 });
  });
});
