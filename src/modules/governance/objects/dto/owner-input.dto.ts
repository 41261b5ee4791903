import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsObject, ValidateNested } from 'class-validator';
import { IsNullable, IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { BudgetInputDto, RateLimitInputDto } from './limits.dto.js';

/** Most budgets one owner holds. */
export const MAX_BUDGETS = 20;

/** Budgets and a rate limit, as every governed owner takes them. */
export class OwnerLimitsInputDto {
  @ApiPropertyOptional({
    type: [BudgetInputDto],
    maxItems: MAX_BUDGETS,
    description:
      'The owner’s budgets. On update: omitted keeps them, a list replaces them (a budget with the window length of a stored one keeps its id and usage), `[]` removes them.',
  })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_BUDGETS)
  @ValidateNested({ each: true })
  @Type(() => BudgetInputDto)
  budgets?: BudgetInputDto[];

  @ApiPropertyOptional({
    type: RateLimitInputDto,
    nullable: true,
    description:
      'Request and token limits. On update: omitted keeps it, null removes it, an object replaces it (usage kept).',
  })
  @IsNullable()
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitInputDto)
  rate_limit?: RateLimitInputDto | null;
}

/** Update inputs also take `reset_usage`. */
export class OwnerLimitsUpdateDto extends OwnerLimitsInputDto {
  @ApiPropertyOptional({
    description: 'Zero the usage of every budget and rate limit of this owner (after the update)',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  reset_usage?: boolean;
}
