import { randomUUID } from 'node:crypto';
import type { Redis as RedisClient } from 'ioredis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InvalidationBus, LocalInvalidationBus } from '../../src/core/redis/invalidation.bus.js';
import { RedisInvalidationBus } from '../../src/core/redis/redis-invalidation.bus.js';
import { REDIS } from '../../src/core/redis/redis.module.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';

const MODE = `${RUN_MODE}${TEST_REDIS_URL ? '+redis' : ''}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const topic = () => `test.${randomUUID()}`;

/** Every message a new handler of the topic receives, in order. */
function listen(bus: InvalidationBus, name: string): Array<string | undefined> {
  const seen: Array<string | undefined> = [];
  bus.subscribe(name, (message) => seen.push(message));
  return seen;
}

describe(`invalidation bus on one replica (${MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('is the Redis bus exactly when Redis is configured', () => {
    const bus = gw.app.get(InvalidationBus);
    expect(bus).toBeInstanceOf(TEST_REDIS_URL ? RedisInvalidationBus : LocalInvalidationBus);
  });

  it("publish runs this replica's handlers of the topic before it settles, once each; unsubscribe stops them", async () => {
    const bus = gw.app.get(InvalidationBus);
    const t = topic();
    const first = listen(bus, t);
    const second: Array<string | undefined> = [];
    const unsubscribe = bus.subscribe(t, (message) => second.push(message));
    const elsewhere = listen(bus, topic());

    const published = bus.publish(t, 'key-1');
    expect(first).toEqual(['key-1']);
    await published;
    await bus.publish(t);
    expect(first).toEqual(['key-1', undefined]);
    expect(second).toEqual(['key-1', undefined]);
    expect(elsewhere).toEqual([]);

    unsubscribe();
    await bus.publish(t, 'key-2');
    // Long enough for this replica's own message to come back through Redis, which it must ignore.
    await sleep(100);
    expect(first).toEqual(['key-1', undefined, 'key-2']);
    expect(second).toEqual(['key-1', undefined]);
  });

  it('a failing handler does not stop the others, and is logged', async () => {
    const bus = gw.app.get(InvalidationBus);
    const t = topic();
    bus.subscribe(t, () => {
      throw new Error('handler broke');
    });
    const after = listen(bus, t);
    await expect(bus.publish(t, 'x')).resolves.toBeUndefined();
    expect(after).toEqual(['x']);
    expect(gw.logs.records().some((l) => l.msg === 'invalidation handler failed' && l.err === 'handler broke')).toBe(
      true,
    );
  });
});

describe.skipIf(!TEST_REDIS_URL)('invalidation bus across replicas sharing a Redis prefix', () => {
  let a: TestApp;
  let b: TestApp;
  let other: TestApp;
  let redis: RedisClient;
  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ redisPrefix: a.config.redis_prefix });
    other = await startTestApp();
    redis = new Redis(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    redis?.disconnect();
    await b?.close();
    await a?.close();
    await other?.close();
  });

  it('a publish on one replica runs the handlers of the other, and its own once; other prefixes hear nothing', async () => {
    const t = topic();
    const onA = listen(a.app.get(InvalidationBus), t);
    const onB = listen(b.app.get(InvalidationBus), t);
    const onOther = listen(other.app.get(InvalidationBus), t);
    await a.app.get(InvalidationBus).publish(t, 'key-1');
    expect(onA).toEqual(['key-1']);
    await vi.waitFor(() => expect(onB).toEqual(['key-1']), { timeout: 2000, interval: 10 });
    await b.app.get(InvalidationBus).publish(t);
    await vi.waitFor(() => expect(onA).toEqual(['key-1', undefined]), { timeout: 2000, interval: 10 });
    // Both messages have gone round by now; nobody heard one twice.
    await sleep(100);
    expect(onA).toEqual(['key-1', undefined]);
    expect(onB).toEqual(['key-1', undefined]);
    expect(onOther).toEqual([]);
  });

  it('after its subscriber reconnects, every handler starts over (undefined), and messages flow again', async () => {
    const t = topic();
    const onA = listen(a.app.get(InvalidationBus), t);
    const onB = listen(b.app.get(InvalidationBus), t);
    const clients = (await redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
    const ids = clients
      .split('\n')
      .filter((line) => line.includes(` name=${a.config.redis_prefix}:invalidation-bus `))
      .map((line) => /^id=(\d+)/.exec(line)?.[1]);
    expect(ids).toHaveLength(2);
    for (const id of ids) await redis.call('CLIENT', 'KILL', 'ID', id!);
    await vi.waitFor(() => expect([onA, onB]).toEqual([[undefined], [undefined]]), { timeout: 5000, interval: 20 });
    await a.app.get(InvalidationBus).publish(t, 'after');
    await vi.waitFor(() => expect(onB).toEqual([undefined, 'after']), { timeout: 2000, interval: 10 });
    expect(onA).toEqual([undefined, 'after']);
  });

  it('a failed Redis publish is logged at warn and does not throw; local handlers have run', async () => {
    const t = topic();
    const bus = other.app.get(InvalidationBus);
    const local = listen(bus, t);
    other.app.get<RedisClient>(REDIS).disconnect();
    await expect(bus.publish(t, 'lost')).resolves.toBeUndefined();
    expect(local).toEqual(['lost']);
    const warning = other.logs.records().find((l) => l.msg === 'could not publish an invalidation');
    expect(warning).toMatchObject({ level: 'warn', topic: t, context: 'invalidation-bus' });
  });
});
