import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RoutingRules1795641391728 implements MigrationInterface {
  name = 'RoutingRules1795641391728';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "routing_rules" ("id" uuid NOT NULL, "name" character varying(255) NOT NULL, "description" text NOT NULL DEFAULT '', "enabled" boolean NOT NULL DEFAULT true, "cel_expression" text NOT NULL, "targets" jsonb NOT NULL, "fallbacks" jsonb NOT NULL, "scope" character varying(32) NOT NULL, "scope_id" character varying(255) NOT NULL DEFAULT '', "priority" integer NOT NULL DEFAULT '0', "chain_rule" boolean NOT NULL DEFAULT false, "query" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_routing_rules" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_routing_rules_scope_name" ON "routing_rules"  ("scope", "scope_id", "name") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_routing_rules_scope_name"`);
    await queryRunner.query(`DROP TABLE "routing_rules"`);
  }
}
