import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ALL_PERMISSIONS } from '../../../core/auth/permissions.js';
import { CurrentPrincipal, type Principal } from '../../../core/auth/principal.js';
import { Authenticated, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { ListUsersQueryDto } from './dto/list-users.query.dto.js';
import { CreateUserDto, MyPermissionsDto, UpdateUserDto, UserDto, UserListDto } from './dto/user.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('Users')
@Controller('api/governance/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  // Declared before `:id` routes; `me/permissions` is two segments deep, so it never collides with `:id` anyway.
  @Get('me/permissions')
  @Authenticated()
  @ApiOperation({ operationId: 'getMyPermissions', summary: 'Who the caller is and its own permissions' })
  @ApiOkResponse({ type: MyPermissionsDto })
  myPermissions(@CurrentPrincipal() principal?: Principal): MyPermissionsDto {
    if (!principal || principal.kind === 'virtual_key') {
      throw GatewayException.unauthorized('missing_credentials', 'Management credentials are required');
    }
    const identity = {
      kind: principal.kind,
      auth_method: principal.authMethod,
      id: principal.id ?? null,
      name: principal.name ?? null,
    };
    if (principal.permissions === 'all') {
      return { principal: identity, permissions: [...ALL_PERMISSIONS].sort(), is_admin: true };
    }
    return { principal: identity, permissions: [...principal.permissions].sort(), is_admin: false };
  }

  @Get()
  @Permission('Users', 'View')
  @ApiOperation({
    operationId: 'listUsers',
    summary: 'List users',
    description:
      'Oldest first. `search` matches the name or the email, `role_id` the holders of one role; `limit` and `offset` page the list (without `limit` every matching user is listed).',
  })
  @ApiOkResponse({ type: UserListDto })
  @ApiErrorResponses(400)
  async list(@Query() query: ListUsersQueryDto): Promise<UserListDto> {
    const page = await this.users.list(query);
    const users = page.users.map((u) => UsersService.toView(u));
    return { users, count: users.length, total_count: page.total_count };
  }

  @Post()
  @HttpCode(201)
  @Permission('Users', 'Create')
  @ApiOperation({ operationId: 'createUser', summary: 'Create a user' })
  @ApiCreatedResponse({ type: UserDto })
  @ApiErrorResponses(409)
  async create(@Body() dto: CreateUserDto, @CurrentPrincipal() principal?: Principal): Promise<UserDto> {
    return UsersService.toView(await this.users.create(dto, principal));
  }

  @Get(':id')
  @Permission('Users', 'View')
  @ApiOperation({ operationId: 'getUser', summary: 'Get a user' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<UserDto> {
    return UsersService.toView(await this.users.get(id));
  }

  @Put(':id')
  @Permission('Users', 'Update')
  @ApiOperation({ operationId: 'updateUser', summary: 'Update a user' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrorResponses(404, 409)
  async update(
    @Param('id') id: string,
    @Body() dto: UpdateUserDto,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<UserDto> {
    return UsersService.toView(await this.users.update(id, dto, principal));
  }

  @Delete(':id')
  @Permission('Users', 'Delete')
  @ApiOperation({ operationId: 'deleteUser', summary: 'Delete a user' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('id') id: string, @CurrentPrincipal() principal?: Principal): Promise<MessageResponseDto> {
    await this.users.delete(id, principal);
    return { message: 'User deleted successfully' };
  }
}
