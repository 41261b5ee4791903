import { Module, type DynamicModule, type Type } from '@nestjs/common';
import type { Logger } from 'pino';
import { ConfigModule } from './core/config/config.module.js';
import type { GatewayConfig } from './core/config/gateway-config.js';
import { CoreModule } from './core/core.module.js';
import { LoggingModule } from './core/logging/logging.module.js';
import { PersistenceModule } from './core/persistence/persistence.module.js';
import { RedisModule } from './core/redis/redis.module.js';

export interface AppModuleOptions {
  config: GatewayConfig;
  logger: Logger;
  /** `null` keeps the embedded database in memory (tests). */
  pgliteDataDir?: string | null;
  /** A PGlite data dir dump to start from instead of running initdb (tests). */
  pgliteTemplate?: Blob;
  /** Extra modules mounted beside the gateway's own (tests). */
  extraModules?: Array<Type | DynamicModule>;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(options.config),
        LoggingModule.forRoot(options.logger),
        PersistenceModule.forRoot(options),
        RedisModule.forRoot(),
        CoreModule,
        ...(options.extraModules ?? []),
      ],
    };
  }
}
