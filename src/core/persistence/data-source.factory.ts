import { join, resolve } from 'node:path';
import { DataSource, type DataSourceOptions, type Logger as TypeOrmLogger } from 'typeorm';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/gateway-config.js';
import { MIGRATIONS } from '../../../migrations/index.js';
import type { PGliteEngine } from './pglite-engine.js';
import { ensurePrivateDir } from './private-files.js';

/** Sends TypeORM's own messages to the structured logger; SQL text is never logged above debug. */
class TypeOrmPinoLogger implements TypeOrmLogger {
  constructor(private readonly logger: Logger) {}
  logQuery(query: string): void {
    this.logger.trace({ context: 'typeorm' }, query);
  }
  logQueryError(error: string | Error): void {
    // The err serializer keeps the SQLSTATE and names; the query and its parameters are never logged.
    this.logger.debug({ context: 'typeorm', err: error }, 'query failed');
  }
  logQuerySlow(time: number): void {
    this.logger.warn({ context: 'typeorm', time }, 'slow query');
  }
  logSchemaBuild(message: string): void {
    this.logger.debug({ context: 'typeorm' }, message);
  }
  logMigration(message: string): void {
    this.logger.info({ context: 'migrations' }, message);
  }
  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    this.logger[level === 'warn' ? 'warn' : 'debug']({ context: 'typeorm' }, String(message));
  }
}

export interface DatabaseTarget {
  kind: 'postgres' | 'pglite';
  /** Where the data lives, without credentials (for the start-up log line). */
  description: string;
}

export function describeDatabase(config: GatewayConfig): DatabaseTarget {
  if (config.database_url) {
    const url = new URL(config.database_url);
    return { kind: 'postgres', description: `postgres://${url.hostname}:${url.port || 5432}${url.pathname}` };
  }
  return { kind: 'pglite', description: `pglite:${resolve(config.app_dir, 'pgdata')}` };
}

/** Where the embedded database keeps its files: none for in-memory (`null`), else the given dir or `<app_dir>/pgdata`. */
export function pgliteDataDirOf(config: GatewayConfig, pgliteDataDir?: string | null): string | undefined {
  if (config.database_url || pgliteDataDir === null) return undefined;
  return pgliteDataDir ?? join(config.app_dir, 'pgdata');
}

/** How long a query waits for a pooled connection to Postgres (a new one, or a free one) before it fails. */
export const DATABASE_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Builds the DataSource for Postgres (`database_url`) or PGlite in `<app_dir>/pgdata`. Entities are added by modules.
 * PGlite (a large bundle) is loaded only when it is used: a Postgres deployment never parses it.
 */
export async function createDataSource(
  config: GatewayConfig,
  logger: Logger,
  entities: DataSourceOptions['entities'],
  pgliteDataDir?: string | null,
  pgliteTemplate?: Blob,
  pgliteEngine?: PGliteEngine,
): Promise<DataSource> {
  const common = {
    type: 'postgres' as const,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    installExtensions: false,
    uuidExtension: 'pgcrypto' as const,
    logger: new TypeOrmPinoLogger(logger),
  };
  if (config.database_url) {
    // Role and pid in pg_stat_activity tell which replica holds a lock or runs a slow query.
    const applicationName = `ai-gateway ${config.role} ${process.pid}`;
    // A connection that cannot be made within 10 s (an unreachable host, a pool busy that long) fails the query, and
    // the request answers 503 (errors/error-response.ts), instead of waiting on TCP's own minutes-long timeout.
    return new DataSource({
      ...common,
      url: config.database_url,
      poolSize: 10,
      applicationName,
      connectTimeoutMS: DATABASE_CONNECT_TIMEOUT_MS,
      // Startup options of every session: no parallel workers unless configured (gateway-config.ts says why).
      ...(config.database_parallel_query ? {} : { extra: { options: '-c max_parallel_workers_per_gather=0' } }),
    });
  }
  // `null` asks for an in-memory database (tests); otherwise the app dir keeps the files.
  const dataDir = pgliteDataDirOf(config, pgliteDataDir);
  if (dataDir) {
    if (pgliteDataDir === undefined) ensurePrivateDir(config.app_dir);
    ensurePrivateDir(dataDir);
  }
  const { PGlitePool, pgliteDriver } = await import('./pglite-pool.js');
  const pool = new PGlitePool(dataDir, pgliteTemplate ? { loadDataDir: pgliteTemplate } : {}, pgliteEngine);
  return new DataSource({ ...common, driver: pgliteDriver(pool), poolSize: 1 });
}
