import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

/** Set by global setup: the PGlite dump with every migration applied (a file path). */
export const PGLITE_TEMPLATE_ENV = 'GW_TEST_PGLITE_TEMPLATE';
/**
 * Set by global setup: an embedded data dir on disk with every migration applied, as a gateway leaves it in
 * `<app-dir>/pgdata` (a directory path). Spawned gateways start on a copy unless a suite tests the first start.
 */
export const PGLITE_DATA_DIR_TEMPLATE_ENV = 'GW_TEST_PGLITE_DATA_DIR';
/** Set by global setup: the migrated Postgres database that scratch databases are copied from. */
export const PG_TEMPLATE_ENV = 'GW_TEST_PG_TEMPLATE';

/**
 * Creates a database on the test server for one suite and returns its URL and a drop function: a copy of the run's
 * migrated template, or an empty one with `empty` (tests of the migrations themselves).
 */
export async function createScratchDatabase(
  serverUrl: string,
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? undefined : process.env[PG_TEMPLATE_ENV];
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabaseByUrl(serverUrl, url.toString()) };
}

export async function dropDatabaseByUrl(serverUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^gw_test_[0-9a-f]+$/.test(name)) throw new Error(`refusing to drop ${name}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.end();
}

/** Deletes every Redis key a test app wrote under its own prefix. */
export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  if (!/^gwt-[0-9a-f]+$/.test(prefix)) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/**
 * A new app dir for a gateway process started with `env`: on the embedded default (no DATABASE_URL) it holds a copy of
 * the run's migrated data dir, so the process opens an existing database instead of running initdb and every
 * migration (about 4 s of CPU). Suites that test a first start make their own empty dir.
 */
export function migratedAppDir(env: Record<string, string>, prefix = 'gw-spawned-'): string {
  const appDir = mkdtempSync(join(tmpdir(), prefix));
  const template = process.env[PGLITE_DATA_DIR_TEMPLATE_ENV];
  if (template && !env.DATABASE_URL) cpSync(template, join(appDir, 'pgdata'), { recursive: true });
  return appDir;
}
