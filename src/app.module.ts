import { Module, type DynamicModule, type Type } from '@nestjs/common';
import type { Logger } from 'pino';
import { ConfigModule } from './core/config/config.module.js';
import type { GatewayConfig } from './core/config/gateway-config.js';
import { ClockModule, type Clock } from './core/clock/clock.js';
import { CoreModule } from './core/core.module.js';
import { LoggingModule } from './core/logging/logging.module.js';
import { PersistenceModule } from './core/persistence/persistence.module.js';
import { RedisModule } from './core/redis/redis.module.js';
import { SharedStateModule } from './core/redis/shared-state.module.js';
import { AuthModule } from './core/auth/auth.module.js';
import { LiveModule } from './core/live/live.module.js';
import { SessionModule } from './modules/session/session.module.js';
import { AuditModule } from './modules/audit/audit.module.js';
import { GovernanceModule } from './modules/governance/governance.module.js';
import { QueueModule } from './core/queue/queue.module.js';
import { MaintenanceModule } from './core/maintenance/maintenance.module.js';
import { SecretsModule } from './core/secrets/secrets.module.js';
import { AgentsModule } from './modules/agents/agents.module.js';
import { InferenceModule } from './modules/inference/inference.module.js';
import { FormatsModule } from './modules/inference/formats/formats.module.js';
import { McpModule } from './modules/mcp/mcp.module.js';
import { AccessProfilesModule } from './modules/access-profiles/access-profiles.module.js';
import { PluginsModule } from './modules/plugins/plugins.module.js';
import { PluginRegistryModule } from './modules/plugins/registry/plugin-registry.module.js';
import { InferenceTracingModule } from './modules/inference/telemetry/tracing.module.js';
import { WebhooksModule } from './modules/webhooks/webhooks.module.js';
import { SettingsModule } from './modules/settings/settings.module.js';
import { CacheModule } from './modules/cache/cache.module.js';
import type { PGliteEngine } from './core/persistence/pglite-engine.js';

export interface AppModuleOptions {
  config: GatewayConfig;
  logger: Logger;
  /** `null` keeps the embedded database in memory (tests). */
  pgliteDataDir?: string | null;
  /** A PGlite data dir dump to start from instead of running initdb (tests). */
  pgliteTemplate?: Blob;
  /** An open in-memory embedded database lent by the caller (tests); closing the app hands it back. */
  pgliteEngine?: PGliteEngine;
  /** Extra modules mounted beside the gateway's own (tests). */
  extraModules?: Array<Type | DynamicModule>;
  /** The clock of budget and rate-limit windows (tests pass a ManualClock); default the system clock. */
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(options.config),
        LoggingModule.forRoot(options.logger),
        ClockModule.forRoot(options.clock),
        PersistenceModule.forRoot(options),
        RedisModule.forRoot(),
        SharedStateModule,
        QueueModule.forRoot(options.config),
        MaintenanceModule,
        CoreModule,
        PluginRegistryModule,
        InferenceTracingModule,
        SecretsModule,
        GovernanceModule,
        AuthModule,
        LiveModule,
        SessionModule,
        AuditModule,
        AgentsModule,
        InferenceModule,
        FormatsModule,
        McpModule,
        AccessProfilesModule,
        WebhooksModule,
        SettingsModule,
        PluginsModule,
        CacheModule,
        ...(options.extraModules ?? []),
      ],
    };
  }
}
