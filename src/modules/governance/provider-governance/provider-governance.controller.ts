import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import type { ProviderId } from '../../inference/index.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { GovernanceProviderPipe, GOVERNANCE_PROVIDER_PARAM } from '../shared/provider-param.js';
import {
  ProviderGovernanceListDto,
  ProviderGovernanceOperationDto,
  PutProviderGovernanceDto,
} from './provider-governance.dto.js';
import { ProviderGovernanceService } from './provider-governance.service.js';

@ApiTags('Provider governance')
@Controller('api/governance/providers')
export class ProviderGovernanceController {
  constructor(private readonly governance: ProviderGovernanceService) {}

  @Get()
  @Permission('Governance', 'View')
  @ApiOperation({ operationId: 'listProviderGovernance', summary: 'Providers with budgets or rate limits' })
  @ApiOkResponse({ type: ProviderGovernanceListDto })
  async list(): Promise<ProviderGovernanceListDto> {
    const providers = await this.governance.list();
    return { providers, count: providers.length };
  }

  @Put(':provider')
  @Permission('Governance', 'Update')
  @ApiOperation({
    operationId: 'putProviderGovernance',
    summary: 'Set a provider’s budgets and rate limit',
    description:
      'Covers every request sent to the provider. `budgets`: omitted keeps them, `[]` removes them, a list replaces them; `rate_limit: null` removes it; `reset_usage: true` zeroes usage.',
  })
  @ApiParam(GOVERNANCE_PROVIDER_PARAM)
  @ApiOkResponse({ type: ProviderGovernanceOperationDto })
  async put(
    @Param('provider', GovernanceProviderPipe) provider: ProviderId,
    @Body() dto: PutProviderGovernanceDto,
  ): Promise<ProviderGovernanceOperationDto> {
    return { message: 'Provider governance updated successfully', provider: await this.governance.put(provider, dto) };
  }

  @Delete(':provider')
  @Permission('Governance', 'Delete')
  @ApiOperation({ operationId: 'deleteProviderGovernance', summary: 'Remove a provider’s budgets and rate limit' })
  @ApiParam(GOVERNANCE_PROVIDER_PARAM)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('provider', GovernanceProviderPipe) provider: ProviderId): Promise<MessageResponseDto> {
    await this.governance.delete(provider);
    return { message: `Provider governance of ${provider} deleted successfully` };
  }
}
