import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccessProfiles1795700000004 implements MigrationInterface {
  name = 'AccessProfiles1795700000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "access_profiles" ("provider_configs" jsonb NOT NULL DEFAULT '[]', "budgets" jsonb NOT NULL DEFAULT '[]', "rate_limit" jsonb, "calendar_aligned" boolean NOT NULL DEFAULT false, "mcp_tool_groups" jsonb NOT NULL DEFAULT '[]', "mcp_servers" jsonb NOT NULL DEFAULT '[]', "mcp_tool_overrides" jsonb NOT NULL DEFAULT '[]', "id" SERIAL NOT NULL, "name" character varying(255) NOT NULL, "description" text NOT NULL DEFAULT '', "is_active" boolean NOT NULL DEFAULT true, "tags" jsonb NOT NULL DEFAULT '[]', "version" integer NOT NULL DEFAULT '1', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_access_profiles" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_access_profiles_name" ON "access_profiles"  ("name") `);
    await queryRunner.query(`CREATE TABLE "access_profile_copies" ("provider_configs" jsonb NOT NULL DEFAULT '[]', "budgets" jsonb NOT NULL DEFAULT '[]', "rate_limit" jsonb, "calendar_aligned" boolean NOT NULL DEFAULT false, "mcp_tool_groups" jsonb NOT NULL DEFAULT '[]', "mcp_servers" jsonb NOT NULL DEFAULT '[]', "mcp_tool_overrides" jsonb NOT NULL DEFAULT '[]', "id" SERIAL NOT NULL, "user_id" uuid NOT NULL, "parent_profile_id" integer NOT NULL, "name" character varying(255) NOT NULL, "is_active" boolean NOT NULL DEFAULT true, "expires_at" TIMESTAMP WITH TIME ZONE, "assigned_via" character varying(16) NOT NULL DEFAULT 'direct', "role_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_access_profile_copies" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "ix_access_profile_copies_parent_profile_id" ON "access_profile_copies"  ("parent_profile_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_access_profile_copies_user_id_parent_profile_id" ON "access_profile_copies"  ("user_id", "parent_profile_id") `);
    await queryRunner.query(`ALTER TABLE "virtual_keys" ADD "access_profile_copy_id" integer`);
    await queryRunner.query(`CREATE INDEX "ix_virtual_keys_access_profile_copy_id" ON "virtual_keys"  ("access_profile_copy_id") `);
    await queryRunner.query(`ALTER TABLE "access_profile_copies" ADD CONSTRAINT "fk_access_profile_copies_user_id" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "access_profile_copies" ADD CONSTRAINT "fk_access_profile_copies_parent_profile_id" FOREIGN KEY ("parent_profile_id") REFERENCES "access_profiles"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "access_profile_copies" ADD CONSTRAINT "fk_access_profile_copies_role_id" FOREIGN KEY ("role_id") REFERENCES "roles"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" ADD CONSTRAINT "fk_virtual_keys_access_profile_copy_id" FOREIGN KEY ("access_profile_copy_id") REFERENCES "access_profile_copies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "virtual_keys" DROP CONSTRAINT "fk_virtual_keys_access_profile_copy_id"`);
    await queryRunner.query(`ALTER TABLE "access_profile_copies" DROP CONSTRAINT "fk_access_profile_copies_role_id"`);
    await queryRunner.query(`ALTER TABLE "access_profile_copies" DROP CONSTRAINT "fk_access_profile_copies_parent_profile_id"`);
    await queryRunner.query(`ALTER TABLE "access_profile_copies" DROP CONSTRAINT "fk_access_profile_copies_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_virtual_keys_access_profile_copy_id"`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" DROP COLUMN "access_profile_copy_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_access_profile_copies_user_id_parent_profile_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_access_profile_copies_parent_profile_id"`);
    await queryRunner.query(`DROP TABLE "access_profile_copies"`);
    await queryRunner.query(`DROP INDEX "public"."uq_access_profiles_name"`);
    await queryRunner.query(`DROP TABLE "access_profiles"`);
  }
}
