import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, type Principal } from '../../../core/auth/principal.js';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { DeprecatedRoute } from '../../../core/http/deprecation.js';
import { AccessProfilesService } from '../templates/access-profiles.service.js';
import { PropagateAccessProfileDto } from './dto/propagate-access-profile.dto.js';
import type { PropagationAcceptedDto, PropagationResultDto } from './dto/propagation-result.dto.js';
import { PROPAGATE_DESCRIPTION, propagateAnswer, PropagateResponses } from './propagations.controller.js';
import { PropagationsService } from './propagations.service.js';

const SUCCESSOR = '/api/governance/access-profiles/{profile_id}/propagate';

/** `POST /api/access-profiles/{profile_id}/propagate`: removed in the next major release. */
@ApiTags('Access profiles')
@Controller('api/access-profiles')
export class DeprecatedPropagateController {
  constructor(private readonly propagations: PropagationsService) {}

  @Post(':profile_id/propagate')
  @HttpCode(200)
  @Permission('AccessProfiles', 'Create')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'propagateAccessProfileDeprecated',
    summary: 'Push template fields to users’ copies (deprecated)',
    description: `Deprecated: use \`POST ${SUCCESSOR}\`, which behaves the same. Answers carry \`Deprecation: true\` and a \`Link\` to the successor. ${PROPAGATE_DESCRIPTION}`,
  })
  @DeprecatedRoute(SUCCESSOR)
  @PropagateResponses()
  async propagate(
    @Param('profile_id') id: string,
    @Body() dto: PropagateAccessProfileDto,
    @CurrentPrincipal() principal: Principal | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PropagationResultDto | PropagationAcceptedDto> {
    const outcome = await this.propagations.propagate(AccessProfilesService.parseId(id), dto, principal);
    return propagateAnswer(outcome, reply);
  }
}
