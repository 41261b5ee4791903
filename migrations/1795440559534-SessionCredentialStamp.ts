import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SessionCredentialStamp1795440559534 implements MigrationInterface {
  name = 'SessionCredentialStamp1795440559534';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" ADD "credential_stamp" character varying(64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" DROP COLUMN "credential_stamp"`);
  }
}
