import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { AccessProfileCopiesService } from './access-profile-copies.service.js';
import { AssignAccessProfileDto, AssignedAccessProfileDto } from './dto/access-profile-copy.dto.js';

export const USER_ID_PARAM = { name: 'user_id', type: String, format: 'uuid', description: 'User id' };

@ApiTags('Access profiles')
@Controller('api/governance/users/:user_id/access-profiles')
export class UserAccessProfilesController {
  constructor(private readonly copies: AccessProfileCopiesService) {}

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
}
