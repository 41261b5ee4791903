import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tool log rollup (`mcp_tool_log_hourly`) gains the measures of `/api/mcp-logs/stats`: the latency summed over
 * the calls that have one (and how many have one) and the cost summed, so stats over a time range and statuses read a
 * few hundred rollup rows instead of a million log rows, like counts and histograms. Sums are numeric, so the triggers'
 * additions and subtractions cancel exactly (no drift from moving a call between statuses). The rollup is rebuilt
 * from the rows with the log table locked against writes, so no write lands between the rebuild and the new trigger.
 */
export class McpToolLogHourlyMeasures1795700000016 implements MigrationInterface {
  name = 'McpToolLogHourlyMeasures1795700000016';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`LOCK TABLE mcp_tool_logs IN SHARE MODE`);
    await queryRunner.query(
      `ALTER TABLE "mcp_tool_log_hourly" ADD "latency_sum" numeric NOT NULL DEFAULT 0, ` +
        `ADD "latency_calls" bigint NOT NULL DEFAULT 0, ADD "cost_sum" numeric NOT NULL DEFAULT 0`,
    );
    const apply = (table: string, sign: string) =>
      `INSERT INTO mcp_tool_log_hourly (hour, status, calls, latency_sum, latency_calls, cost_sum) ` +
      `SELECT date_bin('1 hour', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00'), status, ${sign}count(*), ` +
      `${sign}COALESCE(sum(latency::numeric), 0), ${sign}count(latency), ${sign}COALESCE(sum(cost::numeric), 0) ` +
      `FROM ${table} GROUP BY 1, 2 ORDER BY 1, 2 ` +
      `ON CONFLICT (hour, status) DO UPDATE SET calls = mcp_tool_log_hourly.calls + EXCLUDED.calls, ` +
      `latency_sum = mcp_tool_log_hourly.latency_sum + EXCLUDED.latency_sum, ` +
      `latency_calls = mcp_tool_log_hourly.latency_calls + EXCLUDED.latency_calls, ` +
      `cost_sum = mcp_tool_log_hourly.cost_sum + EXCLUDED.cost_sum;`;
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION mcp_tool_log_hourly_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN ${apply('old_rows', '-')} END IF; ` +
        `IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN ${apply('new_rows', '')} END IF; ` +
        `RETURN NULL; END $$`,
    );
    await queryRunner.query(`DELETE FROM mcp_tool_log_hourly`);
    await queryRunner.query(
      `INSERT INTO mcp_tool_log_hourly (hour, status, calls, latency_sum, latency_calls, cost_sum) ` +
        `SELECT date_bin('1 hour', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00'), status, count(*), ` +
        `COALESCE(sum(latency::numeric), 0), count(latency), COALESCE(sum(cost::numeric), 0) ` +
        `FROM mcp_tool_logs GROUP BY 1, 2`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const apply = (table: string, sign: string) =>
      `INSERT INTO mcp_tool_log_hourly (hour, status, calls) ` +
      `SELECT date_bin('1 hour', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00'), status, ${sign}count(*) ` +
      `FROM ${table} GROUP BY 1, 2 ORDER BY 1, 2 ` +
      `ON CONFLICT (hour, status) DO UPDATE SET calls = mcp_tool_log_hourly.calls + EXCLUDED.calls;`;
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION mcp_tool_log_hourly_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN ${apply('old_rows', '-')} END IF; ` +
        `IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN ${apply('new_rows', '')} END IF; ` +
        `RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_tool_log_hourly" DROP COLUMN "cost_sum", DROP COLUMN "latency_calls", DROP COLUMN "latency_sum"`,
    );
  }
}
