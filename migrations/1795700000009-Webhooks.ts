import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795700000009 implements MigrationInterface {
  name = 'Webhooks1795700000009';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(255) NOT NULL, "url" text NOT NULL, "description" text, "enabled" boolean NOT NULL DEFAULT true, "headers" jsonb NOT NULL DEFAULT '{}', "secret_ciphertext" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_webhooks" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_webhooks_name" ON "webhooks"  ("name") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL, "webhook_id" uuid NOT NULL, "event" character varying(128) NOT NULL, "payload" jsonb NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "attempts" jsonb NOT NULL DEFAULT '[]', "attempt_count" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "delivered_at" TIMESTAMP WITH TIME ZONE, "redelivery_of" uuid, CONSTRAINT "pk_webhook_deliveries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_webhook_deliveries_pending" ON "webhook_deliveries"  ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_webhook_deliveries_webhook_created" ON "webhook_deliveries"  ("webhook_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "fk_webhook_deliveries_webhook" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "fk_webhook_deliveries_webhook"`);
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_deliveries_webhook_created"`);
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_deliveries_pending"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."uq_webhooks_name"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
  }
}
