import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import {
  CreateProviderKeyDto,
  KeyAliasDto,
  ProviderKeyListDto,
  ProviderKeyViewDto,
  UpdateProviderKeyDto,
} from './dto/provider-key.dto.js';
import { PROVIDER_PARAM, ProviderIdPipe } from './provider-id.pipe.js';
import { ProviderKeysService } from './provider-keys.service.js';

const KEY_ID_PARAM = { name: 'key_id', description: 'Key id (UUID)', example: '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11' };

@ApiTags('Providers')
@ApiExtraModels(KeyAliasDto)
@Controller('api')
export class ProviderKeysController {
  constructor(private readonly keys: ProviderKeysService) {}

  @Get('keys')
  @Permission('ModelProvider', 'View')
  @ApiOperation({ operationId: 'listAllProviderKeys', summary: 'Every key of every provider (values redacted)' })
  @ApiOkResponse({ type: ProviderKeyListDto })
  listAll(): Promise<ProviderKeyListDto> {
    return this.keys.listAll();
  }

  @Get('providers/:provider/keys')
  @Permission('ModelProvider', 'View')
  @ApiOperation({ operationId: 'listProviderKeys', summary: 'Keys of a provider (values redacted)' })
  @ApiParam(PROVIDER_PARAM)
  @ApiOkResponse({ type: ProviderKeyListDto })
  @ApiErrorResponses(404)
  list(@Param('provider', ProviderIdPipe) provider: ProviderId): Promise<ProviderKeyListDto> {
    return this.keys.list(provider);
  }

  @Post('providers/:provider/keys')
  @HttpCode(201)
  @Permission('ModelProvider', 'Create')
  @ApiOperation({
    operationId: 'createProviderKey',
    summary: 'Add a key to a provider',
    description:
      'The provider must be configured through the API (unknown: 404 `provider_not_found`; declared in the config file: 409 `config_managed`). The response redacts the value.',
  })
  @ApiParam(PROVIDER_PARAM)
  @ApiCreatedResponse({ type: ProviderKeyViewDto })
  @ApiErrorResponses(404, 409)
  create(
    @Param('provider', ProviderIdPipe) provider: ProviderId,
    @Body() dto: CreateProviderKeyDto,
  ): Promise<ProviderKeyViewDto> {
    return this.keys.create(provider, dto);
  }

  @Get('providers/:provider/keys/:key_id')
  @Permission('ModelProvider', 'View')
  @ApiOperation({ operationId: 'getProviderKey', summary: 'Get a key (value redacted)' })
  @ApiParam(PROVIDER_PARAM)
  @ApiParam(KEY_ID_PARAM)
  @ApiOkResponse({ type: ProviderKeyViewDto })
  @ApiErrorResponses(404)
  get(
    @Param('provider', ProviderIdPipe) provider: ProviderId,
    @Param('key_id') id: string,
  ): Promise<ProviderKeyViewDto> {
    return this.keys.get(provider, id);
  }

  @Put('providers/:provider/keys/:key_id')
  @Permission('ModelProvider', 'Update')
  @ApiOperation({
    operationId: 'updateProviderKey',
    summary: 'Change a key',
    description:
      'Changes the fields the body carries; `<REDACTED>` sent back for a secret keeps the stored one. A carried provider-specific block replaces the stored block.',
  })
  @ApiParam(PROVIDER_PARAM)
  @ApiParam(KEY_ID_PARAM)
  @ApiOkResponse({ type: ProviderKeyViewDto })
  @ApiErrorResponses(404, 409)
  update(
    @Param('provider', ProviderIdPipe) provider: ProviderId,
    @Param('key_id') id: string,
    @Body() dto: UpdateProviderKeyDto,
  ): Promise<ProviderKeyViewDto> {
    return this.keys.update(provider, id, dto);
  }

  @Delete('providers/:provider/keys/:key_id')
  @Permission('ModelProvider', 'Delete')
  @ApiOperation({ operationId: 'deleteProviderKey', summary: 'Remove a key' })
  @ApiParam(PROVIDER_PARAM)
  @ApiParam(KEY_ID_PARAM)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404, 409)
  async delete(
    @Param('provider', ProviderIdPipe) provider: ProviderId,
    @Param('key_id') id: string,
  ): Promise<MessageResponseDto> {
    await this.keys.delete(provider, id);
    return { message: 'Provider key deleted successfully' };
  }
}
