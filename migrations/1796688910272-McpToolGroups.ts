import type { MigrationInterface, QueryRunner } from 'typeorm';

export class McpToolGroups1796688910272 implements MigrationInterface {
  name = 'McpToolGroups1796688910272';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "mcp_tool_groups" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(64) NOT NULL, "description" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_mcp_tool_groups" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_mcp_tool_groups_name" ON "mcp_tool_groups"  ("name") `);
    await queryRunner.query(
      `CREATE TABLE "mcp_tool_group_tools" ("group_id" uuid NOT NULL, "mcp_client_id" uuid NOT NULL, "tool_name" character varying(128) NOT NULL, CONSTRAINT "pk_mcp_tool_group_tools" PRIMARY KEY ("group_id", "mcp_client_id", "tool_name"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_mcp_tool_group_tools_mcp_client_id" ON "mcp_tool_group_tools"  ("mcp_client_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_tool_group_tools" ADD CONSTRAINT "fk_mcp_tool_group_tools_group_id" FOREIGN KEY ("group_id") REFERENCES "mcp_tool_groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_tool_group_tools" ADD CONSTRAINT "fk_mcp_tool_group_tools_mcp_client_id" FOREIGN KEY ("mcp_client_id") REFERENCES "mcp_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "mcp_tool_group_tools" DROP CONSTRAINT "fk_mcp_tool_group_tools_mcp_client_id"`,
    );
    await queryRunner.query(`ALTER TABLE "mcp_tool_group_tools" DROP CONSTRAINT "fk_mcp_tool_group_tools_group_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_mcp_tool_group_tools_mcp_client_id"`);
    await queryRunner.query(`DROP TABLE "mcp_tool_group_tools"`);
    await queryRunner.query(`DROP INDEX "public"."uq_mcp_tool_groups_name"`);
    await queryRunner.query(`DROP TABLE "mcp_tool_groups"`);
  }
}
