import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../../../core/auth/principal.js';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import {
  CreatedManagementKeyDto,
  CreateManagementKeyDto,
  ManagementKeyDto,
  ManagementKeyListDto,
  UpdateManagementKeyDto,
} from './dto/management-key.dto.js';
import { ManagementKeysService } from './management-keys.service.js';

@ApiTags('Management API keys')
@Controller('api/management-keys')
export class ManagementKeysController {
  constructor(private readonly keys: ManagementKeysService) {}

  @Get()
  @Permission('APIKeys', 'View')
  @ApiOperation({ operationId: 'listManagementKeys', summary: 'List management API keys (never their values)' })
  @ApiOkResponse({ type: ManagementKeyListDto })
  async list(): Promise<ManagementKeyListDto> {
    const management_keys = (await this.keys.list()).map((k) => ManagementKeysService.toView(k));
    return { management_keys, count: management_keys.length };
  }

  @Post()
  @HttpCode(201)
  @Permission('APIKeys', 'Create')
  @ApiOperation({
    operationId: 'createManagementKey',
    summary: 'Create a management API key; the value is in this response only',
  })
  @ApiCreatedResponse({ type: CreatedManagementKeyDto })
  async create(
    @Body() dto: CreateManagementKeyDto,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<CreatedManagementKeyDto> {
    return this.keys.create(dto, principal);
  }

  @Get(':id')
  @Permission('APIKeys', 'View')
  @ApiOperation({ operationId: 'getManagementKey', summary: 'Get a management API key' })
  @ApiOkResponse({ type: ManagementKeyDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<ManagementKeyDto> {
    return ManagementKeysService.toView(await this.keys.get(id));
  }

  @Put(':id')
  @Permission('APIKeys', 'Update')
  @ApiOperation({ operationId: 'updateManagementKey', summary: 'Rename a key, change its scopes or expiry' })
  @ApiOkResponse({ type: ManagementKeyDto })
  @ApiErrorResponses(404)
  async update(
    @Param('id') id: string,
    @Body() dto: UpdateManagementKeyDto,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<ManagementKeyDto> {
    return ManagementKeysService.toView(await this.keys.update(id, dto, principal));
  }

  @Delete(':id')
  @Permission('APIKeys', 'Delete')
  @ApiOperation({ operationId: 'deleteManagementKey', summary: 'Revoke a management API key' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('id') id: string): Promise<MessageResponseDto> {
    await this.keys.delete(id);
    return { message: 'Management key deleted successfully' };
  }
}
