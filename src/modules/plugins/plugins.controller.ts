import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../core/errors/api-errors.decorator.js';
import { PluginListDto, PluginViewDto, UpdatePluginDto } from './dto/plugin.dto.js';
import { PluginSettingsService } from './plugin-settings.service.js';

const NAME_PARAM = { name: 'name', description: 'Plugin name (`logging`, `cache`, `telemetry`, `jsonparser`, ...).' };

@ApiTags('Plugins')
@Controller('api/plugins')
export class PluginsController {
  constructor(private readonly plugins: PluginSettingsService) {}

  @Get()
  @Permission('Plugins', 'View')
  @ApiOperation({ operationId: 'listPlugins', summary: 'List the registered plugins in chain order' })
  @ApiOkResponse({ type: PluginListDto })
  list(): PluginListDto {
    const plugins = this.plugins.list();
    return { plugins, count: plugins.length };
  }

  @Get(':name')
  @Permission('Plugins', 'View')
  @ApiOperation({ operationId: 'getPlugin', summary: "Get a plugin's settings" })
  @ApiParam(NAME_PARAM)
  @ApiOkResponse({ type: PluginViewDto })
  @ApiErrorResponses(404)
  get(@Param('name') name: string): PluginViewDto {
    return this.plugins.get(name);
  }

  @Put(':name')
  @Permission('Plugins', 'Update')
  @ApiOperation({
    operationId: 'updatePlugin',
    summary: 'Enable, disable, reorder or configure a plugin',
    description:
      "Stored over the config file's `plugins.settings` and applied on every replica without a restart (the next request). `config` replaces the whole config and is checked by the plugin: 400 naming `config.<key>`.",
  })
  @ApiParam(NAME_PARAM)
  @ApiOkResponse({ type: PluginViewDto })
  @ApiErrorResponses(404)
  update(@Param('name') name: string, @Body() body: UpdatePluginDto): Promise<PluginViewDto> {
    return this.plugins.update(name, body);
  }
}
