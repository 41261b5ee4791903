import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { DeprecatedRoute } from '../../../core/http/deprecation.js';
import { PROFILE_ID_PARAM } from './access-profiles.controller.js';
import { AccessProfilesService } from './access-profiles.service.js';
import { AccessProfileVersionsService } from './access-profile-versions.service.js';
import { AccessProfileVersionListDto } from './dto/access-profile-version.dto.js';

const SUCCESSOR = '/api/governance/access-profiles/{profile_id}/versions';

/** `GET /api/access-profiles/{profile_id}/versions`: removed in the next major release. */
@ApiTags('Access profiles')
@Controller('api/access-profiles')
export class DeprecatedAccessProfileVersionsController {
  constructor(private readonly versions: AccessProfileVersionsService) {}

  @Get(':profile_id/versions')
  @Permission('AccessProfiles', 'View')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'listAccessProfileVersionsDeprecated',
    summary: 'List an access profile’s versions (deprecated)',
    description: `Deprecated: use \`GET ${SUCCESSOR}\`, which answers the same. Answers carry \`Deprecation: true\` and a \`Link\` to the successor.`,
  })
  @DeprecatedRoute(SUCCESSOR)
  @ApiParam(PROFILE_ID_PARAM)
  @ApiOkResponse({ type: AccessProfileVersionListDto })
  @ApiErrorResponses(404)
  async list(@Param('profile_id') id: string): Promise<AccessProfileVersionListDto> {
    return { versions: await this.versions.list(AccessProfilesService.parseId(id)) };
  }
}
