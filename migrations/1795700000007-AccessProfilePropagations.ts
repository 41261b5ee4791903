import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccessProfilePropagations1795700000007 implements MigrationInterface {
  name = 'AccessProfilePropagations1795700000007';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "access_profile_propagations" ("id" uuid NOT NULL, "access_profile_id" integer NOT NULL, "request" jsonb NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'running', "total" integer NOT NULL DEFAULT '0', "processed" integer NOT NULL DEFAULT '0', "result" jsonb, "error" text, "actor" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "pk_access_profile_propagations" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_access_profile_propagations_status_created_at" ON "access_profile_propagations"  ("status", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_access_profile_propagations_running_profile" ON "access_profile_propagations"  ("access_profile_id") WHERE "status" = 'running'`,
    );
    await queryRunner.query(
      `CREATE TABLE "access_profile_propagation_users" ("propagation_id" uuid NOT NULL, "user_id" uuid NOT NULL, "outcome" character varying(16) NOT NULL, "key_synced" boolean NOT NULL DEFAULT false, "message" text, CONSTRAINT "pk_access_profile_propagation_users" PRIMARY KEY ("propagation_id", "user_id"))`,
    );
    await queryRunner.query(`ALTER TABLE "audit_logs" ADD "metadata" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "access_profile_propagations" ADD CONSTRAINT "fk_access_profile_propagations_access_profile_id" FOREIGN KEY ("access_profile_id") REFERENCES "access_profiles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "access_profile_propagation_users" ADD CONSTRAINT "fk_access_profile_propagation_users_propagation_id" FOREIGN KEY ("propagation_id") REFERENCES "access_profile_propagations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "access_profile_propagation_users" DROP CONSTRAINT "fk_access_profile_propagation_users_propagation_id"`,
    );
    await queryRunner.query(
      `ALTER TABLE "access_profile_propagations" DROP CONSTRAINT "fk_access_profile_propagations_access_profile_id"`,
    );
    await queryRunner.query(`ALTER TABLE "audit_logs" DROP COLUMN "metadata"`);
    await queryRunner.query(`DROP TABLE "access_profile_propagation_users"`);
    await queryRunner.query(`DROP INDEX "public"."uq_access_profile_propagations_running_profile"`);
    await queryRunner.query(`DROP INDEX "public"."ix_access_profile_propagations_status_created_at"`);
    await queryRunner.query(`DROP TABLE "access_profile_propagations"`);
  }
}
