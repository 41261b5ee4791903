import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { actorOf, CurrentPrincipal, type Principal } from '../../../core/auth/principal.js';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { AccessProfilesService } from './access-profiles.service.js';
import {
  AccessProfileDetailDto,
  AccessProfileResponseDto,
  AccessProfileStateResponseDto,
  CloneAccessProfileDto,
  CreateAccessProfileDto,
  UpdateAccessProfileDto,
} from './dto/access-profile.dto.js';
import { AccessProfileListDto, ListAccessProfilesQueryDto } from './dto/list-access-profiles.query.dto.js';

export const PROFILE_ID_PARAM = { name: 'profile_id', type: 'integer', description: 'Access profile id', example: 1 };

export const ACCESS_PROFILE_DELETED = 'Access profile deleted';

@ApiTags('Access profiles')
@Controller('api/governance/access-profiles')
export class AccessProfilesController {
  constructor(private readonly profiles: AccessProfilesService) {}

  @Get()
  @Permission('AccessProfiles', 'View')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'listAccessProfiles',
    summary: 'List access profile templates by id',
    description: '`search` matches the name or description (case-insensitive); `tags` matches any tag listed.',
  })
  @ApiOkResponse({ type: AccessProfileListDto })
  @ApiErrorResponses(400, 404)
  async list(@Query() query: ListAccessProfilesQueryDto): Promise<AccessProfileListDto> {
    return this.profiles.list(query);
  }

  @Post()
  @HttpCode(201)
  @Permission('AccessProfiles', 'Create')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'createAccessProfile',
    summary: 'Create an access profile template',
    description: 'Stores version 1. A name already taken: 409 `already_exists`.',
  })
  @ApiCreatedResponse({ type: AccessProfileResponseDto })
  @ApiErrorResponses(400, 404, 409)
  async create(
    @Body() dto: CreateAccessProfileDto,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<AccessProfileResponseDto> {
    return { access_profile: AccessProfilesService.toView(await this.profiles.create(dto, actorOf(principal))) };
  }

  @Get(':profile_id')
  @Permission('AccessProfiles', 'View')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'getAccessProfile', summary: 'Get an access profile with its roles and user count' })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiOkResponse({ type: AccessProfileDetailDto })
  @ApiErrorResponses(404)
  async get(@Param('profile_id') id: string): Promise<AccessProfileDetailDto> {
    return this.profiles.detail(AccessProfilesService.parseId(id));
  }

  @Put(':profile_id')
  @Permission('AccessProfiles', 'Update')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'updateAccessProfile',
    summary: 'Update an access profile template (partial) and store the next version',
    description:
      'Omitted fields are kept; `rate_limit: null` clears it; the result is checked as a whole. Users’ copies change only through a propagation. A name already taken: 409 `already_exists`.',
  })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiOkResponse({ type: AccessProfileResponseDto })
  @ApiErrorResponses(400, 404, 409)
  async update(
    @Param('profile_id') id: string,
    @Body() dto: UpdateAccessProfileDto,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<AccessProfileResponseDto> {
    const profile = await this.profiles.update(AccessProfilesService.parseId(id), dto, actorOf(principal));
    return { access_profile: AccessProfilesService.toView(profile) };
  }

  @Delete(':profile_id')
  @Permission('AccessProfiles', 'Delete')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'deleteAccessProfile',
    summary: 'Delete an access profile template with its versions',
    description: 'While any user holds a copy: 409 `in_use`.',
  })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404, 409)
  async delete(@Param('profile_id') id: string): Promise<MessageResponseDto> {
    await this.profiles.delete(AccessProfilesService.parseId(id));
    return { message: ACCESS_PROFILE_DELETED };
  }

  @Put(':profile_id/activate')
  @Permission('AccessProfiles', 'Update')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'activateAccessProfile',
    summary: 'Activate an access profile template (idempotent)',
    description: 'A change of state stores the next version; an active template answers as it is.',
  })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiOkResponse({ type: AccessProfileStateResponseDto })
  @ApiErrorResponses(404)
  async activate(
    @Param('profile_id') id: string,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<AccessProfileStateResponseDto> {
    const profile = await this.profiles.setActive(AccessProfilesService.parseId(id), true, actorOf(principal));
    return { message: 'Access profile activated', access_profile: AccessProfilesService.toView(profile) };
  }

  @Put(':profile_id/deactivate')
  @Permission('AccessProfiles', 'Update')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'deactivateAccessProfile',
    summary: 'Deactivate an access profile template (idempotent)',
    description:
      'It can no longer be assigned; users’ copies and their keys are kept. A change of state stores the next version.',
  })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiOkResponse({ type: AccessProfileStateResponseDto })
  @ApiErrorResponses(404)
  async deactivate(
    @Param('profile_id') id: string,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<AccessProfileStateResponseDto> {
    const profile = await this.profiles.setActive(AccessProfilesService.parseId(id), false, actorOf(principal));
    return { message: 'Access profile deactivated', access_profile: AccessProfilesService.toView(profile) };
  }

  @Post(':profile_id/clone')
  @HttpCode(201)
  @Permission('AccessProfiles', 'Create')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'cloneAccessProfile',
    summary: 'Clone an access profile template under a new name',
    description:
      'Copies the state, tags and profile fields (description unless given); the clone starts at version 1 with no roles and no copies. A name already taken: 409 `already_exists`.',
  })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiCreatedResponse({ type: AccessProfileResponseDto })
  @ApiErrorResponses(400, 404, 409)
  async clone(
    @Param('profile_id') id: string,
    @Body() dto: CloneAccessProfileDto,
    @CurrentPrincipal() principal?: Principal,
  ): Promise<AccessProfileResponseDto> {
    const profile = await this.profiles.clone(AccessProfilesService.parseId(id), dto, actorOf(principal));
    return { access_profile: AccessProfilesService.toView(profile) };
  }
}
