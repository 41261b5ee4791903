import pg from 'pg';
import { Redis } from 'ioredis';

/** Fails fast with a clear message when the configured Postgres or Redis cannot be reached. */
export default async function setup(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  process.stdout.write(
    `test mode: database ${databaseUrl ? 'postgres' : 'embedded (PGlite)'}, queue ${redisUrl ? 'redis (BullMQ)' : 'in-process'}\n`,
  );
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.end();
  }
  if (redisUrl) {
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await redis.quit();
  }
}
