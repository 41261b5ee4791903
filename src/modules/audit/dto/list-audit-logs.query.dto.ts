import { PageQueryDto } from '../../../core/http/paging.dto.js';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const AUDITED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

export class ListAuditLogsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Exact actor (principal name)', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  actor?: string;

  @ApiPropertyOptional({ description: 'HTTP method', enum: AUDITED_METHODS })
  @IsOptional()
  @IsIn(AUDITED_METHODS)
  method?: (typeof AUDITED_METHODS)[number];

  @ApiPropertyOptional({ description: 'Exact response status', minimum: 100, maximum: 599, type: Number })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(599)
  status_code?: number;

  @ApiPropertyOptional({ description: 'Exact permission, `Resource:Operation`', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  permission?: string;

  @ApiPropertyOptional({ description: 'Entries at or after this time (RFC 3339)', format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  start_time?: string;

  @ApiPropertyOptional({ description: 'Entries at or before this time (RFC 3339)', format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  end_time?: string;
}
