import { readFile } from 'node:fs/promises';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { createPGlite } from '../../src/core/persistence/pglite-engine.js';
import { PGLITE_TEMPLATE_ENV } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/**
 * The embedded test apps of a worker share one migrated PGlite instance (test/helpers/pglite-lender.ts). What the
 * suites rely on: each app starts on exactly the migrated state, whatever the app before it wrote or changed.
 */
const SETUP = { headers: { 'X-Gateway-Setup-Token': 'setup-token-123456' } };
const CONFIG = { config: { setup_token: 'setup-token-123456' } };

function db(gw: TestApp): DataSource {
  return gw.app.get<DataSource>(getDataSourceToken());
}

/** Every table's rows (as sorted text) and every sequence's state: the whole data of the database, as one value. */
async function contents(query: (sql: string) => Promise<Array<Record<string, unknown>>>): Promise<string[]> {
  const tables = await query(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
      WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  const out: string[] = [];
  for (const { name } of tables) {
    const [row] = await query(
      `SELECT count(*)::int AS n, md5(string_agg(t::text, ',' ORDER BY t::text)) AS digest FROM ${String(name)} t`,
    );
    out.push(`${String(name)} ${JSON.stringify(row)}`);
  }
  const sequences = await query(
    `SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences ORDER BY 1`,
  );
  for (const { name } of sequences) {
    const [row] = await query(`SELECT last_value::text, is_called FROM ${String(name)}`);
    out.push(`${String(name)} ${JSON.stringify(row)}`);
  }
  return out;
}

/** When this database's server started: the same value for the same instance, a later one for a new instance. */
async function startedAt(gw: TestApp): Promise<string> {
  const [row] = await db(gw).query<Array<{ at: string }>>('SELECT pg_postmaster_start_time()::text AS at');
  return row!.at;
}

describe.skipIf(TEST_DATABASE_URL)('embedded test apps share one reset PGlite instance per worker', () => {
  it('the next app gets the same instance back with exactly the migrated data, sequences and session state', async () => {
    const first = await startTestApp(CONFIG);
    let instance: string;
    try {
      instance = await startedAt(first);
      // Rows through the API (a team, an audit row) and straight in SQL, a sequence moved, session state left over.
      const team = await first.http.post('/api/governance/teams', { name: 'reuse-team' }, SETUP);
      expect(team.status, team.text).toBe(201);
      await db(first).query(`DELETE FROM roles WHERE name = 'viewer'`);
      const [seq] = await db(first).query<Array<{ name: string }>>(
        `SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences LIMIT 1`,
      );
      if (seq) await db(first).query(`SELECT nextval('${seq.name}') FROM generate_series(1, 5)`);
      await db(first).query(`SET statement_timeout = 12345`);
      await db(first).query(`SELECT pg_advisory_lock(4242)`);
    } finally {
      await first.close();
    }

    const second = await startTestApp(CONFIG);
    try {
      expect(await startedAt(second)).toBe(instance);
      // A fresh copy of the run's migrated dump is the reference.
      const fresh = await createPGlite({ loadDataDir: new Blob([await readFile(process.env[PGLITE_TEMPLATE_ENV]!)]) });
      try {
        const expected = await contents(async (sql) => (await fresh.query<Record<string, unknown>>(sql)).rows);
        expect(await contents((sql) => db(second).query(sql))).toEqual(expected);
      } finally {
        await fresh.close();
      }
      const [setting] = await db(second).query<Array<{ value: string }>>(
        `SELECT current_setting('statement_timeout') AS value`,
      );
      expect(setting!.value).toBe('0');
      const [lock] = await db(second).query<Array<{ ok: boolean }>>(`SELECT pg_try_advisory_lock(4242) AS ok`);
      expect(lock!.ok).toBe(true);
      await db(second).query(`SELECT pg_advisory_unlock(4242)`);
      const teams = await second.http.get('/api/governance/teams', SETUP);
      expect(teams.status).toBe(200);
      expect(JSON.stringify(teams.body)).not.toContain('reuse-team');
    } finally {
      await second.close();
    }
  });

  it('an app that changed the schema leaves its instance behind: the next app gets a new one without the change', async () => {
    const first = await startTestApp(CONFIG);
    let instance: string;
    try {
      instance = await startedAt(first);
      await db(first).query('CREATE TABLE reuse_probe (id int PRIMARY KEY)');
    } finally {
      await first.close();
    }
    const second = await startTestApp(CONFIG);
    try {
      expect(await startedAt(second)).not.toBe(instance);
      const [probe] = await db(second).query<Array<{ t: string | null }>>(
        `SELECT to_regclass('reuse_probe')::text AS t`,
      );
      expect(probe!.t).toBeNull();
    } finally {
      await second.close();
    }
  });

  it('two apps at once: the second opens its own database, and each sees only its own rows', async () => {
    const [a, b] = [await startTestApp(CONFIG), await startTestApp(CONFIG)];
    try {
      expect(await startedAt(a)).not.toBe(await startedAt(b));
      expect((await a.http.post('/api/governance/teams', { name: 'only-in-a' }, SETUP)).status).toBe(201);
      const inB = await b.http.get('/api/governance/teams', SETUP);
      expect(inB.status).toBe(200);
      expect(JSON.stringify(inB.body)).not.toContain('only-in-a');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
