import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import {
  createPGlite,
  EMBEDDED_POSTGRESQL_CONF,
  INITDB_TEMPLATE,
  type EngineOptions,
  type PGliteEngine,
} from './pglite-engine.js';
import { PGliteThread } from './pglite-thread.js';

type Callback<T> = (err: Error | null, value?: T) => void;
interface PgLikeResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: Results['fields'];
}

function commandOf(sql: string): string {
  return /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
}

/**
 * Opens the embedded database. A fresh data dir is unpacked from the build's template (INITDB_TEMPLATE) by the
 * instance that then serves it: initdb would grow PGlite's WASM memory to ~600 MB, which WebAssembly never gives back
 * (docs/decisions.md, "The embedded database's first start"). Without a template (the TypeScript sources) initdb runs
 * in a short-lived worker, whose memory goes with it. PGlite runs in a worker thread of its own (pglite-thread), so
 * database work never holds the event loop that serves requests; from the sources there is no compiled worker, and it
 * runs in this thread.
 */
async function openEngine(options: EngineOptions): Promise<PGliteEngine> {
  const { dataDir } = options;
  if (dataDir !== undefined && !options.loadDataDir && !existsSync(join(dataDir, 'PG_VERSION'))) {
    const worker = new URL('./pglite-initdb.worker.js', import.meta.url);
    if (existsSync(INITDB_TEMPLATE)) {
      options = { ...options, loadDataDir: new Blob([readFileSync(INITDB_TEMPLATE)]) };
    } else if (existsSync(fileURLToPath(worker))) {
      await runWorker(worker, { dataDir, postgresqlconf: EMBEDDED_POSTGRESQL_CONF });
    } else {
      await (await createPGlite({ dataDir })).close();
    }
  }
  const thread = new URL('./pglite-thread.worker.js', import.meta.url);
  if (existsSync(fileURLToPath(thread))) return PGliteThread.start(thread, options);
  return createPGlite(options);
}

function runWorker(file: URL, data: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: data });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`initdb worker exited with ${code}`))));
  });
}

/**
 * A node-postgres-shaped pool over one PGlite instance, handed to TypeORM as its `pg` driver.
 *
 * PGlite is a single connection, so the pool lends its one client to one query runner at a time and queues the rest:
 * a transaction on one runner can never interleave with statements from another. Code must not hold a runner while
 * waiting on a second one (that would wait forever here, as it would on a pool of size one).
 */
export class PGlitePool extends EventEmitter {
  private readonly ready: Promise<PGliteEngine>;
  private busy = false;
  private readonly waiting: Array<() => void> = [];
  private closed = false;

  /**
   * Over the embedded database in `dataDir` (in memory when undefined), or over `lent`, an open instance the caller
   * owns (tests reuse one between apps): the pool closes it through its `close()`, which hands it back.
   */
  constructor(dataDir: string | undefined, options: Omit<EngineOptions, 'dataDir'> = {}, lent?: PGliteEngine) {
    super();
    this.ready = lent ? Promise.resolve(lent) : openEngine({ dataDir, ...options });
  }

  connect(callback: (err: Error | null, client?: PGliteClient, release?: () => void) => void): void {
    const lend = () => {
      this.busy = true;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const next = this.waiting.shift();
        if (next) next();
        else this.busy = false;
      };
      this.ready.then(
        (db) => callback(null, new PGliteClient(db), release),
        (err: Error) => {
          release();
          callback(err);
        },
      );
    };
    if (this.closed) return callback(new Error('PGlite pool is closed'));
    if (this.busy) this.waiting.push(lend);
    else lend();
  }

  /** Pool-level query (used by TypeORM only for one-off statements); waits its turn like any client. */
  query(
    sql: string,
    params?: unknown[] | Callback<PgLikeResult>,
    callback?: Callback<PgLikeResult>,
  ): Promise<PgLikeResult> {
    const cb = typeof params === 'function' ? params : callback;
    const values = typeof params === 'function' ? undefined : params;
    return new Promise<PgLikeResult>((resolve, reject) => {
      this.connect((err, client, release) => {
        if (err || !client || !release) {
          cb?.(err ?? new Error('no client'));
          return reject(err ?? new Error('no client'));
        }
        client.query(sql, values).then(
          (result) => {
            release();
            cb?.(null, result);
            resolve(result);
          },
          (error: Error) => {
            release();
            cb?.(error);
            reject(error);
          },
        );
      });
    });
  }

  /** The database's data dir as a tarball, when PGlite runs in this thread (from TypeScript sources: the tests). */
  async dumpDataDir(): Promise<Blob> {
    const db = await this.ready;
    if (!db.dumpDataDir) throw new Error('the embedded database runs in a worker thread: no dump from here');
    return db.dumpDataDir('none');
  }

  end(callback?: (err?: Error) => void): Promise<void> {
    this.closed = true;
    const done = this.ready.then((db) => db.close());
    done.then(
      () => callback?.(),
      (err: Error) => callback?.(err),
    );
    return done;
  }
}

export class PGliteClient extends EventEmitter {
  constructor(private readonly db: PGliteEngine) {
    super();
  }

  async query(sql: string, params?: unknown[]): Promise<PgLikeResult> {
    if (params && params.length > 0) {
      const r = await this.db.query(sql, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length, command: commandOf(sql), fields: r.fields };
    }
    // Without parameters a string may hold several statements (migrations); TypeORM expects the last result.
    const results = await this.db.exec(sql);
    const last = results[results.length - 1];
    return {
      rows: last?.rows ?? [],
      rowCount: last?.affectedRows ?? last?.rows.length ?? 0,
      command: commandOf(sql),
      fields: last?.fields ?? [],
    };
  }
}

/** The object TypeORM's postgres driver loads in place of `pg`. */
export function pgliteDriver(pool: PGlitePool): { Pool: new () => PGlitePool } {
  return {
    Pool: class {
      constructor() {
        return pool;
      }
    } as unknown as new () => PGlitePool,
  };
}
