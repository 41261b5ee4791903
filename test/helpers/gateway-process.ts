import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { recordLogLines, recordSecret } from './evidence.js';

export const MAIN_JS = resolve('dist/src/main.js');

/** A free loopback port (the OS picks it; the listener is closed before the gateway binds it). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => ok(port));
    });
  });
}

export interface GatewayProcess {
  child: ChildProcessWithoutNullStreams;
  stdout: string[];
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first stdout line matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** Runs the built gateway (`node [nodeArgs] dist/src/main.js`, or another copy's `mainJs`) as a real process. */
export function spawnGateway(
  args: string[],
  env: Record<string, string>,
  cwd?: string,
  nodeArgs: string[] = [],
  mainJs = MAIN_JS,
): GatewayProcess {
  for (const [name, value] of Object.entries(env)) {
    if (/PASSWORD|SETUP_TOKEN|VAULT_TOKEN|ENCRYPTION_KEY|API_KEY|SECRET/.test(name)) recordSecret(value, `env ${name}`);
  }
  const child = spawn(process.execPath, [...nodeArgs, mainJs, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  let stderr = '';
  let buffered = '';
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    recordLogLines(lines);
    for (const line of lines) {
      stdout.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stderr += text;
    recordLogLines(text.split('\n').filter((line) => line));
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    child.on('exit', (code, signal) => ok({ code, signal })),
  );
  return {
    child,
    stdout,
    stderr: () => stderr,
    exit,
    waitForLine(pattern, timeoutMs = 30_000) {
      const seen = stdout.find((l) => pattern.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no line matching ${pattern} (stderr: ${stderr})`)), timeoutMs);
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            ok(line);
          },
        });
        void exit.then(() => fail(new Error(`gateway exited before ${pattern} (stderr: ${stderr})`)));
      });
    },
  };
}
