import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock/clock.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { chat, createKey, exactChat, expectRefusal } from './limits-kit.js';
import { startRedisProxy, type RedisProxy } from './redis-proxy.js';

const limited = { rate_limit: { request_max_limit: 2, request_reset_duration: '1h' } };

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Issue 11 §3: Redis down. A governed request is answered by `governance.redis_failure_mode` within
 * `counter_timeout`, never left hanging: `closed` refuses with 503 `gateway_limits_unavailable`, `open` serves and
 * counts in the process. Keys without limits do no counter work and are served either way.
 */
describe.skipIf(!TEST_REDIS_URL).each(['closed', 'open'] as const)('Redis down, redis_failure_mode %s', (mode) => {
  let s: InferenceStack;
  let proxy: RedisProxy;
  beforeAll(async () => {
    proxy = await startRedisProxy(TEST_REDIS_URL!);
    s = await startInferenceStack(
      { governance: { redis_failure_mode: mode, counter_timeout: '300ms' } },
      { redisUrl: proxy.url, clock: new ManualClock() },
    );
  });
  afterAll(async () => {
    proxy?.restore();
    // Every connection (counters, queues, the invalidation bus) back through the proxy before the app closes them.
    await eventually(async () => (await s.gw.http.get('/health')).status === 200).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 2_000));
    await s?.close();
    await proxy?.close();
  });

  it('answers within the timeout, by the mode, and recovers when Redis is back', async () => {
    const { body } = exactChat();
    const governed = await createKey(s, { name: `down-${mode}`, ...limited });
    const free = await createKey(s, { name: `down-free-${mode}` });
    expect((await chat(governed, body)).status).toBe(200);

    proxy.cut();
    const started = Date.now();
    const during = await chat(governed, body);
    expect(Date.now() - started).toBeLessThan(2_000);
    if (mode === 'closed') {
      expectRefusal(during, 503, 'gateway_limits_unavailable', 'gateway_internal');
    } else {
      expect(during.status, during.text).toBe(200);
      // Counted in the process: the local count has a window of its own, the limit still holds there.
      expect((await chat(governed, body)).status).toBe(200);
      expectRefusal(await chat(governed, body), 429, 'request_limited', 'policy_rate_limited');
    }
    expect((await chat(free, body)).status).toBe(200);

    proxy.restore();
    // Back on the shared counters: one request was counted there before the cut.
    await eventually(async () => (await chat(governed, body)).status === 200);
    expectRefusal(await chat(governed, body), 429, 'request_limited', 'policy_rate_limited');
  });
});
