import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryWhere, SqlWhere } from '../../src/core/persistence/log-sql.js';
import { SETUP_HEADER, SETUP_TOKEN } from '../auth/auth-helpers.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/** The server's own value of a setting, from a session that is not the gateway's. */
async function serverSetting(name: string): Promise<string> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(`SHOW ${name}`);
    return rows[0]![name]!;
  } finally {
    await client.end();
  }
}

let gw: TestApp | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

/**
 * The gateway's Postgres sessions run without parallel workers unless `database_parallel_query` is set: a worker is a
 * process started per query, tens of ms on a small host for queries of a few ms (docs/logs.md, "Performance").
 * PGlite is one process: nothing to set there.
 */
describe.skipIf(!TEST_DATABASE_URL)('Postgres sessions', () => {
  it('have no parallel workers by default, and /api/config says so', async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    const [row] = await gw.app
      .get(DataSource)
      .query<Array<Record<string, string>>>('SHOW max_parallel_workers_per_gather');
    expect(row).toEqual({ max_parallel_workers_per_gather: '0' });
    const config = await gw.http.withHeaders(SETUP_HEADER).get('/api/config');
    expect(config.status, config.text).toBe(200);
    expect(config.body.process.database_parallel_query).toBe(false);
  });

  it("keep the server's setting with database_parallel_query", async () => {
    const server = await serverSetting('max_parallel_workers_per_gather');
    expect(server).not.toBe('0');
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN, database_parallel_query: true } });
    const [row] = await gw.app
      .get(DataSource)
      .query<Array<Record<string, string>>>('SHOW max_parallel_workers_per_gather');
    expect(row).toEqual({ max_parallel_workers_per_gather: server });
    const config = await gw.http.withHeaders(SETUP_HEADER).get('/api/config');
    expect(config.body.process.database_parallel_query).toBe(true);
  });
});

/**
 * A statement over every match of a content search (stats, histograms) gets enough `work_mem` for an exact bitmap of
 * a common term's pages (log-sql.ts, SEARCH_WORK_MEM), for its own transaction only: the session keeps the server's.
 */
describe(`search reads' work_mem (${TEST_DATABASE_URL ? 'postgres' : 'embedded'})`, () => {
  it('is 32 MB for a statement whose WHERE holds a search, and the default for any other', async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    const db = gw.app.get(DataSource);
    const [before] = await db.query<Array<{ work_mem: string }>>('SHOW work_mem');
    expect(before!.work_mem).not.toBe('32MB');
    const setting = "SELECT current_setting('work_mem') AS work_mem";
    const search = new SqlWhere();
    search.addSearch((p) => `${p}::text IS NOT NULL`, 'term');
    expect(await queryWhere(db, `${setting} ${search.sql}`, search)).toEqual([{ work_mem: '32MB' }]);
    const plain = new SqlWhere();
    plain.add((p) => `${p}::text IS NOT NULL`, 'term');
    expect(await queryWhere(db, `${setting} ${plain.sql}`, plain)).toEqual([{ work_mem: before!.work_mem }]);
    // SET LOCAL ended with its transaction: every pooled session still has the server's value.
    const after = await Promise.all([1, 2, 3].map(() => db.query<Array<{ work_mem: string }>>('SHOW work_mem')));
    for (const [row] of after) expect(row!.work_mem).toBe(before!.work_mem);
  });
});
