// The data-plane authentication hot path: a built gateway (embedded default, LOG_LEVEL=warn) on a fresh app dir,
// one virtual key created through the API, then load on the virtual-key route (cached key lookup, no database read)
// next to a public route with no authentication, to show what authentication adds.
// Usage: npm run build && node bench/virtual-key-auth.mjs [seconds] [connections]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { formatLoad, runLoad } from './lib/load.mjs';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 32);
const setupToken = 'bench-setup-token-0001';
const port = await new Promise((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port: p } = s.address();
    s.close(() => ok(p));
  });
});
const appDir = mkdtempSync(join(tmpdir(), 'gw-bench-vk-'));
const child = spawn(process.execPath, [resolve('dist/src/main.js'), '--port', String(port), '--app-dir', appDir], {
  stdio: 'ignore',
  env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', GATEWAY_SETUP_TOKEN: setupToken },
});
const base = `http://127.0.0.1:${port}`;
try {
  for (;;) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const created = await fetch(`${base}/api/governance/virtual-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-gateway-setup-token': setupToken },
    body: JSON.stringify({ name: 'bench' }),
  }).then((r) => r.json());
  const vk = created.virtual_key.value;
  const durationMs = seconds * 1000;
  // Warm-up so both routes are measured with a warm JIT and a filled key cache.
  await runLoad({ url: `${base}/api/version`, connections, durationMs: 2000 });
  await runLoad({
    url: `${base}/api/governance/virtual-keys/quota`,
    headers: { authorization: `Bearer ${vk}` },
    connections,
    durationMs: 2000,
  });
  const open = await runLoad({ url: `${base}/api/version`, connections, durationMs });
  const quota = await runLoad({
    url: `${base}/api/governance/virtual-keys/quota`,
    headers: { authorization: `Bearer ${vk}` },
    connections,
    durationMs,
  });
  console.log(`${connections} connections, ${seconds} s each, gateway and load generator on the same machine`);
  console.log(formatLoad('  GET /api/version (public)                       ', open));
  console.log(formatLoad('  GET /api/governance/virtual-keys/quota (virtual key)', quota));
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  rmSync(appDir, { recursive: true, force: true });
}
