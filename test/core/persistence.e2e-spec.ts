import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../migrations/index.js';
import { createScratchDatabase } from '../helpers/databases.js';
import { startTestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_DATABASE_URL } from '../helpers/test-env.js';

function dataSourceOf(app: Awaited<ReturnType<typeof startTestApp>>): DataSource {
  return app.app.get<DataSource>(getDataSourceToken());
}

describe(`persistence (${RUN_MODE})`, () => {
  it('applies every migration once and keeps data across a restart', async () => {
    const appDir = mkdtempSync(join(tmpdir(), 'gw-persist-'));
    const first = await startTestApp({ appDir, keepDatabase: true });
    const db = dataSourceOf(first);
    const applied = await db.query<Array<{ name: string }>>('SELECT name FROM schema_migrations ORDER BY id');
    expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
    await db.query('CREATE TABLE restart_probe (id int PRIMARY KEY, note text NOT NULL)');
    await db.query(`INSERT INTO restart_probe VALUES (1, 'written before restart')`);
    await first.close();

    const second = await startTestApp({ appDir, databaseUrl: first.databaseUrl });
    try {
      const rows = await dataSourceOf(second).query<Array<{ note: string }>>('SELECT note FROM restart_probe');
      expect(rows).toEqual([{ note: 'written before restart' }]);
      const again = await dataSourceOf(second).query<
        Array<{
          n: number;
        }>
      >('SELECT count(*)::int AS n FROM schema_migrations');
      expect(again[0]!.n).toBe(MIGRATIONS.length);
    } finally {
      await second.close();
    }
  });

  it('transactions on the embedded single connection never interleave', async () => {
    const gw = await startTestApp();
    try {
      const db = dataSourceOf(gw);
      await db.query('CREATE TABLE tx_probe (id int PRIMARY KEY)');
      // A failing transaction and concurrent plain writes: the rollback must not take the plain writes with it.
      const failing = db
        .transaction(async (manager) => {
          await manager.query('INSERT INTO tx_probe VALUES (100)');
          await new Promise((r) => setTimeout(r, 50));
          throw new Error('roll back');
        })
        .catch(() => 'rolled back');
      const plain = Promise.all([1, 2, 3].map((id) => db.query('INSERT INTO tx_probe VALUES ($1)', [id])));
      expect(await failing).toBe('rolled back');
      await plain;
      const rows = await db.query<Array<{ id: number }>>('SELECT id FROM tx_probe ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
      // UPDATE/DELETE report affected rows on both engines.
      const result = await db.createQueryBuilder().delete().from('tx_probe').where('id > :min', { min: 1 }).execute();
      expect(result.affected).toBe(2);
    } finally {
      await gw.close();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)('replicas starting together migrate once under the advisory lock', async () => {
    const scratch = await createScratchDatabase(TEST_DATABASE_URL!, { empty: true });
    try {
      const apps = await Promise.all(
        [1, 2, 3].map(() => startTestApp({ databaseUrl: scratch.url, keepDatabase: true })),
      );
      const rows = await dataSourceOf(apps[0]!).query<Array<{ name: string; n: number }>>(
        'SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name',
      );
      expect(rows).toHaveLength(MIGRATIONS.length);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      for (const app of apps) expect((await app.http.get('/health')).status).toBe(200);
      await Promise.all(apps.map((a) => a.close()));
    } finally {
      await scratch.drop();
    }
  });
});
