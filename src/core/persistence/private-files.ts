import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const OWNER_ONLY_DIR = 0o700;
const OWNER_ONLY_FILE = 0o600;

/** Creates `dir` (and missing parents) and makes it owner-only whatever the umask or its earlier mode. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR });
  chmodSync(dir, OWNER_ONLY_DIR);
}

/**
 * Makes every directory under `root` (itself included) 0700 and every file 0600; symbolic links are left alone. PGlite's
 * file system layer creates the database files 0666 whatever the process umask, so the app dir is tightened after the
 * database is opened; the 0700 app dir keeps any file created later out of other users' reach. Returns how many
 * entries changed mode.
 */
export function restrictTreeToOwner(root: string): number {
  let changed = 0;
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? OWNER_ONLY_DIR : OWNER_ONLY_FILE;
    if ((stat.mode & 0o777) !== wanted) {
      chmodSync(path, wanted);
      changed++;
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return changed;
}
