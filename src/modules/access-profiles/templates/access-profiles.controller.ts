import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { AccessProfilesService } from './access-profiles.service.js';
import { AccessProfileDetailDto, AccessProfileResponseDto, CreateAccessProfileDto } from './dto/access-profile.dto.js';

export const PROFILE_ID_PARAM = { name: 'profile_id', type: 'integer', description: 'Access profile id', example: 1 };

@ApiTags('Access profiles')
@Controller('api/governance/access-profiles')
export class AccessProfilesController {
  constructor(private readonly profiles: AccessProfilesService) {}

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
  async create(@Body() dto: CreateAccessProfileDto): Promise<AccessProfileResponseDto> {
    return { access_profile: AccessProfilesService.toView(await this.profiles.create(dto)) };
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
}
