import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import {
  SqlWhere,
  bucketRows,
  distinctValues,
  eachBucket,
  foldForSearch,
  histogramBuckets,
  isUuid,
  latestNames,
  likePattern,
  pageSql,
  queryWhere,
  sqlNumber,
  sqlNumberArray,
  sqlOptionalNumber,
} from '../../../core/persistence/log-sql.js';
import { edgeWheres, rollupWhere, sumByBucket, wholeHours } from '../../../core/persistence/hourly-rollup.js';
import {
  CANDIDATES_FIRST_MAX,
  countUpTo,
  readSearchPage,
  SHORT_SEARCH_WINDOW,
  timeRange,
  trigramless,
} from '../../../core/persistence/search-page.js';
import { TrigramSample } from '../../../core/persistence/trigram-sample.js';
import type { LogGroupBy, LogGroupSortField } from './dto/log-groups.dto.js';
import type { LogSortField } from './dto/logs-query.dto.js';
import type { RequestLogContentEntity } from './entities/request-log-content.entity.js';
import type { LogStatus, RequestLogEntity } from './entities/request-log.entity.js';
import { readLogGroups, type LogGroups } from './request-log-groups.js';
import { RequestLogStore } from './request-log.store.js';

/** Validated filters of the logs routes. */
export interface LogFilters {
  providers?: string[];
  models?: string[];
  status?: LogStatus[];
  objects?: string[];
  selected_key_ids?: string[];
  virtual_key_ids?: string[];
  team_ids?: string[];
  customer_ids?: string[];
  routing_rule_ids?: string[];
  /** Request ids (UUIDs): their fallback attempts. */
  parent_request_ids?: string[];
  start_time?: Date;
  end_time?: Date;
  min_latency?: number;
  max_latency?: number;
  min_tokens?: number;
  max_tokens?: number;
  min_cost?: number;
  max_cost?: number;
  missing_cost_only?: boolean;
  cache_hit?: boolean;
  content_search?: string;
}

export interface LogStats {
  total_requests: number;
  success_rate: number;
  average_latency: number;
  total_tokens: number;
  total_cost: number;
}

export type HistogramKind = 'requests' | 'tokens' | 'cost' | 'latency';

/** Columns of the list (never the content table's). */
const LIST_COLUMNS =
  'id, parent_request_id, timestamp, object, provider, model, alias, canonical_model_name, alias_model_family, ' +
  'fallback_index, number_of_retries, selected_key_id, selected_key_name, virtual_key_id, virtual_key_name, ' +
  'team_id, customer_id, routing_rule_id, status, status_code, stream, latency, time_to_first_token, ' +
  'prompt_tokens, completion_tokens, total_tokens, cost, stop_reason, error_type, content_summary, token_usage, ' +
  'error_details, metadata, cache_hit, cache_type, plugin_logs';

const SORT_COLUMNS: Record<LogSortField, string> = {
  timestamp: 'timestamp',
  latency: 'latency',
  tokens: 'total_tokens',
  cost: 'cost',
};

/** Columns whose indexes hold only the rows with a value (migration RequestLogCoveringIndexes). */
const MOSTLY_EMPTY_COLUMNS: ReadonlySet<string> = new Set(['team_id', 'customer_id', 'routing_rule_id']);

const LIST_FILTERS: Array<[keyof LogFilters, string]> = [
  ['providers', 'provider'],
  ['models', 'model'],
  ['status', 'status'],
  ['objects', 'object'],
  ['selected_key_ids', 'selected_key_id'],
  ['virtual_key_ids', 'virtual_key_id'],
  ['team_ids', 'team_id'],
  ['customer_ids', 'customer_id'],
  ['routing_rule_ids', 'routing_rule_id'],
];

const DEFAULT_HISTOGRAM_RANGE_MS = 24 * 3600 * 1000;
const MAX_FILTER_VALUES = 1000;

/** Every filter but `content_search`, added to `w`, on the columns of `request_logs`. */
function addColumnFilters(w: SqlWhere, f: LogFilters): SqlWhere {
  // IS NOT NULL lets the planner use the partial indexes of the mostly empty columns whatever the parameter.
  for (const [key, column] of LIST_FILTERS) {
    w.inList(column, f[key] as string[] | undefined, MOSTLY_EMPTY_COLUMNS.has(column));
  }
  if (f.parent_request_ids?.length) w.add((p) => `parent_request_id = ANY(${p}::uuid[])`, f.parent_request_ids);
  w.between('timestamp', f.start_time, f.end_time);
  w.between('latency', f.min_latency, f.max_latency);
  w.between('total_tokens', f.min_tokens, f.max_tokens);
  w.between('cost', f.min_cost, f.max_cost);
  if (f.missing_cost_only) w.raw('cost IS NULL');
  if (f.cache_hit !== undefined) w.raw(f.cache_hit ? 'cache_hit' : 'NOT cache_hit');
  return w;
}

/**
 * `content_search` as SQL, added to `w`: a case-insensitive substring of the log row's `search_text`, stored folded
 * (`foldForSearch`), so the term is folded the same way and compared with `LIKE`. With `indexTerm` (a substring of
 * the term whose trigrams are rarer, from the table's sample) the trigram index gets only that, and each candidate is
 * checked for the whole term with `strpos`, which no index serves, so the planner keeps it out of the index's
 * condition.
 */
function addSearch(w: SqlWhere, term: string, indexTerm?: string): SqlWhere {
  // One or two characters: no trigram, so `strpos`, which the planner never hands to the trigram index.
  if (trigramless(term)) {
    w.addSearch((p) => `strpos(search_text, ${p}) > 0`, foldForSearch(term));
    return w;
  }
  w.addSearch((p) => `search_text LIKE ${p} ESCAPE '\\'`, likePattern(foldForSearch(indexTerm ?? term)));
  if (indexTerm) w.addSearch((p) => `strpos(search_text, ${p}) > 0`, foldForSearch(term));
  return w;
}

/** The filters as SQL on `request_logs` (the search's `indexTerm` as in `addSearch`). */
function filterSql(f: LogFilters, indexTerm?: string): SqlWhere {
  const w = addColumnFilters(new SqlWhere(), f);
  return f.content_search ? addSearch(w, f.content_search, indexTerm) : w;
}

const num = sqlNumber;
const optionalNum = sqlOptionalNumber;

/** What `SUMS_OF_ROWS` or `SUMS_OF_HOURS` added up. */
interface Sums {
  total: number;
  success: number;
  latency: number;
  tokens: number;
  cost: number;
}

function sumsOf(r: Record<string, unknown>): Sums {
  return {
    total: num(r.total),
    success: num(r.success),
    latency: num(r.latency),
    tokens: num(r.tokens),
    cost: num(r.cost),
  };
}

function statsOf(sum: Sums): LogStats {
  return {
    total_requests: sum.total,
    success_rate: sum.total ? (sum.success / sum.total) * 100 : 0,
    average_latency: sum.total ? sum.latency / sum.total : 0,
    total_tokens: sum.tokens,
    total_cost: sum.cost,
  };
}

/** A search's matches: every column a sort or the stats read. */
const MATCH_COLUMNS = 'timestamp, status, latency, total_tokens, cost';
/** What a search's candidates carry for the other filters (`addColumnFilters`) besides `MATCH_COLUMNS`. */
const FILTERED_COLUMNS = [...LIST_FILTERS.map(([, column]) => column), 'parent_request_id', 'cache_hit']
  .filter((column) => !MATCH_COLUMNS.split(', ').includes(column))
  .join(', ');

/** Filters the hourly rollup (`request_log_hourly`) can answer: a time range and statuses, nothing else. */
function rollupAnswers(f: LogFilters): boolean {
  return (
    LIST_FILTERS.every(([key]) => key === 'status' || !(f[key] as string[] | undefined)?.length) &&
    !f.parent_request_ids?.length &&
    [f.min_latency, f.max_latency, f.min_tokens, f.max_tokens, f.min_cost, f.max_cost, f.cache_hit].every(
      (v) => v === undefined,
    ) &&
    !f.missing_cost_only &&
    !f.content_search
  );
}

/** What stats add up: the same measures from the log rows and from the rollup. */
const SUMS_OF_ROWS =
  `count(*) AS total, count(*) FILTER (WHERE status = 'success') AS success, sum(latency) AS latency, ` +
  `sum(total_tokens) AS tokens, sum(cost) AS cost`;
const SUMS_OF_HOURS =
  `sum(requests) AS total, sum(requests) FILTER (WHERE status = 'success') AS success, ` +
  `sum(latency_sum) AS latency, sum(total_tokens) AS tokens, sum(cost_sum) AS cost`;

/** Histogram measures (latency percentiles have no rollup: they always read the rows). */
const ROW_MEASURES: Record<HistogramKind, string> = {
  requests:
    `count(*) AS count, count(*) FILTER (WHERE status = 'success') AS success, ` +
    `count(*) FILTER (WHERE status = 'error') AS error`,
  tokens:
    'count(*) AS count, sum(prompt_tokens) AS prompt_tokens, sum(completion_tokens) AS completion_tokens, ' +
    'sum(total_tokens) AS total_tokens',
  cost: 'count(*) AS count, sum(cost) AS cost',
  latency:
    'count(*) AS count, avg(latency) AS avg, ' +
    'percentile_cont(ARRAY[0.5, 0.9, 0.95, 0.99]) WITHIN GROUP (ORDER BY latency) AS pct',
};
const HOUR_MEASURES: Partial<Record<HistogramKind, string>> = {
  requests:
    `sum(requests) AS count, sum(requests) FILTER (WHERE status = 'success') AS success, ` +
    `sum(requests) FILTER (WHERE status = 'error') AS error`,
  tokens:
    'sum(requests) AS count, sum(prompt_tokens) AS prompt_tokens, sum(completion_tokens) AS completion_tokens, ' +
    'sum(total_tokens) AS total_tokens',
  cost: 'sum(requests) AS count, sum(cost_sum) AS cost',
};
const MEASURE_NAMES: Record<HistogramKind, string[]> = {
  requests: ['count', 'success', 'error'],
  tokens: ['count', 'prompt_tokens', 'completion_tokens', 'total_tokens'],
  cost: ['count', 'cost'],
  latency: [],
};

/** A list page, the stats over its filters, and how its search was bounded (`readSearchPage`). */
export interface LogPage {
  rows: RequestLogEntity[];
  total: number;
  stats: LogStats;
  capped: boolean;
  /** A one- or two-character search read only this many newest rows, and older ones exist. */
  windowFull?: number;
}

/**
 * Reads request logs with SQL built for the indexes of `request_logs` (one per filter and sort). Every read flushes
 * the writer first, so a row logged before the read is seen by it.
 */
@Injectable()
export class RequestLogQuery {
  /** Which trigrams of the logs' search text are common: a search hands the index its term's rare part. */
  readonly searchSample: TrigramSample;
  /** `CANDIDATES_FIRST_MAX`, per instance: a test sets it to read a small table both ways. */
  candidatesFirstMax = CANDIDATES_FIRST_MAX;
  /** `SHORT_SEARCH_WINDOW`, per instance: a test sets it to fill the window with a few rows. */
  shortSearchWindow = SHORT_SEARCH_WINDOW;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly store: RequestLogStore,
  ) {
    this.searchSample = new TrigramSample(db, { table: 'request_logs', text: 'search_text' });
  }

  /** The filters as SQL, a search narrowed for the index when the sample says it pays. */
  private readonly whereOf = (f: LogFilters): SqlWhere =>
    filterSql(f, f.content_search ? this.searchSample.search(f.content_search)?.indexTerm : undefined);

  /**
   * A page of rows, and the stats over every row the filters match. `total` (the pagination's `total_count`) is the
   * stats' `total_requests`: one aggregate pass serves both, concurrently with the page's own query. With
   * `content_search` both cover the matches up to `SEARCH_COUNT_MARGIN` past the page's end, and `capped` says when
   * there are more (`searchPage`); `countLimit` (the list's `count_limit`) sets that margin, with or without a search.
   */
  async list(
    filters: LogFilters,
    page: { limit: number; offset: number; sort_by: LogSortField; order: 'asc' | 'desc' },
    countLimit?: number,
  ): Promise<LogPage> {
    await this.store.flush();
    const direction = page.order === 'asc' ? 'ASC' : 'DESC';
    const column = SORT_COLUMNS[page.sort_by];
    // Unknown costs and token counts sort last both ways (each direction has its index).
    const nulls = column === 'timestamp' || column === 'latency' ? '' : ' NULLS LAST';
    if (filters.content_search) {
      const order = `${column} ${direction}${nulls}, id ${direction}`;
      return this.searchPage(filters, filters.content_search, page, order, countLimit);
    }
    const where = this.whereOf(filters);
    const sql = pageSql({
      table: 'request_logs',
      columns: LIST_COLUMNS,
      where,
      sort: column,
      direction,
      nulls,
      limit: page.limit,
      offset: page.offset,
      // No index of request_logs gives the ids with the filters' columns, so the ids' pass reads the rows anyway:
      // ids first pays only to skip a deep offset.
      direct: page.offset <= page.limit,
    });
    const counted =
      countLimit === undefined
        ? this.aggregate(filters).then((stats) => ({ stats, capped: false }))
        : countUpTo(this.db, {
            table: 'request_logs',
            matchColumns: MATCH_COLUMNS,
            where: this.whereOf(filters),
            order: `${column} ${direction}${nulls}`,
            cap: page.offset + page.limit + countLimit,
            measures: SUMS_OF_ROWS,
          }).then(({ capped, measures }) => ({ stats: statsOf(sumsOf(measures)), capped }));
    const [rows, { stats, capped }] = await Promise.all([
      this.db.query<RequestLogEntity[]>(sql, where.params),
      counted,
    ]);
    return { rows: rows.map(normalizeRow), total: stats.total_requests, stats, capped };
  }

  /**
   * A `content_search` page, and its count and stats, from one scan: the first `offset + limit + SEARCH_COUNT_MARGIN
   * + 1` matches in the page's order (ids, sort keys and measures), then the page's rows by id. Counting and summing
   * every match of a common term took over a second at 1M rows (174,000 matches); to the bound, milliseconds. A term
   * the sample says has few enough candidates is read candidates first (`CANDIDATES_FIRST_MAX`): the rows the trigram
   * index finds, checked for the whole term, then the other filters on them.
   */
  private async searchPage(
    filters: LogFilters,
    term: string,
    page: { limit: number; offset: number },
    order: string,
    margin?: number,
  ): Promise<LogPage> {
    const { rows, capped, measures, windowFull } = await readSearchPage<RequestLogEntity>(this.db, {
      margin,
      table: 'request_logs',
      idType: 'uuid',
      listColumns: LIST_COLUMNS,
      matchColumns: MATCH_COLUMNS,
      candidateColumns: `${MATCH_COLUMNS}, ${FILTERED_COLUMNS}`,
      order,
      page,
      columnFilters: (w) => addColumnFilters(w, filters),
      search: (w, indexTerm) => addSearch(w, term, indexTerm),
      sampled: this.searchSample.search(term),
      candidatesFirstMax: this.candidatesFirstMax,
      measures: SUMS_OF_ROWS,
      window: trigramless(term)
        ? { rows: this.shortSearchWindow, range: (w) => timeRange(w, filters.start_time, filters.end_time) }
        : undefined,
    });
    const stats = statsOf(sumsOf(measures));
    return { rows: rows.map(normalizeRow), total: stats.total_requests, stats, capped, windowFull };
  }

  async hasLogs(): Promise<boolean> {
    await this.store.flush();
    const rows = await this.db.query<Array<{ found: boolean }>>('SELECT EXISTS (SELECT 1 FROM request_logs) AS found');
    return rows[0]?.found === true;
  }

  async stats(filters: LogFilters): Promise<LogStats> {
    await this.store.flush();
    return this.aggregate(filters);
  }

  /**
   * Stats over the filters. A time range and statuses alone add up the hourly rollup over the range's whole hours and
   * the rows of its partial edge hours (a million rows: a few hundred rollup rows instead of a scan); anything else
   * reads the rows through the filters' indexes.
   */
  private async aggregate(filters: LogFilters): Promise<LogStats> {
    const hours = rollupAnswers(filters) ? wholeHours(filters.start_time, filters.end_time) : undefined;
    const parts = hours
      ? [
          this.sums('request_log_hourly', SUMS_OF_HOURS, rollupWhere(filters.status, hours)),
          ...edgeWheres(filters, hours, this.whereOf).map((w) => this.sums('request_logs', SUMS_OF_ROWS, w)),
        ]
      : [this.sums('request_logs', SUMS_OF_ROWS, this.whereOf(filters))];
    const sum = (await Promise.all(parts)).reduce((a, b) => ({
      total: a.total + b.total,
      success: a.success + b.success,
      latency: a.latency + b.latency,
      tokens: a.tokens + b.tokens,
      cost: a.cost + b.cost,
    }));
    return statsOf(sum);
  }

  private async sums(table: string, measures: string, where: SqlWhere): Promise<Sums> {
    const rows = await queryWhere<Array<Record<string, unknown>>>(
      this.db,
      `SELECT ${measures} FROM ${table} ${where.sql}`,
      where,
    );
    return sumsOf(rows[0] ?? {});
  }

  /** The largest groups (by provider, model or virtual key) of the rows the filters match, and their total. */
  async groups(
    filters: LogFilters,
    options: { group_by: LogGroupBy; sort_by: LogGroupSortField; limit: number },
  ): Promise<LogGroups> {
    await this.store.flush();
    return readLogGroups(this.db, () => this.whereOf(filters), options.group_by, options.sort_by, options.limit);
  }

  async get(id: string): Promise<{ row: RequestLogEntity; content: RequestLogContentEntity | null; input: unknown }> {
    await this.store.flush();
    const found = isUuid(id)
      ? await this.db.query<RequestLogEntity[]>(`SELECT ${LIST_COLUMNS} FROM request_logs WHERE id = $1`, [id])
      : [];
    const row = found[0];
    if (!row) throw new GatewayException(404, 'log_not_found', `Log ${id} not found`);
    const ids = row.parent_request_id ? [row.id, row.parent_request_id] : [row.id];
    const contents = await this.db.query<RequestLogContentEntity[]>(
      'SELECT * FROM request_log_contents WHERE log_id = ANY($1::uuid[])',
      [ids],
    );
    const own = contents.find((c) => c.log_id === row.id) ?? null;
    // Input is stored once, on the request's primary row; a fallback's row shows it from there.
    const inputSource = row.parent_request_id ? contents.find((c) => c.log_id === row.parent_request_id) : own;
    return { row: normalizeRow(row), content: own, input: inputSource?.input_history ?? null };
  }

  /** Deletes rows (and their content) by id in one transaction; returns how many rows existed. */
  async delete(ids: string[]): Promise<number> {
    await this.store.flush();
    return this.db.transaction(async (manager) => {
      await manager.query('DELETE FROM request_log_contents WHERE log_id = ANY($1::uuid[])', [ids]);
      const gone = await manager.query<Array<{ id: string }>>(
        'DELETE FROM request_logs WHERE id = ANY($1::uuid[]) RETURNING id',
        [ids],
      );
      return Array.isArray(gone) ? gone.length : 0;
    });
  }

  async histogram(
    kind: HistogramKind,
    filters: LogFilters,
  ): Promise<{
    start: Date;
    end: Date;
    bucketSeconds: number;
    buckets: Array<Record<string, unknown>>;
  }> {
    await this.store.flush();
    const end = filters.end_time ?? new Date();
    const start = filters.start_time ?? new Date(end.getTime() - DEFAULT_HISTOGRAM_RANGE_MS);
    if (start > end) throw GatewayException.validation('start_time', 'start_time is after end_time');
    const { bucketSeconds, origin } = histogramBuckets(start, end);
    const ranged = { ...filters, start_time: start, end_time: end };
    // Buckets of whole hours add up rollup rows (30 days: 720 per status instead of a million log rows).
    const hourMeasures = HOUR_MEASURES[kind];
    const hours =
      hourMeasures && rollupAnswers(ranged) && bucketSeconds % 3600 === 0 ? wholeHours(start, end) : undefined;
    const rows =
      hourMeasures && hours
        ? sumByBucket(
            await Promise.all([
              bucketRows(
                this.db,
                'request_log_hourly',
                'hour',
                hourMeasures,
                rollupWhere(ranged.status, hours),
                bucketSeconds,
                origin,
              ),
              ...edgeWheres(ranged, hours, this.whereOf).map((w) =>
                bucketRows(this.db, 'request_logs', 'timestamp', ROW_MEASURES[kind], w, bucketSeconds, origin),
              ),
            ]),
            MEASURE_NAMES[kind],
          )
        : await bucketRows(
            this.db,
            'request_logs',
            'timestamp',
            ROW_MEASURES[kind],
            this.whereOf(ranged),
            bucketSeconds,
            origin,
          );
    const buckets = eachBucket(origin, end, bucketSeconds, rows).map(([at, row]) => bucketOf(kind, at, row));
    return { start, end, bucketSeconds, buckets };
  }

  /** Distinct values for the dashboard's pickers, each read by a skip scan over its index (no full scan). */
  async filterData(): Promise<{
    providers: string[];
    models: string[];
    objects: string[];
    selected_keys: Array<{ id: string; name: string | null }>;
    virtual_keys: Array<{ id: string; name: string | null }>;
  }> {
    await this.store.flush();
    const [providers, models, objects, keyIds, vkIds] = await Promise.all(
      ['provider', 'model', 'object', 'selected_key_id', 'virtual_key_id'].map((c) => this.distinct(c)),
    );
    return {
      providers: providers!,
      models: models!,
      objects: objects!,
      selected_keys: await this.named(keyIds!, 'selected_key_id', 'selected_key_name'),
      virtual_keys: await this.named(vkIds!, 'virtual_key_id', 'virtual_key_name'),
    };
  }

  private distinct(column: string): Promise<string[]> {
    return distinctValues(this.db, 'request_logs', column, MAX_FILTER_VALUES);
  }

  private named(ids: string[], idColumn: string, nameColumn: string) {
    return latestNames(this.db, 'request_logs', ids, idColumn, nameColumn);
  }
}

function bucketOf(kind: HistogramKind, at: Date, row: Record<string, unknown> | undefined): Record<string, unknown> {
  const bucket: Record<string, unknown> = { timestamp: at.toISOString(), count: num(row?.count) };
  switch (kind) {
    case 'requests':
      bucket.success = num(row?.success);
      bucket.error = num(row?.error);
      break;
    case 'tokens':
      bucket.prompt_tokens = num(row?.prompt_tokens);
      bucket.completion_tokens = num(row?.completion_tokens);
      bucket.total_tokens = num(row?.total_tokens);
      break;
    case 'cost':
      bucket.cost = num(row?.cost);
      break;
    case 'latency': {
      const pct = sqlNumberArray(row?.pct);
      bucket.avg = optionalNum(row?.avg);
      bucket.p50 = pct[0] ?? null;
      bucket.p90 = pct[1] ?? null;
      bucket.p95 = pct[2] ?? null;
      bucket.p99 = pct[3] ?? null;
      break;
    }
  }
  return bucket;
}

/** Numbers as numbers and timestamps as dates, whichever driver read the row. */
function normalizeRow(row: RequestLogEntity): RequestLogEntity {
  row.latency = Number(row.latency);
  row.time_to_first_token = optionalNum(row.time_to_first_token);
  row.cost = optionalNum(row.cost);
  row.timestamp = new Date(row.timestamp);
  return row;
}
