import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { PROFILE_ID_PARAM } from '../templates/access-profiles.controller.js';
import { AccessProfilesService } from '../templates/access-profiles.service.js';
import { AccessProfileRolesService } from './access-profile-roles.service.js';
import { AttachRolesDto, AttachRolesResponseDto } from './dto/access-profile-roles.dto.js';

@ApiTags('Access profiles')
@Controller('api/governance/access-profiles/:profile_id/roles')
export class AccessProfileRolesController {
  constructor(private readonly roles: AccessProfileRolesService) {}

  @Post()
  @HttpCode(200)
  @Permission('AccessProfiles', 'Create')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'attachAccessProfileRoles',
    summary: 'Attach roles to an access profile',
    description:
      '`is_default`: users who gain one of the roles get a copy of the profile (and lose it when they leave the role). `apply_to_existing`: the roles’ current users without a copy get one now, all in one transaction. A role already attached takes the new `is_default`.',
  })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiOkResponse({ type: AttachRolesResponseDto })
  @ApiErrorResponses(400, 404)
  async attach(@Param('profile_id') profileId: string, @Body() dto: AttachRolesDto): Promise<AttachRolesResponseDto> {
    return this.roles.attach(AccessProfilesService.parseId(profileId), dto);
  }

  @Delete(':role_id')
  @Permission('AccessProfiles', 'Delete')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'detachAccessProfileRole',
    summary: 'Detach a role from an access profile',
    description:
      'Copies the role already gave stay with their users. Not attached: 404 `access_profile_role_not_found`.',
  })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiParam({ name: 'role_id', type: String, format: 'uuid', description: 'Role id' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async detach(@Param('profile_id') profileId: string, @Param('role_id') roleId: string): Promise<MessageResponseDto> {
    await this.roles.detach(AccessProfilesService.parseId(profileId), roleId);
    return { message: 'Role detached from access profile' };
  }
}
