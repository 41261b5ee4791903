import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tool log rows record what the gateway relayed (`mcp_request_type`: `tool`, `resource`, `prompt` or `completion`),
 * now that `/mcp` relays resources, prompts and completions besides tool calls. Existing rows are tool calls: the
 * column's constant default makes the ADD instant; the CHECK reads the table once (seconds per million rows).
 */
export class McpToolLogRequestType1796591424138 implements MigrationInterface {
  name = 'McpToolLogRequestType1796591424138';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "mcp_tool_logs" ADD "mcp_request_type" character varying(16) NOT NULL DEFAULT 'tool'`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_tool_logs" ADD CONSTRAINT "chk_mcp_tool_logs_mcp_request_type" CHECK ("mcp_request_type" IN ('tool', 'resource', 'prompt', 'completion'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mcp_tool_logs" DROP CONSTRAINT "chk_mcp_tool_logs_mcp_request_type"`);
    await queryRunner.query(`ALTER TABLE "mcp_tool_logs" DROP COLUMN "mcp_request_type"`);
  }
}
