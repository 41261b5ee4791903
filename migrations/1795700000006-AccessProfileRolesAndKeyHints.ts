import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccessProfileRolesAndKeyHints1795700000006 implements MigrationInterface {
  name = 'AccessProfileRolesAndKeyHints1795700000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "access_profile_roles" ("id" SERIAL NOT NULL, "access_profile_id" integer NOT NULL, "role_id" uuid NOT NULL, "is_default" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_access_profile_roles" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "ix_access_profile_roles_role_id" ON "access_profile_roles"  ("role_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_access_profile_roles_access_profile_id_role_id" ON "access_profile_roles"  ("access_profile_id", "role_id") `);
    await queryRunner.query(`ALTER TABLE "virtual_key_credentials" ADD "value_hint" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "access_profile_roles" ADD CONSTRAINT "fk_access_profile_roles_access_profile_id" FOREIGN KEY ("access_profile_id") REFERENCES "access_profiles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "access_profile_roles" ADD CONSTRAINT "fk_access_profile_roles_role_id" FOREIGN KEY ("role_id") REFERENCES "roles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "access_profile_roles" DROP CONSTRAINT "fk_access_profile_roles_role_id"`);
    await queryRunner.query(`ALTER TABLE "access_profile_roles" DROP CONSTRAINT "fk_access_profile_roles_access_profile_id"`);
    await queryRunner.query(`ALTER TABLE "virtual_key_credentials" DROP COLUMN "value_hint"`);
    await queryRunner.query(`DROP INDEX "public"."uq_access_profile_roles_access_profile_id_role_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_access_profile_roles_role_id"`);
    await queryRunner.query(`DROP TABLE "access_profile_roles"`);
  }
}
