import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PricingOverrides1795641545922 implements MigrationInterface {
  name = 'PricingOverrides1795641545922';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "pricing_overrides" ("id" uuid NOT NULL, "name" character varying(255) NOT NULL, "scope_kind" character varying(32) NOT NULL, "virtual_key_id" character varying(255), "user_id" character varying(255), "provider_id" character varying(64), "provider_key_id" character varying(255), "match_type" character varying(16) NOT NULL, "pattern" character varying(512) NOT NULL, "request_types" jsonb NOT NULL, "pricing_patch" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_pricing_overrides" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_pricing_overrides_scope_kind" ON "pricing_overrides"  ("scope_kind") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_pricing_overrides_scope_kind"`);
    await queryRunner.query(`DROP TABLE "pricing_overrides"`);
  }
}
