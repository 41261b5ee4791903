import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import {
  answerWith,
  chat,
  createKey,
  exactChat,
  quota,
  startGovernedStack,
  upstreamCalls,
  type GovernedStack,
} from './limits-kit.js';

const MODE = `${RUN_MODE}${TEST_REDIS_URL ? '+redis' : ''}`;

/**
 * Issue 11 §5, concurrency: 200 requests at once at a key that allows exactly 50. The reservation before the call is
 * what makes it exact: 50 reach the provider (the simulator's count), 150 are refused, and the usage recorded is the
 * provider-reported cost to the cent.
 */
describe(`limits under concurrency (${MODE})`, () => {
  let s: GovernedStack;
  beforeAll(async () => {
    s = await startGovernedStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('a budget of exactly 50 requests: 50 served, 150 × 402, usage = reported cost', async () => {
    const { body, cost, usage } = exactChat('openai/gpt-4o-mini', 64);
    // Slow answers: every reservation is decided while the first ones are still in flight.
    s.sim.scenario({ match: {}, responses: [{ ok: true, usage, delay_ms: 100 }], repeat: true });
    const key = await createKey(s, { name: 'burst-budget', budgets: [{ max_limit: 50 * cost, reset_duration: '1d' }] });
    const results = await Promise.all(Array.from({ length: 200 }, () => chat(key, body)));
    const served = results.filter((r) => r.status === 200);
    expect(served).toHaveLength(50);
    expect(results.filter((r) => r.status === 402)).toHaveLength(150);
    expect(upstreamCalls(s)).toBe(50);
    const charged = served.reduce((sum, r) => sum + Number(r.headers.get('x-gateway-cost-usd')), 0);
    const budget = (await quota(key)).budgets[0];
    expect(budget.reserved).toBe(0);
    expect(Math.round(budget.current_usage * 100)).toBe(Math.round(charged * 100));
    expect(budget.current_usage).toBeCloseTo(50 * cost, 12);
  });

  it('a request limit of 50: 50 served, 150 × 429', async () => {
    s.sim.scenario({ match: {}, responses: [{ ok: true, delay_ms: 100 }], repeat: true });
    const key = await createKey(s, {
      name: 'burst-requests',
      rate_limit: { request_max_limit: 50, request_reset_duration: '1h' },
    });
    const results = await Promise.all(Array.from({ length: 200 }, () => chat(key, exactChat().body)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(50);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(150);
    expect(refused.every((r) => r.body.error.code === 'request_limited')).toBe(true);
    expect(upstreamCalls(s)).toBe(50);
    expect((await quota(key)).rate_limits[0].request_current_usage).toBe(50);
  });

  it('the same key without limits is not slowed or refused', async () => {
    answerWith(s, exactChat().usage);
    const key = await createKey(s, { name: 'burst-free' });
    const results = await Promise.all(Array.from({ length: 200 }, () => chat(key, exactChat().body)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(upstreamCalls(s)).toBe(200);
  });
});
