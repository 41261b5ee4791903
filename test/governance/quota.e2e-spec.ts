import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RFC3339_UTC } from './governance-test-kit.js';
import {
  answerWith,
  chat,
  createCustomer,
  createKey,
  exactChat,
  quota,
  settledQuota,
  startGovernedStack,
  type GovernedStack,
} from './limits-kit.js';

/** `GET /api/governance/virtual-keys/quota`: a key's own view of every budget and limit covering it. */
describe('virtual key quota', () => {
  let s: GovernedStack;
  beforeAll(async () => {
    s = await startGovernedStack();
  });
  afterAll(() => s?.close());

  it('takes a virtual key only', async () => {
    expect((await s.gw.http.get('/api/governance/virtual-keys/quota')).status).toBe(401);
    const management = await s.admin.get('/api/governance/virtual-keys/quota');
    expect(management.status).toBe(401);
    const key = await createKey(s, { name: 'quota-plain' });
    expect(await quota(key)).toEqual({ virtual_key_id: key.id, name: 'quota-plain', budgets: [], rate_limits: [] });
    const viaHeader = await s.gw.http.get('/api/governance/virtual-keys/quota', {
      headers: { 'x-gateway-vk': key.value },
    });
    expect(viaHeader.status).toBe(200);
  });

  it('lists every level covering the key with usage, limit and reset time', async () => {
    const { body, cost, tokens, usage } = exactChat();
    answerWith(s, usage);
    const customer = await createCustomer(s, {
      name: 'quota-customer',
      budgets: [{ max_limit: 10, reset_duration: '1M' }],
      rate_limit: { request_max_limit: 100, request_reset_duration: '1h' },
    });
    const key = await createKey(s, {
      name: 'quota-full',
      customer_id: customer,
      budgets: [{ max_limit: 1, reset_duration: '1d' }],
      rate_limit: { token_max_limit: 1000, token_reset_duration: '1h' },
      provider_configs: [
        {
          provider: 'openai',
          weight: 1,
          allowed_models: ['*'],
          key_ids: ['*'],
          budgets: [{ max_limit: 2, reset_duration: '1w' }],
        },
      ],
    });
    expect((await chat(key, body)).status).toBe(200);
    const view = await settledQuota(key);
    const budgets = Object.fromEntries(view.budgets.map((b: any) => [b.level, b]));
    expect(Object.keys(budgets).sort()).toEqual(['customer', 'provider_config', 'virtual_key']);
    expect(budgets.virtual_key).toMatchObject({
      level_name: 'quota-full',
      max_limit: 1,
      reset_duration: '1d',
      reserved: 0,
    });
    expect(budgets.customer).toMatchObject({ level_id: customer, level_name: 'quota-customer', max_limit: 10 });
    expect(budgets.provider_config).toMatchObject({ level_name: 'openai', max_limit: 2, reset_duration: '1w' });
    for (const b of view.budgets) {
      expect(b.current_usage).toBeCloseTo(cost, 12);
      expect(b.reset_at).toMatch(RFC3339_UTC);
    }
    const limits = Object.fromEntries(view.rate_limits.map((r: any) => [r.level, r]));
    expect(limits.customer).toMatchObject({
      level_id: customer,
      request_max_limit: 100,
      request_reset_duration: '1h',
      request_current_usage: 1,
      token_max_limit: null,
      token_current_usage: null,
    });
    expect(limits.virtual_key).toMatchObject({
      token_max_limit: 1000,
      token_current_usage: tokens,
      request_max_limit: null,
    });
    expect(Date.parse(limits.virtual_key.token_reset_at)).toBe(s.clock.now() + 3_600_000);
  });
});
