import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { PROFILE_ID_PARAM } from '../templates/access-profiles.controller.js';
import { AccessProfileCopiesService } from './access-profile-copies.service.js';
import {
  AccessProfileCopyListDto,
  AssignAccessProfileDto,
  AssignedAccessProfileDto,
  RemovedAccessProfileDto,
} from './dto/access-profile-copy.dto.js';

export const USER_ID_PARAM = { name: 'user_id', type: String, format: 'uuid', description: 'User id' };

@ApiTags('Access profiles')
@Controller('api/governance/users/:user_id/access-profiles')
export class UserAccessProfilesController {
  constructor(private readonly copies: AccessProfileCopiesService) {}

  @Get()
  @Permission('AccessProfiles', 'View')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'listUserAccessProfiles',
    summary: 'A user’s copies of access profiles, with their managed keys (values masked)',
  })
  @ApiParam(USER_ID_PARAM)
  @ApiOkResponse({ type: AccessProfileCopyListDto })
  @ApiErrorResponses(404)
  async list(@Param('user_id') userId: string): Promise<AccessProfileCopyListDto> {
    return this.copies.list(userId);
  }

  @Post()
  @HttpCode(201)
  @Permission('AccessProfiles', 'Create')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'assignAccessProfile',
    summary: 'Give a user a copy of an access profile, with a managed virtual key',
    description:
      'Copies the template’s fields and builds a virtual key from them (fresh counters); the key’s value is shown once. A user already holding the profile: 409 `already_exists`.',
  })
  @ApiParam(USER_ID_PARAM)
  @ApiCreatedResponse({ type: AssignedAccessProfileDto })
  @ApiErrorResponses(400, 404, 409)
  async assign(
    @Param('user_id') userId: string,
    @Body() dto: AssignAccessProfileDto,
  ): Promise<AssignedAccessProfileDto> {
    return this.copies.assign(userId, dto.profile_id);
  }

  @Delete(':profile_id')
  @Permission('AccessProfiles', 'Delete')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'removeUserAccessProfile',
    summary: 'Remove a user’s copy of an access profile and every key it produced',
    description:
      'All or nothing, in one transaction: the copy and its managed keys go, their counters are zeroed and the keys stop working on every replica at once. `profile_id` is the template’s id. No such copy: 404 `access_profile_copy_not_found`.',
  })
  @ApiParam(USER_ID_PARAM)
  @ApiParam({ ...PROFILE_ID_PARAM, description: 'The access profile (template) the user holds a copy of' })
  @ApiOkResponse({ type: RemovedAccessProfileDto })
  @ApiErrorResponses(404)
  async remove(
    @Param('user_id') userId: string,
    @Param('profile_id') profileId: string,
  ): Promise<RemovedAccessProfileDto> {
    return this.copies.remove(userId, profileId);
  }
}
