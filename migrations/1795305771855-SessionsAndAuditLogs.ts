import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SessionsAndAuditLogs1795305771855 implements MigrationInterface {
  name = 'SessionsAndAuditLogs1795305771855';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "dashboard_sessions" ("id" uuid NOT NULL, "token_hash" character varying(64) NOT NULL, "subject_kind" character varying(16) NOT NULL, "user_id" character varying(255), "username" character varying(255) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_dashboard_sessions" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_dashboard_sessions_token_hash" ON "dashboard_sessions"  ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_dashboard_sessions_expires_at" ON "dashboard_sessions"  ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "setup_sessions" ("id" uuid NOT NULL, "token_hash" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_setup_sessions" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_setup_sessions_token_hash" ON "setup_sessions"  ("token_hash") `);
    await queryRunner.query(`CREATE INDEX "idx_setup_sessions_expires_at" ON "setup_sessions"  ("expires_at") `);
    await queryRunner.query(
      `CREATE TABLE "audit_logs" ("id" uuid NOT NULL, "actor" character varying(255), "auth_method" character varying(32), "permission" character varying(64), "method" character varying(16) NOT NULL, "route" character varying(512) NOT NULL, "path" character varying(2048) NOT NULL, "target_id" character varying(512), "status_code" integer NOT NULL, "client_address" character varying(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_audit_logs" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_audit_logs_actor" ON "audit_logs"  ("actor") `);
    await queryRunner.query(`CREATE INDEX "idx_audit_logs_created_at" ON "audit_logs"  ("created_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_audit_logs_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_logs_actor"`);
    await queryRunner.query(`DROP TABLE "audit_logs"`);
    await queryRunner.query(`DROP INDEX "public"."idx_setup_sessions_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."uq_setup_sessions_token_hash"`);
    await queryRunner.query(`DROP TABLE "setup_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."idx_dashboard_sessions_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."uq_dashboard_sessions_token_hash"`);
    await queryRunner.query(`DROP TABLE "dashboard_sessions"`);
  }
}
