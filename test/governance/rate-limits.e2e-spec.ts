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
 * Issue 11 §3 through /v1: request and token limits, each with its own window, at every level; 429 with
 * `request_limited` / `token_limited`, `Retry-After`, and `x-ratelimit-*` headers of the tightest level on every
 * governed response.
 */
describe('rate limits on the request path', () => {
  let s: GovernedStack;
  beforeAll(async () => {
    s = await startGovernedStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => {
    s.sim.reset();
    answerWith(s, exactChat().usage);
  });

  const twoPerMinute = { request_max_limit: 2, request_reset_duration: '1m' };

  async function refusesTheThird(key: GovernedKey, model: string, label: RegExp): Promise<void> {
    const { body, usage } = exactChat(model);
    answerWith(s, usage);
    expect((await chat(key, body)).status).toBe(200);
    expect((await chat(key, body)).status).toBe(200);
    const refused = await chat(key, body);
    expectRefusal(refused, 429, 'request_limited', 'policy_rate_limited');
    expect(refused.body.error.message).toMatch(label);
    expect(refused.body.error.message).toMatch(/request limit exceeded \(2\/2, resets every 1m\)/);
    expect(upstreamCalls(s)).toBe(2);
  }

  it('a request limit refuses at its figure, with Retry-After and the headers; the window resets on the clock', async () => {
    const key = await createKey(s, {
      name: 'rl-vk',
      rate_limit: { request_max_limit: 3, request_reset_duration: '1m' },
    });
    const { body } = exactChat();
    for (const remaining of ['2', '1', '0']) {
      const res = await chat(key, body);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-ratelimit-limit-requests')).toBe('3');
      expect(res.headers.get('x-ratelimit-remaining-requests')).toBe(remaining);
      expect(res.headers.get('x-ratelimit-reset-requests')).toBe('1m0s');
    }
    const refused = await chat(key, body);
    expectRefusal(refused, 429, 'request_limited', 'policy_rate_limited');
    expect(refused.body.error.message).toBe("Virtual key 'rl-vk' request limit exceeded (3/3, resets every 1m)");
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(upstreamCalls(s)).toBe(3);

    s.clock.advance(30_000);
    const later = await chat(key, body);
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('30');
    s.clock.advance(30_000);
    expect((await chat(key, body)).status).toBe(200);
  });

  it('a provider failure after admission carries the x-ratelimit headers too, and its slot is given back', async () => {
    const key = await createKey(s, {
      name: 'rl-upstream-fails',
      rate_limit: { request_max_limit: 3, request_reset_duration: '1m' },
    });
    s.sim.reset();
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 400 }] });
    const failed = await chat(key, exactChat().body);
    expect(failed.status, failed.text).toBe(400);
    expect(failed.body.extra_fields.error_type).not.toBe('policy_rate_limited');
    expect(failed.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(failed.headers.get('x-ratelimit-remaining-requests')).toBe('2');
    expect(failed.headers.get('x-ratelimit-reset-requests')).toBe('1m0s');
    // The failed attempt's reservation was released: the next answer still sees 2 left after it.
    answerWith(s, exactChat().usage);
    const served = await chat(key, exactChat().body);
    expect(served.status, served.text).toBe(200);
    expect(served.headers.get('x-ratelimit-remaining-requests')).toBe('2');
  });

  it('a token limit counts the reported tokens, refuses what would cross it, and has its own window', async () => {
    const { body, tokens } = exactChat();
    const key = await createKey(s, {
      name: 'rl-tokens',
      rate_limit: {
        token_max_limit: 2 * tokens,
        token_reset_duration: '1h',
        request_max_limit: 100,
        request_reset_duration: '1m',
      },
    });
    const first = await chat(key, body);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit-tokens')).toBe(String(2 * tokens));
    expect(first.headers.get('x-ratelimit-remaining-tokens')).toBe(String(tokens));
    expect(first.headers.get('x-ratelimit-reset-tokens')).toBe('1h0m0s');
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('100');
    expect((await chat(key, body)).status).toBe(200);
    const refused = await chat(key, body);
    expectRefusal(refused, 429, 'token_limited', 'policy_rate_limited');
    expect(refused.body.error.message).toMatch(/^Virtual key 'rl-tokens' token limit exceeded/);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect((await quota(key)).rate_limits[0]).toMatchObject({
      token_max_limit: 2 * tokens,
      token_current_usage: 2 * tokens,
      request_current_usage: 2,
    });
    // The request window (1m) rolls over; the token window (1h) does not.
    s.clock.advance(60_000);
    expect((await chat(key, body)).status).toBe(429);
    s.clock.advance(3_540_000);
    expect((await chat(key, body)).status).toBe(200);
  });

  it('tokens are settled on the real usage, not the estimate', async () => {
    const { body, tokens } = exactChat('openai/gpt-4o-mini', 400);
    const key = await createKey(s, {
      name: 'rl-settle',
      rate_limit: { token_max_limit: 10 * tokens, token_reset_duration: '1h' },
    });
    s.sim.reset();
    answerWith(s, { input_tokens: 5, output_tokens: 7 });
    expect((await chat(key, body)).status).toBe(200);
    expect((await quota(key)).rate_limits[0].token_current_usage).toBe(12);
  });

  it('provider config', async () => {
    const key = await createKey(s, {
      name: 'rl-pc',
      provider_configs: [
        { provider: 'openai', weight: 1, allowed_models: ['*'], key_ids: ['*'], rate_limit: twoPerMinute },
      ],
    });
    await refusesTheThird(key, 'openai/gpt-4o-mini', /^Provider config 'openai' request limit exceeded/);
  });

  it('team and customer', async () => {
    const team = await createTeam(s, { name: 'rl-team', rate_limit: twoPerMinute });
    await refusesTheThird(
      await createKey(s, { name: 'rl-team-key', team_id: team }),
      'openai/gpt-4o-mini',
      /^Team 'rl-team' request limit exceeded/,
    );
    s.sim.reset();
    const customer = await createCustomer(s, { name: 'rl-customer', rate_limit: twoPerMinute });
    await refusesTheThird(
      await createKey(s, { name: 'rl-customer-key', customer_id: customer }),
      'openai/gpt-4o-mini',
      /^Customer 'rl-customer' request limit exceeded/,
    );
  });

  it('provider governance and model configs', async () => {
    await governProvider(s, 'anthropic', { rate_limit: twoPerMinute });
    await refusesTheThird(
      await createKey(s, { name: 'rl-provider' }),
      'anthropic/claude-3-5-haiku-latest',
      /^Provider 'anthropic' request limit exceeded/,
    );
    await governProvider(s, 'anthropic', { budgets: [] });
    s.sim.reset();
    await createModelConfig(s, { model_name: 'gemini-2.5-flash', scope: 'global', rate_limit: twoPerMinute });
    await refusesTheThird(
      await createKey(s, { name: 'rl-model' }),
      'gemini/gemini-2.5-flash',
      /^Model config '.*' request limit exceeded/,
    );
  });

  it('the headers show the tightest level', async () => {
    const team = await createTeam(s, {
      name: 'rl-tight',
      rate_limit: { request_max_limit: 3, request_reset_duration: '1h' },
    });
    const key = await createKey(s, {
      name: 'rl-tight-key',
      team_id: team,
      rate_limit: { request_max_limit: 10, request_reset_duration: '1m' },
    });
    const res = await chat(key, exactChat().body);
    expect(res.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining-requests')).toBe('2');
    expect(res.headers.get('x-ratelimit-reset-requests')).toBe('1h0m0s');
  });

  it('far below its limits (leased counters on Redis), each answer counts down by one and the quota counts all', async () => {
    const { body, cost, tokens, usage } = exactChat();
    answerWith(s, usage);
    const key = await createKey(s, {
      name: 'rl-far',
      budgets: [{ max_limit: 100_000 * cost, reset_duration: '1h' }],
      rate_limit: {
        request_max_limit: 10_000,
        request_reset_duration: '1m',
        token_max_limit: 100_000 * tokens,
        token_reset_duration: '1m',
      },
    });
    const remaining: Array<[number, number]> = [];
    for (let i = 0; i < 60; i++) {
      const res = await chat(key, body);
      expect(res.status, res.text).toBe(200);
      const header = (unit: string) => Number(res.headers.get(`x-ratelimit-remaining-${unit}`));
      remaining.push([header('requests'), header('tokens')]);
    }
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => [9_999 - i, (100_000 - i - 1) * tokens]));
    expect(upstreamCalls(s)).toBe(60);
    const view = await settledQuota(key);
    expect(view.rate_limits[0]).toMatchObject({ request_current_usage: 60, token_current_usage: 60 * tokens });
    expect(view.budgets[0].current_usage).toBeCloseTo(60 * cost, 12);
  });

  it('a key without limits gets no x-ratelimit headers', async () => {
    const res = await chat(await createKey(s, { name: 'rl-none' }), exactChat().body);
    expect(res.status).toBe(200);
    expect([...res.headers.keys()].filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
  });
});
