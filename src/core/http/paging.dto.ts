import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { IntegerQuery } from '../validation/integer-query.decorator.js';

export const DEFAULT_PAGE_SIZE = 50;
/** Set (`true`) on a log list whose `content_search` matched more rows than were counted (decisions.md). */
export const TOTAL_COUNT_CAPPED_HEADER = 'x-gateway-total-count-capped';

/**
 * The OpenAPI description of `TOTAL_COUNT_CAPPED_HEADER`; `also` names what else then covers only the counted rows,
 * `bound` how far the list counts.
 */
export function totalCountCappedHeader(
  also = '',
  bound = 'with `content_search`, matches are counted up to 1,000 past the end of the page',
): Record<string, { description: string; schema: object }> {
  return {
    [TOTAL_COUNT_CAPPED_HEADER]: {
      description:
        'Present (`true`) when the filters matched more rows than were counted: `pagination.total_count` is ' +
        `then a lower bound (${bound})${also}.`,
      schema: { type: 'string', enum: ['true'] },
    },
  };
}

/**
 * A log list's `has_logs` (any row at all, whatever the filters), read so that it never contradicts the page beside
 * it: a page that found rows answers it; only an empty one asks the table, after the list's own read (which flushed
 * the buffered rows first). A check run beside the list saw the table before that flush, or before a row another
 * replica wrote between the two reads, and answered false next to rows.
 */
export function hasLogsBeside(
  listed: { rows: readonly unknown[]; total: number },
  anyRow: () => Promise<boolean>,
): Promise<boolean> {
  return listed.rows.length > 0 || listed.total > 0 ? Promise.resolve(true) : anyRow();
}

/**
 * Set on a log list whose `content_search` of one or two characters read only the newest rows of its other filters
 * (`SHORT_SEARCH_WINDOW`) while older ones exist: its value is how many were read.
 */
export const SEARCH_WINDOW_HEADER = 'x-gateway-search-window';

/** The OpenAPI description of `SEARCH_WINDOW_HEADER`. */
export function searchWindowHeader(): Record<string, { description: string; schema: object }> {
  return {
    [SEARCH_WINDOW_HEADER]: {
      description:
        'Present when a `content_search` of one or two characters (no trigram index serves it) read only the newest ' +
        'rows of the other filters and older ones exist: how many rows were read. `x-gateway-total-count-capped` is ' +
        'then set too.',
      schema: { type: 'integer' },
    },
  };
}

/** The headers of a log list page: the capped count and the bounded short search. */
export function sendSearchPageHeaders(reply: FastifyReply, page: { capped: boolean; windowFull?: number }): void {
  if (page.capped) void reply.header(TOTAL_COUNT_CAPPED_HEADER, 'true');
  if (page.windowFull !== undefined) void reply.header(SEARCH_WINDOW_HEADER, String(page.windowFull));
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
