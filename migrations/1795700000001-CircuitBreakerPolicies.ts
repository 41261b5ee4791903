import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CircuitBreakerPolicies1795700000001 implements MigrationInterface {
  name = 'CircuitBreakerPolicies1795700000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "circuit_breaker_policies" ("name" character varying(255) NOT NULL, "primary_provider" character varying(64) NOT NULL, "primary_model" character varying(512) NOT NULL, "fallback_provider" character varying(64) NOT NULL, "fallback_model" character varying(512) NOT NULL, "condition" jsonb NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "primary_key_ids" jsonb NOT NULL DEFAULT '[]', "default_cooldown" character varying(64) NOT NULL DEFAULT '30s', "cooldown_header" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_circuit_breaker_policies" PRIMARY KEY ("name"))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "circuit_breaker_policies"`);
  }
}
