import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Requests per UTC hour and status with their sums (latency, tokens, cost), kept exact by statement-level triggers on
 * `request_logs` (docs/logs.md, "Queries at scale"), as `mcp_tool_log_hourly` is for the tool logs: counts, stats and
 * histograms over time ranges and statuses read a few hundred rollup rows instead of every log row. Inserts add,
 * updates move, deletes (by id, by retention) subtract, a truncate empties. No TypeORM entity: plain SQL reads it.
 */
export class RequestLogHourly1795700000015 implements MigrationInterface {
  name = 'RequestLogHourly1795700000015';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "request_log_hourly" ("hour" TIMESTAMP WITH TIME ZONE NOT NULL, "status" character varying(16) NOT NULL, "requests" bigint NOT NULL, "latency_sum" double precision NOT NULL, "prompt_tokens" bigint NOT NULL, "completion_tokens" bigint NOT NULL, "total_tokens" bigint NOT NULL, "cost_sum" double precision NOT NULL, CONSTRAINT "pk_request_log_hourly" PRIMARY KEY ("hour", "status"))`,
    );
    // date_bin: whole UTC hours whatever the session's time zone. Applied in key order, so concurrent writers lock the
    // rollup rows in one order (no deadlock).
    const sums = (sign: string) =>
      `${sign}count(*), ${sign}COALESCE(sum(latency), 0), ${sign}COALESCE(sum(prompt_tokens), 0), ` +
      `${sign}COALESCE(sum(completion_tokens), 0), ${sign}COALESCE(sum(total_tokens), 0), ${sign}COALESCE(sum(cost), 0)`;
    const apply = (table: string, sign: string) =>
      `INSERT INTO request_log_hourly AS r (hour, status, requests, latency_sum, prompt_tokens, completion_tokens, ` +
      `total_tokens, cost_sum) SELECT date_bin('1 hour', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00'), status, ` +
      `${sums(sign)} FROM ${table} GROUP BY 1, 2 ORDER BY 1, 2 ON CONFLICT (hour, status) DO UPDATE SET ` +
      `requests = r.requests + EXCLUDED.requests, latency_sum = r.latency_sum + EXCLUDED.latency_sum, ` +
      `prompt_tokens = r.prompt_tokens + EXCLUDED.prompt_tokens, ` +
      `completion_tokens = r.completion_tokens + EXCLUDED.completion_tokens, ` +
      `total_tokens = r.total_tokens + EXCLUDED.total_tokens, cost_sum = r.cost_sum + EXCLUDED.cost_sum;`;
    await queryRunner.query(
      `CREATE FUNCTION request_log_hourly_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN ${apply('old_rows', '-')} END IF; ` +
        `IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN ${apply('new_rows', '')} END IF; ` +
        `RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION request_log_hourly_reset() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `DELETE FROM request_log_hourly; RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER request_log_hourly_insert AFTER INSERT ON request_logs REFERENCING NEW TABLE AS new_rows ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION request_log_hourly_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER request_log_hourly_update AFTER UPDATE ON request_logs ` +
        `REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION request_log_hourly_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER request_log_hourly_delete AFTER DELETE ON request_logs REFERENCING OLD TABLE AS old_rows ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION request_log_hourly_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER request_log_hourly_truncate AFTER TRUNCATE ON request_logs ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION request_log_hourly_reset()`,
    );
    await queryRunner.query(
      `INSERT INTO request_log_hourly (hour, status, requests, latency_sum, prompt_tokens, completion_tokens, ` +
        `total_tokens, cost_sum) SELECT date_bin('1 hour', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00'), ` +
        `status, ${sums('')} FROM request_logs GROUP BY 1, 2`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['insert', 'update', 'delete', 'truncate']) {
      await queryRunner.query(`DROP TRIGGER IF EXISTS request_log_hourly_${event} ON request_logs`);
    }
    await queryRunner.query(`DROP FUNCTION IF EXISTS request_log_hourly_apply()`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS request_log_hourly_reset()`);
    await queryRunner.query(`DROP TABLE IF EXISTS "request_log_hourly"`);
  }
}
