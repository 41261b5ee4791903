// PGlite on its own, to name its share of the embedded gateway's memory: opens a (stopped) gateway's migrated
// `<app-dir>/pgdata` in a fresh process, runs a few queries over the gateway's tables, and prints one JSON line with
// the process memory before and after, and the size of PGlite's WebAssembly linear memory.
// Usage: node bench/lib/pglite-probe.mjs <pgdata dir>   (run by bench/rss.mjs)
import { spawn } from 'node:child_process';
import { clearTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { procStatus } from './memory.mjs';

/** Runs the probe as a child process on `dataDir`; resolves with its JSON report. */
export function probePglite(dataDir, timeoutMs = 120_000) {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        ok(JSON.parse(out.trim().split('\n').at(-1)));
      } catch {
        fail(new Error(`pglite probe failed (${code}): ${err.slice(-2000)}`));
      }
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dataDir = process.argv[2];
  const snap = () => {
    const m = process.memoryUsage();
    return {
      rss: procStatus(process.pid).rss,
      heapUsed: m.heapUsed,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
    };
  };
  const before = snap();
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create({ dataDir });
  const tables = await db.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
  for (const { tablename } of tables.rows) await db.query(`SELECT * FROM "${tablename}" LIMIT 100`);
  const after = snap();
  // PGlite keeps the Emscripten module in `mod` (not a public API; absent in another version → null).
  const wasm = db.mod?.HEAPU8?.byteLength ?? null;
  await db.close();
  process.stdout.write(`${JSON.stringify({ before, after, wasmLinearMemory: wasm, tables: tables.rows.length })}\n`);
}
