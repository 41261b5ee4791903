import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Governance1795305672675 implements MigrationInterface {
  name = 'Governance1795305672675';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "management_keys" ("id" uuid NOT NULL, "name" character varying(255) NOT NULL, "key_hash" character(64) NOT NULL, "scopes" jsonb NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_by" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_management_keys" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_management_keys_key_hash" ON "management_keys"  ("key_hash") `);
    await queryRunner.query(
      `CREATE TABLE "roles" ("id" uuid NOT NULL, "name" character varying(255) NOT NULL, "description" text NOT NULL DEFAULT '', "permissions" jsonb NOT NULL, "is_builtin" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_roles" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_roles_name" ON "roles"  ("name") `);
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL, "name" character varying(255) NOT NULL, "email" character varying(320) NOT NULL, "role_id" uuid NOT NULL, "team_id" uuid, "password_hash" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_users" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_users_role_id" ON "users"  ("role_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_email" ON "users"  ("email") `);
    await queryRunner.query(
      `CREATE TABLE "virtual_keys" ("id" uuid NOT NULL, "name" character varying(255) NOT NULL, "description" text NOT NULL DEFAULT '', "is_active" boolean NOT NULL DEFAULT true, "expires_at" TIMESTAMP WITH TIME ZONE, "team_id" uuid, "customer_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_virtual_keys" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_virtual_keys_name" ON "virtual_keys"  ("name") `);
    await queryRunner.query(
      `CREATE TABLE "virtual_key_credentials" ("id" uuid NOT NULL, "virtual_key_id" uuid NOT NULL, "value_hash" character(64) NOT NULL, "retires_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_virtual_key_credentials" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_virtual_key_credentials_virtual_key_id" ON "virtual_key_credentials"  ("virtual_key_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_virtual_key_credentials_value_hash" ON "virtual_key_credentials"  ("value_hash") `,
    );
    // Built-in roles (fixed ids, see src/modules/governance/rbac/builtin-roles.ts). Their permissions are computed in
    // code from the resource list, so the rows carry none.
    await queryRunner.query(
      `INSERT INTO "roles" ("id", "name", "description", "permissions", "is_builtin") VALUES ` +
        `('00000000-0000-4000-8000-000000000001', 'admin', 'Every permission', '[]', true), ` +
        `('00000000-0000-4000-8000-000000000002', 'developer', 'Everything except RBAC, users, management API keys, audit logs and changing settings', '[]', true), ` +
        `('00000000-0000-4000-8000-000000000003', 'viewer', 'Read-only access to everything', '[]', true)`,
    );
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "fk_users_role_id" FOREIGN KEY ("role_id") REFERENCES "roles"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "virtual_key_credentials" ADD CONSTRAINT "fk_virtual_key_credentials_virtual_key_id" FOREIGN KEY ("virtual_key_id") REFERENCES "virtual_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "virtual_key_credentials" DROP CONSTRAINT "fk_virtual_key_credentials_virtual_key_id"`,
    );
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "fk_users_role_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_virtual_key_credentials_value_hash"`);
    await queryRunner.query(`DROP INDEX "public"."ix_virtual_key_credentials_virtual_key_id"`);
    await queryRunner.query(`DROP TABLE "virtual_key_credentials"`);
    await queryRunner.query(`DROP INDEX "public"."uq_virtual_keys_name"`);
    await queryRunner.query(`DROP TABLE "virtual_keys"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_email"`);
    await queryRunner.query(`DROP INDEX "public"."ix_users_role_id"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."uq_roles_name"`);
    await queryRunner.query(`DROP TABLE "roles"`);
    await queryRunner.query(`DROP INDEX "public"."uq_management_keys_key_hash"`);
    await queryRunner.query(`DROP TABLE "management_keys"`);
  }
}
