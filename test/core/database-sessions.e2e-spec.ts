import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
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

/**
 * The gateway's Postgres sessions run without parallel workers unless `database_parallel_query` is set: a worker is a
 * process started per query, tens of ms on a small host for queries of a few ms (docs/logs.md, "Performance").
 * PGlite is one process: nothing to set there.
 */
describe.skipIf(!TEST_DATABASE_URL)('Postgres sessions', () => {
  let gw: TestApp | undefined;
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

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
