import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../../core/auth/principal.js';
import { Permission } from '../../core/auth/route-access.decorator.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { ApiErrorResponses } from '../../core/errors/api-errors.decorator.js';
import { SecretsService } from '../../core/secrets/secrets.service.js';
import {
  RuntimeConfigDto,
  RuntimeSettingsUpdateDto,
  type ProcessSettingsDto,
  type RuntimeSettingsDto,
} from './dto/runtime-config.dto.js';
import { RuntimeConfigService } from './runtime-config.service.js';
import { changesOf } from './runtime-keys.js';

@ApiTags('Config')
@Controller('api/config')
export class ConfigController {
  constructor(
    private readonly runtime: RuntimeConfigService,
    private readonly config: GatewayConfig,
    private readonly secrets: SecretsService,
  ) {}

  @Get()
  @Permission('Settings', 'View')
  @ApiOperation({
    operationId: 'getConfig',
    summary: 'The runtime settings, where each value comes from, and the read-only process settings',
  })
  @ApiOkResponse({ type: RuntimeConfigDto })
  get(): RuntimeConfigDto {
    return this.answer();
  }

  @Put()
  @Permission('Settings', 'Update')
  @ApiOperation({
    operationId: 'updateConfig',
    summary: 'Change runtime settings (null resets a key to the file or default value)',
    description:
      'Takes any subset of the runtime settings, nested as in the config file (docs/config.md). The values are stored and override the config file, on every replica from its next request. A bad value, a key that is not a runtime setting or a process setting: 400 naming the key (dotted) in `error.param`, and nothing is changed.',
  })
  @ApiBody({ type: RuntimeSettingsUpdateDto })
  @ApiOkResponse({ type: RuntimeConfigDto })
  @ApiErrorResponses(400)
  async update(@Body() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<RuntimeConfigDto> {
    const changes = changesOf(body);
    // The audit row names the keys asked for (never their values), refused changes included.
    request.auditMetadata = { changed_keys: [...changes.keys()] };
    await this.runtime.update(changes, actorOf(request.principal));
    return this.answer();
  }

  private answer(): RuntimeConfigDto {
    const { config, sources } = this.runtime.view();
    // `config` holds exactly RUNTIME_KEYS, nested: the shape RuntimeSettingsDto documents.
    return { config: config as unknown as RuntimeSettingsDto, sources, process: this.process() };
  }

  private process(): ProcessSettingsDto {
    const c = this.config;
    return {
      host: c.host,
      port: c.port,
      role: c.role,
      edition: c.edition,
      database: c.database_url ? 'postgres' : 'pglite',
      database_parallel_query: c.database_parallel_query,
      redis: Boolean(c.redis_url),
      redis_prefix: c.redis_prefix,
      encryption_key_source: this.secrets.keySource,
      app_dir: c.app_dir,
      config_path: c.config_path ?? null,
    };
  }
}
