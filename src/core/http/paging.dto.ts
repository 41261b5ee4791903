import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** `limit` (default 50, 1–1000) and `offset` (≥ 0): the paging query of every list (decisions.md, Lists). */
export class PageQueryDto {
  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: 'Page size',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({ type: Number, minimum: 0, default: 0, description: 'Number of items to skip' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'offset must be an integer' })
  @Min(0)
  offset?: number;
}

/** The contract's Pagination object. */
@ApiSchema({ name: 'Pagination' })
export class PaginationDto {
  @ApiProperty({ type: 'integer', description: 'Items matching the filters, across all pages' })
  total_count: number;

  @ApiProperty({ type: 'integer', description: 'Page size used' })
  limit: number;

  @ApiProperty({ type: 'integer', description: 'Items skipped' })
  offset: number;

  @ApiProperty({ description: 'Field the list is sorted by' })
  sort_by: string;

  @ApiProperty({ enum: ['asc', 'desc'], description: 'Sort order' })
  order: string;
}
