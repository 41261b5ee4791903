import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentsGateway1795305956112 implements MigrationInterface {
  name = 'AgentsGateway1795305956112';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agent_operations" ("id" uuid NOT NULL, "agent_name" character varying(255) NOT NULL, "operation" character varying(64) NOT NULL, "protocol_binding" character varying(16), "virtual_key_id" character varying(255), "task_id" text, "context_id" text, "task_state" character varying(64), "status" character varying(16) NOT NULL, "status_code" integer NOT NULL, "latency_ms" integer NOT NULL, "error" jsonb, "request_payload" jsonb, "response_payload" jsonb, "parent_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_agent_operations" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_agent_operations_parent_id" ON "agent_operations"  ("parent_id") `);
    await queryRunner.query(`CREATE INDEX "idx_agent_operations_task_id" ON "agent_operations"  ("task_id") `);
    await queryRunner.query(
      `CREATE INDEX "idx_agent_operations_agent_created" ON "agent_operations"  ("agent_name", "created_at") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_agent_operations_created_at" ON "agent_operations"  ("created_at") `);
    await queryRunner.query(
      `CREATE TABLE "agent_push_configs" ("id" uuid NOT NULL, "agent_name" character varying(255) NOT NULL, "task_id" text, "config_id" character varying(255) NOT NULL, "client_url" text NOT NULL, "client_token" text, "client_authentication" text, "virtual_key_id" character varying(255), "gateway_token_hash" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_agent_push_configs" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_agent_push_configs_created_at" ON "agent_push_configs"  ("created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_agent_push_configs_agent_task_config" ON "agent_push_configs"  ("agent_name", "task_id", "config_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "agent_push_events" ("id" uuid NOT NULL, "push_config_id" uuid NOT NULL, "body_hash" character varying(64) NOT NULL, "body" text NOT NULL, "task_id" text, "operation_id" uuid, "status" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "pk_agent_push_events" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_agent_push_events_config_hash" ON "agent_push_events"  ("push_config_id", "body_hash", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_push_events" ADD CONSTRAINT "fk_agent_push_events_config" FOREIGN KEY ("push_config_id") REFERENCES "agent_push_configs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_push_events" DROP CONSTRAINT "fk_agent_push_events_config"`);
    await queryRunner.query(`DROP INDEX "public"."idx_agent_push_events_config_hash"`);
    await queryRunner.query(`DROP TABLE "agent_push_events"`);
    await queryRunner.query(`DROP INDEX "public"."uq_agent_push_configs_agent_task_config"`);
    await queryRunner.query(`DROP INDEX "public"."idx_agent_push_configs_created_at"`);
    await queryRunner.query(`DROP TABLE "agent_push_configs"`);
    await queryRunner.query(`DROP INDEX "public"."idx_agent_operations_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."idx_agent_operations_agent_created"`);
    await queryRunner.query(`DROP INDEX "public"."idx_agent_operations_task_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_agent_operations_parent_id"`);
    await queryRunner.query(`DROP TABLE "agent_operations"`);
  }
}
