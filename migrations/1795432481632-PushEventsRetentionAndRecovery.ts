import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PushEventsRetentionAndRecovery1795432481632 implements MigrationInterface {
  name = 'PushEventsRetentionAndRecovery1795432481632';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "idx_agent_push_events_pending" ON "agent_push_events"  ("created_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(`CREATE INDEX "idx_agent_push_events_created_at" ON "agent_push_events"  ("created_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_agent_push_events_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."idx_agent_push_events_pending"`);
  }
}
