import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ExpiredRowsRegistry } from '../../../core/maintenance/expired-rows.service.js';

export const SEMANTIC_TABLE = 'semantic_cache_entries';

/** What a semantic entry is compared on besides its vector: only the same scope, kind, model and stream flag match. */
export interface SemanticScope {
  scope: string;
  kind: string;
  model: string;
  stream: boolean;
}

/**
 * The semantic cache's vectors in pgvector (`semantic_cache_entries`, created by migration 1795700000013 where the
 * extension exists). Each row points at an exact-match entry by its key; the answer itself stays in the response
 * cache store. The lookup is the one database read on the request path, by nature (a nearest-neighbour query); it
 * runs only when the semantic cache is on and the exact match missed. Rows are written after the answer was sent.
 */
@Injectable()
export class SemanticIndex implements OnModuleInit {
  /** Whether the table exists (pgvector was available when migrations ran). */
  available = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly expiredRows: ExpiredRowsRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    const rows: Array<{ present: boolean }> = await this.dataSource.query(
      `SELECT to_regclass('${SEMANTIC_TABLE}') IS NOT NULL AS present`,
    );
    this.available = rows[0]?.present === true;
    if (this.available)
      this.expiredRows.register({ name: 'semantic_cache', table: SEMANTIC_TABLE, column: 'expires_at' });
  }

  /** The live entry nearest to `vector` (cosine similarity, 1 = same direction) of the same scope, or undefined. */
  async nearest(where: SemanticScope, vector: number[]): Promise<{ key: string; similarity: number } | undefined> {
    const rows: Array<{ cache_key: string; similarity: number | string }> = await this.dataSource.query(
      `SELECT "cache_key", 1 - ("embedding" <=> $1::vector) AS "similarity" FROM "${SEMANTIC_TABLE}" ` +
        `WHERE "scope" = $2 AND "model" = $3 AND "kind" = $4 AND "stream" = $5 AND "dims" = $6 AND "expires_at" > now() ` +
        `ORDER BY "embedding" <=> $1::vector LIMIT 1`,
      [vectorLiteral(vector), where.scope, where.model, where.kind, where.stream, vector.length],
    );
    const row = rows[0];
    return row ? { key: row.cache_key, similarity: Number(row.similarity) } : undefined;
  }

  async put(key: string, where: SemanticScope, vector: number[], ttlMs: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "${SEMANTIC_TABLE}" ("cache_key", "scope", "kind", "model", "stream", "dims", "embedding", "expires_at") ` +
        `VALUES ($1, $2, $3, $4, $5, $6, $7::vector, $8) ON CONFLICT ("cache_key") DO UPDATE SET ` +
        `"embedding" = EXCLUDED."embedding", "dims" = EXCLUDED."dims", "expires_at" = EXCLUDED."expires_at", "created_at" = now()`,
      [
        key,
        where.scope,
        where.kind,
        where.model,
        where.stream,
        vector.length,
        vectorLiteral(vector),
        new Date(Date.now() + ttlMs),
      ],
    );
  }

  /** Live vectors (0 where the table does not exist). */
  async count(): Promise<number> {
    if (!this.available) return 0;
    const rows: Array<{ n: string | number }> = await this.dataSource.query(
      `SELECT count(*) AS "n" FROM "${SEMANTIC_TABLE}" WHERE "expires_at" > now()`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async delete(key: string): Promise<void> {
    if (!this.available) return;
    await this.dataSource.query(`DELETE FROM "${SEMANTIC_TABLE}" WHERE "cache_key" = $1`, [key]);
  }
}

function vectorLiteral(vector: number[]): string {
  return `[${vector.join(',')}]`;
}
