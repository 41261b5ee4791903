import { PageQueryDto } from '../../../core/http/paging.dto.js';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsString, MaxLength } from 'class-validator';
import { IntegerQuery } from '../../../core/validation/integer-query.decorator.js';
import { IsOptionalNonNull } from '../../../core/validation/field.decorators.js';

export const AUDITED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

export class ListAuditLogsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Exact actor (principal name)', maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  actor?: string;

  @ApiPropertyOptional({ description: 'HTTP method', enum: AUDITED_METHODS })
  @IsOptionalNonNull()
  @IsIn(AUDITED_METHODS)
  method?: (typeof AUDITED_METHODS)[number];

  @IntegerQuery({ minimum: 100, maximum: 599, description: 'Exact response status' })
  status_code?: number;

  @ApiPropertyOptional({ description: 'Exact permission, `Resource:Operation`', maxLength: 64 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  permission?: string;

  @ApiPropertyOptional({ description: 'Entries at or after this time (RFC 3339)', format: 'date-time' })
  @IsOptionalNonNull()
  @MaxLength(64)
  @IsISO8601({ strict: true })
  start_time?: string;

  @ApiPropertyOptional({ description: 'Entries at or before this time (RFC 3339)', format: 'date-time' })
  @IsOptionalNonNull()
  @MaxLength(64)
  @IsISO8601({ strict: true })
  end_time?: string;
}
