import type { EntityManager, EntityTarget, ObjectLiteral, QueryDeepPartialEntity } from 'typeorm';

/** Rows per INSERT statement (well under Postgres' 65,535 bind parameters). */
const INSERT_CHUNK = 500;

/**
 * Updates many rows of `table` by primary key `id` in one statement, each with its own values: the rows travel as
 * one JSON parameter (`jsonb_to_recordset`). `columns` names every column set, with its SQL type; a JSON null sets
 * SQL NULL. `updated_at` is set to now.
 */
export async function bulkUpdate(
  m: EntityManager,
  table: string,
  idType: 'uuid' | 'integer',
  columns: Readonly<Record<string, string>>,
  rows: readonly ({ id: string | number } & Record<string, unknown>)[],
): Promise<void> {
  if (!rows.length) return;
  const names = Object.keys(columns);
  const record = [`"id" ${idType}`, ...names.map((c) => `"${c}" ${columns[c]}`)].join(', ');
  const set = [...names.map((c) => `"${c}" = v."${c}"`), '"updated_at" = CURRENT_TIMESTAMP'].join(', ');
  await m.query(
    `UPDATE "${table}" AS t SET ${set} FROM jsonb_to_recordset($1::jsonb) AS v(${record}) WHERE t."id" = v."id"`,
    [JSON.stringify(rows)],
  );
}

/** Inserts rows through TypeORM, a few hundred per statement. */
export async function bulkInsert<T extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<T>,
  rows: readonly QueryDeepPartialEntity<T>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await m
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .updateEntity(false)
      .execute();
  }
}
