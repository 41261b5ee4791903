import type { DataSource } from 'typeorm';
import { SqlWhere } from './log-sql.js';
import type { SampledSearch } from './trigram-sample.js';

/**
 * A log list's `content_search` page (request logs, MCP tool logs): its matches are counted to a bound, and a term
 * with few trigram candidates is read candidates first. The tables' readers give their columns and filters.
 */

/**
 * How many matches of a `content_search` past the page's end a log list counts (docs/logs.md, "Searching contents";
 * docs/mcp.md, "Tool log queries at scale"): to the bound, a common term's count takes milliseconds, exactly, seconds.
 */
export const SEARCH_COUNT_MARGIN = 1000;

/**
 * A search whose trigram index candidates a sample (`TrigramSample`) estimates at most this many rows is read
 * candidates first: the index's rows checked for the whole term, then the other filters on them. Left to itself the
 * planner may AND the trigram bitmap with a filter's own index: a mid-frequency term (4,844 candidates) with a server
 * filter holding a third of 1M tool logs took 42 ms so, 33 of them building the server's 322,000-row bitmap, and
 * 15 ms candidates first. Reading a candidate costs about 2.5 µs, so this many stay near 25 ms.
 */
export const CANDIDATES_FIRST_MAX = 10_000;

/**
 * How many of the newest rows of the time range a `content_search` of one or two characters reads. Such a term has no
 * trigram, so no index narrows it: the newest rows are read in time order (contiguous in the table, as they were
 * written), the other filters and the term checked on each, stopping as soon as the page and the count's margin are
 * found (a common term: a few thousand rows) and at this many rows at the latest (a rare one). Reading every row of
 * 1M request logs took 1.3-1.9 s; this many, tens of milliseconds (docs/benchmarks.md). A list whose window was full
 * says so (`SEARCH_WINDOW_HEADER`); an earlier `end_time` moves the window back.
 */
export const SHORT_SEARCH_WINDOW = 20_000;

/** The `timestamp` range of a log filter, as a search window's bounds. */
export function timeRange(w: SqlWhere, start: unknown, end: unknown): SqlWhere {
  w.between('timestamp', start, end);
  return w;
}

/** Whether the trigram index can serve `term`: pg_trgm makes no trigram of a `%ab%` pattern, so it would hand back every row. */
export function trigramless(term: string): boolean {
  return [...term].length < 3;
}

/**
 * Sets the page cost a `content_search` page is planned with, for its transaction only (a lower setting is kept). At
 * the default (4) the planner, which also underprices the trigram index's CPU, would rather AND the trigram bitmap
 * with a filter's index than fetch the trigram candidates' pages and filter them: a mid-frequency term with a large
 * server's filter at 1M tool logs took 94 ms so (58 of them building the server's 322,000-row bitmap) and 45 ms
 * without. How the term's share of rows is estimated varies between ANALYZE samples (100 to 10,000 rows for the same
 * term), so the choice flipped between runs; at 1.1, the setting commonly advised for SSDs and cached data, it does not.
 */
const SEARCH_PAGE_COSTS = `SELECT set_config('random_page_cost', least(current_setting('random_page_cost')::float8, 1.1)::text, true)`;

/** A table's rows with these ids, in the ids' order (`idType`: the id column's SQL type). */
async function rowsByIds<T extends { id: string }>(
  db: DataSource,
  from: { table: string; columns: string; idType: 'uuid' | 'varchar' },
  ids: readonly string[],
): Promise<T[]> {
  if (!ids.length) return [];
  const rows = await db.query<T[]>(`SELECT ${from.columns} FROM ${from.table} WHERE id = ANY($1::${from.idType}[])`, [
    ids,
  ]);
  const position = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

/** What a search page reads, and how. */
export interface SearchPageQuery {
  table: string;
  idType: 'uuid' | 'varchar';
  /** The columns of a listed row. */
  listColumns: string;
  /** What each counted match carries besides its id: the sort key and whatever `measures` reads. */
  matchColumns: string;
  /** What each candidate carries besides its id (candidates first): `matchColumns` and every filtered column. */
  candidateColumns: string;
  /** The page's ORDER BY (ending with `id`, so the order is total). */
  order: string;
  page: { limit: number; offset: number };
  /** The filters other than the search, added to a WHERE. */
  columnFilters: (w: SqlWhere) => SqlWhere;
  /** The search, added to a WHERE, the trigram index handed `indexTerm` when the sample narrowed the term. */
  search: (w: SqlWhere, indexTerm: string | undefined) => SqlWhere;
  /** What the table's sample says of the term (undefined before the first sample). */
  sampled: SampledSearch | undefined;
  /** Candidates first at this many estimated candidates or fewer (default `CANDIDATES_FIRST_MAX`). */
  candidatesFirstMax?: number;
  /** Aggregates over the counted matches (a select list over `matchColumns`), returned as `measures`. */
  measures?: string;
  /** Matches counted past the page's end (default `SEARCH_COUNT_MARGIN`; a list's `count_limit`). */
  margin?: number;
  /**
   * Read only the newest `window.rows` rows of `window.range` (the time-range filter; `SHORT_SEARCH_WINDOW`: a term no
   * trigram serves), the other filters applied to them.
   */
  window?: { rows: number; range: (w: SqlWhere) => SqlWhere };
}

/** What a search page found. */
export interface SearchPage<T> {
  rows: T[];
  /** Matches counted, up to the bound. */
  total: number;
  /** More matches than counted: `total` is a lower bound. */
  capped: boolean;
  measures: Record<string, unknown>;
  /** Set when the search read only this many newest rows and older ones exist (`window`). */
  windowFull?: number;
}

/**
 * A `content_search` page and its count from one statement: the first `offset + limit + SEARCH_COUNT_MARGIN + 1`
 * matches in the page's order (ids and `matchColumns`), their count and `measures`, then the page's rows by id.
 * `total` counts the matches up to the bound and `capped` says when there are more.
 */
export async function readSearchPage<T extends { id: string }>(
  db: DataSource,
  q: SearchPageQuery,
): Promise<SearchPage<T>> {
  const cap = q.page.offset + q.page.limit + (q.margin ?? SEARCH_COUNT_MARGIN);
  let where: SqlWhere;
  let source = q.table;
  let hits = '';
  const indexTerm = q.sampled?.indexTerm;
  if (q.window !== undefined) {
    // The newest rows of the time range in time order, the other filters and the search checked on each; the scan
    // stops at the bound. Their columns: what the filters, the order and the measures read.
    const recent = q.window.range(new SqlWhere());
    const columns = [
      ...new Set(['id', 'timestamp', ...`${q.matchColumns}, ${q.candidateColumns}`.split(', '), 'search_text']),
    ].join(', ');
    source =
      `(SELECT ${columns} FROM ${q.table} ${recent.sql} ` +
      `ORDER BY timestamp DESC, id DESC LIMIT ${recent.param(q.window.rows)}) recent`;
    where = q.search(q.columnFilters(recent.continued()), undefined);
  } else if (q.sampled && q.sampled.candidates <= (q.candidatesFirstMax ?? CANDIDATES_FIRST_MAX)) {
    const search = q.search(new SqlWhere(), indexTerm);
    hits = `hits AS MATERIALIZED (SELECT id, ${q.candidateColumns} FROM ${q.table} ${search.sql}), `;
    source = 'hits';
    where = q.columnFilters(search.continued());
  } else {
    where = q.search(q.columnFilters(new SqlWhere()), indexTerm);
  }
  const bound = where.param(cap + 1);
  const limit = where.param(q.page.limit);
  const offset = where.param(q.page.offset);
  const measures = q.measures
    ? `, sums.* FROM (SELECT ${q.measures} FROM (SELECT * FROM matches ORDER BY ${q.order} ` +
      `LIMIT ${where.param(cap)}) m) sums`
    : '';
  const found = await db.transaction(async (m) => {
    await m.query(SEARCH_PAGE_COSTS);
    return m.query<Array<Record<string, unknown> & { n: unknown; ids: string[] | null }>>(
      `WITH ${hits}matches AS MATERIALIZED (SELECT id, ${q.matchColumns} FROM ${source} ${where.sql} ` +
        `ORDER BY ${q.order} LIMIT ${bound}) ` +
        `SELECT (SELECT count(*) FROM matches) AS n, ` +
        `ARRAY(SELECT id FROM matches ORDER BY ${q.order} LIMIT ${limit} OFFSET ${offset}) AS ids${measures}`,
      where.params,
    );
  });
  const n = Number(found[0]?.n ?? 0);
  const rows = await rowsByIds<T>(
    db,
    { table: q.table, columns: q.listColumns, idType: q.idType },
    found[0]?.ids ?? [],
  );
  const page: SearchPage<T> = { rows, total: Math.min(n, cap), capped: n > cap, measures: found[0] ?? {} };
  if (q.window !== undefined && !page.capped && (await windowFull(db, q.table, q.window))) {
    page.windowFull = q.window.rows;
    page.capped = true;
  }
  return page;
}

/** Whether the time range holds more than the window's rows (so older ones were not searched). */
async function windowFull(db: DataSource, table: string, window: NonNullable<SearchPageQuery['window']>) {
  const w = window.range(new SqlWhere());
  const rows = await db.query<unknown[]>(
    `SELECT 1 FROM ${table} ${w.sql} OFFSET ${w.param(window.rows)} LIMIT 1`,
    w.params,
  );
  return rows.length > 0;
}

/**
 * A list's count and `measures` up to a bound, without a search (a list's `count_limit`): the first `cap + 1`
 * matches in the sort's order (`order`, without the id: which rows of a tie at the bound are counted does not change
 * the count, and the sort's index can then serve it alone), counted, and `measures` over the first `cap` of them.
 * `total` is at most `cap`; `capped` says there are more. Counting every match of a provider at 1M rows reads its
 * 50,000–320,000 index entries (0.2–0.9 s on a loaded 2-core machine); to the bound, the page's own rows.
 */
export async function countUpTo(
  db: DataSource,
  q: { table: string; matchColumns: string; where: SqlWhere; order: string; cap: number; measures: string },
): Promise<{ total: number; capped: boolean; measures: Record<string, unknown> }> {
  const { where } = q;
  const bound = where.param(q.cap + 1);
  const cap = where.param(q.cap);
  const found = await db.query<Array<Record<string, unknown> & { n: unknown }>>(
    `WITH matches AS MATERIALIZED (SELECT ${q.matchColumns} FROM ${q.table} ${where.sql} ORDER BY ${q.order} ` +
      `LIMIT ${bound}) SELECT (SELECT count(*) FROM matches) AS n, sums.* FROM (SELECT ${q.measures} FROM ` +
      `(SELECT * FROM matches ORDER BY ${q.order} LIMIT ${cap}) m) sums`,
    where.params,
  );
  const n = Number(found[0]?.n ?? 0);
  return { total: Math.min(n, q.cap), capped: n > q.cap, measures: found[0] ?? {} };
}
