import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, type Principal } from '../../../core/auth/principal.js';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { PROFILE_ID_PARAM } from '../templates/access-profiles.controller.js';
import { AccessProfilesService } from '../templates/access-profiles.service.js';
import { PropagateAccessProfileDto } from './dto/propagate-access-profile.dto.js';
import { PropagationAcceptedDto, PropagationResultDto, PropagationStatusDto } from './dto/propagation-result.dto.js';
import { PropagationsService, type PropagateOutcome } from './propagations.service.js';

export const PROPAGATE_DESCRIPTION =
  'Copies the chosen template fields onto the copies of the selected users and rewrites their managed keys, as a job. ' +
  'Answers 200 with the result when the job finishes within `access_profiles.propagation_wait` (30 s), else 202 `{ job_id }` ' +
  '(follow it at `GET /api/governance/access-profiles/propagations/{job_id}`). `dry_run` answers the same counts and ' +
  'writes nothing. A propagation of the same profile still running: 409 `propagation_in_progress`.';

/** The answer of both propagate paths: 200 with the result, or 202 with the job. */
export function propagateAnswer(
  outcome: PropagateOutcome,
  reply: FastifyReply,
): PropagationResultDto | PropagationAcceptedDto {
  if ('result' in outcome) return outcome.result;
  void reply.status(202);
  return outcome;
}

/** OpenAPI of both propagate paths: the parameter and the answers. */
export function PropagateResponses(): MethodDecorator {
  return applyDecorators(
    ApiParam(PROFILE_ID_PARAM),
    ApiOkResponse({ type: PropagationResultDto, description: 'The job finished (or a dry run): its result' }),
    ApiResponse({ status: 202, type: PropagationAcceptedDto, description: 'Still running: follow the job' }),
    ApiErrorResponses(400, 404, 409),
  );
}

@ApiTags('Access profiles')
@Controller('api/governance/access-profiles')
export class PropagationsController {
  constructor(private readonly propagations: PropagationsService) {}

  @Post(':profile_id/propagate')
  @HttpCode(200)
  @Permission('AccessProfiles', 'Create')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'propagateAccessProfile',
    summary: 'Push template fields to users’ copies',
    description: PROPAGATE_DESCRIPTION,
  })
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

  @Get('propagations/:job_id')
  @Permission('AccessProfiles', 'View')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'getAccessProfilePropagation',
    summary: 'Progress and result of a propagation',
    description: '`processed` of `total` selected users so far; `result` once completed.',
  })
  @ApiParam({ name: 'job_id', type: String, format: 'uuid', description: 'The job id a propagate call answered' })
  @ApiOkResponse({ type: PropagationStatusDto })
  @ApiErrorResponses(404)
  async status(@Param('job_id') jobId: string): Promise<PropagationStatusDto> {
    return this.propagations.status(jobId);
  }
}
