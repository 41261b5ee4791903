import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent history payloads become `json`: stored as written instead of converted to `jsonb`, a third cheaper to insert
 * (nothing queries inside them). The generated DROP/ADD would lose existing history; a type change keeps it.
 */
export class HistoryPayloadsAsJson1795436047581 implements MigrationInterface {
  name = 'HistoryPayloadsAsJson1795436047581';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "agent_operations" ALTER COLUMN "error" TYPE json USING "error"::json, ` +
        `ALTER COLUMN "request_payload" TYPE json USING "request_payload"::json, ` +
        `ALTER COLUMN "response_payload" TYPE json USING "response_payload"::json`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "agent_operations" ALTER COLUMN "error" TYPE jsonb USING "error"::jsonb, ` +
        `ALTER COLUMN "request_payload" TYPE jsonb USING "request_payload"::jsonb, ` +
        `ALTER COLUMN "response_payload" TYPE jsonb USING "response_payload"::jsonb`,
    );
  }
}
