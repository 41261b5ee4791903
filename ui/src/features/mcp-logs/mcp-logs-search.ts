import { listMcpLogsQuery, type ObjectConstraints } from '../../api/constraints.gen';
import type { QueryOf } from '../../api/schemas';
import { PERIODS, type Period } from '../../shared/time/ranges';
import { compactSearch, readSearch } from '../../shared/url/search-params';

export type McpLogsQuery = QueryOf<'listMcpLogs'>;

/**
 * The MCP tool logs screen's URL: every parameter of `GET /api/mcp-logs` under its own name (a link is the API
 * query), a relative time range (`period`) and the open log (`log`).
 */
export const MCP_LOGS_SEARCH: ObjectConstraints = {
  required: [],
  properties: {
    ...listMcpLogsQuery.properties,
    period: { type: 'string', enum: Object.keys(PERIODS) },
    log: { type: 'string' },
  },
};

export type McpLogsSearch = McpLogsQuery & { period?: Period; log?: string };

/** The API's defaults: left out of the URL. */
export const MCP_LOGS_DEFAULTS = { limit: 50, offset: 0, sort_by: 'timestamp', order: 'desc' } as const;

export function readMcpLogsSearch(raw: Record<string, unknown>): McpLogsSearch {
  return readSearch(raw, MCP_LOGS_SEARCH);
}

export function mcpLogsSearchOf(search: McpLogsSearch): McpLogsSearch {
  return compactSearch(search, MCP_LOGS_DEFAULTS);
}

/** The API query of a view, its `period` made absolute against `now` (an explicit `start_time` wins). */
export function mcpLogsQueryOf(
  search: McpLogsSearch,
  now: number,
): Required<Pick<McpLogsQuery, 'limit' | 'offset' | 'sort_by' | 'order'>> & McpLogsQuery {
  const { period, log: _log, ...query } = search;
  if (period && !query.start_time) query.start_time = new Date(now - PERIODS[period]).toISOString();
  return { ...MCP_LOGS_DEFAULTS, ...query };
}
