// Cold start of the built gateway on the embedded default: time from spawning `node dist/src/main.js` to the first
// 200 from /health. "fresh" starts on an empty app dir (database created and migrated); "warm" restarts on it.
// Usage: npm run build && node bench/cold-start.mjs [runs]
import { spawn } from 'node:child_process';
import { START_NODE_FLAGS } from './lib/gateway.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const main = resolve('dist/src/main.js');

function freePort() {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

async function startOnce(appDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...START_NODE_FLAGS, main, '--port', String(port), '--app-dir', appDir, '--log-level', 'warn'],
    {
      stdio: 'ignore',
      env: { PATH: process.env.PATH },
    },
  );
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fresh = [];
const warm = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  fresh.push(await startOnce(dir));
  warm.push(await startOnce(dir));
  rmSync(dir, { recursive: true, force: true });
}
const fmt = (xs) =>
  `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
console.log(`cold start to healthy /health, embedded default, ${runs} runs each`);
console.log(`  fresh app dir (create + migrate): ${fmt(fresh)}`);
console.log(`  existing app dir (restart):       ${fmt(warm)}`);
