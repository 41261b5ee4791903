import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/gateway-config.js';
import { createDataSource, pgliteDataDirOf } from './data-source.factory.js';
import type { PGliteEngine } from './pglite-engine.js';
import { runMigrations } from './migration-runner.js';
import { restrictTreeToOwner } from './private-files.js';

export interface PersistenceOptions {
  config: GatewayConfig;
  logger: Logger;
  /** `null` keeps the embedded database in memory (tests); default `<app_dir>/pgdata`. */
  pgliteDataDir?: string | null;
  /** A PGlite data dir dump to start from instead of running initdb (tests: saves seconds per app). */
  pgliteTemplate?: Blob;
  /** An open in-memory embedded database lent by the caller (tests); closing the app hands it back. */
  pgliteEngine?: PGliteEngine;
}

/** The one DataSource: Postgres when `database_url` is set, else PGlite. Migrated at start under an advisory lock. */
@Module({})
export class PersistenceModule {
  static forRoot(options: PersistenceOptions): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ type: 'postgres', autoLoadEntities: true, retryAttempts: 1, retryDelay: 1000 }),
          dataSourceFactory: async (typeormOptions?: DataSourceOptions) => {
            const dataSource = await createDataSource(
              options.config,
              options.logger,
              typeormOptions?.entities ?? [],
              options.pgliteDataDir,
              options.pgliteTemplate,
              options.pgliteEngine,
            );
            await dataSource.initialize();
            const applied = await runMigrations(dataSource);
            if (applied.length) {
              options.logger.debug({ migrations: applied.map((m) => m.name) }, 'applied database migrations');
            }
            // The embedded database's files are the gateway's alone (PGlite creates them world-writable).
            const dataDir = pgliteDataDirOf(options.config, options.pgliteDataDir);
            if (dataDir) restrictTreeToOwner(options.pgliteDataDir === undefined ? options.config.app_dir : dataDir);
            return dataSource;
          },
        }),
      ],
    };
  }
}
