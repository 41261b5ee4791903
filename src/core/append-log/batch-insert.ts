import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { jsonbText, textColumn } from './text-column.js';

/** Where one kind's rows go: an entity (table and column types from its metadata) or a bare table and its columns. */
export interface InsertTarget {
  target: EntityTarget<ObjectLiteral>;
  /** Set for bare tables: every row is written with exactly these columns (missing values take the default). */
  columns?: readonly string[];
}

export interface BatchOutcome {
  written: number;
  failed: number;
  /** SQLSTATE (or error name) of the last failure: logged instead of the message, which may quote row values. */
  errorCode?: string;
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
  columns: Array<{
    name: string;
    property: string;
    json: 'json' | 'jsonb' | null;
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
    layout = {
      table: metadata.schema ? `${quote(metadata.schema)}.${quote(metadata.tableName)}` : quote(metadata.tableName),
      columns: metadata.columns.map((c) => {
        const type = typeof c.type === 'string' ? c.type : '';
        const length = Number.parseInt(c.length, 10);
        return {
          name: c.databaseName,
          property: c.propertyPath,
          json: type === 'jsonb' || type === 'json' ? type : null,
          text: TEXT_TYPES.has(type),
          ...(Number.isInteger(length) && length > 0 ? { maxLength: length } : {}),
        };
      }),
    };
    layouts.set(metadata, layout);
  }
  return layout;
}

function columnValue(column: EntityLayout['columns'][number], value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (column.json) {
    const json = JSON.stringify(value);
    return column.json === 'jsonb' ? jsonbText(json) : json;
  }
  if (column.text && typeof value === 'string') return textColumn(value, column.maxLength);
  return value;
}

/**
 * One multi-row INSERT of `rows`. Entity rows are written with SQL built from the entity's column layout (TypeORM's
 * query builder costs more than the proxied call on a busy data plane): every column in order, undefined as NULL,
 * JSON columns serialized, everything else as the driver binds it. Any input is stored: text is fitted to its column
 * (NUL removed, over-long values cut with a marker) and NUL escapes are removed from jsonb, so no row is lost to a
 * value the database would refuse.
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
  const params: unknown[] = [];
  const tuples: string[] = [];
  for (const row of rows) {
    const slots: string[] = [];
    for (const column of layout.columns) {
      params.push(columnValue(column, row[column.property] as unknown));
      slots.push(`$${params.length}`);
    }
    tuples.push(`(${slots.join(',')})`);
  }
  const names = layout.columns.map((c) => quote(c.name)).join(',');
  await db.query(`INSERT INTO ${layout.table} (${names}) VALUES ${tuples.join(',')}`, params);
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
    return { written: 0, failed: rows.length, errorCode: errorCodeOf(err) };
  }
}
