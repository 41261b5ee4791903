import { Global, Module, type DynamicModule } from '@nestjs/common';
import { GatewayConfig } from './gateway-config.js';

/** Makes the validated GatewayConfig injectable everywhere (the class itself is the token). */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: GatewayConfig, useValue: config }],
      exports: [GatewayConfig],
    };
  }
}
