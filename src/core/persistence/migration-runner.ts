import { MigrationExecutor, type DataSource, type Migration } from 'typeorm';

/** Any fixed 64-bit number shared by every replica: the advisory lock that serializes migrations. */
const MIGRATION_LOCK_KEY = 727_274_101;

/**
 * Runs pending migrations while holding a Postgres advisory lock, so replicas that start together take turns and
 * the second one finds nothing left to do. The lock and the migrations use the same connection, which also keeps
 * PGlite's single connection free of deadlocks.
 */
export async function runMigrations(dataSource: DataSource): Promise<Migration[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      return await executor.executePendingMigrations();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
