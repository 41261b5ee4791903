// Bulk loads of synthetic rows straight in SQL for the query benches: the tables' indexes (those the migrations made,
// not the constraints') are dropped first and rebuilt after the load with their own definitions (a bulk build is far
// faster than a million index inserts), then the tables are vacuumed and analyzed, like tables autovacuum has seen.

/**
 * Runs `sql` (parameters `$1` first row, `$2` last row, `$3` all rows; 1-based, inclusive) in batches of `batch` rows
 * over `rows` rows on `client`, around a drop and rebuild of the indexes of `tables`. Returns the timings
 * `{ dropMs, insertMs, indexMs, vacuumMs }`; `log` gets a progress line per batch.
 */
export async function bulkSeed(client, { tables, sql, rows, batch = 100_000, log = () => {} }) {
  const timings = {};
  let t = performance.now();
  await client.query(`SET maintenance_work_mem = '256MB'`);
  await client.query(`SELECT setseed(0.42)`);
  const { rows: indexes } = await client.query(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
     JOIN pg_class c ON c.relname = i.indexname
     WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid)`,
    [tables],
  );
  for (const { indexname } of indexes) await client.query(`DROP INDEX "${indexname}"`);
  timings.dropMs = performance.now() - t;

  t = performance.now();
  for (let from = 1; from <= rows; from += batch) {
    const to = Math.min(rows, from + batch - 1);
    await client.query(sql, [from, to, rows]);
    log(`  seeded ${to.toLocaleString('en-US')} / ${rows.toLocaleString('en-US')} rows`);
  }
  timings.insertMs = performance.now() - t;

  t = performance.now();
  for (const { indexdef } of indexes) await client.query(indexdef);
  timings.indexMs = performance.now() - t;
  log(`  rebuilt ${indexes.length} indexes`);

  t = performance.now();
  for (const table of tables) await client.query(`VACUUM (ANALYZE) "${table}"`);
  timings.vacuumMs = performance.now() - t;
  return timings;
}
