import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_OFFSET, MAX_PAGE_SIZE } from '../../../../core/http/paging.dto.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { IntegerQuery, NumberQuery } from '../../../../core/validation/integer-query.decorator.js';
import { CommaListQuery, SearchQuery, TimeQuery } from '../../../../core/validation/list-query.decorators.js';

export const MCP_LOG_SORT_FIELDS = ['timestamp', 'latency', 'cost'] as const;
export type McpLogSortField = (typeof MCP_LOG_SORT_FIELDS)[number];

const MAX_MS = 1e9;

/** The filters of `GET /api/mcp-logs` and of its stats and histogram. Lists are comma-separated; times RFC 3339. */
export class McpLogFiltersQueryDto {
  @CommaListQuery('Comma-separated tool names (`<client>-<tool>`)', 'files-read_file')
  tool_names?: string;

  @CommaListQuery('Comma-separated server labels (MCP client names)', 'files')
  server_labels?: string;

  @CommaListQuery('Comma-separated statuses: processing, success, error', 'error')
  status?: string;

  @CommaListQuery('Comma-separated virtual key ids')
  virtual_key_ids?: string;

  @CommaListQuery('Comma-separated ids of the inference requests that asked for the calls')
  llm_request_ids?: string;

  @TimeQuery('Earliest call start (RFC 3339, inclusive)')
  start_time?: string;

  @TimeQuery('Latest call start (RFC 3339, inclusive)')
  end_time?: string;

  @NumberQuery({ minimum: 0, maximum: MAX_MS, description: 'Least latency, milliseconds' })
  min_latency?: number;

  @NumberQuery({ minimum: 0, maximum: MAX_MS, description: 'Greatest latency, milliseconds' })
  max_latency?: number;

  @SearchQuery(
    'Case-insensitive substring of the arguments or the result, as JSON text; a list reads one or two characters in the newest 20,000 rows of its time range',
  )
  content_search?: string;
}

/** `GET /api/mcp-logs`: the filters, a page and a sort. */
export class McpLogsListQueryDto extends McpLogFiltersQueryDto {
  @IntegerQuery({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Page size' })
  limit?: number;

  @IntegerQuery({ minimum: 0, maximum: MAX_PAGE_OFFSET, default: 0, description: 'Number of logs to skip' })
  offset?: number;

  @ApiPropertyOptional({ enum: MCP_LOG_SORT_FIELDS, default: 'timestamp', description: 'Sort field' })
  @IsOptionalNonNull()
  @IsIn(MCP_LOG_SORT_FIELDS)
  sort_by?: McpLogSortField;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'Sort order' })
  @IsOptionalNonNull()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';
}
