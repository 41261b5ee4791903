import { Injectable, type OnModuleInit } from '@nestjs/common';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import type { GatewayPlugin } from '../registry/gateway-plugin.js';
import { PluginRegistry } from '../registry/plugin-registry.js';
import { jsonParserPlugin } from './jsonparser.plugin.js';

/**
 * The built-in plugins besides `cache` (registered by the cache module). `logging` and `telemetry` have no hooks: they
 * are switches the request-log recorder and the tracer read (`PluginRegistry.switchedOff`), so being on costs a
 * request nothing.
 */
@Injectable()
export class BuiltinPlugins implements OnModuleInit {
  constructor(
    private readonly registry: PluginRegistry,
    private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    const logging: GatewayPlugin = { name: 'logging', defaults: { enabled: true, order: 0 } };
    const telemetry: GatewayPlugin = {
      name: 'telemetry',
      defaults: { enabled: this.config.otel.endpoint !== undefined, order: 10 },
    };
    for (const plugin of [logging, telemetry, jsonParserPlugin]) this.registry.register(plugin);
  }
}
