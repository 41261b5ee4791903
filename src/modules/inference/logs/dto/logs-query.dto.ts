import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_OFFSET, MAX_PAGE_SIZE } from '../../../../core/http/paging.dto.js';
import { BooleanQuery, IntegerQuery, NumberQuery } from '../../../../core/validation/integer-query.decorator.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { CommaListQuery, SearchQuery, TimeQuery } from '../../../../core/validation/list-query.decorators.js';

export const LOG_SORT_FIELDS = ['timestamp', 'latency', 'tokens', 'cost'] as const;
export type LogSortField = (typeof LOG_SORT_FIELDS)[number];

const MAX_MS = 1e9;
const MAX_TOKENS = 2_000_000_000;
const MAX_USD = 1e9;
/** The largest `count_limit`: past it, counting to the bound costs what counting every match does. */
const MAX_COUNT_LIMIT = 1_000_000;

/** The filters of `GET /api/logs` and of its stats and histograms. Lists are comma-separated; times RFC 3339. */
export class LogFiltersQueryDto {
  @CommaListQuery('Comma-separated provider ids', 'openai,anthropic')
  providers?: string;

  @CommaListQuery('Comma-separated models (as sent to the provider)', 'gpt-4o-mini')
  models?: string;

  @CommaListQuery('Comma-separated statuses: processing, success, error', 'error')
  status?: string;

  @CommaListQuery(
    'Comma-separated request types: chat_completion, text_completion, responses, embedding, rerank, count_tokens',
    'chat_completion',
  )
  objects?: string;

  @CommaListQuery('Comma-separated provider key ids')
  selected_key_ids?: string;

  @CommaListQuery('Comma-separated virtual key ids')
  virtual_key_ids?: string;

  @CommaListQuery('Comma-separated team ids')
  team_ids?: string;

  @CommaListQuery('Comma-separated customer ids')
  customer_ids?: string;

  @CommaListQuery('Comma-separated routing rule ids')
  routing_rule_ids?: string;

  @CommaListQuery(
    'Comma-separated request ids (UUIDs): the fallback attempts of those requests (rows whose parent_request_id is one)',
  )
  parent_request_ids?: string;

  @TimeQuery('Earliest timestamp (RFC 3339, inclusive)')
  start_time?: string;

  @TimeQuery('Latest timestamp (RFC 3339, inclusive)')
  end_time?: string;

  @NumberQuery({ minimum: 0, maximum: MAX_MS, description: 'Least latency, milliseconds' })
  min_latency?: number;

  @NumberQuery({ minimum: 0, maximum: MAX_MS, description: 'Greatest latency, milliseconds' })
  max_latency?: number;

  @IntegerQuery({ minimum: 0, maximum: MAX_TOKENS, description: 'Least total tokens' })
  min_tokens?: number;

  @IntegerQuery({ minimum: 0, maximum: MAX_TOKENS, description: 'Greatest total tokens' })
  max_tokens?: number;

  @NumberQuery({ minimum: 0, maximum: MAX_USD, description: 'Least cost, USD' })
  min_cost?: number;

  @NumberQuery({ minimum: 0, maximum: MAX_USD, description: 'Greatest cost, USD' })
  max_cost?: number;

  @BooleanQuery('Only rows whose cost is unknown')
  missing_cost_only?: boolean;

  @BooleanQuery('Only cache hits (true) or only the rest (false)')
  cache_hit?: boolean;

  @SearchQuery(
    'Case-insensitive substring of the input or output text; a list reads one or two characters in the newest 20,000 rows of its time range',
  )
  content_search?: string;
}

/** `GET /api/logs`: the filters, a page and a sort. */
export class LogsListQueryDto extends LogFiltersQueryDto {
  @IntegerQuery({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Page size' })
  limit?: number;

  @IntegerQuery({ minimum: 0, maximum: MAX_PAGE_OFFSET, default: 0, description: 'Number of rows to skip' })
  offset?: number;

  @ApiPropertyOptional({ enum: LOG_SORT_FIELDS, default: 'timestamp', description: 'Sort field' })
  @IsOptionalNonNull()
  @IsIn(LOG_SORT_FIELDS)
  sort_by?: LogSortField;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'Sort order' })
  @IsOptionalNonNull()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @IntegerQuery({
    minimum: 0,
    maximum: MAX_COUNT_LIMIT,
    description:
      'Count the matches (and add up `stats`) only up to this many past the end of the page: `pagination.total_count` ' +
      'and `stats` then cover those, and `x-gateway-total-count-capped: true` says more rows match. `0` counts the ' +
      "page's own rows (an export's pages, or a screen that asks `GET /api/logs/stats` beside the rows). Default: " +
      'every match (exact), or 1,000 with `content_search`',
  })
  count_limit?: number;
}
