import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Plugin settings set through /api/plugins, and the request-log columns plugins fill (cache hits, plugin_logs). */
export class PluginLogs1795700000012 implements MigrationInterface {
  name = 'PluginLogs1795700000012';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "plugins" ("name" character varying(64) NOT NULL, "enabled" boolean NOT NULL, "order" integer NOT NULL, "config" jsonb NOT NULL DEFAULT '{}', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_plugins" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(`ALTER TABLE "request_logs" ADD "cache_hit" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "request_logs" ADD "cache_type" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "request_logs" ADD "plugin_logs" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "request_logs" DROP COLUMN "plugin_logs"`);
    await queryRunner.query(`ALTER TABLE "request_logs" DROP COLUMN "cache_type"`);
    await queryRunner.query(`ALTER TABLE "request_logs" DROP COLUMN "cache_hit"`);
    await queryRunner.query(`DROP TABLE "plugins"`);
  }
}
