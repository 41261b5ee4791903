import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ConfigChanges } from './config-changes.js';
import { GatewayConfig } from './gateway-config.js';

/**
 * Makes the validated GatewayConfig injectable everywhere (the class itself is the token), and ConfigChanges, which
 * tells consumers that derive state from a runtime setting when it changed.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: GatewayConfig, useValue: config }, ConfigChanges],
      exports: [GatewayConfig, ConfigChanges],
    };
  }
}
