import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The stats' columns, carried by the filter indexes so stats over a filter never read the table. */
const STATS_COLUMNS = '"status", "latency", "total_tokens", "cost"';
/** (index, its key columns) of each filter index; the stats' columns in a key are not included again. */
const FILTER_INDEXES: Array<[string, string]> = [
  ['idx_request_logs_latency', '"latency"'],
  ['idx_request_logs_total_tokens', '"total_tokens"'],
  ['idx_request_logs_cost', '"cost"'],
  ['idx_request_logs_provider_timestamp', '"provider", "timestamp"'],
  ['idx_request_logs_model_timestamp', '"model", "timestamp"'],
  ['idx_request_logs_status_timestamp', '"status", "timestamp"'],
  ['idx_request_logs_object_timestamp', '"object", "timestamp"'],
  ['idx_request_logs_selected_key_timestamp', '"selected_key_id", "timestamp"'],
  ['idx_request_logs_virtual_key_timestamp', '"virtual_key_id", "timestamp"'],
  ['idx_request_logs_team_timestamp', '"team_id", "timestamp"'],
  ['idx_request_logs_customer_timestamp', '"customer_id", "timestamp"'],
  ['idx_request_logs_routing_rule_timestamp', '"routing_rule_id", "timestamp"'],
];
/**
 * Columns empty on most rows (a key without a team or customer, a request no routing rule matched): their indexes
 * hold only the rows that have a value, so the usual row costs no entry in them. The list query says
 * `<column> IS NOT NULL` beside its filter, which lets the planner use them with any parameter.
 */
const MOSTLY_EMPTY = new Set(['"team_id"', '"customer_id"', '"routing_rule_id"']);

/**
 * Request log stats and histograms as index-only scans: the time index, each filter's (column, timestamp) index and
 * the latency, tokens and cost indexes now INCLUDE the columns the aggregates read (status, latency, tokens, cost; the time index also prompt and
 * completion tokens, for the token histogram). On a million rows, stats over a provider went from reading most of the
 * table's pages to reading its index (bench/request-log-queries.mjs); each index about doubles in size.
 */
export class RequestLogCoveringIndexes1795700000000 implements MigrationInterface {
  name = 'RequestLogCoveringIndexes1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_timestamp"`);
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_timestamp" ON "request_logs" ("timestamp") ` +
        `INCLUDE (${STATS_COLUMNS}, "prompt_tokens", "completion_tokens")`,
    );
    for (const [name, key] of FILTER_INDEXES) {
      const include = STATS_COLUMNS.split(', ')
        .filter((c) => !key.startsWith(c))
        .join(', ');
      const first = key.split(', ')[0]!;
      const where = MOSTLY_EMPTY.has(first) ? ` WHERE ${first} IS NOT NULL` : '';
      await queryRunner.query(`DROP INDEX "public"."${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "request_logs" (${key}) INCLUDE (${include})${where}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_timestamp"`);
    await queryRunner.query(`CREATE INDEX "idx_request_logs_timestamp" ON "request_logs" ("timestamp")`);
    for (const [name, key] of FILTER_INDEXES) {
      await queryRunner.query(`DROP INDEX "public"."${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "request_logs" (${key})`);
    }
  }
}
