import type { PGlite } from '@electric-sql/pglite';
import { createPGlite, type PGliteEngine } from '../../src/core/persistence/pglite-engine.js';

/**
 * One migrated in-memory PGlite per test worker, lent to one embedded test app at a time and reset to the migrated
 * state before the next, so an app start skips opening the template dump (about 0.7 s of CPU each). The app is the real
 * app: it gets the instance through the same pool and TypeORM driver as one it opened itself, runs its migrations
 * check on it, and its close hands the instance back.
 *
 * The reset is exact or not done: every table is emptied and the migrations' own rows (built-in roles, TypeORM's
 * metadata, the migrations table) are written back, every sequence gets its migrated value back, and the session's
 * state (an open transaction, settings, advisory locks, temporary tables, prepared statements) is discarded. A suite
 * that changed the schema (its own tables, triggers or functions) leaves a catalog that no longer matches the
 * migrated one: that instance is closed and the next app gets a new one. An app started while the instance is lent
 * (two apps of one suite at once) opens its own from the dump, as before.
 *
 * `GW_TEST_PGLITE_REUSE=0` turns reuse off (every app opens its own, for side-by-side measurements).
 */

interface Baseline {
  /** Rows each table held once migrated (as JSON), for the tables that were not empty. */
  seeds: Array<{ table: string; columns: string; rows: string }>;
  /** Every user table, quoted, for one TRUNCATE. */
  tables: string;
  /** `setval` calls putting every sequence back to its migrated value. */
  sequences: string;
  fingerprint: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The catalogs that DDL writes to besides pg_class, each with the column naming what a row belongs to. */
const CATALOGS: Array<[catalog: string, owner: string]> = [
  ['pg_attribute', 'attrelid'],
  ['pg_attrdef', 'oid'],
  ['pg_constraint', 'oid'],
  ['pg_index', 'indexrelid'],
  ['pg_trigger', 'oid'],
  ['pg_proc', 'oid'],
  ['pg_type', 'oid'],
  ['pg_enum', 'oid'],
  ['pg_namespace', 'oid'],
  ['pg_extension', 'oid'],
  ['pg_rewrite', 'oid'],
  ['pg_policy', 'oid'],
  ['pg_authid', 'oid'],
  ['pg_db_role_setting', 'setdatabase'],
];

/**
 * A digest of the schema. A catalog row that DDL adds or changes gets the changing transaction's id as its xmin and a
 * dropped one is gone, so the count and newest xmin of the rows of objects created after initdb (oid >= 16384) move
 * on any DDL; TRUNCATE and writes to tables leave them as they were. pg_class rows are compared by their defining
 * columns instead: TRUNCATE gives a table a new file (relfilenode), which rewrites its row. Temporary objects are
 * left out (DISCARD ALL drops them before the check). About 40 ms of CPU, against 100 ms for every row's text.
 */
const FINGERPRINT_SQL = `SELECT concat_ws('|',
  (SELECT md5(string_agg(concat_ws(',', c.oid, c.relname, c.relnamespace, c.relkind, c.relacl::text,
     c.reloptions::text, c.relrowsecurity, c.relforcerowsecurity, c.relreplident), ';' ORDER BY c.oid))
     FROM pg_class c WHERE c.oid >= 16384 AND c.relpersistence <> 't'),
  ${CATALOGS.map(([c, owner]) => `(SELECT count(*) || ':' || max(xmin::text::bigint) FROM ${c} WHERE ${owner} >= 16384)`).join(',\n  ')}
) AS fingerprint`;

async function fingerprintOf(db: PGlite): Promise<string> {
  const { rows } = await db.query<{ fingerprint: string }>(FINGERPRINT_SQL);
  return rows[0]!.fingerprint;
}

async function baselineOf(db: PGlite): Promise<Baseline> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
      WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  const seeds: Baseline['seeds'] = [];
  for (const { name } of tables) {
    const { rows } = await db.query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${name} t`);
    const json = rows[0]?.rows;
    if (!json) continue;
    // Generated columns are computed again on insert; the others are written as they were.
    const { rows: columns } = await db.query<{ name: string }>(
      `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
         AND attgenerated = '' ORDER BY attnum`,
      [name],
    );
    seeds.push({ table: name, columns: columns.map((c) => quote(c.name)).join(', '), rows: json });
  }
  const { rows: sequences } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences ORDER BY 1`,
  );
  const setvals: string[] = [];
  for (const { name } of sequences) {
    const { rows } = await db.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text, is_called FROM ${name}`,
    );
    const row = rows[0]!;
    setvals.push(`SELECT setval('${name.replace(/'/g, "''")}', ${row.last_value}, ${row.is_called});`);
  }
  return {
    seeds,
    tables: tables.map((t) => t.name).join(', '),
    sequences: setvals.join('\n'),
    fingerprint: await fingerprintOf(db),
  };
}

class Lender {
  private db: Promise<{ db: PGlite; baseline: Baseline }> | undefined;
  private lent = false;
  private dirty = false;

  constructor(private readonly template: Blob) {}

  /** The instance, reset to the migrated state, or undefined while it is lent (the caller opens its own). */
  async borrow(): Promise<PGliteEngine | undefined> {
    if (this.lent) return undefined;
    this.lent = true;
    try {
      const { db } = await this.ready();
      return this.lend(db);
    } catch (err) {
      this.lent = false;
      throw err;
    }
  }

  private async ready(): Promise<{ db: PGlite; baseline: Baseline }> {
    if (this.db && this.dirty) {
      const { db, baseline } = await this.db;
      this.dirty = false;
      if (!(await this.reset(db, baseline))) {
        this.db = undefined;
        await db.close();
      }
    }
    this.db ??= createPGlite({ loadDataDir: this.template }).then(async (db) => ({
      db,
      baseline: await baselineOf(db),
    }));
    return this.db.catch((err: unknown) => {
      this.db = undefined;
      throw err;
    });
  }

  /** Back to the migrated state; false when the schema differs from it (the instance is then thrown away). */
  private async reset(db: PGlite, baseline: Baseline): Promise<boolean> {
    try {
      // An app closed mid-transaction leaves it open; DISCARD ALL cannot run inside one (each is its own statement).
      await db.exec('ROLLBACK');
      await db.exec('DISCARD ALL');
      if ((await fingerprintOf(db)) !== baseline.fingerprint) return false;
      await db.exec(`TRUNCATE ${baseline.tables};\n${baseline.sequences}`);
      for (const seed of baseline.seeds) {
        await db.query(
          `INSERT INTO ${seed.table} (${seed.columns}) SELECT ${seed.columns} FROM json_populate_recordset(null::${seed.table}, $1)`,
          [seed.rows],
        );
      }
      return true;
    } catch {
      return false;
    }
  }

  /** A handle that works until the app closes it: then later calls fail, as on a closed database, and it comes back. */
  private lend(db: PGlite): PGliteEngine {
    let open = true;
    const closed = () => Promise.reject(new Error('the embedded database was closed'));
    return {
      query: (sql, params) => (open ? db.query(sql, params) : closed()),
      exec: (sql) => (open ? db.exec(sql) : closed()),
      close: () => {
        if (open) {
          open = false;
          this.dirty = true;
          this.lent = false;
        }
        return Promise.resolve();
      },
    };
  }
}

let lender: Lender | undefined;

/** This worker's shared instance for one app, or undefined when reuse is off or the instance is lent already. */
export function borrowPGlite(template: Blob): Promise<PGliteEngine | undefined> {
  if (process.env.GW_TEST_PGLITE_REUSE === '0') return Promise.resolve(undefined);
  lender ??= new Lender(template);
  return lender.borrow();
}
