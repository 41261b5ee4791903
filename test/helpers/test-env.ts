/**
 * Which run mode the suite is in. `npm test` runs on the embedded default; CI runs it again with DATABASE_URL and
 * REDIS_URL pointing at real Postgres and Redis.
 */
export const TEST_DATABASE_URL = process.env.DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.REDIS_URL || undefined;
export const RUN_MODE = TEST_DATABASE_URL ? 'postgres' : 'embedded';
