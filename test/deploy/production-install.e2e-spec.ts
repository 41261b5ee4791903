import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runModeEnv, startSpawned, type SpawnedGateway } from '../helpers/spawned-gateway.js';
import { RUN_MODE } from '../helpers/test-env.js';

const run = promisify(execFile);

/** What docker/Dockerfile's runtime stage takes from the build: the compiled gateway and its manifest. */
const BUILD_OUTPUT = ['dist/src', 'dist/migrations', 'dist/package.json', 'package.json', 'package-lock.json'];

/** Every package a compiled file imports: static, side-effect and dynamic imports with a literal name. */
function importedPackages(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = join(entry.parentPath, entry.name);
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"\n]+)\1/g)) {
      const specifier = match[2]!;
      if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) continue;
      const name = specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
      if (!found.has(name)) found.set(name, file);
    }
  }
  return found;
}

/**
 * The image installs production dependencies only (`npm ci --omit=dev`); a package the gateway imports that is a
 * devDependency makes the container die at start with ERR_MODULE_NOT_FOUND. Proved here without an image: the build
 * output installed the same way into a scratch directory, then started from there.
 */
describe('the build installed with production dependencies only', () => {
  let root: string;
  let cleanUp: () => Promise<void> = async () => undefined;
  let gateway: SpawnedGateway | undefined;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'gw-prod-install-'));
    for (const path of BUILD_OUTPUT) cpSync(path, join(root, path), { recursive: true });
    // --prefer-offline: the tarballs of the project's own `npm ci` are in npm's cache.
    await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: root,
      timeout: 170_000,
    });
  }, 180_000);

  afterAll(async () => {
    gateway?.gw.child.kill('SIGTERM');
    await gateway?.gw.exit;
    await cleanUp();
    rmSync(root, { recursive: true, force: true });
  });

  it('has every package the compiled gateway imports, each a production dependency', () => {
    const { dependencies, devDependencies } = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const imported = importedPackages(join(root, 'dist'));
    expect(imported.size).toBeGreaterThan(20);
    expect([...imported.keys()]).toContain('@modelcontextprotocol/sdk');
    const wrong = [...imported]
      .filter(([name]) => !(name in dependencies) || !existsSync(join(root, 'node_modules', name, 'package.json')))
      .map(
        ([name, file]) =>
          `${name} (imported by ${file.slice(root.length + 1)}${name in devDependencies ? ', a devDependency' : ''})`,
      );
    expect(wrong).toEqual([]);
    expect(existsSync(join(root, 'node_modules', 'vitest'))).toBe(false);
  });

  it(`starts from the scratch copy and answers /health (${RUN_MODE})`, async () => {
    const mode = await runModeEnv();
    cleanUp = mode.cleanUp;
    gateway = await startSpawned(mode.env, { cwd: root, mainJs: join(root, 'dist/src/main.js') });
    const health = await gateway.http.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      components: { database: { status: 'ok', kind: RUN_MODE === 'embedded' ? 'pglite' : 'postgres' } },
    });
    if (RUN_MODE !== 'embedded') expect(health.body.components.redis).toMatchObject({ status: 'ok' });
    gateway.gw.child.kill('SIGTERM');
    expect(await gateway.gw.exit).toEqual({ code: 0, signal: null });
    gateway = undefined;
  });
});
