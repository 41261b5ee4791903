import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InferenceProviders1795447065316 implements MigrationInterface {
  name = 'InferenceProviders1795447065316';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "providers" ("provider" character varying(64) NOT NULL, "base_url" text, "extra_headers" jsonb NOT NULL DEFAULT '{}', "network_config" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_providers" PRIMARY KEY ("provider"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "provider_keys" ("id" uuid NOT NULL, "provider" character varying(64) NOT NULL, "name" character varying(255) NOT NULL, "value" jsonb, "weight" double precision NOT NULL DEFAULT '1', "models" jsonb NOT NULL DEFAULT '["*"]', "blacklisted_models" jsonb NOT NULL DEFAULT '[]', "aliases" jsonb NOT NULL DEFAULT '{}', "enabled" boolean NOT NULL DEFAULT true, "azure_key_config" jsonb, "bedrock_key_config" jsonb, "vertex_key_config" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_provider_keys" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_provider_keys_provider_name" ON "provider_keys"  ("provider", "name") `,
    );
    await queryRunner.query(
      `ALTER TABLE "provider_keys" ADD CONSTRAINT "fk_provider_keys_provider" FOREIGN KEY ("provider") REFERENCES "providers"("provider") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "provider_keys" DROP CONSTRAINT "fk_provider_keys_provider"`);
    await queryRunner.query(`DROP INDEX "public"."uq_provider_keys_provider_name"`);
    await queryRunner.query(`DROP TABLE "provider_keys"`);
    await queryRunner.query(`DROP TABLE "providers"`);
  }
}
