import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The semantic cache's vectors (docs/cache.md), in a table only where pgvector can be created: PGlite ships it (the
 * gateway loads it with the embedded database); a Postgres server needs the extension installed first. Without it
 * the table is not created, the semantic cache cannot be turned on (400 naming `config.semantic`) and everything else
 * works. The table has no TypeORM entity: the cache reaches it with plain SQL (vectors are not a TypeORM type).
 */
export class SemanticCache1795700000013 implements MigrationInterface {
  name = 'SemanticCache1795700000013';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS vector; ` +
        `EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pgvector is not available: the semantic cache is off'; END $$`,
    );
    await queryRunner.query(
      `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN ` +
        `CREATE TABLE "semantic_cache_entries" ("cache_key" character varying(64) NOT NULL, "scope" character varying(300) NOT NULL, "kind" character varying(32) NOT NULL, "model" character varying(512) NOT NULL, "stream" boolean NOT NULL, "dims" integer NOT NULL, "embedding" vector NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_semantic_cache_entries" PRIMARY KEY ("cache_key")); ` +
        `CREATE INDEX "idx_semantic_cache_entries_lookup" ON "semantic_cache_entries" ("scope", "model", "kind", "stream", "dims"); ` +
        `CREATE INDEX "idx_semantic_cache_entries_expires" ON "semantic_cache_entries" ("expires_at"); ` +
        `END IF; END $$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The extension stays: other tables of the database may use it.
    await queryRunner.query(`DROP TABLE IF EXISTS "semantic_cache_entries"`);
  }
}
