import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { recordLogLines } from '../helpers/evidence.js';
import type { HttpClient } from '../helpers/http.js';
import { runModeEnv, startSpawned, type SpawnedGateway } from '../helpers/spawned-gateway.js';

/** The client package's command line, as `npx gatewayctl` runs it (the bin of the workspace). */
export const GATEWAYCTL = resolve('clients/typescript/bin/gatewayctl.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A temporary HOME, so no test reads or writes a profile file of the machine. */
export const scratchHome = () => mkdtempSync(join(tmpdir(), 'gwctl-home-'));

/**
 * Runs `gatewayctl args…` as a real process with exactly `env` (plus PATH and a scratch HOME) and collects its output.
 * Its stderr is recorded with the gateways' log lines for the secrets scan.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string>,
  options: { input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [GATEWAYCTL, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: scratchHome(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      recordLogLines(stderr.split('\n').filter(Boolean));
      ok({ code, stdout, stderr });
    });
    // A command that exits without reading its stdin closes the pipe first: not an error of the test.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Parses the JSON a command printed (`-o json`), failing with its stderr when it is not JSON. */
export function json<T = any>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}): ${result.stdout}\nstderr: ${result.stderr}`);
  }
}

export const CLI_SETUP_TOKEN = 'cli-setup-token-123456';
export const CLI_ADMIN_PASSWORD = 'cli-admin-password-1';

export interface CliGateway {
  spawned: SpawnedGateway;
  url: string;
  /** The management client of the operator (setup token in oss, the admin's Basic in enterprise). */
  admin: HttpClient;
  /** Environment for gatewayctl as the operator. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The built gateway as a process in the suite's run mode (embedded, or a scratch Postgres database and Redis prefix):
 * open-source behind the setup lock, or enterprise with dashboard auth (the admin's Basic credentials).
 */
export async function startCliGateway(
  options: {
    enterprise?: boolean;
    env?: Record<string, string>;
    appDir?: string;
    /** The run mode's database and Redis prefix, when the suite made them itself (to seed them first). */
    mode?: Awaited<ReturnType<typeof runModeEnv>>;
  } = {},
): Promise<CliGateway> {
  const mode = options.mode ?? (await runModeEnv());
  const env: Record<string, string> = {
    ...mode.env,
    LOG_LEVEL: 'warn',
    GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true',
    ...(options.enterprise
      ? {
          GATEWAY_EDITION: 'enterprise',
          GATEWAY_AUTH_ENABLED: 'true',
          GATEWAY_ADMIN_USERNAME: 'admin',
          GATEWAY_ADMIN_PASSWORD: CLI_ADMIN_PASSWORD,
        }
      : { GATEWAY_SETUP_TOKEN: CLI_SETUP_TOKEN }),
    ...options.env,
  };
  let spawned: SpawnedGateway;
  try {
    spawned = await startSpawned({ ...env, LOG_LEVEL: 'info' }, { appDir: options.appDir });
  } catch (e) {
    await mode.cleanUp();
    throw e;
  }
  const url = `http://127.0.0.1:${spawned.port}`;
  const basic = `Basic ${Buffer.from(`admin:${CLI_ADMIN_PASSWORD}`).toString('base64')}`;
  const admin = spawned.http.withHeaders(
    options.enterprise ? { Authorization: basic } : { 'X-Gateway-Setup-Token': CLI_SETUP_TOKEN },
  );
  return {
    spawned,
    url,
    admin,
    env: options.enterprise ? { GATEWAY_URL: url } : { GATEWAY_URL: url, GATEWAY_SETUP_TOKEN: CLI_SETUP_TOKEN },
    async close() {
      spawned.gw.child.kill('SIGTERM');
      await spawned.gw.exit;
      await mode.cleanUp();
    },
  };
}

/** A management key of the enterprise gateway holding `scopes`, for gatewayctl's GATEWAY_API_KEY. */
export async function managementKey(gw: CliGateway, name: string, scopes: string[]): Promise<string> {
  const res = await gw.admin.post('/api/management-keys', { name, scopes });
  if (res.status !== 201) throw new Error(`management key: ${res.status} ${res.text}`);
  return res.body.value as string;
}

/** Rows of the audit log (writes of management routes), newest first. */
export async function auditCount(gw: CliGateway): Promise<number> {
  const res = await gw.admin.get('/api/audit-logs', { query: { limit: 1 } });
  return res.body.pagination.total_count as number;
}
