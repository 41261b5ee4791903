import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The kit's version, pinned in package.json (devDependencies). */
export const CONFORMANCE_VERSION = '0.1.16';
const KIT_BIN = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);
export const baseline = (name: string) => fileURLToPath(new URL(`./conformance/${name}`, import.meta.url));

/**
 * The kit uses `fs.globSync` (Node 22+): on an older node (the machine's Node 20 runs the main CI steps) it runs on the
 * current LTS binary from the registry's `node-linux-<arch>` package, as the CI's LTS step and the benches do.
 */
function kitCommand(): { command: string; args: string[] } {
  if (Number(process.versions.node.split('.')[0]) >= 22) return { command: process.execPath, args: [KIT_BIN] };
  return { command: 'npx', args: ['--yes', '-p', `node-linux-${process.arch}@24`, 'node', KIT_BIN] };
}

/** Runs `conformance server --url <url> ...args` (the active suite unless a scenario is named); its exit code and output. */
export function runConformance(url: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
  const { command, args: prefix } = kitCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, 'server', '--url', url, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The kit's summary lines (the scenario logs before them are noise). */
export const summary = (output: string) => output.slice(Math.max(0, output.indexOf('=== SUMMARY ===')));

/** Names of the scenarios the kit reports as passed (`✓ name`) in its summary. */
export function passedScenarios(output: string): string[] {
  return [...summary(output).matchAll(/^\s*✓\s+([a-z0-9-]+)/gm)].map((m) => m[1] ?? '');
}
