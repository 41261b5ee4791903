import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RuntimeSettings1795700000011 implements MigrationInterface {
  name = 'RuntimeSettings1795700000011';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "runtime_settings" ("key" character varying(255) NOT NULL, "value" jsonb NOT NULL, "updated_by" character varying(255), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_runtime_settings" PRIMARY KEY ("key"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "runtime_settings"`);
  }
}
