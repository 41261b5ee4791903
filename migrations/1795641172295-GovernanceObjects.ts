import type { MigrationInterface, QueryRunner } from 'typeorm';

export class GovernanceObjects1795641172295 implements MigrationInterface {
  name = 'GovernanceObjects1795641172295';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "customers" ("id" uuid NOT NULL, "name" character varying(255) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_customers" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_customers_name" ON "customers"  ("name") `);
    await queryRunner.query(`CREATE TABLE "teams" ("id" uuid NOT NULL, "name" character varying(255) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_teams" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_teams_name" ON "teams"  ("name") `);
    await queryRunner.query(`CREATE TABLE "virtual_key_provider_configs" ("id" uuid NOT NULL, "virtual_key_id" uuid NOT NULL, "provider" character varying(64) NOT NULL, "weight" double precision, "allowed_models" jsonb NOT NULL DEFAULT '["*"]', "blacklisted_models" jsonb NOT NULL DEFAULT '[]', "key_ids" jsonb NOT NULL DEFAULT '["*"]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_virtual_key_provider_configs" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_virtual_key_provider_configs_virtual_key_id_provider" ON "virtual_key_provider_configs"  ("virtual_key_id", "provider") `);
    await queryRunner.query(`CREATE TABLE "model_configs" ("id" uuid NOT NULL, "model_name" character varying(255) NOT NULL, "provider" character varying(64), "scope" character varying(16) NOT NULL, "scope_id" uuid, "calendar_aligned" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_model_configs" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "ix_model_configs_model_name" ON "model_configs"  ("model_name") `);
    await queryRunner.query(`CREATE TABLE "provider_governance" ("provider" character varying(64) NOT NULL, "calendar_aligned" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_provider_governance" PRIMARY KEY ("provider"))`);
    await queryRunner.query(`CREATE TABLE "budgets" ("id" uuid NOT NULL, "max_limit" double precision NOT NULL, "reset_duration" character varying(16) NOT NULL, "calendar_aligned" boolean NOT NULL DEFAULT false, "last_reset" TIMESTAMP WITH TIME ZONE NOT NULL, "override_amount" double precision, "override_mode" character varying(16), "override_cycles" integer, "override_expires_at" TIMESTAMP WITH TIME ZONE, "virtual_key_id" uuid, "team_id" uuid, "customer_id" uuid, "provider_config_id" uuid, "model_config_id" uuid, "provider" character varying(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_budgets_one_owner" CHECK (num_nonnulls("virtual_key_id", "team_id", "customer_id", "provider_config_id", "model_config_id", "provider") = 1), CONSTRAINT "pk_budgets" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "ix_budgets_provider" ON "budgets"  ("provider") `);
    await queryRunner.query(`CREATE INDEX "ix_budgets_model_config_id" ON "budgets"  ("model_config_id") `);
    await queryRunner.query(`CREATE INDEX "ix_budgets_provider_config_id" ON "budgets"  ("provider_config_id") `);
    await queryRunner.query(`CREATE INDEX "ix_budgets_customer_id" ON "budgets"  ("customer_id") `);
    await queryRunner.query(`CREATE INDEX "ix_budgets_team_id" ON "budgets"  ("team_id") `);
    await queryRunner.query(`CREATE INDEX "ix_budgets_virtual_key_id" ON "budgets"  ("virtual_key_id") `);
    await queryRunner.query(`CREATE TABLE "rate_limits" ("id" uuid NOT NULL, "request_max_limit" bigint, "request_reset_duration" character varying(16), "token_max_limit" bigint, "token_reset_duration" character varying(16), "virtual_key_id" uuid, "team_id" uuid, "customer_id" uuid, "provider_config_id" uuid, "model_config_id" uuid, "provider" character varying(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_rate_limits_one_owner" CHECK (num_nonnulls("virtual_key_id", "team_id", "customer_id", "provider_config_id", "model_config_id", "provider") = 1), CONSTRAINT "pk_rate_limits" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_rate_limits_provider" ON "rate_limits"  ("provider") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_rate_limits_model_config_id" ON "rate_limits"  ("model_config_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_rate_limits_provider_config_id" ON "rate_limits"  ("provider_config_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_rate_limits_customer_id" ON "rate_limits"  ("customer_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_rate_limits_team_id" ON "rate_limits"  ("team_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_rate_limits_virtual_key_id" ON "rate_limits"  ("virtual_key_id") `);
    await queryRunner.query(`CREATE TABLE "team_customers" ("team_id" uuid NOT NULL, "customer_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_team_customers" PRIMARY KEY ("team_id", "customer_id"))`);
    await queryRunner.query(`CREATE INDEX "ix_team_customers_customer_id" ON "team_customers"  ("customer_id") `);
    await queryRunner.query(`ALTER TABLE "virtual_keys" ADD "mcp_configs" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`CREATE INDEX "ix_virtual_keys_customer_id" ON "virtual_keys"  ("customer_id") `);
    await queryRunner.query(`CREATE INDEX "ix_virtual_keys_team_id" ON "virtual_keys"  ("team_id") `);
    // Keys named teams and customers before those tables existed: such ids point nowhere, and the foreign keys below
    // would refuse them.
    await queryRunner.query(`UPDATE "virtual_keys" SET "team_id" = NULL, "customer_id" = NULL WHERE "team_id" IS NOT NULL OR "customer_id" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" ADD CONSTRAINT "ck_virtual_keys_team_xor_customer" CHECK (team_id IS NULL OR customer_id IS NULL)`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" ADD CONSTRAINT "fk_virtual_keys_team_id" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" ADD CONSTRAINT "fk_virtual_keys_customer_id" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "virtual_key_provider_configs" ADD CONSTRAINT "fk_virtual_key_provider_configs_virtual_key_id" FOREIGN KEY ("virtual_key_id") REFERENCES "virtual_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "budgets" ADD CONSTRAINT "fk_budgets_virtual_key_id" FOREIGN KEY ("virtual_key_id") REFERENCES "virtual_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "budgets" ADD CONSTRAINT "fk_budgets_team_id" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "budgets" ADD CONSTRAINT "fk_budgets_customer_id" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "budgets" ADD CONSTRAINT "fk_budgets_provider_config_id" FOREIGN KEY ("provider_config_id") REFERENCES "virtual_key_provider_configs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "budgets" ADD CONSTRAINT "fk_budgets_model_config_id" FOREIGN KEY ("model_config_id") REFERENCES "model_configs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "budgets" ADD CONSTRAINT "fk_budgets_provider" FOREIGN KEY ("provider") REFERENCES "provider_governance"("provider") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "rate_limits" ADD CONSTRAINT "fk_rate_limits_virtual_key_id" FOREIGN KEY ("virtual_key_id") REFERENCES "virtual_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "rate_limits" ADD CONSTRAINT "fk_rate_limits_team_id" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "rate_limits" ADD CONSTRAINT "fk_rate_limits_customer_id" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "rate_limits" ADD CONSTRAINT "fk_rate_limits_provider_config_id" FOREIGN KEY ("provider_config_id") REFERENCES "virtual_key_provider_configs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "rate_limits" ADD CONSTRAINT "fk_rate_limits_model_config_id" FOREIGN KEY ("model_config_id") REFERENCES "model_configs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "rate_limits" ADD CONSTRAINT "fk_rate_limits_provider" FOREIGN KEY ("provider") REFERENCES "provider_governance"("provider") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "team_customers" ADD CONSTRAINT "fk_team_customers_team_id" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "team_customers" ADD CONSTRAINT "fk_team_customers_customer_id" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "team_customers" DROP CONSTRAINT "fk_team_customers_customer_id"`);
    await queryRunner.query(`ALTER TABLE "team_customers" DROP CONSTRAINT "fk_team_customers_team_id"`);
    await queryRunner.query(`ALTER TABLE "rate_limits" DROP CONSTRAINT "fk_rate_limits_provider"`);
    await queryRunner.query(`ALTER TABLE "rate_limits" DROP CONSTRAINT "fk_rate_limits_model_config_id"`);
    await queryRunner.query(`ALTER TABLE "rate_limits" DROP CONSTRAINT "fk_rate_limits_provider_config_id"`);
    await queryRunner.query(`ALTER TABLE "rate_limits" DROP CONSTRAINT "fk_rate_limits_customer_id"`);
    await queryRunner.query(`ALTER TABLE "rate_limits" DROP CONSTRAINT "fk_rate_limits_team_id"`);
    await queryRunner.query(`ALTER TABLE "rate_limits" DROP CONSTRAINT "fk_rate_limits_virtual_key_id"`);
    await queryRunner.query(`ALTER TABLE "budgets" DROP CONSTRAINT "fk_budgets_provider"`);
    await queryRunner.query(`ALTER TABLE "budgets" DROP CONSTRAINT "fk_budgets_model_config_id"`);
    await queryRunner.query(`ALTER TABLE "budgets" DROP CONSTRAINT "fk_budgets_provider_config_id"`);
    await queryRunner.query(`ALTER TABLE "budgets" DROP CONSTRAINT "fk_budgets_customer_id"`);
    await queryRunner.query(`ALTER TABLE "budgets" DROP CONSTRAINT "fk_budgets_team_id"`);
    await queryRunner.query(`ALTER TABLE "budgets" DROP CONSTRAINT "fk_budgets_virtual_key_id"`);
    await queryRunner.query(`ALTER TABLE "virtual_key_provider_configs" DROP CONSTRAINT "fk_virtual_key_provider_configs_virtual_key_id"`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" DROP CONSTRAINT "fk_virtual_keys_customer_id"`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" DROP CONSTRAINT "fk_virtual_keys_team_id"`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" DROP CONSTRAINT "ck_virtual_keys_team_xor_customer"`);
    await queryRunner.query(`DROP INDEX "public"."ix_virtual_keys_team_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_virtual_keys_customer_id"`);
    await queryRunner.query(`ALTER TABLE "virtual_keys" DROP COLUMN "mcp_configs"`);
    await queryRunner.query(`DROP INDEX "public"."ix_team_customers_customer_id"`);
    await queryRunner.query(`DROP TABLE "team_customers"`);
    await queryRunner.query(`DROP INDEX "public"."uq_rate_limits_virtual_key_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_rate_limits_team_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_rate_limits_customer_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_rate_limits_provider_config_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_rate_limits_model_config_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_rate_limits_provider"`);
    await queryRunner.query(`DROP TABLE "rate_limits"`);
    await queryRunner.query(`DROP INDEX "public"."ix_budgets_virtual_key_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_budgets_team_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_budgets_customer_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_budgets_provider_config_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_budgets_model_config_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_budgets_provider"`);
    await queryRunner.query(`DROP TABLE "budgets"`);
    await queryRunner.query(`DROP TABLE "provider_governance"`);
    await queryRunner.query(`DROP INDEX "public"."ix_model_configs_model_name"`);
    await queryRunner.query(`DROP TABLE "model_configs"`);
    await queryRunner.query(`DROP INDEX "public"."uq_virtual_key_provider_configs_virtual_key_id_provider"`);
    await queryRunner.query(`DROP TABLE "virtual_key_provider_configs"`);
    await queryRunner.query(`DROP INDEX "public"."uq_teams_name"`);
    await queryRunner.query(`DROP TABLE "teams"`);
    await queryRunner.query(`DROP INDEX "public"."uq_customers_name"`);
    await queryRunner.query(`DROP TABLE "customers"`);
  }
}
