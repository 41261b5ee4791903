import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AsyncJobs1795700000008 implements MigrationInterface {
  name = 'AsyncJobs1795700000008';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "async_jobs" ("id" uuid NOT NULL, "type" character varying(64) NOT NULL, "path" text NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "status_code" integer, "virtual_key_id" uuid, "request_body" bytea NOT NULL, "request_content_type" character varying(255) NOT NULL, "request_headers" jsonb NOT NULL, "result" jsonb, "error" jsonb, "result_ttl" integer NOT NULL, "webhook_id" uuid, "attempts" integer NOT NULL DEFAULT '0', "dispatched_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "pk_async_jobs" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "ix_async_jobs_expires_at" ON "async_jobs"  ("expires_at") `);
    await queryRunner.query(`CREATE INDEX "ix_async_jobs_created_at" ON "async_jobs"  ("created_at") `);
    await queryRunner.query(`CREATE INDEX "ix_async_jobs_virtual_key_id_created_at" ON "async_jobs"  ("virtual_key_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "ix_async_jobs_status_created_at" ON "async_jobs"  ("status", "created_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_async_jobs_status_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_async_jobs_virtual_key_id_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_async_jobs_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_async_jobs_expires_at"`);
    await queryRunner.query(`DROP TABLE "async_jobs"`);
  }
}
