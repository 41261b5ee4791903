import { Global, Module } from '@nestjs/common';
import { PluginFailures } from './plugin-failures.js';
import { PluginRegistry } from './plugin-registry.js';

/** The plugin chain every module may register with (PluginRegistry) and the inference pipeline runs. */
@Global()
@Module({
  providers: [PluginRegistry, PluginFailures],
  exports: [PluginRegistry],
})
export class PluginRegistryModule {}
