// A bench service in its own process (the A2A agent, the bare proxy): started with `--exit-with-stdin`, it prints
// one JSON line with its URLs once it listens, and is stopped on cleanup (SIGTERM, then SIGKILL after 5 s).
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { onCleanup } from './cleanup.mjs';
import { guardChild } from './reaper.mjs';

/** Spawns `node <argv>` and resolves with the service's first stdout line (JSON) plus `{ pid, child, stop() }`. */
export async function spawnChildService(label, argv, { startTimeoutMs = 30_000 } = {}) {
  const child = spawn(process.execPath, argv, { stdio: ['pipe', 'pipe', 'inherit'] });
  guardChild(child);
  const stop = onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  });
  const info = await new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${label} did not start`)), startTimeoutMs);
    child.once('exit', (code) => fail(new Error(`${label} exited (${code}) before it listened`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        ok(JSON.parse(out.slice(0, nl)));
      }
    });
  });
  child.stdout.resume();
  return { ...info, pid: child.pid, child, stop };
}
