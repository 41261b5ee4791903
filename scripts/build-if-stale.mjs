// `npm start` and `npm test` run this first (prestart, pretest): compile only when dist/ is missing or older than its
// sources, so a start or a test run after the first one costs no build (a full tsc run takes 15-25 s on a small
// machine; CI's second and third test runs used to build again for nothing).
// Stale means: a source under src/, migrations/ or test/simulator/ (the built simulator the suites spawn) has no
// compiled file, or is newer than it, or a tsconfig file is newer than the oldest compiled file. `--check` prints the
// verdict and exits 1 when a build is needed.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// `--root <dir>` checks another checkout (tests).
const rootFlag = process.argv.indexOf('--root');
const root = rootFlag > 0 ? process.argv[rootFlag + 1] : join(import.meta.dirname, '..');
const SOURCE_DIRS = ['src', 'migrations', 'test/simulator'];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json'];

function* tsFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Why a build is needed, or undefined when dist/ is up to date. */
function staleReason() {
  let oldestOutput = Infinity;
  let sources = 0;
  for (const dir of SOURCE_DIRS) {
    for (const source of tsFiles(join(root, dir))) {
      sources += 1;
      const rel = relative(root, source);
      const output = join(root, 'dist', rel.replace(/\.ts$/, '.js'));
      const built = mtime(output);
      if (built === undefined) return `${rel} has no compiled file`;
      if (mtime(source) > built) return `${rel} changed since the last build`;
      oldestOutput = Math.min(oldestOutput, built);
    }
  }
  if (sources === 0) return 'no sources found';
  for (const file of CONFIG_FILES) {
    if ((mtime(join(root, file)) ?? 0) > oldestOutput) return `${file} changed since the last build`;
  }
  return undefined;
}

const reason = staleReason();
if (process.argv.includes('--check')) {
  console.log(reason ? `stale: ${reason}` : 'dist/ is up to date');
  process.exit(reason ? 1 : 0);
}
if (reason) {
  console.error(`building: ${reason}`);
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(result.status ?? 1);
}
