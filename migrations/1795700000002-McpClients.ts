import type { MigrationInterface, QueryRunner } from 'typeorm';

export class McpClients1795700000002 implements MigrationInterface {
  name = 'McpClients1795700000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "mcp_clients" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(64) NOT NULL, "connection_type" character varying(16) NOT NULL, "connection_string" text, "stdio_config" jsonb, "headers" jsonb NOT NULL DEFAULT '{}', "tools_to_execute" jsonb NOT NULL DEFAULT '["*"]', "tools_to_auto_execute" jsonb NOT NULL DEFAULT '[]', "tool_execution_timeout" integer NOT NULL DEFAULT '30', "tool_pricing" jsonb NOT NULL DEFAULT '{}', "allow_on_all_virtual_keys" boolean NOT NULL DEFAULT false, "disabled" boolean NOT NULL DEFAULT false, "vk_configs" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_mcp_clients" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_mcp_clients_name" ON "mcp_clients"  ("name") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_mcp_clients_name"`);
    await queryRunner.query(`DROP TABLE "mcp_clients"`);
  }
}
