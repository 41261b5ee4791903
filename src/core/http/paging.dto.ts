import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IntegerQuery } from '../validation/integer-query.decorator.js';

export const DEFAULT_PAGE_SIZE = 50;
/** Set (`true`) on a log list whose `content_search` matched more rows than were counted (decisions.md). */
export const TOTAL_COUNT_CAPPED_HEADER = 'x-gateway-total-count-capped';

/** The OpenAPI description of `TOTAL_COUNT_CAPPED_HEADER`; `also` names what else then covers only the counted rows. */
export function totalCountCappedHeader(also = ''): Record<string, { description: string; schema: object }> {
  return {
    [TOTAL_COUNT_CAPPED_HEADER]: {
      description:
        'Present (`true`) when `content_search` matched more rows than were counted: `pagination.total_count` is ' +
        `then a lower bound (matches are counted up to 1,000 past the end of the page)${also}.`,
      schema: { type: 'string', enum: ['true'] },
    },
  };
}
export const MAX_PAGE_SIZE = 1000;
/** Deepest page start accepted: far beyond any list we keep, well inside int4 and Number.MAX_SAFE_INTEGER. */
export const MAX_PAGE_OFFSET = 1_000_000_000;

/** `limit` (default 50, 1–1000) and `offset` (0–1e9): the paging query of every list (decisions.md, Lists). */
export class PageQueryDto {
  @IntegerQuery({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Page size' })
  limit?: number;

  @IntegerQuery({ minimum: 0, maximum: MAX_PAGE_OFFSET, default: 0, description: 'Number of items to skip' })
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
