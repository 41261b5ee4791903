import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the stats and histogram read: carried by the time and filter indexes so they are index-only scans. */
const STATS_COLUMNS = '"status", "latency", "cost"';

/** Each filter's (column, timestamp) index; `llm_request_id` is mostly empty, so its index holds only set rows. */
const FILTER_INDEXES: Array<[string, string, string]> = [
  ['idx_mcp_tool_logs_tool_name_timestamp', '"tool_name", "timestamp"', ''],
  ['idx_mcp_tool_logs_server_label_timestamp', '"server_label", "timestamp"', ''],
  ['idx_mcp_tool_logs_status_timestamp', '"status", "timestamp"', ''],
  ['idx_mcp_tool_logs_virtual_key_timestamp', '"virtual_key_id", "timestamp"', ''],
  ['idx_mcp_tool_logs_llm_request_timestamp', '"llm_request_id", "timestamp"', ' WHERE "llm_request_id" IS NOT NULL'],
];

/** Sorts: ascending and descending with unknown values (processing rows) last both ways, `id` as the tie-break. */
const SORT_INDEXES: Array<[string, string]> = [
  ['idx_mcp_tool_logs_latency', '"latency" ASC NULLS LAST, "id" ASC'],
  ['idx_mcp_tool_logs_latency_desc', '"latency" DESC NULLS LAST, "id" DESC'],
  ['idx_mcp_tool_logs_cost', '"cost" ASC NULLS LAST, "id" ASC'],
  ['idx_mcp_tool_logs_cost_desc', '"cost" DESC NULLS LAST, "id" DESC'],
];

/**
 * MCP tool logs (`/api/mcp-logs`): one row per tool call. Every filter and sort has its index (TypeORM cannot describe
 * them: INCLUDE, NULLS LAST, partial, trigram). `content_search` reads the arguments' and result's JSON text through a
 * trigram index on that expression when `pg_trgm` can be created (PGlite ships it; without it the search scans). The
 * expression must stay equal to SEARCH_EXPRESSION in mcp-tool-log.query.ts.
 */
export class McpToolLogs1795700000002 implements MigrationInterface {
  name = 'McpToolLogs1795700000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "mcp_tool_logs" ("id" character varying(128) NOT NULL, "llm_request_id" character varying(128), "project_id" character varying(64), "project_name" character varying(255), "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "tool_name" character varying(255) NOT NULL, "server_label" character varying(255) NOT NULL, "virtual_key_id" character varying(64), "virtual_key_name" character varying(255), "arguments" jsonb, "result" jsonb, "error_details" jsonb, "latency" double precision, "cost" double precision, "status" character varying(16) NOT NULL, "metadata" jsonb, "plugin_logs" text, "redaction_mapping" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_mcp_tool_logs" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_mcp_tool_logs_timestamp" ON "mcp_tool_logs" ("timestamp", "id") INCLUDE (${STATS_COLUMNS})`,
    );
    for (const [name, key, where] of FILTER_INDEXES) {
      const include = STATS_COLUMNS.split(', ')
        .filter((c) => !key.startsWith(c))
        .join(', ');
      await queryRunner.query(`CREATE INDEX "${name}" ON "mcp_tool_logs" (${key}) INCLUDE (${include})${where}`);
    }
    for (const [name, key] of SORT_INDEXES) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "mcp_tool_logs" (${key})`);
    }
    await queryRunner.query(
      `DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; ` +
        `EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm is not available: content_search will scan'; END $$`,
    );
    await queryRunner.query(
      `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN ` +
        `CREATE INDEX "idx_mcp_tool_logs_search_trgm" ON "mcp_tool_logs" USING gin ` +
        `((COALESCE(("arguments")::text, '') || ' ' || COALESCE(("result")::text, '')) gin_trgm_ops); END IF; END $$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "mcp_tool_logs"`);
  }
}
