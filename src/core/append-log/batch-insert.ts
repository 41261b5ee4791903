import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

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

/** One multi-row INSERT of `rows`. */
export async function insertRows(db: DataSource, into: InsertTarget, rows: ObjectLiteral[]): Promise<void> {
  const builder = db.createQueryBuilder().insert().updateEntity(false).callListeners(false);
  if (into.columns) {
    const columns = [...into.columns];
    // Without metadata TypeORM takes each row's own keys: give every row the same keys in the same order.
    const values = rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] as unknown])));
    await builder.into(into.target, columns).values(values).execute();
  } else {
    await builder.into(into.target).values(rows).execute();
  }
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
