import type { DataSource } from 'typeorm';

/**
 * SQL pieces shared by the log tables' readers (request logs, MCP tool logs): a WHERE clause with numbered
 * parameters, literal LIKE patterns, histogram buckets and distinct-value walks over an index.
 */

/**
 * Case-folds text the same way for a stored search column and for the terms searched in it, so a plain `LIKE` and
 * `strpos` compare them: `ILIKE` lowercases the whole stored text again on every comparison (two thirds of checking a
 * trigram candidate). Final sigma becomes σ: JavaScript picks ς by its place in the text, which a substring does not
 * share (ΟΔΟΣ is `οδος` alone, `οδοσ` inside ΟΔΟΣΟ).
 */
export function foldForSearch(text: string): string {
  return text.toLowerCase().replace(/ς/g, 'σ');
}

/** `%`, `_` and `\` in a search term are literal (use with `ESCAPE '\'`). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A WHERE clause built part by part, its values as `$n` parameters. */
export class SqlWhere {
  private readonly parts: string[] = [];
  private searching = false;

  /** `params` is shared with the SqlWhere this one `continues`, so both render into one statement. */
  constructor(readonly params: unknown[] = []) {}

  /** A new, empty WHERE numbering its parameters after this one's: a second clause of the same statement. */
  continued(): SqlWhere {
    return new SqlWhere(this.params);
  }

  add(sql: (param: string) => string, value: unknown): void {
    this.params.push(value);
    this.parts.push(sql(`$${this.params.length}`));
  }

  /** A `content_search` condition (`add` otherwise): a read of every match gets SEARCH_WORK_MEM (`queryWhere`). */
  addSearch(sql: (param: string) => string, value: unknown): void {
    this.searching = true;
    this.add(sql, value);
  }

  /** Whether a `content_search` condition is part of this clause. */
  get matchesSearch(): boolean {
    return this.searching;
  }

  raw(sql: string): void {
    this.parts.push(sql);
  }

  /** `column = ANY(values)` when there are values; `partial` adds `IS NOT NULL` so a partial index serves it. */
  inList(column: string, values: readonly string[] | undefined, partial = false): void {
    if (!values?.length) return;
    this.add((p) => `${column} = ANY(${p}::varchar[])${partial ? ` AND ${column} IS NOT NULL` : ''}`, values);
  }

  /** `column >= min` and `column <= max`, each when given. */
  between(column: string, min: unknown, max: unknown): void {
    if (min !== undefined && min !== null) this.add((p) => `${column} >= ${p}`, min);
    if (max !== undefined && max !== null) this.add((p) => `${column} <= ${p}`, max);
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

/**
 * `work_mem` of a statement that reads every match of a content search (stats, histograms). A common term's matches lie
 * on nearly every page of the table, and Postgres' default 4 MB cannot hold an exact bitmap of a million rows' pages:
 * half of it went lossy, so every row of those pages was checked again (request logs at 1M rows, 17 % matching:
 * 560–610 ms at 4 MB, 430–450 ms at 32 MB, `EXPLAIN ANALYZE` alternating). 32 MB stays exact to about four million
 * rows' pages, and holds for that statement's transaction only.
 */
const SEARCH_WORK_MEM = '32MB';

/** Runs `sql`, whose WHERE is `where`; a statement over a search's matches runs with SEARCH_WORK_MEM. */
export function queryWhere<T>(db: DataSource, sql: string, where: SqlWhere): Promise<T> {
  if (!where.matchesSearch) return db.query<T>(sql, where.params);
  return db.transaction(async (manager) => {
    await manager.query(`SET LOCAL work_mem = '${SEARCH_WORK_MEM}'`);
    return manager.query<T>(sql, where.params);
  });
}

/** Bucket widths a histogram may use, in seconds; the smallest giving at most MAX_BUCKETS buckets is chosen. */
const BUCKET_SECONDS = [60, 300, 900, 1800, 3600, 10800, 21600, 43200, 86400, 604800, 2592000];
const MAX_BUCKETS = 120;

/**
 * A page of a log table's rows, newest first or by another sort: the page's ids first, then its rows by id, in one
 * statement. An index scan reads each row's heap tuple before it applies a filter, even one on a column the index
 * INCLUDEs, so a filtered page read every row it skipped (`max_latency=20` newest first: 38,000 rows for 50, 27 ms
 * at 1M rows); the ids alone are an index-only scan when the sort's index holds the filters' columns and the id (8 ms),
 * and a deep offset skips index entries instead of rows. `nulls` is the sort's NULLS clause (each direction has its
 * index). With `direct`, the rows are read in one pass in the sort's order instead: where the ids cannot come from
 * the index alone, the ids' pass already read each row's heap tuple, and the second pass looks every row up again by
 * its id, a random read of the primary key each (request logs, 1,000 rows oldest first at 1M rows: 195 ms with the
 * lookups, 21 ms without).
 */
export function pageSql(page: {
  table: string;
  columns: string;
  where: SqlWhere;
  sort: string;
  direction: 'ASC' | 'DESC';
  nulls: string;
  limit: number;
  offset: number;
  direct?: boolean;
}): string {
  const { table, where, sort, direction, nulls } = page;
  const limit = where.param(page.limit);
  const offset = where.param(page.offset);
  if (page.direct) {
    return (
      `SELECT ${page.columns} FROM ${table} ${where.sql} ` +
      `ORDER BY ${sort} ${direction}${nulls}, id ${direction} LIMIT ${limit} OFFSET ${offset}`
    );
  }
  const rowColumns = page.columns
    .split(',')
    .map((c) => `l.${c.trim()}`)
    .join(', ');
  return (
    `WITH page AS MATERIALIZED (SELECT id, ${sort} FROM ${table} ${where.sql} ` +
    `ORDER BY ${sort} ${direction}${nulls}, id ${direction} LIMIT ${limit} OFFSET ${offset}) ` +
    `SELECT ${rowColumns} FROM page JOIN ${table} l ON l.id = page.id ` +
    `ORDER BY page.${sort} ${direction}${nulls}, page.id ${direction}`
  );
}

/** The bucket width for a range and the first bucket's start (a multiple of the width since the epoch). */
export function histogramBuckets(start: Date, end: Date): { bucketSeconds: number; origin: Date } {
  const span = (end.getTime() - start.getTime()) / 1000;
  const bucketSeconds =
    BUCKET_SECONDS.find((s) => span / s <= MAX_BUCKETS) ?? BUCKET_SECONDS[BUCKET_SECONDS.length - 1]!;
  const origin = new Date(Math.floor(start.getTime() / (bucketSeconds * 1000)) * bucketSeconds * 1000);
  return { bucketSeconds, origin };
}

/**
 * `measures` (SQL select items) per time bucket of `table`: the log rows by their `timestamp`, or an hourly rollup by
 * its `hour`. Rows are `{ bucket, ...measures }` in no particular order. `table`, `timeColumn` and `measures` are
 * trusted SQL.
 */
export function bucketRows(
  db: DataSource,
  table: string,
  timeColumn: string,
  measures: string,
  where: SqlWhere,
  bucketSeconds: number,
  origin: Date,
): Promise<Array<Record<string, unknown>>> {
  const width = where.param(`${bucketSeconds} seconds`);
  const from = where.param(origin);
  return queryWhere<Array<Record<string, unknown>>>(
    db,
    `SELECT date_bin(${width}::interval, ${timeColumn}, ${from}::timestamptz) AS bucket, ${measures} ` +
      `FROM ${table} ${where.sql} GROUP BY 1`,
    where,
  );
}

/** Every bucket start from `origin` to `end`, with the row found for it (by bucket start) or undefined. */
export function eachBucket<R extends Record<string, unknown>>(
  origin: Date,
  end: Date,
  bucketSeconds: number,
  rows: R[],
): Array<[Date, R | undefined]> {
  const byStart = new Map(rows.map((r) => [new Date(r['bucket'] as string | Date).getTime(), r]));
  const out: Array<[Date, R | undefined]> = [];
  for (let t = origin.getTime(); t <= end.getTime(); t += bucketSeconds * 1000) out.push([new Date(t), byStart.get(t)]);
  return out;
}

/**
 * Distinct non-null values of an indexed column: a recursive walk taking the next greater value each step (a skip
 * scan over the column's index, never a full scan). `table` and `column` are trusted identifiers.
 */
export async function distinctValues(db: DataSource, table: string, column: string, max: number): Promise<string[]> {
  const rows = await db.query<Array<{ v: string }>>(
    `WITH RECURSIVE walk(v) AS (` +
      `(SELECT ${column} FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${column} LIMIT 1) ` +
      `UNION ALL SELECT (SELECT ${column} FROM ${table} WHERE ${column} > walk.v ORDER BY ${column} LIMIT 1) ` +
      `FROM walk WHERE walk.v IS NOT NULL) SELECT v FROM walk WHERE v IS NOT NULL LIMIT ${max}`,
  );
  return rows.map((r) => r.v);
}

/** The latest name logged for each id (by the `(idColumn, timestamp)` index). Trusted identifiers. */
export async function latestNames(
  db: DataSource,
  table: string,
  ids: string[],
  idColumn: string,
  nameColumn: string,
): Promise<Array<{ id: string; name: string | null }>> {
  if (ids.length === 0) return [];
  const rows = await db.query<Array<{ id: string; name: string | null }>>(
    `SELECT ids.id, (SELECT ${nameColumn} FROM ${table} WHERE ${idColumn} = ids.id ` +
      `ORDER BY timestamp DESC LIMIT 1) AS name FROM unnest($1::varchar[]) AS ids(id)`,
    [ids],
  );
  return rows.map((r) => ({ id: r.id, name: r.name }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path id can be a row's uuid (anything else is a 404 without a query). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** A numeric column as the drivers return it (numbers, or text for bigint and numeric): a number, 0 for NULL. */
export const sqlNumber = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** A numeric column as a number, NULL kept. */
export const sqlOptionalNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A float8[] as the drivers return it: an array, or its text form `{1,2,3}` (PGlite). */
export function sqlNumberArray(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  return [];
}
