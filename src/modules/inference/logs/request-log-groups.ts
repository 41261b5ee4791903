import type { DataSource } from 'typeorm';
import {
  latestNames,
  queryWhere,
  sqlNumber,
  sqlNumberArray,
  sqlOptionalNumber,
  type SqlWhere,
} from '../../../core/persistence/log-sql.js';
import type { LogGroupBy, LogGroupSortField } from './dto/log-groups.dto.js';

/** The measures of a group or of the total (`LogGroupMeasuresDto`). */
export interface LogGroupMeasures {
  requests: number;
  errors: number;
  success_rate: number;
  tokens: number;
  cost: number;
  average_latency: number | null;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
}

export interface LogGroup extends LogGroupMeasures {
  provider: string | null;
  model: string | null;
  virtual_key_id: string | null;
  virtual_key_name: string | null;
}

export interface LogGroups {
  groups: LogGroup[];
  group_count: number;
  total: LogGroupMeasures;
}

/** The columns a group is keyed by. */
const KEYS: Record<LogGroupBy, string[]> = {
  provider: ['provider'],
  model: ['provider', 'model'],
  virtual_key: ['virtual_key_id'],
};

/**
 * One pass over the filtered rows. Percentiles have no rollup (like the latency histogram's), so this always reads the
 * rows, through the filters' indexes; aliases differ from column names so ORDER BY reads the aggregates.
 */
const MEASURES =
  `count(*) AS n_requests, count(*) FILTER (WHERE status = 'error') AS n_errors, ` +
  `count(*) FILTER (WHERE status = 'success') AS n_success, sum(total_tokens) AS sum_tokens, sum(cost) AS sum_cost, ` +
  `avg(latency) AS avg_latency, percentile_cont(ARRAY[0.5, 0.9, 0.95, 0.99]) WITHIN GROUP (ORDER BY latency) AS pct`;

const SORTS: Record<LogGroupSortField, string> = {
  requests: 'n_requests',
  errors: 'n_errors',
  tokens: 'sum_tokens',
  cost: 'sum_cost',
};

function measuresOf(row: Record<string, unknown> | undefined): LogGroupMeasures {
  const requests = sqlNumber(row?.n_requests);
  const pct = sqlNumberArray(row?.pct);
  return {
    requests,
    errors: sqlNumber(row?.n_errors),
    success_rate: requests ? (sqlNumber(row?.n_success) / requests) * 100 : 0,
    tokens: sqlNumber(row?.sum_tokens),
    cost: sqlNumber(row?.sum_cost),
    average_latency: sqlOptionalNumber(row?.avg_latency),
    p50: pct[0] ?? null,
    p90: pct[1] ?? null,
    p95: pct[2] ?? null,
    p99: pct[3] ?? null,
  };
}

/**
 * The largest groups of the rows `where` matches (by `sortBy`, ties by the group's key), how many groups there are,
 * and the same measures over all of them. `whereOf` builds a fresh clause per statement (each numbers its own
 * parameters).
 */
export async function readLogGroups(
  db: DataSource,
  whereOf: () => SqlWhere,
  groupBy: LogGroupBy,
  sortBy: LogGroupSortField,
  limit: number,
): Promise<LogGroups> {
  const keys = KEYS[groupBy].join(', ');
  const grouped = whereOf();
  const limitParam = grouped.param(limit);
  const totalWhere = whereOf();
  const [rows, totals] = await Promise.all([
    queryWhere<Array<Record<string, unknown>>>(
      db,
      `SELECT ${keys}, ${MEASURES}, count(*) OVER () AS group_count FROM request_logs ${grouped.sql} ` +
        `GROUP BY ${keys} ORDER BY ${SORTS[sortBy]} DESC NULLS LAST, ${KEYS[groupBy].map((k) => `${k} NULLS LAST`).join(', ')} ` +
        `LIMIT ${limitParam}`,
      grouped,
    ),
    queryWhere<Array<Record<string, unknown>>>(
      db,
      `SELECT ${MEASURES} FROM request_logs ${totalWhere.sql}`,
      totalWhere,
    ),
  ]);
  const names =
    groupBy === 'virtual_key'
      ? new Map(
          (
            await latestNames(
              db,
              'request_logs',
              rows.map((r) => r.virtual_key_id as string | null).filter((id): id is string => id !== null),
              'virtual_key_id',
              'virtual_key_name',
            )
          ).map((n) => [n.id, n.name]),
        )
      : undefined;
  const groups = rows.map((row): LogGroup => {
    const virtualKeyId = groupBy === 'virtual_key' ? ((row.virtual_key_id as string | null) ?? null) : null;
    return {
      provider: groupBy === 'virtual_key' ? null : ((row.provider as string | null) ?? null),
      model: groupBy === 'model' ? ((row.model as string | null) ?? null) : null,
      virtual_key_id: virtualKeyId,
      virtual_key_name: virtualKeyId === null ? null : (names?.get(virtualKeyId) ?? null),
      ...measuresOf(row),
    };
  });
  return { groups, group_count: sqlNumber(rows[0]?.group_count), total: measuresOf(totals[0]) };
}
