import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, Max, Min } from 'class-validator';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { LEVEL_NAMES, type LevelKind } from '../../limits/governed-levels.js';
import { BudgetViewDto, MAX_USD, RateLimitViewDto } from './limits.dto.js';

const LEVEL_KINDS = Object.keys(LEVEL_NAMES) as LevelKind[];

@ApiSchema({ name: 'GovernanceOwner' })
export class GovernanceOwnerDto {
  @ApiProperty({ enum: LEVEL_KINDS, description: 'What holds the budget or rate limit' })
  kind: LevelKind;

  @ApiProperty({ description: 'Its id (a provider id for provider governance)' })
  id: string;

  @ApiProperty({ description: 'Its name (a provider config: its provider; a model config: [provider/]model)' })
  name: string;

  @ApiProperty({ type: String, nullable: true, description: 'The virtual key of a provider config' })
  virtual_key_id: string | null;
}

@ApiSchema({ name: 'OwnedBudget' })
export class OwnedBudgetDto extends BudgetViewDto {
  @ApiProperty({ type: GovernanceOwnerDto })
  owner: GovernanceOwnerDto;
}

@ApiSchema({ name: 'OwnedRateLimit' })
export class OwnedRateLimitDto extends RateLimitViewDto {
  @ApiProperty({ type: GovernanceOwnerDto })
  owner: GovernanceOwnerDto;
}

@ApiSchema({ name: 'BudgetList' })
export class BudgetListDto {
  @ApiProperty({ type: [OwnedBudgetDto] })
  budgets: OwnedBudgetDto[];

  @ApiProperty()
  count: number;
}

@ApiSchema({ name: 'RateLimitList' })
export class RateLimitListDto {
  @ApiProperty({ type: [OwnedRateLimitDto] })
  rate_limits: OwnedRateLimitDto[];

  @ApiProperty()
  count: number;
}

@ApiSchema({ name: 'BudgetOverrideRequest' })
export class BudgetOverrideDto {
  @ApiProperty({ description: 'USD added to max_limit (more than 0)', exclusiveMinimum: true, minimum: 0, example: 50 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  @Min(Number.MIN_VALUE, { message: 'amount must be more than 0' })
  @Max(MAX_USD)
  amount: number;

  @ApiProperty({ enum: ['cycles', 'forever'], description: '`cycles`: for `cycles` windows, the current one first' })
  @IsIn(['cycles', 'forever'])
  mode: 'cycles' | 'forever';

  @ApiProperty({ type: 'integer', required: false, minimum: 1, maximum: 1000, description: 'Only with mode cycles' })
  @IsOptionalNonNull()
  @IsInt({ message: 'cycles must be an integer' })
  @Min(1, { message: 'cycles must be at least 1' })
  @Max(1000)
  cycles?: number;
}

@ApiSchema({ name: 'BudgetOverrideResponse' })
export class BudgetOverrideResponseDto {
  @ApiProperty({ type: BudgetViewDto })
  budget: BudgetViewDto;

  @ApiProperty({ description: 'max_limit plus the active override' })
  effective_max_limit: number;
}
