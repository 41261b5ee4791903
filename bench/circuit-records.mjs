// What a replica's circuit re-read (every 5 s, and after a Redis reconnection) costs as the Redis keyspace grows: the
// built counter store reads every record of the `circuits` namespace with `--open` circuits open, beside `--keys`
// other keys under the same prefix (the counters and cache entries of a busy deployment). Reports the time of one
// read and the Redis commands it sent (from INFO commandstats; run it on a Redis nobody else is using).
//
// Usage: npm run build && node bench/circuit-records.mjs [--keys 200000] [--open 5] [--runs 20]
//   (BENCH_REDIS_URL, default redis://127.0.0.1:6379)
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { RedisCounterStore } from '../dist/src/core/redis/redis-counter.store.js';
import { DEFAULT_REDIS_URL, deleteKeys } from './lib/scale-out.mjs';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '200000' },
    open: { type: 'string', default: '5' },
    runs: { type: 'string', default: '20' },
  },
});
const otherKeys = Number(values.keys);
const open = Number(values.open);
const runs = Number(values.runs);
const redisUrl = process.env.BENCH_REDIS_URL || DEFAULT_REDIS_URL;
const redis = new Redis(redisUrl);
const prefix = `gwbench${randomBytes(6).toString('hex')}`;

async function commandCalls() {
  const calls = new Map();
  for (const [, name, count] of (await redis.info('commandstats')).matchAll(/cmdstat_(\w+):calls=(\d+)/g)) {
    calls.set(name, Number(count));
  }
  return calls;
}

try {
  for (let i = 0; i < otherKeys; i += 10_000) {
    const batch = [];
    for (let j = i; j < Math.min(otherKeys, i + 10_000); j++) batch.push(`${prefix}:counters:other:${j}`, '1');
    await redis.mset(...batch);
  }
  const store = new RedisCounterStore(redis, prefix, 'circuits');
  for (let i = 0; i < open; i++) await store.putRecord(`policy-${i}:openai/gpt-4o`, '{"state":"open"}', 60_000);
  await store.records('');
  const before = await commandCalls();
  const started = performance.now();
  let found = 0;
  for (let i = 0; i < runs; i++) found = (await store.records('')).size;
  const perRead = (performance.now() - started) / runs;
  const after = await commandCalls();
  const sent = [...after]
    .map(([name, count]) => [name, (count - (before.get(name) ?? 0)) / runs])
    .filter(([name, count]) => count > 0 && name !== 'info')
    .map(([name, count]) => `${name} ${count}`);
  console.log(
    `records of ${found} open circuits beside ${otherKeys} other keys: ${perRead.toFixed(2)} ms a read; ` +
      `Redis commands a read: ${sent.join(', ')}`,
  );
} finally {
  redis.disconnect();
  await deleteKeys(redisUrl, `${prefix}:*`);
}
