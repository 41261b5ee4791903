import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../../../core/auth/principal.js';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { CreateRoleDto, RoleDto, RoleListDto, UpdateRoleDto } from './dto/role.dto.js';
import { RolesService } from './roles.service.js';

@ApiTags('RBAC')
@Controller('api/governance/rbac/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @Permission('RBAC', 'View')
  @ApiOperation({
    operationId: 'listRoles',
    summary: 'List roles, built-in ones first',
    description: 'Each with how many users hold it.',
  })
  @ApiOkResponse({ type: RoleListDto })
  async list(): Promise<RoleListDto> {
    const [list, holders] = await Promise.all([this.roles.list(), this.roles.holderCounts()]);
    const roles = list.map((r) => ({ ...RolesService.toView(r), user_count: holders.get(r.id) ?? 0 }));
    return { roles, count: roles.length };
  }

  @Post()
  @HttpCode(201)
  @Permission('RBAC', 'Create')
  @ApiOperation({ operationId: 'createRole', summary: 'Create a role' })
  @ApiCreatedResponse({ type: RoleDto })
  @ApiErrorResponses(409)
  async create(@Body() dto: CreateRoleDto, @CurrentPrincipal() principal?: Principal): Promise<RoleDto> {
    return RolesService.toView(await this.roles.create(dto, principal));
  }

  @Get(':id')
  @Permission('RBAC', 'View')
  @ApiOperation({ operationId: 'getRole', summary: 'Get a role' })
  @ApiOkResponse({ type: RoleDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<RoleDto> {
    return RolesService.toView(await this.roles.get(id));
  }

  @Put(':id')
  @Permission('RBAC', 'Update')
  @ApiOperation({ operationId: 'updateRole', summary: 'Update a custom role (built-in roles cannot change)' })
  @ApiOkResponse({ type: RoleDto })
  @ApiErrorResponses(404, 409)
  async update(
    @Param('id') id: string,
    @Body() dto: UpdateRoleDto,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<RoleDto> {
    return RolesService.toView(await this.roles.update(id, dto, principal));
  }

  @Delete(':id')
  @Permission('RBAC', 'Delete')
  @ApiOperation({ operationId: 'deleteRole', summary: 'Delete a custom role no user holds' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404, 409)
  async delete(@Param('id') id: string): Promise<MessageResponseDto> {
    await this.roles.delete(id);
    return { message: 'Role deleted successfully' };
  }
}
