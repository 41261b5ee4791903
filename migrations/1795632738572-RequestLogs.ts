import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Request logs: the hot columns (`request_logs`, an index per filter and sort) and the content apart
 * (`request_log_contents`). `content_search` is served by a trigram index when `pg_trgm` can be created (PGlite ships
 * it; on a server without the contrib package the search still works, by a scan).
 */
export class RequestLogs1795632738572 implements MigrationInterface {
  name = 'RequestLogs1795632738572';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "request_log_contents" ("log_id" uuid NOT NULL, "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "search_text" text, "input_history" json, "output_message" json, "params" json, "tools" json, "raw_request" text, "raw_response" text, CONSTRAINT "pk_request_log_contents" PRIMARY KEY ("log_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_log_contents_timestamp" ON "request_log_contents"  ("timestamp") `,
    );
    await queryRunner.query(
      `CREATE TABLE "request_logs" ("id" uuid NOT NULL, "parent_request_id" uuid, "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "object" character varying(32) NOT NULL, "provider" character varying(64), "model" character varying(255), "alias" character varying(255), "canonical_model_name" character varying(255), "alias_model_family" character varying(255), "fallback_index" integer NOT NULL DEFAULT '0', "number_of_retries" integer NOT NULL DEFAULT '0', "selected_key_id" character varying(64), "selected_key_name" character varying(255), "virtual_key_id" character varying(64), "virtual_key_name" character varying(255), "team_id" character varying(64), "customer_id" character varying(64), "routing_rule_id" character varying(64), "status" character varying(16) NOT NULL, "status_code" integer NOT NULL, "stream" boolean NOT NULL DEFAULT false, "latency" double precision NOT NULL, "time_to_first_token" double precision, "prompt_tokens" integer, "completion_tokens" integer, "total_tokens" integer, "cost" double precision, "stop_reason" character varying(64), "error_type" character varying(64), "content_summary" character varying(256), "token_usage" json, "error_details" json, "metadata" json, CONSTRAINT "pk_request_logs" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_parent_request_id" ON "request_logs"  ("parent_request_id") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_request_logs_cost" ON "request_logs"  ("cost") `);
    await queryRunner.query(`CREATE INDEX "idx_request_logs_total_tokens" ON "request_logs"  ("total_tokens") `);
    await queryRunner.query(`CREATE INDEX "idx_request_logs_latency" ON "request_logs"  ("latency") `);
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_routing_rule_timestamp" ON "request_logs"  ("routing_rule_id", "timestamp") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_customer_timestamp" ON "request_logs"  ("customer_id", "timestamp") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_team_timestamp" ON "request_logs"  ("team_id", "timestamp") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_virtual_key_timestamp" ON "request_logs"  ("virtual_key_id", "timestamp") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_selected_key_timestamp" ON "request_logs"  ("selected_key_id", "timestamp") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_object_timestamp" ON "request_logs"  ("object", "timestamp") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_status_timestamp" ON "request_logs"  ("status", "timestamp") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_model_timestamp" ON "request_logs"  ("model", "timestamp") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_provider_timestamp" ON "request_logs"  ("provider", "timestamp") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_request_logs_timestamp" ON "request_logs"  ("timestamp") `);
    // Cost and tokens sort with unknown values last both ways: ascending reads the plain index, descending this one.
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_cost_desc" ON "request_logs" ("cost" DESC NULLS LAST, "id" DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_request_logs_total_tokens_desc" ON "request_logs" ("total_tokens" DESC NULLS LAST, "id" DESC)`,
    );
    await queryRunner.query(
      `DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; ` +
        `EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm is not available: content_search will scan'; END $$`,
    );
    await queryRunner.query(
      `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN ` +
        `CREATE INDEX "idx_request_log_contents_search_trgm" ON "request_log_contents" ` +
        `USING gin ("search_text" gin_trgm_ops); END IF; END $$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "public"."idx_request_log_contents_search_trgm"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_total_tokens_desc"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_cost_desc"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_provider_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_model_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_status_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_object_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_selected_key_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_virtual_key_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_team_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_customer_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_routing_rule_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_latency"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_total_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_cost"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_logs_parent_request_id"`);
    await queryRunner.query(`DROP TABLE "request_logs"`);
    await queryRunner.query(`DROP INDEX "public"."idx_request_log_contents_timestamp"`);
    await queryRunner.query(`DROP TABLE "request_log_contents"`);
  }
}
