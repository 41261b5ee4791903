import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccessProfileVersions1795700000005 implements MigrationInterface {
  name = 'AccessProfileVersions1795700000005';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "access_profile_versions" ("id" SERIAL NOT NULL, "access_profile_id" integer NOT NULL, "version" integer NOT NULL, "name" character varying(255) NOT NULL, "description" text NOT NULL, "snapshot" text NOT NULL, "changed_by" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_access_profile_versions" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_access_profile_versions_access_profile_id_version" ON "access_profile_versions"  ("access_profile_id", "version") `);
    await queryRunner.query(`ALTER TABLE "access_profile_versions" ADD CONSTRAINT "fk_access_profile_versions_access_profile_id" FOREIGN KEY ("access_profile_id") REFERENCES "access_profiles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "access_profile_versions" DROP CONSTRAINT "fk_access_profile_versions_access_profile_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_access_profile_versions_access_profile_id_version"`);
    await queryRunner.query(`DROP TABLE "access_profile_versions"`);
  }
}
