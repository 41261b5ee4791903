import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { IntegerQuery } from '../../../../core/validation/integer-query.decorator.js';
import { LogFiltersQueryDto } from './logs-query.dto.js';

export const LOG_GROUP_BY = ['provider', 'model', 'virtual_key'] as const;
export type LogGroupBy = (typeof LOG_GROUP_BY)[number];
export const LOG_GROUP_SORT_FIELDS = ['requests', 'errors', 'tokens', 'cost'] as const;
export type LogGroupSortField = (typeof LOG_GROUP_SORT_FIELDS)[number];

/** `GET /api/logs/groups`: the logs' filters, what to group by, and how many of the largest groups. */
export class LogGroupsQueryDto extends LogFiltersQueryDto {
  @ApiPropertyOptional({
    enum: LOG_GROUP_BY,
    default: 'model',
    description: '`provider`, `model` (a provider and model pair) or `virtual_key`',
  })
  @IsOptionalNonNull()
  @IsIn(LOG_GROUP_BY)
  group_by?: LogGroupBy;

  @ApiPropertyOptional({
    enum: LOG_GROUP_SORT_FIELDS,
    default: 'requests',
    description: 'The measure the groups are ranked by, largest first',
  })
  @IsOptionalNonNull()
  @IsIn(LOG_GROUP_SORT_FIELDS)
  sort_by?: LogGroupSortField;

  @IntegerQuery({ minimum: 1, maximum: 100, default: 10, description: 'Groups to return (the largest)' })
  limit?: number;
}

/** What every group (and the total) measures over its rows. */
@ApiSchema({ name: 'RequestLogGroupMeasures' })
export class LogGroupMeasuresDto {
  @ApiProperty({ type: 'integer', description: 'Rows (requests and fallback attempts), every status' })
  requests: number;

  @ApiProperty({ type: 'integer', description: 'Rows with status error' })
  errors: number;

  @ApiProperty({ description: 'Percent of rows with status success (0–100); 0 without rows' })
  success_rate: number;

  @ApiProperty({ type: 'integer', description: 'Total tokens (rows without a count add nothing)' })
  tokens: number;

  @ApiProperty({ description: 'USD (rows of unknown cost add nothing)' })
  cost: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Mean latency, milliseconds; null without rows' })
  average_latency: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Median latency, milliseconds' })
  p50: number | null;

  @ApiProperty({ type: Number, nullable: true, description: '90th percentile latency, milliseconds' })
  p90: number | null;

  @ApiProperty({ type: Number, nullable: true, description: '95th percentile latency, milliseconds' })
  p95: number | null;

  @ApiProperty({ type: Number, nullable: true, description: '99th percentile latency, milliseconds' })
  p99: number | null;
}

@ApiSchema({ name: 'RequestLogGroup' })
export class LogGroupDto extends LogGroupMeasuresDto {
  @ApiProperty({ type: String, nullable: true, description: 'The provider (grouped by provider or model)' })
  provider: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The model as sent to the provider (grouped by model)' })
  model: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The virtual key (grouped by virtual_key; null for requests made without one)',
  })
  virtual_key_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The virtual key's name in its newest log row" })
  virtual_key_name: string | null;
}

@ApiSchema({ name: 'RequestLogGroups' })
export class LogGroupsDto {
  @ApiProperty({ enum: LOG_GROUP_BY })
  group_by: LogGroupBy;

  @ApiProperty({ enum: LOG_GROUP_SORT_FIELDS })
  sort_by: LogGroupSortField;

  @ApiProperty({
    type: [LogGroupDto],
    description: 'The largest groups by `sort_by`, largest first (ties by the group’s key); at most `limit`',
  })
  groups: LogGroupDto[];

  @ApiProperty({ type: 'integer', description: 'Groups matching the filters, all of them (beyond `limit` too)' })
  group_count: number;

  @ApiProperty({ type: LogGroupMeasuresDto, description: 'The same measures over every row the filters match' })
  total: LogGroupMeasuresDto;
}
