import type { MigrationInterface, QueryRunner } from 'typeorm';

export class McpClientStatus1795700000010 implements MigrationInterface {
  name = 'McpClientStatus1795700000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "mcp_client_status" ("client_id" uuid NOT NULL, "state" character varying(16) NOT NULL, "tools" jsonb NOT NULL DEFAULT '[]', "last_error" text, "reported_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_mcp_client_status" PRIMARY KEY ("client_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_client_status" ADD CONSTRAINT "fk_mcp_client_status_client" FOREIGN KEY ("client_id") REFERENCES "mcp_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mcp_client_status" DROP CONSTRAINT "fk_mcp_client_status_client"`);
    await queryRunner.query(`DROP TABLE "mcp_client_status"`);
  }
}
