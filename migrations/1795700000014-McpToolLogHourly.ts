import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tool calls per hour and status, kept exact by statement-level triggers on `mcp_tool_logs` (docs/mcp.md, "Tool log
 * queries at scale"): a count over whole hours reads a few hundred rollup rows instead of a million log rows. Every
 * write reaches the rollup in the same transaction: an insert adds its rows' hours, an update (a call's end merged
 * into its start: its status changes) moves them, a delete (by id, by retention) removes them, a truncate empties it.
 * The batched writer inserts hundreds of rows per statement, so the triggers run once per batch, not once per row.
 * No TypeORM entity: the log query reads it with plain SQL.
 */
export class McpToolLogHourly1795700000014 implements MigrationInterface {
  name = 'McpToolLogHourly1795700000014';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "mcp_tool_log_hourly" ("hour" TIMESTAMP WITH TIME ZONE NOT NULL, "status" character varying(16) NOT NULL, "calls" bigint NOT NULL, CONSTRAINT "pk_mcp_tool_log_hourly" PRIMARY KEY ("hour", "status"))`,
    );
    // date_bin, not date_trunc: whole UTC hours whatever the session's time zone. Rows are applied in key order so two
    // concurrent writers lock the rollup rows in the same order (no deadlock).
    const apply = (table: string, sign: string) =>
      `INSERT INTO mcp_tool_log_hourly (hour, status, calls) ` +
      `SELECT date_bin('1 hour', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00'), status, ${sign}count(*) ` +
      `FROM ${table} GROUP BY 1, 2 ORDER BY 1, 2 ` +
      `ON CONFLICT (hour, status) DO UPDATE SET calls = mcp_tool_log_hourly.calls + EXCLUDED.calls;`;
    await queryRunner.query(
      `CREATE FUNCTION mcp_tool_log_hourly_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN ${apply('old_rows', '-')} END IF; ` +
        `IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN ${apply('new_rows', '')} END IF; ` +
        `RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION mcp_tool_log_hourly_reset() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `DELETE FROM mcp_tool_log_hourly; RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER mcp_tool_log_hourly_insert AFTER INSERT ON mcp_tool_logs REFERENCING NEW TABLE AS new_rows ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION mcp_tool_log_hourly_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER mcp_tool_log_hourly_update AFTER UPDATE ON mcp_tool_logs ` +
        `REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION mcp_tool_log_hourly_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER mcp_tool_log_hourly_delete AFTER DELETE ON mcp_tool_logs REFERENCING OLD TABLE AS old_rows ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION mcp_tool_log_hourly_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER mcp_tool_log_hourly_truncate AFTER TRUNCATE ON mcp_tool_logs ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION mcp_tool_log_hourly_reset()`,
    );
    await queryRunner.query(
      `INSERT INTO mcp_tool_log_hourly (hour, status, calls) ` +
        `SELECT date_bin('1 hour', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00'), status, count(*) ` +
        `FROM mcp_tool_logs GROUP BY 1, 2`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['insert', 'update', 'delete', 'truncate']) {
      await queryRunner.query(`DROP TRIGGER IF EXISTS mcp_tool_log_hourly_${event} ON mcp_tool_logs`);
    }
    await queryRunner.query(`DROP FUNCTION IF EXISTS mcp_tool_log_hourly_apply()`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS mcp_tool_log_hourly_reset()`);
    await queryRunner.query(`DROP TABLE IF EXISTS "mcp_tool_log_hourly"`);
  }
}
