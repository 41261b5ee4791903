import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Set by the image suites' global setup: the image under test, or why the suites are skipped. */
export const IMAGE_ENV = 'GW_TEST_IMAGE';
export const IMAGE_SKIP_ENV = 'GW_TEST_IMAGE_SKIPPED';
export const IMAGE = process.env[IMAGE_ENV] ?? '';

export function podmanInstalled(): boolean {
  return spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Runs `podman args…`; rejects with its stderr when it exits non-zero. */
export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await exec('podman', args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`podman ${args.join(' ')}: ${e.stderr?.trim() || e.message}`, { cause: err });
  }
}

/** `podman args…` that may fail: its exit code and both outputs. */
export function podmanResult(
  args: string[],
  timeoutMs = 120_000,
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('podman', args, { encoding: 'utf8', timeout: timeoutMs });
  return { code: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

/** A name no other run uses: containers and volumes of concurrent runs never meet. */
export function uniqueName(kind: string): string {
  return `gw-test-${kind}-${randomBytes(4).toString('hex')}`;
}

export interface ContainerOptions {
  name: string;
  env: Record<string, string>;
  volumes?: string[];
  args?: string[];
}

/**
 * Starts the image detached on the host's network (the gateway binds the loopback port given in its env, and reaches
 * the simulator, Postgres and Redis on 127.0.0.1), with the root file system read-only: podman mounts tmpfs on /tmp,
 * /var/tmp and /run, and the app dir is the named volume given, else an anonymous one (the image's VOLUME).
 */
export async function runContainer(options: ContainerOptions): Promise<string> {
  const args = ['run', '-d', '--name', options.name, '--network', 'host', '--read-only'];
  for (const [key, value] of Object.entries(options.env)) args.push('-e', `${key}=${value}`);
  for (const volume of options.volumes ?? []) args.push('-v', volume);
  return podman([...args, IMAGE, ...(options.args ?? [])]);
}

/** Removes containers (with their anonymous volumes) and named volumes; never fails. */
export async function removeAll(containers: string[], volumes: string[] = []): Promise<void> {
  if (containers.length) await podman(['rm', '-f', '-v', '-t', '0', ...containers]).catch(() => undefined);
  if (volumes.length) await podman(['volume', 'rm', '-f', ...volumes]).catch(() => undefined);
}

export async function containerLogs(name: string): Promise<string> {
  const r = podmanResult(['logs', name]);
  return `${r.stdout}\n${r.stderr}`;
}

/** The image's HEALTHCHECK `--start-period`: a first start on a loaded 2-core machine has taken over 90 s. */
export const START_PERIOD_MS = 300_000;

/** Polls `GET <url>/health` until it answers 200; fails with the container's log lines. */
export async function waitHealthy(url: string, container: string, timeoutMs = START_PERIOD_MS): Promise<unknown> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
    if (res?.status === 200) return res.json();
    const state = await podman(['inspect', '--format', '{{.State.Status}}', container]).catch(() => 'gone');
    if (state !== 'running' || Date.now() > until) {
      throw new Error(`${container} is ${state}, not healthy:\n${(await containerLogs(container)).slice(-4000)}`);
    }
    await new Promise((ok) => setTimeout(ok, 500));
  }
}

/** Polls the container's log until a line matches. */
export async function waitForLog(container: string, pattern: RegExp, timeoutMs = START_PERIOD_MS): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const logs = await containerLogs(container);
    const line = logs.split('\n').find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > until) throw new Error(`${container}: no log line matching ${pattern}:\n${logs.slice(-4000)}`);
    await new Promise((ok) => setTimeout(ok, 500));
  }
}

/** Polls `probe` every 250 ms until it returns a value (not undefined). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
}
