import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const README = resolve('clients/typescript/README.md');
const BUILT = resolve('clients/typescript/dist/index.js');
const SETUP_TOKEN = 'readme-setup-token-1';

/** The first ```js block of the client's README: the complete script it promises runs as written. */
function exampleScript(): string {
  const match = /```js\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'));
  if (!match) throw new Error('no js block in the client README');
  return match[1]!;
}

/**
 * The client README's script, run as written (`node --input-type=module`, importing the built workspace package
 * `@ai-gateway/client` from the repository root) against a gateway, twice: it must succeed both times.
 */
describe.skipIf(!existsSync(BUILT))(`the client README's script (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
  });
  afterAll(() => gw?.close());

  it('runs as written, and again (idempotent)', async () => {
    // Asynchronously: the gateway answers from this process's event loop.
    const run = () =>
      promisify(execFile)(process.execPath, ['--input-type=module', '-e', exampleScript()], {
        cwd: resolve('.'),
        env: { PATH: process.env.PATH ?? '', GATEWAY_URL: gw.baseUrl, GATEWAY_SETUP_TOKEN: SETUP_TOKEN },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const first = await run();
    expect(first.stdout).toMatch(/^gateway 0\.1\.0 \(oss\), calling as setup setup$/m);
    expect(first.stdout).toMatch(/^created readme-ci-1: sk-gw-/m);
    expect(first.stdout).toContain('team readme-team has 3 keys');
    expect(first.stdout).toMatch(/^successful requests logged: 0$/m);
    const second = await run();
    expect(second.stdout).toContain('readme-ci-2 exists (409 already_exists, param name)');
    expect(second.stdout).toContain('team readme-team has 3 keys');
  });
});
