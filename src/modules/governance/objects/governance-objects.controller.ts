import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { BudgetOverridesService } from './budget-overrides.service.js';
import { BudgetListDto, BudgetOverrideDto, BudgetOverrideResponseDto, RateLimitListDto } from './dto/inventory.dto.js';
import { GovernanceInventory } from './governance-inventory.service.js';

@ApiTags('Budgets and rate limits')
@Controller('api/governance')
export class GovernanceObjectsController {
  constructor(
    private readonly inventory: GovernanceInventory,
    private readonly overrides: BudgetOverridesService,
  ) {}

  @Get('budgets')
  @Permission('Governance', 'View')
  @ApiOperation({
    operationId: 'listBudgets',
    summary: 'Every budget with its owner and current usage',
    description: 'Usage is read from the counters the request path charges, in their current window.',
  })
  @ApiOkResponse({ type: BudgetListDto })
  async budgets(): Promise<BudgetListDto> {
    const budgets = await this.inventory.budgets();
    return { budgets, count: budgets.length };
  }

  @Get('rate-limits')
  @Permission('Governance', 'View')
  @ApiOperation({ operationId: 'listRateLimits', summary: 'Every rate limit with its owner and current usage' })
  @ApiOkResponse({ type: RateLimitListDto })
  async rateLimits(): Promise<RateLimitListDto> {
    const rate_limits = await this.inventory.rateLimits();
    return { rate_limits, count: rate_limits.length };
  }

  @Put('virtual-keys/:vk_id/budgets/:budget_id/override')
  @Permission('VirtualKeys', 'Update')
  @ApiOperation({
    operationId: 'setBudgetOverride',
    summary: 'Raise a virtual key budget for a while',
    description:
      'The budget (the key’s own or one of its provider configs’) allows `max_limit + amount`: for ever, or for `cycles` windows starting with the current one. Replaces an earlier override.',
  })
  @ApiOkResponse({ type: BudgetOverrideResponseDto })
  @ApiErrorResponses(404)
  setOverride(
    @Param('vk_id') vkId: string,
    @Param('budget_id') budgetId: string,
    @Body() dto: BudgetOverrideDto,
  ): Promise<BudgetOverrideResponseDto> {
    return this.overrides.set(vkId, budgetId, dto);
  }

  @Delete('virtual-keys/:vk_id/budgets/:budget_id/override')
  @Permission('VirtualKeys', 'Update')
  @ApiOperation({ operationId: 'clearBudgetOverride', summary: 'End a budget override now' })
  @ApiOkResponse({ type: BudgetOverrideResponseDto })
  @ApiErrorResponses(404)
  clearOverride(
    @Param('vk_id') vkId: string,
    @Param('budget_id') budgetId: string,
  ): Promise<BudgetOverrideResponseDto> {
    return this.overrides.clear(vkId, budgetId);
  }
}
