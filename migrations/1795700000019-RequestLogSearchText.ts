import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Runs `sql` only where `pg_trgm` exists (the request logs' first migration creates it when it can). */
const ifTrigrams = (sql: string) =>
  `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN ${sql}; END IF; END $$`;

/**
 * `content_search` on request logs reads `search_text` in the log row, moved from the content row with its trigram
 * index, and case-folded (lowercase, final sigma as σ: `foldForSearch`, which the gateway applies to new rows and to
 * every term) so a candidate is checked by `LIKE` and `strpos`, not `ILIKE` lowercasing it again. Down moves the
 * folded text back: the original case of rows logged before is not kept. A search's candidates were content rows, wide with the bodies (710 MB per million rows, mostly outside
 * `shared_buffers`), and each match's log row was read again for the other filters, the sort and the stats; now each
 * candidate is one log row (docs/logs.md, "Searching contents").
 *
 * Copying the text into every log row updates each row and every index of `request_logs` (the pages are full, so no
 * update is in place), under a lock that holds log writes meanwhile; on a big table, expect minutes per million rows.
 */
export class RequestLogSearchText1795700000019 implements MigrationInterface {
  name = 'RequestLogSearchText1795700000019';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "request_logs" ADD "search_text" text`);
    await queryRunner.query(
      `UPDATE "request_logs" l SET "search_text" = replace(lower(c."search_text"), 'ς', 'σ') ` +
        `FROM "request_log_contents" c ` +
        `WHERE c."log_id" = l."id" AND c."search_text" IS NOT NULL`,
    );
    await queryRunner.query(`DROP INDEX IF EXISTS "public"."idx_request_log_contents_search_trgm"`);
    await queryRunner.query(`ALTER TABLE "request_log_contents" DROP COLUMN "search_text"`);
    await queryRunner.query(
      ifTrigrams(
        `CREATE INDEX "idx_request_logs_search_trgm" ON "request_logs" USING gin ("search_text" gin_trgm_ops)`,
      ),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "request_log_contents" ADD "search_text" text`);
    await queryRunner.query(
      `UPDATE "request_log_contents" c SET "search_text" = l."search_text" FROM "request_logs" l ` +
        `WHERE l."id" = c."log_id" AND l."search_text" IS NOT NULL`,
    );
    await queryRunner.query(`DROP INDEX IF EXISTS "public"."idx_request_logs_search_trgm"`);
    await queryRunner.query(`ALTER TABLE "request_logs" DROP COLUMN "search_text"`);
    await queryRunner.query(
      ifTrigrams(
        `CREATE INDEX "idx_request_log_contents_search_trgm" ON "request_log_contents" ` +
          `USING gin ("search_text" gin_trgm_ops)`,
      ),
    );
  }
}
