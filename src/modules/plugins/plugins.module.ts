import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuiltinPlugins } from './builtins/builtin-plugins.js';
import { PluginSettingEntity } from './entities/plugin-setting.entity.js';
import { PluginSettingsService } from './plugin-settings.service.js';
import { PluginsController } from './plugins.controller.js';

/**
 * `/api/plugins` (docs/plugins.md): the settings of the plugins registered with the core's PluginRegistry, stored in
 * `plugins` and live on every replica; and the built-ins `logging`, `telemetry` and `jsonparser`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PluginSettingEntity])],
  controllers: [PluginsController],
  providers: [PluginSettingsService, BuiltinPlugins],
})
export class PluginsModule {}
