import type { DataSource } from 'typeorm';

export type Counts = Record<string, number>;

/** The tables of the gateway's schema (read once: the fuzzer creates none). */
export async function tablesOf(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ tablename: string }> = await dataSource.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  return rows.map((r) => r.tablename);
}

/** The row count of every table, in one statement (one round trip, one consistent snapshot). */
export async function countRows(dataSource: DataSource, tables: string[]): Promise<Counts> {
  const columns = tables.map((t, i) => `(SELECT count(*) FROM "${t}")::int AS c${i}`).join(', ');
  const [row] = await dataSource.query<[Record<string, number>]>(`SELECT ${columns}`);
  return Object.fromEntries(tables.map((t, i) => [t, Number(row[`c${i}`])]));
}

/** The tables whose count moved between two snapshots, outside `ignored`: `table: before → after`. */
export function changedTables(before: Counts, after: Counts, ignored: ReadonlySet<string>): string[] {
  return Object.keys(after)
    .filter((t) => !ignored.has(t) && before[t] !== after[t])
    .map((t) => `${t}: ${before[t]} → ${after[t]}`);
}
