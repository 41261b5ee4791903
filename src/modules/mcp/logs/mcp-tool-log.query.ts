import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import {
  SqlWhere,
  bucketRows,
  distinctValues,
  eachBucket,
  histogramBuckets,
  latestNames,
  likePattern,
  pageSql,
  queryWhere,
  sqlNumber,
  sqlOptionalNumber,
} from '../../../core/persistence/log-sql.js';
import { edgeWheres, rollupWhere, sumByBucket, wholeHours } from '../../../core/persistence/hourly-rollup.js';
import {
  CANDIDATES_FIRST_MAX,
  readSearchPage,
  SHORT_SEARCH_WINDOW,
  timeRange,
  trigramless,
} from '../../../core/persistence/search-page.js';
import { TrigramSample } from '../../../core/persistence/trigram-sample.js';
import type { McpLogSortField } from './dto/mcp-logs-query.dto.js';
import type { McpLogStatus, McpToolLogEntity } from './entities/mcp-tool-log.entity.js';
import { McpToolLogStore } from './mcp-tool-log.store.js';

/** Validated filters of `/api/mcp-logs` and its stats and histogram. */
export interface McpLogFilters {
  tool_names?: string[];
  server_labels?: string[];
  status?: McpLogStatus[];
  virtual_key_ids?: string[];
  llm_request_ids?: string[];
  start_time?: Date;
  end_time?: Date;
  min_latency?: number;
  max_latency?: number;
  content_search?: string;
}

export interface McpLogStats {
  total_executions: number;
  success_rate: number;
  average_latency: number;
  total_cost: number;
}

const LIST_COLUMNS =
  'id, llm_request_id, project_id, project_name, timestamp, tool_name, server_label, mcp_request_type, virtual_key_id, ' +
  'virtual_key_name, arguments, result, error_details, latency, cost, status, metadata, plugin_logs, ' +
  'redaction_mapping, created_at';

/** Columns whose (column, timestamp) index holds only the rows with a value. */
const PARTIAL_COLUMNS: ReadonlySet<string> = new Set(['llm_request_id']);

const LIST_FILTERS: Array<[keyof McpLogFilters, string]> = [
  ['tool_names', 'tool_name'],
  ['server_labels', 'server_label'],
  ['status', 'status'],
  ['virtual_key_ids', 'virtual_key_id'],
  ['llm_request_ids', 'llm_request_id'],
];

const DEFAULT_HISTOGRAM_RANGE_MS = 24 * 3600 * 1000;
const MAX_FILTER_VALUES = 1000;

/** Every filter but `content_search`, added to `w`; each reads one of `FILTERED_COLUMNS`. */
function addColumnFilters(w: SqlWhere, f: McpLogFilters): SqlWhere {
  for (const [key, column] of LIST_FILTERS)
    w.inList(column, f[key] as string[] | undefined, PARTIAL_COLUMNS.has(column));
  w.between('timestamp', f.start_time, f.end_time);
  w.between('latency', f.min_latency, f.max_latency);
  return w;
}

/** The columns the column filters and the sorts read. */
const FILTERED_COLUMNS = 'timestamp, latency, cost, tool_name, server_label, status, virtual_key_id, llm_request_id';

/**
 * `content_search` as SQL, added to `w`. It reads `search_text` (stored lowercased: `lower(text) LIKE lower(pattern)`
 * is what ILIKE does on a UTF-8 database). With `indexTerm`, a substring of the term whose trigrams are rarer, the
 * trigram index gets only that, and each candidate is checked for the whole term with `strpos` (which no index
 * serves, so the planner keeps it out of the index's condition).
 */
function addSearch(w: SqlWhere, term: string, indexTerm?: string): SqlWhere {
  // One or two characters: no trigram, so `strpos`, which the planner never hands to the trigram index.
  if (trigramless(term)) {
    w.addSearch((p) => `strpos(search_text, lower(${p})) > 0`, term);
    return w;
  }
  w.addSearch((p) => `search_text LIKE lower(${p}) ESCAPE '\\'`, likePattern(indexTerm ?? term));
  if (indexTerm) w.addSearch((p) => `strpos(search_text, lower(${p})) > 0`, term);
  return w;
}

/** The filters as SQL (the search's `indexTerm` as in `addSearch`). */
function filterSql(f: McpLogFilters, indexTerm?: string): SqlWhere {
  const w = addColumnFilters(new SqlWhere(), f);
  return f.content_search ? addSearch(w, f.content_search, indexTerm) : w;
}

/** Filters the hourly rollup (`mcp_tool_log_hourly`) can answer: a time range and statuses, nothing else. */
function rollupAnswers(f: McpLogFilters): boolean {
  return (
    !f.tool_names?.length &&
    !f.server_labels?.length &&
    !f.virtual_key_ids?.length &&
    !f.llm_request_ids?.length &&
    f.min_latency === undefined &&
    f.max_latency === undefined &&
    !f.content_search
  );
}

/** What stats add up, from the log rows and from the rollup: the same measures under the same names. */
const STATS_OF_ROWS =
  `count(*) AS total, count(*) FILTER (WHERE status = 'success') AS success, ` +
  `count(*) FILTER (WHERE status = 'error') AS error, sum(latency) AS latency, count(latency) AS timed, ` +
  `sum(cost) AS cost`;
const STATS_OF_HOURS =
  `sum(calls) AS total, sum(calls) FILTER (WHERE status = 'success') AS success, ` +
  `sum(calls) FILTER (WHERE status = 'error') AS error, sum(latency_sum) AS latency, sum(latency_calls) AS timed, ` +
  `sum(cost_sum) AS cost`;

/** Calls per status, from the log rows (`count(*)`) or the rollup (`sum(calls)`). */
function measuresOf(calls: string): string {
  const by = (status: string) => `${calls} FILTER (WHERE status = '${status}') AS ${status}`;
  return `${calls} AS count, ${by('success')}, ${by('error')}, ${by('processing')}`;
}

const num = sqlNumber;
const optionalNum = sqlOptionalNumber;

/** A list page and how its search was bounded (`readSearchPage`). */
export interface McpLogPage {
  rows: McpToolLogEntity[];
  total: number;
  capped: boolean;
  /** A one- or two-character search read only this many newest rows, and older ones exist. */
  windowFull?: number;
}

/** Reads tool logs with SQL built for the indexes of `mcp_tool_logs`; every read flushes the writer first. */
@Injectable()
export class McpToolLogQuery {
  /** Which trigrams of the logs' search text are common: a search hands the index its term's rare part. */
  readonly searchSample: TrigramSample;
  /** `CANDIDATES_FIRST_MAX`, per instance: a test sets it to read a small table both ways. */
  candidatesFirstMax = CANDIDATES_FIRST_MAX;
  /** `SHORT_SEARCH_WINDOW`, per instance: a test sets it to fill the window with a few rows. */
  shortSearchWindow = SHORT_SEARCH_WINDOW;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly store: McpToolLogStore,
  ) {
    this.searchSample = new TrigramSample(db, { table: 'mcp_tool_logs', text: 'search_text' });
  }

  /** The filters as SQL, a search narrowed for the index when the sample says it pays. */
  private readonly whereOf = (f: McpLogFilters): SqlWhere =>
    filterSql(f, f.content_search ? this.searchSample.search(f.content_search)?.indexTerm : undefined);

  /**
   * A page of rows and the count of the rows the filters match: exact, except with `content_search`, where matches
   * are counted up to `SEARCH_COUNT_MARGIN` past the page's end and `capped` says when there are more.
   */
  async list(
    filters: McpLogFilters,
    page: { limit: number; offset: number; sort_by: McpLogSortField; order: 'asc' | 'desc' },
  ): Promise<McpLogPage> {
    await this.store.flush();
    const direction = page.order === 'asc' ? 'ASC' : 'DESC';
    // Unknown latency (processing) and cost sort last both ways (each direction has its index).
    const nulls = page.sort_by === 'timestamp' ? '' : ' NULLS LAST';
    const order = `${page.sort_by} ${direction}${nulls}, id ${direction}`;
    if (filters.content_search) return this.searchPage(filters, filters.content_search, page, order);
    const where = this.whereOf(filters);
    const sql = pageSql({
      table: 'mcp_tool_logs',
      columns: LIST_COLUMNS,
      where,
      sort: page.sort_by,
      direction,
      nulls,
      limit: page.limit,
      offset: page.offset,
    });
    const [rows, total] = await Promise.all([
      this.db.query<McpToolLogEntity[]>(sql, where.params),
      this.count(filters),
    ]);
    return { rows: rows.map(normalizeRow), total, capped: false };
  }

  /**
   * A `content_search` page and its count from one scan: the first `offset + limit + SEARCH_COUNT_MARGIN + 1` matches
   * in the page's order (ids and sort keys only), then the page's rows by id. The trigram index's bitmap for a term
   * whose trigrams are common takes tens of ms to build, and a page query and a count query each built it. A term
   * matching a large share of the rows is read in order through the sort's index instead, stopping at the bound: a
   * substring common to a quarter of a million rows takes seconds to count exactly but milliseconds to count to it.
   * A term the sample says is rare enough is read candidates first (`CANDIDATES_FIRST_MAX`).
   */
  private async searchPage(
    filters: McpLogFilters,
    term: string,
    page: { limit: number; offset: number; sort_by: McpLogSortField },
    order: string,
  ): Promise<McpLogPage> {
    const { rows, total, capped, windowFull } = await readSearchPage<McpToolLogEntity>(this.db, {
      table: 'mcp_tool_logs',
      idType: 'varchar',
      listColumns: LIST_COLUMNS,
      matchColumns: page.sort_by,
      candidateColumns: FILTERED_COLUMNS,
      order,
      page,
      columnFilters: (w) => addColumnFilters(w, filters),
      search: (w, indexTerm) => addSearch(w, term, indexTerm),
      sampled: this.searchSample.search(term),
      candidatesFirstMax: this.candidatesFirstMax,
      window: trigramless(term)
        ? { rows: this.shortSearchWindow, range: (w) => timeRange(w, filters.start_time, filters.end_time) }
        : undefined,
    });
    return { rows: rows.map(normalizeRow), total, capped, windowFull };
  }

  /**
   * How many rows the filters match, exactly. A time range and statuses alone are answered from the hourly rollup for
   * the whole hours and from the rows for the edges (a million rows: a few hundred rollup rows instead of a scan).
   */
  private async count(filters: McpLogFilters): Promise<number> {
    return (await this.totals(filters, 'count(*) AS calls', 'sum(calls) AS calls')).calls ?? 0;
  }

  /**
   * Measures over the filters, each summed over its parts: the rollup's whole hours and the rows of the range's edges
   * when the rollup answers the filters, else the rows alone. `ofRows` and `ofHours` name the same measures.
   */
  private async totals(filters: McpLogFilters, ofRows: string, ofHours: string): Promise<Record<string, number>> {
    const hours = rollupAnswers(filters) ? wholeHours(filters.start_time, filters.end_time) : undefined;
    const parts = hours
      ? [
          [`mcp_tool_log_hourly`, ofHours, rollupWhere(filters.status, hours)] as const,
          ...edgeWheres(filters, hours, this.whereOf).map((w) => [`mcp_tool_logs`, ofRows, w] as const),
        ]
      : [[`mcp_tool_logs`, ofRows, this.whereOf(filters)] as const];
    const rows = await Promise.all(
      parts.map(([table, measures, where]) =>
        queryWhere<Array<Record<string, unknown>>>(this.db, `SELECT ${measures} FROM ${table} ${where.sql}`, where),
      ),
    );
    const sums: Record<string, number> = {};
    for (const row of rows) for (const [k, v] of Object.entries(row[0] ?? {})) sums[k] = (sums[k] ?? 0) + num(v);
    return sums;
  }

  async hasLogs(): Promise<boolean> {
    await this.store.flush();
    const rows = await this.db.query<Array<{ found: boolean }>>('SELECT EXISTS (SELECT 1 FROM mcp_tool_logs) AS found');
    return rows[0]?.found === true;
  }

  /**
   * Totals over the filters: every row counts in `total_executions`; `success_rate` (percent) is over finished calls
   * (success and error, not processing); `average_latency` over rows with a latency; `total_cost` USD.
   */
  async stats(filters: McpLogFilters): Promise<McpLogStats> {
    await this.store.flush();
    const t = await this.totals(filters, STATS_OF_ROWS, STATS_OF_HOURS);
    const finished = (t.success ?? 0) + (t.error ?? 0);
    return {
      total_executions: t.total ?? 0,
      success_rate: finished ? ((t.success ?? 0) / finished) * 100 : 0,
      average_latency: t.timed ? (t.latency ?? 0) / t.timed : 0,
      total_cost: t.cost ?? 0,
    };
  }

  async get(id: string): Promise<McpToolLogEntity> {
    await this.store.flush();
    const rows = await this.db.query<McpToolLogEntity[]>(`SELECT ${LIST_COLUMNS} FROM mcp_tool_logs WHERE id = $1`, [
      id,
    ]);
    const row = rows[0];
    if (!row) throw GatewayException.notFound('log', `MCP tool log ${id.slice(0, 128)} not found`);
    return normalizeRow(row);
  }

  /** Deletes rows by id; returns how many existed. */
  async delete(ids: string[]): Promise<number> {
    await this.store.flush();
    const rows = await this.db.query<Array<{ n: unknown }>>(
      'WITH gone AS (DELETE FROM mcp_tool_logs WHERE id = ANY($1::varchar[]) RETURNING 1) SELECT count(*) AS n FROM gone',
      [ids],
    );
    return num(rows[0]?.n);
  }

  /** Calls per time bucket by status, over the filters (default range: the last 24 hours). */
  async histogram(filters: McpLogFilters): Promise<{
    start: Date;
    end: Date;
    bucketSeconds: number;
    buckets: Array<{ timestamp: string; count: number; success: number; error: number; processing: number }>;
  }> {
    await this.store.flush();
    const end = filters.end_time ?? new Date();
    const start = filters.start_time ?? new Date(end.getTime() - DEFAULT_HISTOGRAM_RANGE_MS);
    if (start > end) throw GatewayException.validation('start_time', 'start_time is after end_time');
    const { bucketSeconds, origin } = histogramBuckets(start, end);
    const ranged = { ...filters, start_time: start, end_time: end };
    // Buckets of whole hours are sums of rollup rows (30 days: 720 of them per status instead of a million log rows).
    const hours = rollupAnswers(ranged) && bucketSeconds % 3600 === 0 ? wholeHours(start, end) : undefined;
    const parts = hours
      ? [
          bucketRows(
            this.db,
            'mcp_tool_log_hourly',
            'hour',
            measuresOf('sum(calls)'),
            rollupWhere(ranged.status, hours),
            bucketSeconds,
            origin,
          ),
          ...edgeWheres(ranged, hours, this.whereOf).map((w) =>
            bucketRows(this.db, 'mcp_tool_logs', 'timestamp', measuresOf('count(*)'), w, bucketSeconds, origin),
          ),
        ]
      : [
          bucketRows(
            this.db,
            'mcp_tool_logs',
            'timestamp',
            measuresOf('count(*)'),
            this.whereOf(ranged),
            bucketSeconds,
            origin,
          ),
        ];
    const rows = sumByBucket(await Promise.all(parts), ['count', 'success', 'error', 'processing']);
    const buckets = eachBucket(origin, end, bucketSeconds, rows).map(([at, row]) => ({
      timestamp: at.toISOString(),
      count: num(row?.count),
      success: num(row?.success),
      error: num(row?.error),
      processing: num(row?.processing),
    }));
    return { start, end, bucketSeconds, buckets };
  }

  /** Distinct tool names, server labels and virtual keys (skip scans over their indexes). */
  async filterData(): Promise<{
    tool_names: string[];
    server_labels: string[];
    virtual_keys: Array<{ id: string; name: string | null }>;
  }> {
    await this.store.flush();
    const [tools, servers, vkIds] = await Promise.all(
      ['tool_name', 'server_label', 'virtual_key_id'].map((c) =>
        distinctValues(this.db, 'mcp_tool_logs', c, MAX_FILTER_VALUES),
      ),
    );
    return {
      // Rows whose start was never written have no name.
      tool_names: tools!.filter(Boolean),
      server_labels: servers!.filter(Boolean),
      virtual_keys: await latestNames(this.db, 'mcp_tool_logs', vkIds!, 'virtual_key_id', 'virtual_key_name'),
    };
  }
}

/** Numbers as numbers and timestamps as dates, whichever driver read the row. */
function normalizeRow(row: McpToolLogEntity): McpToolLogEntity {
  row.latency = optionalNum(row.latency);
  row.cost = optionalNum(row.cost);
  row.timestamp = new Date(row.timestamp);
  row.created_at = new Date(row.created_at);
  return row;
}
