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
}

/**
 * A `content_search` page and its count from one statement: the first `offset + limit + SEARCH_COUNT_MARGIN + 1`
 * matches in the page's order (ids and `matchColumns`), their count and `measures`, then the page's rows by id.
 * `total` counts the matches up to the bound and `capped` says when there are more.
 */
export async function readSearchPage<T extends { id: string }>(
  db: DataSource,
  q: SearchPageQuery,
): Promise<{ rows: T[]; total: number; capped: boolean; measures: Record<string, unknown> }> {
  const cap = q.page.offset + q.page.limit + SEARCH_COUNT_MARGIN;
  let where: SqlWhere;
  let source = q.table;
  let hits = '';
  const indexTerm = q.sampled?.indexTerm;
  if (q.sampled && q.sampled.candidates <= (q.candidatesFirstMax ?? CANDIDATES_FIRST_MAX)) {
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
  return { rows, total: Math.min(n, cap), capped: n > cap, measures: found[0] ?? {} };
}
