import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { isDatabaseUnavailable } from '../persistence/db-errors.js';
import { jsonbText, textColumn } from './text-column.js';

/** Where one kind's rows go: an entity (table and column types from its metadata) or a bare table and its columns. */
export interface InsertTarget {
  target: EntityTarget<ObjectLiteral>;
  /** Set for bare tables: every row is written with exactly these columns (missing values take the default). */
  columns?: readonly string[];
  /** Entity targets: SQL after the INSERT (`ON CONFLICT (…) DO UPDATE SET …`) for rows completing earlier ones. */
  onConflict?: string;
}

export interface BatchOutcome {
  written: number;
  failed: number;
  /** SQLSTATE (or error name) of the last failure: logged instead of the message, which may quote row values. */
  errorCode?: string;
  /** The batch failed because the database is down or unreachable, not because of its rows: worth keeping. */
  unavailable?: boolean;
}

/** Pause before retrying a batch that failed for a reason other than its data (a dropped connection, a lock timeout). */
export const RETRY_DELAY_MS = 250;

/**
 * SQLSTATE classes that blame a row, not the database: 22 (data exception: a NUL, a value too long), 23 (integrity:
 * a duplicate id) and 54 (program limit: an index entry too large).
 */
function isRowError(code: string | undefined): boolean {
  return code !== undefined && /^(22|23|54)/.test(code);
}

export function errorCodeOf(err: unknown): string {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  if (typeof code === 'string' && code) return code;
  return err instanceof Error ? err.name : 'unknown';
}

/** How an entity's rows become one INSERT's parameters, derived once per entity from its metadata. */
interface EntityLayout {
  table: string;
  /** The quoted column names, in order. */
  names: string;
  columns: Array<{
    name: string;
    property: string;
    /** Text columns: strings are fitted (NUL removed, cut to the declared length) rather than refused. */
    text: boolean;
    maxLength?: number;
  }>;
}

const TEXT_TYPES = new Set(['varchar', 'character varying', 'text', 'char', 'character', 'citext']);

const layouts = new WeakMap<object, EntityLayout>();

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

function layoutOf(db: DataSource, target: EntityTarget<ObjectLiteral>): EntityLayout {
  const metadata = db.getMetadata(target);
  let layout = layouts.get(metadata);
  if (!layout) {
    // A column the database computes (generated) takes no value.
    const written = metadata.columns.filter((c) => c.isInsert && !c.generatedType);
    layout = {
      table: metadata.schema ? `${quote(metadata.schema)}.${quote(metadata.tableName)}` : quote(metadata.tableName),
      names: written.map((c) => quote(c.databaseName)).join(','),
      columns: written.map((c) => {
        const type = typeof c.type === 'string' ? c.type : '';
        const length = Number.parseInt(c.length, 10);
        return {
          name: c.databaseName,
          property: c.propertyPath,
          text: TEXT_TYPES.has(type),
          ...(Number.isInteger(length) && length > 0 ? { maxLength: length } : {}),
        };
      }),
    };
    layouts.set(metadata, layout);
  }
  return layout;
}

/** A value as its column takes it from JSON: text fitted (NUL removed, cut to length); everything else as is. */
function columnValue(column: EntityLayout['columns'][number], value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (column.text && typeof value === 'string') return textColumn(value, column.maxLength);
  return value;
}

/**
 * One multi-row INSERT of `rows`. Entity rows travel as one JSON array parameter that the database expands into rows
 * (`json_populate_recordset` over the table's own row type): one parameter instead of one per column and row, which
 * costs the gateway a JSON.stringify instead of binding thousands of parameters (about half the CPU of a batch on
 * PGlite, where the database runs in the gateway's process). Every column but a generated one is written (undefined as NULL), JSON
 * columns take the nested value, dates their ISO text. Any input is stored: text is fitted to its column (NUL
 * removed, over-long values cut with a marker) and NUL escapes are removed from the JSON, which text and jsonb
 * refuse, so no row is lost to a value the database would refuse.
 */
export async function insertRows(db: DataSource, into: InsertTarget, rows: ObjectLiteral[]): Promise<void> {
  if (into.columns) {
    const columns = [...into.columns];
    // Without metadata TypeORM takes each row's own keys: give every row the same keys in the same order.
    const values = rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] as unknown])));
    await db
      .createQueryBuilder()
      .insert()
      .updateEntity(false)
      .callListeners(false)
      .into(into.target, columns)
      .values(values)
      .execute();
    return;
  }
  const layout = layoutOf(db, into.target);
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const column of layout.columns) record[column.name] = columnValue(column, row[column.property] as unknown);
    return record;
  });
  await db.query(
    `INSERT INTO ${layout.table} (${layout.names}) SELECT ${layout.names} ` +
      `FROM json_populate_recordset(NULL::${layout.table}, $1::json)${into.onConflict ? ` ${into.onConflict}` : ''}`,
    [jsonbText(JSON.stringify(records))],
  );
}

/**
 * Writes a batch as one INSERT. A failure is retried once: the whole batch again after a short pause, or, when the
 * database blamed a row (a value it refuses), row by row so only the unfit rows are lost. What still fails is
 * reported as failed, never thrown.
 */
export async function insertBatch(db: DataSource, into: InsertTarget, rows: ObjectLiteral[]): Promise<BatchOutcome> {
  let firstCode: string;
  try {
    await insertRows(db, into, rows);
    return { written: rows.length, failed: 0 };
  } catch (err) {
    firstCode = errorCodeOf(err);
  }
  if (isRowError(firstCode) && rows.length > 1) {
    let written = 0;
    let errorCode: string | undefined;
    for (const row of rows) {
      try {
        await insertRows(db, into, [row]);
        written++;
      } catch (err) {
        errorCode = errorCodeOf(err);
      }
    }
    return { written, failed: rows.length - written, ...(errorCode ? { errorCode } : {}) };
  }
  await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
  try {
    await insertRows(db, into, rows);
    return { written: rows.length, failed: 0 };
  } catch (err) {
    return {
      written: 0,
      failed: rows.length,
      errorCode: errorCodeOf(err),
      ...(isDatabaseUnavailable(err) ? { unavailable: true } : {}),
    };
  }
}
