// `.js`: the gateway's tests import this file too (NodeNext resolution); Vite resolves it to the .ts file.
import type { QueryOf, Schema } from '../../api/schemas.js';

export type RequestLog = Schema<'RequestLog'>;
export type LogsQuery = QueryOf<'listLogs'>;

/** Whether a live row belongs in the list: `unknown` when only the server can tell (a content search). */
export type LiveVerdict = 'match' | 'no' | 'unknown';

/** The comma-list filters of `GET /api/logs` and the column each one reads (request-log.query.ts, LIST_FILTERS). */
const LIST_FILTERS = [
  ['providers', 'provider'],
  ['models', 'model'],
  ['status', 'status'],
  ['objects', 'object'],
  ['selected_key_ids', 'selected_key_id'],
  ['virtual_key_ids', 'virtual_key_id'],
  ['team_ids', 'team_id'],
  ['customer_ids', 'customer_id'],
  ['routing_rule_ids', 'routing_rule_id'],
  ['parent_request_ids', 'parent_request_id'],
] as const satisfies ReadonlyArray<readonly [keyof LogsQuery, keyof RequestLog]>;

/** The inclusive bounds and the column each reads; a null column never meets a bound (SQL comparison with NULL). */
const BOUNDS = [
  ['min_latency', 'max_latency', 'latency'],
  ['min_tokens', 'max_tokens', 'total_tokens'],
  ['min_cost', 'max_cost', 'cost'],
] as const satisfies ReadonlyArray<readonly [keyof LogsQuery, keyof LogsQuery, keyof RequestLog]>;

/** A comma list as the server splits it (query-values.ts, commaList): trimmed, empty items dropped. */
function commaList(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items?.length ? items : undefined;
}

/**
 * The server's filter of `GET /api/logs`, applied to one pushed row (docs/logs.md, "Reading"): a live row shows at the
 * top of the list only when the list's own query would return it. `query` is the query the list was read with.
 */
export function liveVerdict(row: RequestLog, query: LogsQuery): LiveVerdict {
  for (const [param, column] of LIST_FILTERS) {
    const allowed = commaList(query[param]);
    const value = row[column];
    if (allowed && (typeof value !== 'string' || !allowed.includes(value))) return 'no';
  }
  const at = Date.parse(row.timestamp);
  if (query.start_time && at < Date.parse(query.start_time)) return 'no';
  if (query.end_time && at > Date.parse(query.end_time)) return 'no';
  for (const [min, max, column] of BOUNDS) {
    const value = row[column];
    const low = query[min];
    const high = query[max];
    if (low === undefined && high === undefined) continue;
    if (value === null) return 'no';
    if ((low !== undefined && value < low) || (high !== undefined && value > high)) return 'no';
  }
  if (query.missing_cost_only && row.cost !== null) return 'no';
  if (query.cache_hit !== undefined && row.cache_hit !== query.cache_hit) return 'no';
  // The searched text (input and output) is not part of a listed row.
  if (query.content_search?.trim()) return 'unknown';
  return 'match';
}
