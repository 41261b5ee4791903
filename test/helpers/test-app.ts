import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createGatewayApp } from '../../src/app.factory.js';
import type { Clock } from '../../src/core/clock/clock.js';
import { loadConfig } from '../../src/core/config/config.loader.js';
import type { GatewayConfig } from '../../src/core/config/gateway-config.js';
import type { RouteTable } from '../../src/core/http/route-table.js';
import { createLogger } from '../../src/core/logging/logger.js';
import { recordConfigSecrets } from './evidence.js';
import { createScratchDatabase, deleteRedisPrefix, dropDatabaseByUrl, PGLITE_TEMPLATE_ENV } from './databases.js';
import { HttpClient } from './http.js';
import { LogCapture } from './log-capture.js';
import { borrowPGlite } from './pglite-lender.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './test-env.js';

let template: Promise<Blob | undefined> | undefined;
/** The migrated PGlite data dir that global setup dumped once for the whole run. */
function pgliteTemplate(): Promise<Blob | undefined> {
  const path = process.env[PGLITE_TEMPLATE_ENV];
  template ??= path ? readFile(path).then((bytes) => new Blob([bytes])) : Promise.resolve(undefined);
  return template;
}

export interface TestAppOptions {
  /** Config keys as in the config file (snake_case), merged over the test defaults. */
  config?: Record<string, unknown>;
  /** Environment visible to the config loader (only these variables). */
  env?: Record<string, string>;
  /** Keep the embedded database on disk in this app dir (restart tests); default is in memory. */
  appDir?: string;
  /** Reuse a database created by an earlier app of the same suite (restart tests on Postgres). */
  databaseUrl?: string;
  /** Share the Redis key prefix of an earlier app (replica tests). */
  redisPrefix?: string;
  /** Leave the Postgres database in place on close, for a second app started with `databaseUrl`. */
  keepDatabase?: boolean;
  /** Extra Nest modules mounted beside the gateway's (test-only controllers). */
  extraModules?: Array<Type | DynamicModule>;
  /** The clock of budget and rate-limit windows: a ManualClock moves windows without sleeps. */
  clock?: Clock;
  /** In the Redis run mode: reach Redis at this URL instead (a proxy the test can cut). */
  redisUrl?: string;
}

export interface TestApp {
  app: NestFastifyApplication;
  config: GatewayConfig;
  routes: RouteTable;
  baseUrl: string;
  http: HttpClient;
  logs: LogCapture;
  /** Database URL of this app in Postgres mode (to start a second app on the same data). */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * Starts a real gateway on a loopback port with a clean database: in-memory PGlite in the embedded mode (the worker's
 * migrated instance reset for this app, or a copy of the run's dump: pglite-lender.ts), a fresh Postgres database per
 * app in Postgres mode, and a unique Redis key prefix when REDIS_URL is set.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  let databaseUrl = options.databaseUrl;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (!databaseUrl && TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(TEST_DATABASE_URL);
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  } else if (databaseUrl && TEST_DATABASE_URL) {
    const serverUrl = TEST_DATABASE_URL;
    const existing = databaseUrl;
    dropDatabase = () => dropDatabaseByUrl(serverUrl, existing);
  }
  const appDir = options.appDir ?? mkdtempSync(join(tmpdir(), 'gw-test-'));
  const overrides: Record<string, unknown> = {
    app_dir: appDir,
    host: '127.0.0.1',
    port: 0,
    log_level: 'debug',
    encryption_key: randomBytes(32).toString('base64'),
    outbound: { allow_loopback: true },
    ...options.config,
  };
  recordConfigSecrets(overrides);
  if (databaseUrl) overrides.database_url = databaseUrl;
  if (TEST_REDIS_URL) {
    overrides.redis_url = options.redisUrl ?? TEST_REDIS_URL;
    overrides.redis_prefix = options.redisPrefix ?? `gwt-${randomBytes(5).toString('hex')}`;
  }
  const config = loadConfig({ env: options.env ?? {}, overrides });
  const logs = new LogCapture();
  const logger = createLogger(config.log_level, logs);
  const ownsRedisPrefix = TEST_REDIS_URL && !options.redisPrefix ? config.redis_prefix : undefined;
  const cleanUp = async () => {
    if (!options.keepDatabase) await dropDatabase?.();
    if (ownsRedisPrefix) await deleteRedisPrefix(TEST_REDIS_URL!, ownsRedisPrefix);
  };
  // In memory on the embedded default: this worker's migrated instance when it is free, else a copy of the dump.
  const inMemory = !databaseUrl && !options.appDir;
  const template = inMemory ? await pgliteTemplate() : undefined;
  const pgliteEngine = template ? await borrowPGlite(template) : undefined;
  let created;
  try {
    created = await createGatewayApp({
      config,
      logger,
      pgliteDataDir: inMemory ? null : undefined,
      pgliteTemplate: pgliteEngine ? undefined : template,
      pgliteEngine,
      extraModules: options.extraModules,
      clock: options.clock,
    });
  } catch (err) {
    // A failed start may not have reached its data source's close: hand a lent instance back (closing twice is a no-op).
    await pgliteEngine?.close();
    // Only what this call created: a database handed in belongs to the caller's other app.
    if (!options.databaseUrl) await cleanUp();
    else if (ownsRedisPrefix) await deleteRedisPrefix(TEST_REDIS_URL!, ownsRedisPrefix);
    throw err;
  }
  const { app, routes } = created;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  let closed = false;
  return {
    app,
    config,
    routes,
    baseUrl,
    http: new HttpClient(baseUrl),
    logs,
    databaseUrl,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      // A restart test keeps the database for the next app, which drops it; a shared Redis prefix is the first app's.
      await cleanUp();
    },
  };
}
