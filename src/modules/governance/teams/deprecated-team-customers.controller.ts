import { Controller, Delete, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { DeprecatedRoute } from '../../../core/http/deprecation.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { CUSTOMER_DETACHED } from './teams.controller.js';
import { TeamsService } from './teams.service.js';

const SUCCESSOR = '/api/governance/teams/{team_id}/customers/{customer_id}';

/** `DELETE /api/teams/{team_id}/customers/{customer_id}`: removed in the next major release. */
@ApiTags('Teams')
@Controller('api/teams')
export class DeprecatedTeamCustomersController {
  constructor(private readonly teams: TeamsService) {}

  @Delete(':team_id/customers/:customer_id')
  @Permission('Teams', 'Update')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'unlinkTeamCustomerDeprecated',
    summary: 'Detach a customer from a team (deprecated)',
    description: `Deprecated: use \`DELETE ${SUCCESSOR}\`, which behaves the same. Answers carry \`Deprecation: true\` and a \`Link\` to the successor.`,
  })
  @DeprecatedRoute(SUCCESSOR)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async unlink(@Param('team_id') id: string, @Param('customer_id') customerId: string): Promise<MessageResponseDto> {
    await this.teams.unlink(id, customerId);
    return { message: CUSTOMER_DETACHED };
  }
}
