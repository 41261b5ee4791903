// `npm start` and `npm test` run this first (prestart, pretest): compile only when dist/ is missing or older than its
// sources, so a start or a test run after the first one costs no build (a full tsc run takes 15-25 s on a small
// machine; CI's second and third test runs used to build again for nothing).
// Stale means: a source under src/, migrations/ or test/simulator/ (the built simulator the suites spawn), or of the
// client package (clients/typescript/src, built into clients/typescript/dist: the suites run its gatewayctl), has no
// compiled file, or is newer than it, or a tsconfig file is newer than the oldest compiled file. The dashboard
// (ui/ → dist/ui) is stale when dist/ui/index.html is missing or older than any file of ui/src, ui/index.html or
// ui/vite.config.ts; alone, it is rebuilt alone (`npm run build:ui`). `--check` prints the verdict and exits 1 when
// a build is needed.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// `--root <dir>` checks another checkout (tests).
const rootFlag = process.argv.indexOf('--root');
const root = rootFlag > 0 ? process.argv[rootFlag + 1] : join(import.meta.dirname, '..');
// Each source dir with the dir its sources are relative to and the dir their compiled files go to.
const SOURCE_DIRS = [
  { dir: 'src', base: '.', out: 'dist' },
  { dir: 'migrations', base: '.', out: 'dist' },
  { dir: 'test/simulator', base: '.', out: 'dist' },
  { dir: 'clients/typescript/src', base: 'clients/typescript/src', out: 'clients/typescript/dist' },
];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'clients/typescript/tsconfig.json'];

const UI_INPUTS = ['ui/src', 'ui/index.html', 'ui/vite.config.ts'];

function* files(path) {
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    if (mtime(path) !== undefined) yield path;
    return;
  }
  for (const entry of entries) yield* files(join(path, entry.name));
}

/** Why the dashboard needs a build, or undefined (also when this checkout has no ui/). */
function uiStaleReason() {
  if (mtime(join(root, 'ui', 'index.html')) === undefined) return undefined;
  const built = mtime(join(root, 'dist', 'ui', 'index.html'));
  if (built === undefined) return 'dist/ui has no build';
  for (const input of UI_INPUTS) {
    for (const file of files(join(root, input))) {
      if (mtime(file) > built) return `${relative(root, file)} changed since the last build`;
    }
  }
  return undefined;
}

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
  for (const { dir, base, out } of SOURCE_DIRS) {
    for (const source of tsFiles(join(root, dir))) {
      sources += 1;
      const rel = relative(root, source);
      const output = join(root, out, relative(join(root, base), source).replace(/\.ts$/, '.js'));
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
const uiReason = reason ? undefined : uiStaleReason();
if (process.argv.includes('--check')) {
  const why = reason ?? uiReason;
  console.log(why ? `stale: ${why}` : 'dist/ is up to date');
  process.exit(why ? 1 : 0);
}
if (reason || uiReason) {
  console.error(`building: ${reason ?? uiReason}`);
  const script = reason ? 'build' : 'build:ui';
  const result = spawnSync('npm', ['run', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(result.status ?? 1);
}
