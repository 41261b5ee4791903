import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../helpers/test-env.js';
import { startRedisProxy, type RedisProxy } from '../governance/redis-proxy.js';
import { startInferenceStack, type InferenceStack } from './inference-kit.js';

const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'queued while down' }] };

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Issue 18 §3: an async submit while Redis does not answer. The row is stored first, so the submit answers 202 at
 * once instead of waiting for BullMQ to reconnect (it used to hang until Redis was back), and the job completes once
 * Redis answers again. The system suite test/system/redis-outage.system-spec.ts does the same with Redis stopped.
 */
describe.skipIf(!TEST_REDIS_URL)('async submit with Redis down', () => {
  let s: InferenceStack;
  let proxy: RedisProxy;
  beforeAll(async () => {
    proxy = await startRedisProxy(TEST_REDIS_URL!);
    s = await startInferenceStack({}, { redisUrl: proxy.url });
  });
  afterAll(async () => {
    proxy?.restore();
    // Every connection back through the proxy before the app closes them.
    await eventually(async () => ((await s.gw.http.get('/health')).status === 200 ? true : undefined), 10_000).catch(
      () => undefined,
    );
    // As in redis-failure-mode.e2e-spec.ts: BullMQ's connections reconnect on their own backoff before closing.
    await new Promise((r) => setTimeout(r, 2_000));
    await s?.close();
    await proxy?.close();
  }, 120_000);

  it('accepts the job within a second and a margin, and runs it once Redis is back', async () => {
    proxy.cut();
    const started = Date.now();
    const submitted = await s.inference.post('/v1/async/chat/completions', chat);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(submitted.status, submitted.text).toBe(202);
    expect(submitted.body).toMatchObject({ status: 'pending' });
    const id = submitted.body.id as string;
    expect((await s.inference.get(`/v1/async/chat/completions/${id}`)).status).toBe(202);

    proxy.restore();
    const done = await eventually(async () => {
      const poll = await s.inference.get(`/v1/async/chat/completions/${id}`);
      return poll.status === 200 ? poll : undefined;
    }, 30_000);
    expect(done.body.status, done.text).toBe('completed');
    expect(done.body.result.choices[0].message.content).toBe('echo: queued while down');
  });
});
