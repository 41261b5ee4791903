// Spawning the built gateway (`node dist/src/main.js`) for a bench: free port, fresh app dir, log to a file (so the
// bench process never spends CPU reading the access log), wait for a healthy /health, stop on cleanup.
/* global AbortSignal */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { clearTimeout } from 'node:timers';
import { onCleanup } from './cleanup.mjs';
import { guardChild, guardDir } from './reaper.mjs';

export const MAIN_JS = resolve('dist/src/main.js');

/** The node flags of package.json's `start` script (`node <flags> dist/src/main.js`). */
export const START_NODE_FLAGS = (() => {
  const start = JSON.parse(readFileSync(resolve('package.json'), 'utf8')).scripts.start;
  const match = /^node\s+(.*?)\s*dist\/src\/main\.js/.exec(start);
  return match ? match[1].split(/\s+/).filter(Boolean) : [];
})();
export const SETUP_TOKEN = 'bench-setup-token-0001';

/** Flags given as one space-separated string (an environment variable, a bench option) as a list. */
export const flagWords = (text = '') => text.split(' ').filter(Boolean);

/** A free loopback port (the OS picks it; the listener is closed before the gateway binds it). */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Last `bytes` of a text file ('' when missing). */
export function tail(path, bytes = 4000) {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  return text.length > bytes ? `…${text.slice(-bytes)}` : text;
}

/** Kills `child` with SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopChild(child, graceMs = 30_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the built gateway on a free port with a fresh app dir (removed on cleanup; or `appDir`, which is the
 * caller's to remove, e.g. to restart on it) and waits for 200 on /health.
 * `env` is added to a minimal environment (PATH, the setup token); `logLevel` passes `--log-level` (else the
 * gateway's default); `mainJs` runs another build (e.g. a worktree's, to compare two builds side by side);
 * `nodeArgs` adds node flags after `npm start`'s. Returns
 * `{ base, port, pid, child, appDir, logPath, setupToken, stopProcess(), stop() }`.
 */
export async function startGateway({
  env = {},
  logLevel,
  args = [],
  appDir: givenAppDir,
  // BENCH_HEALTH_TIMEOUT_MS: a longer wait on a machine so loaded that a fresh app dir's migrations take minutes.
  healthTimeoutMs = Number(process.env.BENCH_HEALTH_TIMEOUT_MS) || 120_000,
  label = 'gateway',
  mainJs = MAIN_JS,
  nodeArgs: extraNodeArgs = [],
} = {}) {
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const appDir = givenAppDir ?? mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const logPath = join(appDir, 'gateway.log');
  const logFd = openSync(logPath, 'a');
  // The node flags `npm start` runs the gateway with, so the bench measures what users run; plus, e.g.,
  // BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the gateway under the bench's load.
  const nodeArgs = [...START_NODE_FLAGS, ...extraNodeArgs, ...flagWords(process.env.BENCH_GATEWAY_NODE_ARGS)];
  const argv = [
    ...nodeArgs,
    mainJs,
    '--port',
    String(port),
    '--app-dir',
    appDir,
    ...(logLevel ? ['--log-level', logLevel] : []),
    ...args,
  ];
  const child = spawn(process.execPath, argv, {
    stdio: ['ignore', logFd, logFd],
    env: { PATH: process.env.PATH ?? '', GATEWAY_SETUP_TOKEN: SETUP_TOKEN, ...env },
  });
  closeSync(logFd);
  guardChild(child);
  const unguardDir = givenAppDir ? undefined : guardDir(appDir);
  const stop = onCleanup(async () => {
    await stopChild(child);
    if (!givenAppDir) {
      rmSync(appDir, { recursive: true, force: true });
      unguardDir();
    }
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + healthTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${label} exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${tail(logPath)}`,
      );
    }
    const ok = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (performance.now() > deadline) {
      throw new Error(`${label} not healthy after ${healthTimeoutMs} ms:\n${tail(logPath)}`);
    }
    await sleep(50);
  }
  return {
    base,
    port,
    pid: child.pid,
    child,
    appDir,
    logPath,
    setupToken: SETUP_TOKEN,
    logBytes: () => (existsSync(logPath) ? statSync(logPath).size : 0),
    /** Stops the process only; the app dir stays until stop() or cleanup. */
    stopProcess: () => stopChild(child),
    /** Stops the process and removes the app dir (unless it was given). */
    stop,
  };
}

/** A management API call with the setup token; throws with the body on an unexpected status. */
export async function manage(gw, method, path, body, expectStatus = [200, 201]) {
  const res = await fetch(`${gw.base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-gateway-setup-token': gw.setupToken },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!expectStatus.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Creates a virtual key through the API; returns `{ id, value }`. */
export async function createVirtualKey(gw, name = 'bench') {
  const body = await manage(gw, 'POST', '/api/governance/virtual-keys', { name });
  return { id: body.virtual_key.id, value: body.virtual_key.value };
}

/** Registers an A2A agent by its card URL, open to every virtual key (`allow_by_default`). */
export function registerAgent(gw, name, agentCardUrl, extra = {}) {
  return manage(gw, 'POST', '/api/agents', { name, agent_card_url: agentCardUrl, allow_by_default: true, ...extra });
}
