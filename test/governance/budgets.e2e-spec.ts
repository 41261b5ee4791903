import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  answerWith,
  chat,
  createCustomer,
  createKey,
  createModelConfig,
  createTeam,
  exactChat,
  expectRefusal,
  governProvider,
  quota,
  settledQuota,
  startGovernedStack,
  upstreamCalls,
  type GovernedKey,
  type GovernedStack,
} from './limits-kit.js';

/**
 * Issue 11 §2 through /v1: every level refuses at exactly its figure with 402 `budget_exceeded`, before the provider
 * is called; windows reset on the injectable clock; cost is charged after the answer (streams on their final usage),
 * released when nothing was answered.
 */
describe('budgets on the request path', () => {
  let s: GovernedStack;
  beforeAll(async () => {
    s = await startGovernedStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  /** Three requests fit, the fourth is refused naming the level; the provider saw three. */
  async function refusesAtThree(key: GovernedKey, model: string, label: RegExp): Promise<void> {
    const { body, cost, usage } = exactChat(model);
    answerWith(s, usage);
    for (let i = 0; i < 3; i++) {
      const res = await chat(key, body);
      expect(res.status, res.text).toBe(200);
      expect(Number(res.headers.get('x-gateway-cost-usd'))).toBeCloseTo(cost, 12);
    }
    const refused = await chat(key, body);
    expectRefusal(refused, 402, 'budget_exceeded', 'policy_budget_exceeded');
    expect(refused.body.error.message).toMatch(label);
    expect(refused.body.error.message).toMatch(/budget exceeded: [\d.]+ of [\d.]+ dollars used/);
    expect(refused.body.extra_fields.governance.limit).toBeCloseTo(3 * cost, 12);
    expect(upstreamCalls(s)).toBe(3);
  }

  const threeOf = (model = 'openai/gpt-4o-mini') => [{ max_limit: 3 * exactChat(model).cost, reset_duration: '1h' }];

  it('virtual key', async () => {
    const key = await createKey(s, { name: 'budget-vk', budgets: threeOf() });
    await refusesAtThree(key, 'openai/gpt-4o-mini', /^Virtual key 'budget-vk' budget exceeded/);
  });

  it('provider config', async () => {
    const key = await createKey(s, {
      name: 'budget-pc',
      provider_configs: [{ provider: 'openai', weight: 1, allowed_models: ['*'], key_ids: ['*'], budgets: threeOf() }],
    });
    await refusesAtThree(key, 'openai/gpt-4o-mini', /^Provider config 'openai' budget exceeded/);
  });

  it('team', async () => {
    const team = await createTeam(s, { name: 'budget-team', budgets: threeOf() });
    const key = await createKey(s, { name: 'budget-team-key', team_id: team });
    await refusesAtThree(key, 'openai/gpt-4o-mini', /^Team 'budget-team' budget exceeded/);
  });

  it('customer', async () => {
    const customer = await createCustomer(s, { name: 'budget-customer', budgets: threeOf() });
    const key = await createKey(s, { name: 'budget-customer-key', customer_id: customer });
    await refusesAtThree(key, 'openai/gpt-4o-mini', /^Customer 'budget-customer' budget exceeded/);
  });

  it('provider governance (every key on the provider)', async () => {
    const model = 'gemini/gemini-2.0-flash';
    await governProvider(s, 'gemini', { budgets: threeOf(model) });
    const first = await createKey(s, { name: 'budget-provider-a' });
    const second = await createKey(s, { name: 'budget-provider-b' });
    const { body, usage } = exactChat(model);
    answerWith(s, usage);
    expect((await chat(first, body)).status).toBe(200);
    expect((await chat(second, body)).status).toBe(200);
    expect((await chat(first, body)).status).toBe(200);
    const refused = await chat(second, body);
    expectRefusal(refused, 402, 'budget_exceeded', 'policy_budget_exceeded');
    expect(refused.body.error.message).toMatch(/^Provider 'gemini' budget exceeded/);
    expect(upstreamCalls(s)).toBe(3);
    await governProvider(s, 'gemini', { budgets: [] });
  });

  it('model config (global, then scoped to a key)', async () => {
    const model = 'openai/gpt-4.1-nano';
    await createModelConfig(s, {
      model_name: 'gpt-4.1-nano',
      provider: 'openai',
      scope: 'global',
      budgets: threeOf(model),
    });
    await refusesAtThree(await createKey(s, { name: 'budget-mc' }), model, /^Model config '.*' budget exceeded/);

    s.sim.reset();
    const scoped = await createKey(s, { name: 'budget-mc-scoped' });
    const scopedModel = 'openai/gpt-4.1-mini';
    await createModelConfig(s, {
      model_name: '*',
      scope: 'virtual_key',
      scope_id: scoped.id,
      budgets: threeOf(scopedModel),
    });
    await refusesAtThree(scoped, scopedModel, /^Model config '.*' budget exceeded/);
  });

  it('a rolling window resets when the clock passes its end', async () => {
    const key = await createKey(s, { name: 'budget-window', budgets: [{ ...threeOf()[0]!, reset_duration: '1m' }] });
    await refusesAtThree(key, 'openai/gpt-4o-mini', /budget exceeded/);
    s.clock.advance(59_000);
    expect((await chat(key, exactChat().body)).status).toBe(402);
    s.clock.advance(1_000);
    expect((await chat(key, exactChat().body)).status).toBe(200);
  });

  it('the recorded usage is the provider-reported cost; a failed call without usage is not charged', async () => {
    const key = await createKey(s, { name: 'budget-usage', budgets: threeOf() });
    const { body, cost, usage } = exactChat();
    s.sim.scenario({ match: {}, responses: [{ fault: 'error', status: 400 }] });
    expect((await chat(key, body)).status).toBe(400);
    answerWith(s, usage);
    expect((await chat(key, body)).status).toBe(200);
    const stream = await key.client.post('/v1/chat/completions', {
      ...body,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(stream.status).toBe(200);
    const view = await settledQuota(key);
    const budget = view.budgets.find((b: any) => b.level === 'virtual_key');
    expect(budget.current_usage).toBeCloseTo(2 * cost, 12);
    expect(budget.reserved).toBe(0);
    expect(budget.max_limit).toBeCloseTo(3 * cost, 12);
  });
});

/** Calendar-aligned budgets reset on UTC boundaries; rolling ones of the same duration do not. */
describe('calendar-aligned budgets', () => {
  let s: GovernedStack;
  beforeAll(async () => {
    s = await startGovernedStack({}, Date.parse('2026-03-31T23:59:30Z'));
  });
  afterAll(() => s?.close());

  it('a 1d aligned budget starts again at UTC midnight; a rolling 1d one runs a full day', async () => {
    const { body, cost, usage } = exactChat();
    answerWith(s, usage);
    const aligned = await createKey(s, {
      name: 'aligned',
      budgets: [{ max_limit: cost, reset_duration: '1d', calendar_aligned: true }],
    });
    const rolling = await createKey(s, { name: 'rolling', budgets: [{ max_limit: cost, reset_duration: '1d' }] });
    for (const key of [aligned, rolling]) {
      expect((await chat(key, body)).status).toBe(200);
      expectRefusal(await chat(key, body), 402, 'budget_exceeded', 'policy_budget_exceeded');
    }
    s.clock.advance(31_000); // 2026-04-01T00:00:01Z
    expect((await chat(aligned, body)).status).toBe(200);
    expect((await chat(rolling, body)).status).toBe(402);
    const reset = (await quota(aligned)).budgets[0].reset_at;
    expect(reset).toBe('2026-04-02T00:00:00.000Z');
  });
});
