// The scale-out run mode for a bench without touching anyone else's data: a scratch database `gw_bench_<random>`
// created on the given (shared) Postgres server and dropped at the end, and a unique Redis key prefix whose keys
// are deleted at the end. Both are undone on cleanup, on error and on signals too.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { onCleanup } from './cleanup.mjs';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** True when the scale-out mode was asked for (`--scale-out`, BENCH_DATABASE_URL or BENCH_REDIS_URL). */
export function scaleOutRequested(argv = process.argv) {
  return argv.includes('--scale-out') || Boolean(process.env.BENCH_DATABASE_URL || process.env.BENCH_REDIS_URL);
}

/**
 * Creates the scratch database and picks the Redis prefix. Returns `{ env, databaseName, redisPrefix, drop() }`:
 * `env` holds DATABASE_URL, REDIS_URL and GATEWAY_REDIS_PREFIX for the gateway; `drop()` (also run on cleanup; call
 * it after the gateway has stopped) drops the database (unless `keepDatabase`: then it is the caller's to drop),
 * deletes the prefix's keys and resolves `{ deletedKeys }`.
 */
export async function createScratchScaleOut({
  databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL,
  redisUrl = process.env.BENCH_REDIS_URL || DEFAULT_REDIS_URL,
  keepDatabase = false,
} = {}) {
  const suffix = randomBytes(6).toString('hex');
  const databaseName = `gw_bench_${suffix}`;
  const redisPrefix = `gwbench${suffix}`;

  const admin = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${databaseName}`);
  } finally {
    await admin.end();
  }
  const scratchUrl = new URL(databaseUrl);
  scratchUrl.pathname = `/${databaseName}`;

  // Fail early (before the gateway starts) when Redis is not there.
  const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000 });
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    probe.disconnect();
    await dropDatabase(databaseUrl, databaseName);
    throw new Error(`Redis at ${redisUrl} is not reachable: ${err.message}`, { cause: err });
  }
  probe.disconnect();

  const drop = onCleanup(async () => {
    const deletedKeys = await deleteKeys(redisUrl, `${redisPrefix}*`);
    if (!keepDatabase) await dropDatabase(databaseUrl, databaseName);
    return { deletedKeys };
  });
  return {
    env: { DATABASE_URL: scratchUrl.toString(), REDIS_URL: redisUrl, GATEWAY_REDIS_PREFIX: redisPrefix },
    databaseName,
    redisPrefix,
    drop,
  };
}

async function dropDatabase(databaseUrl, databaseName) {
  const admin = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Deletes every key matching `pattern` (SCAN + UNLINK); resolves to how many. */
export async function deleteKeys(redisUrl, pattern) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 5000 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/**
 * The scale-out environment of a bench: a database kept by an earlier run (`--database <name>`: not dropped, pending
 * migrations run at the gateway's start) or a new scratch one (`keepDatabase`: left in place at the end).
 */
export async function benchScaleOut({ database, keepDatabase = false } = {}) {
  if (!database) return createScratchScaleOut({ keepDatabase });
  const url = new URL(process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL);
  url.pathname = `/${database}`;
  const redisUrl = process.env.BENCH_REDIS_URL || DEFAULT_REDIS_URL;
  // A Redis prefix of its own all the same, so two benches on the same server never share keys.
  const redisPrefix = `gwbench${randomBytes(6).toString('hex')}`;
  const drop = onCleanup(async () => ({ deletedKeys: await deleteKeys(redisUrl, `${redisPrefix}*`) }));
  return {
    databaseName: database,
    redisPrefix,
    env: { DATABASE_URL: url.toString(), REDIS_URL: redisUrl, GATEWAY_REDIS_PREFIX: redisPrefix },
    drop,
  };
}
