import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve('scripts/build-if-stale.mjs');

function check(root: string): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, [SCRIPT, '--check', '--root', root], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout.trim() };
}

function touch(path: string, secondsAgo: number): void {
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, at, at);
}

describe('npm start and npm test build only when dist/ is missing or stale', () => {
  it('runs the stale check before start and before the tests, never an unconditional build', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.prestart).toBe('node scripts/build-if-stale.mjs');
    for (const name of ['pretest', 'pretest:system', 'pretest:system:long']) {
      expect(scripts[name]).toBe('node scripts/build-if-stale.mjs');
    }
    expect(scripts.start).toMatch(/ dist\/src\/main\.js$/);
  });

  it('compares every source with its compiled file, and the tsconfig files with the oldest compiled file', () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-stale-'));
    mkdirSync(join(root, 'src', 'core'), { recursive: true });
    mkdirSync(join(root, 'migrations'));
    for (const f of ['src/main.ts', 'src/core/a.ts', 'migrations/1-init.ts', 'tsconfig.json', 'tsconfig.build.json']) {
      writeFileSync(join(root, f), '');
      touch(join(root, f), 100);
    }
    expect(check(root)).toEqual({ code: 1, out: expect.stringMatching(/^stale: \S+\.ts has no compiled file$/) });

    mkdirSync(join(root, 'dist', 'src', 'core'), { recursive: true });
    mkdirSync(join(root, 'dist', 'migrations'));
    for (const f of ['dist/src/main.js', 'dist/src/core/a.js', 'dist/migrations/1-init.js']) {
      writeFileSync(join(root, f), '');
      touch(join(root, f), 50);
    }
    expect(check(root)).toEqual({ code: 0, out: 'dist/ is up to date' });

    touch(join(root, 'src/core/a.ts'), 10);
    expect(check(root)).toEqual({ code: 1, out: 'stale: src/core/a.ts changed since the last build' });
    touch(join(root, 'dist/src/core/a.js'), 5);
    expect(check(root).code).toBe(0);

    touch(join(root, 'tsconfig.build.json'), 1);
    expect(check(root)).toEqual({ code: 1, out: 'stale: tsconfig.build.json changed since the last build' });
    touch(join(root, 'tsconfig.build.json'), 100);

    // The client package compiles clients/typescript/src into its own dist/ (the suites run its gatewayctl).
    mkdirSync(join(root, 'clients/typescript/src/cli'), { recursive: true });
    writeFileSync(join(root, 'clients/typescript/src/cli/main.ts'), '');
    touch(join(root, 'clients/typescript/src/cli/main.ts'), 100);
    expect(check(root)).toEqual({
      code: 1,
      out: 'stale: clients/typescript/src/cli/main.ts has no compiled file',
    });
    mkdirSync(join(root, 'clients/typescript/dist/cli'), { recursive: true });
    writeFileSync(join(root, 'clients/typescript/dist/cli/main.js'), '');
    touch(join(root, 'clients/typescript/dist/cli/main.js'), 50);
    expect(check(root).code).toBe(0);
  });

  it('checks the dashboard (ui/ to dist/ui) once the gateway is up to date', () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-stale-ui-'));
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(join(root, 'dist', 'src'), { recursive: true });
    mkdirSync(join(root, 'ui', 'src', 'features'), { recursive: true });
    for (const f of ['src/main.ts', 'tsconfig.json', 'ui/index.html', 'ui/src/features/page.tsx']) {
      writeFileSync(join(root, f), '');
      touch(join(root, f), 100);
    }
    writeFileSync(join(root, 'dist/src/main.js'), '');
    touch(join(root, 'dist/src/main.js'), 50);
    expect(check(root)).toEqual({ code: 1, out: 'stale: dist/ui has no build' });

    mkdirSync(join(root, 'dist', 'ui'));
    writeFileSync(join(root, 'dist/ui/index.html'), '');
    touch(join(root, 'dist/ui/index.html'), 50);
    expect(check(root)).toEqual({ code: 0, out: 'dist/ is up to date' });

    touch(join(root, 'ui/src/features/page.tsx'), 10);
    expect(check(root)).toEqual({ code: 1, out: 'stale: ui/src/features/page.tsx changed since the last build' });
  });
});
