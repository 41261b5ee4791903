import { fileURLToPath } from 'node:url';
import { PGlite, types, type Results } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';

/** What the pool needs of a PGlite instance, wherever it runs (this thread or a worker). */
export interface PGliteEngine {
  query(sql: string, params: unknown[]): Promise<Results>;
  exec(sql: string): Promise<Results[]>;
  close(): Promise<void>;
  /** The data dir as a tarball (PGlite in this thread only): the tests' migrated template. */
  dumpDataDir?(compression: 'none'): Promise<Blob>;
}

/** The options of the embedded database that can cross to a worker (no functions: those are set where it runs). */
export interface EngineOptions {
  dataDir?: string;
  loadDataDir?: Blob;
}

/**
 * A fresh data dir as a tarball, written by `npm run build` (src/cli/initdb-template.ts) beside the compiled
 * persistence code: a first start unpacks it instead of running initdb (docs/decisions.md, "The embedded database's
 * first start"). Absent when the code runs from its TypeScript sources.
 */
export const INITDB_TEMPLATE = fileURLToPath(new URL('./initdb-template.tar.gz', import.meta.url));

/** Parses values the way node-postgres does, so entities read the same types on both databases. */
const PG_COMPATIBLE_PARSERS = {
  [types.INT8]: (v: string) => v,
  [types.NUMERIC]: (v: string) => v,
};

/**
 * Postgres settings of the embedded database. Postgres' defaults size shared buffers for a server of its own (128 MB);
 * inside the gateway's process a small working set fits in 16 MB, which saves about 60 MB of the WASM heap (measured
 * with `bench/rss.mjs`; the WASM memory cannot start below 128 MB, PGlite's floor).
 */
export const EMBEDDED_POSTGRESQL_CONF = ['shared_buffers = 16MB', 'wal_buffers = 1MB', 'temp_buffers = 1MB'];

/** Opens PGlite on an existing (or in-memory) data dir, with the gateway's settings, parsers and extensions. */
export function createPGlite(options: EngineOptions): Promise<PGlite> {
  return PGlite.create({
    ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    postgresqlconf: EMBEDDED_POSTGRESQL_CONF,
    // Trigram indexes serve the request logs' content search, as on a server where the migration creates pg_trgm;
    // pgvector stores the semantic cache's embeddings (docs/cache.md).
    extensions: { pg_trgm, vector },
    parsers: PG_COMPATIBLE_PARSERS,
  });
}
