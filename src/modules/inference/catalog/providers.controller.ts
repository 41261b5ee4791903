import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { ProviderTestRequestDto, ProviderTestResultDto } from './dto/provider-test.dto.js';
import { CreateProviderDto, ProviderListDto, ProviderViewDto, UpdateProviderDto } from './dto/provider.dto.js';
import { PROVIDER_PARAM, ProviderIdPipe } from './provider-id.pipe.js';
import { ProviderTestService } from './provider-test.service.js';
import { ProvidersService } from './providers.service.js';

@ApiTags('Providers')
@Controller('api/providers')
export class ProvidersController {
  constructor(
    private readonly providers: ProvidersService,
    private readonly tests: ProviderTestService,
  ) {}

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

  @Post(':provider/test')
  @HttpCode(200)
  @Permission('ModelProvider', 'Update')
  @ApiOperation({
    operationId: 'testProvider',
    summary: 'Send one small chat completion to a provider with one of its keys',
    description:
      'Straight to the provider with the key `key_id` names (a disabled one too) or one picked by weight among the enabled keys serving `model`: no retry, fallback, routing rule, budget or log row. A provider refusal or an unreachable provider is a result (`status: failed` with the GatewayError /v1 would relay), not an error of this call. Needs `ModelProvider:Update`: a test spends tokens on the key.',
  })
  @ApiParam(PROVIDER_PARAM)
  @ApiOkResponse({ type: ProviderTestResultDto })
  @ApiErrorResponses(404)
  test(
    @Param('provider', ProviderIdPipe) provider: ProviderId,
    @Body() dto: ProviderTestRequestDto,
  ): Promise<ProviderTestResultDto> {
    return this.tests.test(provider, dto);
  }
}
