import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Agents1795305750739 implements MigrationInterface {
  name = 'Agents1795305750739';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agents" ("name" character varying(255) NOT NULL, "agent_card_url" text NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "allow_by_default" boolean NOT NULL DEFAULT false, "forward_accepted_credential" boolean NOT NULL DEFAULT false, "forward_accepted_credential_overrides_auth" boolean NOT NULL DEFAULT false, "discovery_auth" jsonb, "runtime_auth" jsonb, "extension_uris" jsonb NOT NULL DEFAULT '[]', "virtual_key_ids" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_agents" PRIMARY KEY ("name"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "agents"`);
  }
}
