import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { assertStringItems } from '../shared/permission-list.js';
import {
  BulkRotateResponseDto,
  BulkRotateVirtualKeysDto,
  CreateVirtualKeyDto,
  RotateVirtualKeyDto,
  UpdateVirtualKeyDto,
  VirtualKeyDto,
  VirtualKeyListDto,
  VirtualKeyOperationDto,
} from './dto/virtual-key.dto.js';
import { ListVirtualKeysQueryDto } from './dto/list-virtual-keys.query.dto.js';
import { VirtualKeysService } from './virtual-keys.service.js';

@ApiTags('Virtual keys')
@Controller('api/governance/virtual-keys')
export class VirtualKeysController {
  constructor(private readonly keys: VirtualKeysService) {}

  // Static routes first: `rotate` is never taken for a `:vk_id` (`quota` is QuotaController's, in limits/).
  @Post('rotate')
  @HttpCode(200)
  @Permission('VirtualKeys', 'Update')
  @ApiOperation({ operationId: 'bulkRotateVirtualKeys', summary: 'Rotate several virtual keys, all or none' })
  @ApiOkResponse({ type: BulkRotateResponseDto })
  @ApiErrorResponses(404)
  async bulkRotate(@Body() dto: BulkRotateVirtualKeysDto): Promise<BulkRotateResponseDto> {
    assertStringItems(dto.ids, 'ids');
    const virtual_keys = await this.keys.rotate(dto.ids, dto.grace_period);
    return { message: 'Virtual keys rotated successfully', virtual_keys };
  }

  @Get()
  @Permission('VirtualKeys', 'View')
  @ApiOperation({
    operationId: 'listVirtualKeys',
    summary: 'List virtual keys (paged, searchable by name; never their values)',
  })
  @ApiOkResponse({ type: VirtualKeyListDto })
  async list(@Query() query: ListVirtualKeysQueryDto): Promise<VirtualKeyListDto> {
    return this.keys.list(query);
  }

  @Post()
  @HttpCode(201)
  @Permission('VirtualKeys', 'Create')
  @ApiOperation({
    operationId: 'createVirtualKey',
    summary: 'Create a virtual key; the value is in this response only',
  })
  @ApiCreatedResponse({ type: VirtualKeyOperationDto })
  @ApiErrorResponses(409)
  async create(@Body() dto: CreateVirtualKeyDto): Promise<VirtualKeyOperationDto> {
    return { message: 'Virtual key created successfully', virtual_key: await this.keys.create(dto) };
  }

  @Get(':vk_id')
  @Permission('VirtualKeys', 'View')
  @ApiOperation({ operationId: 'getVirtualKey', summary: 'Get a virtual key' })
  @ApiOkResponse({ type: VirtualKeyDto })
  @ApiErrorResponses(404)
  async get(@Param('vk_id') id: string): Promise<VirtualKeyDto> {
    return this.keys.view(await this.keys.get(id));
  }

  @Put(':vk_id')
  @Permission('VirtualKeys', 'Update')
  @ApiOperation({
    operationId: 'updateVirtualKey',
    summary: 'Update a virtual key',
    description:
      'A key an access profile manages (`access_profile_copy_id` set) changes only `name` and `description` here: any other field is 409 `profile_managed` naming it.',
  })
  @ApiOkResponse({ type: VirtualKeyOperationDto })
  @ApiErrorResponses(404, 409)
  async update(@Param('vk_id') id: string, @Body() dto: UpdateVirtualKeyDto): Promise<VirtualKeyOperationDto> {
    return { message: 'Virtual key updated successfully', virtual_key: await this.keys.update(id, dto) };
  }

  @Delete(':vk_id')
  @Permission('VirtualKeys', 'Delete')
  @ApiOperation({
    operationId: 'deleteVirtualKey',
    summary: 'Delete a virtual key',
    description:
      'A key an access profile manages: 409 `profile_managed` (remove the user’s access profile instead, which deletes its keys).',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404, 409)
  async delete(@Param('vk_id') id: string): Promise<MessageResponseDto> {
    await this.keys.delete(id);
    return { message: 'Virtual key deleted successfully' };
  }

  @Post(':vk_id/rotate')
  @HttpCode(200)
  @Permission('VirtualKeys', 'Update')
  @ApiOperation({
    operationId: 'rotateVirtualKey',
    summary: 'New value for a virtual key; the old one works until the grace period ends',
  })
  @ApiBody({ type: RotateVirtualKeyDto, required: false })
  @ApiOkResponse({ type: VirtualKeyOperationDto })
  @ApiErrorResponses(404)
  async rotate(@Param('vk_id') id: string, @Body() dto: RotateVirtualKeyDto = {}): Promise<VirtualKeyOperationDto> {
    const [virtual_key] = await this.keys.rotate([id], dto?.grace_period);
    return { message: 'Virtual key rotated successfully', virtual_key: virtual_key as VirtualKeyDto };
  }
}
