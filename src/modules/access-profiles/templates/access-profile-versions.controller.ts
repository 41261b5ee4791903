import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { PROFILE_ID_PARAM } from './access-profiles.controller.js';
import { AccessProfilesService } from './access-profiles.service.js';
import { AccessProfileVersionsService } from './access-profile-versions.service.js';
import { AccessProfileVersionListDto, AccessProfileVersionResponseDto } from './dto/access-profile-version.dto.js';

@ApiTags('Access profiles')
@Controller('api/governance/access-profiles/:profile_id/versions')
export class AccessProfileVersionsController {
  constructor(private readonly versions: AccessProfileVersionsService) {}

  @Get()
  @Permission('AccessProfiles', 'View')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'listAccessProfileVersions',
    summary: 'List an access profile’s versions, oldest first',
  })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiOkResponse({ type: AccessProfileVersionListDto })
  @ApiErrorResponses(404)
  async list(@Param('profile_id') id: string): Promise<AccessProfileVersionListDto> {
    return { versions: await this.versions.list(AccessProfilesService.parseId(id)) };
  }

  @Get(':version')
  @Permission('AccessProfiles', 'View')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'getAccessProfileVersion', summary: 'Get one version of an access profile' })
  @ApiParam(PROFILE_ID_PARAM)
  @ApiParam({ name: 'version', type: 'integer', description: 'Version number (1 is the create)', example: 1 })
  @ApiOkResponse({ type: AccessProfileVersionResponseDto })
  @ApiErrorResponses(404)
  async get(
    @Param('profile_id') id: string,
    @Param('version') version: string,
  ): Promise<AccessProfileVersionResponseDto> {
    return { version: await this.versions.get(AccessProfilesService.parseId(id), version) };
  }
}
