import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../test/helpers/gateway-process';

export const REPO = join(import.meta.dirname, '..', '..', '..');

export interface Gateway {
  url: string;
  port: number;
  appDir: string;
  /** The setup token the first start generated (`<app-dir>/setup-token`), when there is one. */
  setupToken(): string;
  /** The stdout lines up to the listening line (later ones, the access log, are not kept). */
  lines: string[];
  /** Stops the process (SIGTERM, drained) and removes its app dir. */
  stop(): Promise<void>;
  /** Stops the process and leaves the app dir. */
  stopKeeping(): Promise<void>;
}

/** Set by global-setup.ts: a migrated embedded database (`pgdata`) that gateways start from. */
export const TEMPLATE_ENV = 'GW_UI_E2E_PGDATA';

/**
 * Each gateway starts on a copy of the run's migrated embedded database (global-setup.ts): initdb and the migrations
 * once per run, not per gateway. The first-run spec starts from nothing on purpose (`fresh`).
 */
function templateDataDir(appDir: string): void {
  const template = process.env[TEMPLATE_ENV];
  if (template && existsSync(template)) cpSync(template, join(appDir, 'pgdata'), { recursive: true });
}

/**
 * Starts the built gateway the way the README does (`npm start`, so the stale check and the node flags are the
 * real ones) on a free port, an own app dir and the embedded default, and waits for its listening line.
 */
export async function startGateway(
  options: { env?: Record<string, string>; args?: string[]; fresh?: boolean } = {},
): Promise<Gateway> {
  const port = await freePort();
  const appDir = mkdtempSync(join(tmpdir(), 'gw-ui-e2e-'));
  if (!options.fresh) templateDataDir(appDir);
  const child: ChildProcess = spawn(
    'npm',
    ['start', '--', '--port', String(port), '--app-dir', appDir, ...(options.args ?? [])],
    {
      cwd: REPO,
      detached: true,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true',
        // The listening line, which says the gateway is up, is at info.
        LOG_LEVEL: 'info',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  let stderr = '';
  let buffered = '';
  // A first start (initdb and every migration) takes about 70 s of a loaded 2-core machine: GW_UI_E2E_START_S lifts it.
  const startSeconds = Number(process.env.GW_UI_E2E_START_S ?? 90);
  const listening = new Promise<void>((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`gateway did not start in ${startSeconds} s: ${stderr}`)),
      startSeconds * 1000,
    );
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      lines.push(...parts);
      if (parts.some((line) => line.includes('gateway listening'))) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        ok();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`gateway exited (${code}) before listening: ${stderr}`));
    });
  });
  /** Whether any process of the group (npm and the gateway it started) is still there. */
  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  // npm forwards the signal and may exit before the gateway has drained: the stop waits for the whole group.
  const stop = async () => {
    if (!groupAlive()) return;
    process.kill(-child.pid!, 'SIGTERM');
    const deadline = Date.now() + 25_000;
    while (groupAlive() && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 100));
    if (groupAlive()) process.kill(-child.pid!, 'SIGKILL');
  };
  try {
    await listening;
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    appDir,
    lines,
    setupToken: () => readFileSync(join(appDir, 'setup-token'), 'utf8').trim(),
    stop: async () => {
      await stop();
      rmSync(appDir, { recursive: true, force: true });
    },
    stopKeeping: stop,
  };
}
