import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { SETUP_TOKEN } from '../auth/auth-helpers.js';

/** Every entry under `root` whose permission bits differ from 0700 (directories) or 0600 (files). */
function looseModes(root: string): string[] {
  const loose: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o777;
    if (mode !== (stat.isDirectory() ? 0o700 : 0o600)) loose.push(`${mode.toString(8)} ${path}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return loose;
}

// The embedded database lives in the app dir; with DATABASE_URL there is no database on disk to protect.
describe.skipIf(Boolean(TEST_DATABASE_URL))('the app dir is the gateway owner’s alone (embedded)', () => {
  it('with umask 000 and a world-open app dir left from before, every dir is 0700 and every file 0600 after start', async () => {
    const appDir = join(mkdtempSync(join(tmpdir(), 'gw-modes-')), 'app');
    mkdirSync(appDir, { mode: 0o777 });
    chmodSync(appDir, 0o777);
    writeFileSync(join(appDir, 'config.json'), '{}', { mode: 0o666 });
    chmodSync(join(appDir, 'config.json'), 0o666);
    const previous = process.umask(0o000);
    let gw;
    try {
      gw = await startTestApp({ appDir, config: { setup_token: SETUP_TOKEN, encryption_key: undefined } });
      expect((await gw.http.get('/health')).status).toBe(200);
      const entries = readdirSync(appDir);
      expect(entries).toEqual(expect.arrayContaining(['pgdata', 'encryption.key']));
      expect(readdirSync(join(appDir, 'pgdata')).length).toBeGreaterThan(10);
      expect(looseModes(appDir)).toEqual([]);
    } finally {
      process.umask(previous);
      await gw?.close();
    }
    // Still owner-only after a clean shutdown.
    expect(lstatSync(appDir).mode & 0o777).toBe(0o700);
  });
});
