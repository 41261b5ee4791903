import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import type { ProviderId } from '../../../core/errors/routing-info.dto.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { CreateProviderDto, ProviderListDto, ProviderViewDto, UpdateProviderDto } from './dto/provider.dto.js';
import { PROVIDER_PARAM, ProviderIdPipe } from './provider-id.pipe.js';
import { ProvidersService } from './providers.service.js';

@ApiTags('Providers')
@Controller('api/providers')
export class ProvidersController {
  constructor(private readonly providers: ProvidersService) {}

  @Get()
  @Permission('ModelProvider', 'View')
  @ApiOperation({ operationId: 'listProviders', summary: 'List configured providers (API and config file)' })
  @ApiOkResponse({ type: ProviderListDto })
  list(): Promise<ProviderListDto> {
    return this.providers.list();
  }

  @Post()
  @HttpCode(201)
  @Permission('ModelProvider', 'Create')
  @ApiOperation({
    operationId: 'createProvider',
    summary: 'Configure a provider',
    description: 'One configuration per provider id; an id already configured (here or in the config file) is a 409.',
  })
  @ApiCreatedResponse({ type: ProviderViewDto })
  @ApiErrorResponses(409)
  create(@Body() dto: CreateProviderDto): Promise<ProviderViewDto> {
    return this.providers.create(dto);
  }

  @Get(':provider')
  @Permission('ModelProvider', 'View')
  @ApiOperation({ operationId: 'getProvider', summary: 'Get a configured provider' })
  @ApiParam(PROVIDER_PARAM)
  @ApiOkResponse({ type: ProviderViewDto })
  @ApiErrorResponses(404)
  get(@Param('provider', ProviderIdPipe) provider: ProviderId): Promise<ProviderViewDto> {
    return this.providers.get(provider);
  }

  @Put(':provider')
  @Permission('ModelProvider', 'Update')
  @ApiOperation({
    operationId: 'updateProvider',
    summary: 'Change a provider’s settings',
    description:
      'Changes the fields the body carries (`base_url: null` clears the override; `network_config` changes the fields it carries; `extra_headers` replaces the map, `<REDACTED>` values keeping theirs). Config-file providers: 409 `config_managed`.',
  })
  @ApiParam(PROVIDER_PARAM)
  @ApiOkResponse({ type: ProviderViewDto })
  @ApiErrorResponses(404, 409)
  update(
    @Param('provider', ProviderIdPipe) provider: ProviderId,
    @Body() dto: UpdateProviderDto,
  ): Promise<ProviderViewDto> {
    return this.providers.update(provider, dto);
  }

  @Delete(':provider')
  @Permission('ModelProvider', 'Delete')
  @ApiOperation({
    operationId: 'deleteProvider',
    summary: 'Remove a provider and its keys',
    description: 'Config-file providers: 409 `config_managed`.',
  })
  @ApiParam(PROVIDER_PARAM)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404, 409)
  async delete(@Param('provider', ProviderIdPipe) provider: ProviderId): Promise<MessageResponseDto> {
    await this.providers.delete(provider);
    return { message: `Provider ${provider} deleted successfully` };
  }
}
