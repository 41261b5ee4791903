import { ApiProperty, ApiSchema } from '@nestjs/swagger';

const LEVELS = ['provider_config', 'virtual_key', 'team', 'customer', 'provider', 'model_config'];

@ApiSchema({ name: 'QuotaBudget' })
export class QuotaBudgetDto {
  @ApiProperty({ description: 'The budget id' })
  id: string;

  @ApiProperty({ enum: LEVELS, description: 'What the budget belongs to' })
  level: string;

  @ApiProperty({ description: 'Id of the owner (a provider config: its id)' })
  level_id: string;

  @ApiProperty({ description: 'Name of the owner (a provider config: its provider)' })
  level_name: string;

  @ApiProperty({ description: 'USD, overrides included' })
  max_limit: number;

  @ApiProperty({ example: '1M' })
  reset_duration: string;

  @ApiProperty({ description: 'USD charged in the current window' })
  current_usage: number;

  @ApiProperty({ description: 'USD held by requests in flight (estimates, settled when they end)' })
  reserved: number;

  @ApiProperty({ format: 'date-time', description: 'When the usage next drops to zero' })
  reset_at: string;
}

@ApiSchema({ name: 'QuotaRateLimit' })
export class QuotaRateLimitDto {
  @ApiProperty({ description: 'The rate limit id' })
  id: string;

  @ApiProperty({ enum: LEVELS })
  level: string;

  @ApiProperty()
  level_id: string;

  @ApiProperty()
  level_name: string;

  @ApiProperty({ nullable: true, type: Number })
  request_max_limit: number | null;

  @ApiProperty({ nullable: true, type: String, example: '1m' })
  request_reset_duration: string | null;

  @ApiProperty({ nullable: true, type: Number, description: 'Requests counted in the current window (in flight too)' })
  request_current_usage: number | null;

  @ApiProperty({ nullable: true, type: String, format: 'date-time' })
  request_reset_at: string | null;

  @ApiProperty({ nullable: true, type: Number })
  token_max_limit: number | null;

  @ApiProperty({ nullable: true, type: String, example: '1h' })
  token_reset_duration: string | null;

  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'Tokens used in the current window (in-flight estimates too)',
  })
  token_current_usage: number | null;

  @ApiProperty({ nullable: true, type: String, format: 'date-time' })
  token_reset_at: string | null;
}

@ApiSchema({ name: 'VirtualKeyQuota' })
export class VirtualKeyQuotaDto {
  @ApiProperty({ format: 'uuid' })
  virtual_key_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({
    type: [QuotaBudgetDto],
    description:
      'Every budget covering the key: its provider configs, the key, its team and customers, provider governance',
  })
  budgets: QuotaBudgetDto[];

  @ApiProperty({ type: [QuotaRateLimitDto], description: 'Every rate limit covering the key, at the same levels' })
  rate_limits: QuotaRateLimitDto[];
}
