import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsNullable, IsOptionalNonNull, ValidatesWith } from '../../../../core/validation/field.decorators.js';
import { budgetDurationProblem, rateLimitDurationProblem } from '../limits.js';

/** Largest USD limit or override accepted (far beyond any real budget; keeps sums exact in doubles). */
export const MAX_USD = 1e12;
/** Largest request or token limit accepted. */
export const MAX_COUNT = 1e15;

@ApiSchema({ name: 'BudgetInput' })
export class BudgetInputDto {
  @ApiProperty({ description: 'Spending cap in USD (0 or more)', minimum: 0, maximum: MAX_USD, example: 100 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'max_limit must be a number' })
  @Min(0, { message: 'max_limit must not be negative' })
  @Max(MAX_USD)
  max_limit: number;

  @ApiProperty({
    description:
      'Reset window: a count and a unit, `m` minutes, `h`, `d`, `w`, `M` months, `Q` quarters, `Y` years; from `1m` to `1Y`. Two budgets of one owner may not share a window length.',
    example: '1M',
    maxLength: 16,
  })
  @IsString()
  @ValidatesWith('isBudgetDuration', (v) => budgetDurationProblem(v))
  reset_duration: string;

  @ApiPropertyOptional({
    description:
      'Reset on UTC calendar boundaries (day, Monday-based week, month, quarter, year) instead of a window starting at the first charge; only for `1d`, `1w`, `1M`, `1Q`, `1Y`. Default: the owner’s `calendar_aligned`, else false.',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  calendar_aligned?: boolean;
}

/** Each limit comes with its window; a limit or window left out (or null) is not set. */
@ApiSchema({ name: 'RateLimitInput' })
export class RateLimitInputDto {
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, description: 'Requests per window' })
  @IsNullable()
  @IsInt({ message: 'request_max_limit must be an integer' })
  @Min(0, { message: 'request_max_limit must not be negative' })
  @Max(MAX_COUNT)
  request_max_limit?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 16, example: '1m', description: '`1m` to `1Y`' })
  @IsNullable()
  @IsString()
  @MaxLength(16)
  @ValidatesWith('isRateLimitDuration', (v) => rateLimitDurationProblem(v))
  request_reset_duration?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'Tokens (input + output) per window',
  })
  @IsNullable()
  @IsInt({ message: 'token_max_limit must be an integer' })
  @Min(0, { message: 'token_max_limit must not be negative' })
  @Max(MAX_COUNT)
  token_max_limit?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 16, example: '1h', description: '`1m` to `1Y`' })
  @IsNullable()
  @IsString()
  @MaxLength(16)
  @ValidatesWith('isRateLimitDuration', (v) => rateLimitDurationProblem(v))
  token_reset_duration?: string | null;
}

@ApiSchema({ name: 'BudgetOverride' })
export class BudgetOverrideViewDto {
  @ApiProperty({ description: 'USD added to max_limit while the override lasts' })
  amount: number;

  @ApiProperty({ enum: ['cycles', 'forever'] })
  mode: 'cycles' | 'forever';

  @ApiProperty({ type: 'integer', nullable: true, description: 'Windows the override lasts (mode cycles)' })
  cycles: number | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When it ends; null: never' })
  expires_at: string | null;
}

@ApiSchema({ name: 'Budget' })
export class BudgetViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'USD' })
  max_limit: number;

  @ApiProperty({ example: '1M' })
  reset_duration: string;

  @ApiProperty()
  calendar_aligned: boolean;

  @ApiProperty({ description: 'USD charged in the current window (the counters the request path charges)' })
  current_usage: number;

  @ApiProperty({ format: 'date-time', description: 'Start of the current window' })
  last_reset: string;

  @ApiProperty({ description: 'max_limit plus an active override' })
  effective_max_limit: number;

  @ApiProperty({ type: BudgetOverrideViewDto, nullable: true, description: 'The active override, if any' })
  override: BudgetOverrideViewDto | null;
}

@ApiSchema({ name: 'RateLimit' })
export class RateLimitViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'integer', nullable: true })
  request_max_limit: number | null;

  @ApiProperty({ type: String, nullable: true })
  request_reset_duration: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  token_max_limit: number | null;

  @ApiProperty({ type: String, nullable: true })
  token_reset_duration: string | null;

  @ApiProperty({ type: 'integer' })
  request_current_usage: number;

  @ApiProperty({ type: 'integer' })
  token_current_usage: number;
}
