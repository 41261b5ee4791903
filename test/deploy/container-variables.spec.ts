import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config/config.loader.js';
import { MAIN_JS, spawnGateway } from '../helpers/gateway-process.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const DATABASE_URL = 'postgres://gateway@127.0.0.1:1/gateway';
const REDIS_URL = 'redis://127.0.0.1:1';

/** The problem lines a container with `env` is refused with (none: it starts). */
function refusal(env: Record<string, string>): string[] {
  try {
    loadConfig({ env: { GATEWAY_CONTAINER: 'true', ...env } });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('a container refuses to start without the variables its run mode needs', () => {
  it('needs nothing on the embedded default (the key and the setup token are generated into the volume)', () => {
    expect(refusal({})).toEqual([]);
  });

  it('needs the shared encryption key and a way in with a shared database', () => {
    expect(refusal({ DATABASE_URL })).toEqual([
      expect.stringMatching(/^GATEWAY_ENCRYPTION_KEY \(encryption_key\) is required with a shared database: /),
      expect.stringMatching(/^GATEWAY_SETUP_TOKEN \(setup_token\) is required with a shared database unless /),
    ]);
    expect(
      refusal({ DATABASE_URL, REDIS_URL, GATEWAY_ENCRYPTION_KEY: KEY, GATEWAY_SETUP_TOKEN: 'setup-token-1' }),
    ).toEqual([]);
    // Dashboard auth replaces the setup token (its own check then wants the admin credentials).
    expect(
      refusal({
        DATABASE_URL,
        GATEWAY_ENCRYPTION_KEY: KEY,
        GATEWAY_AUTH_ENABLED: 'true',
        GATEWAY_ADMIN_USERNAME: 'admin',
        GATEWAY_ADMIN_PASSWORD: 'a-long-password',
      }),
    ).toEqual([]);
  });

  it('needs the database, Redis and the key for a worker, and no setup token', () => {
    expect(refusal({ GATEWAY_ROLE: 'worker' })).toEqual([
      expect.stringMatching(/^DATABASE_URL \(database_url\) is required with role worker/),
      expect.stringMatching(/^REDIS_URL \(redis_url\) is required with role worker/),
      expect.stringMatching(/^GATEWAY_ENCRYPTION_KEY \(encryption_key\) is required/),
    ]);
    expect(refusal({ GATEWAY_ROLE: 'worker', DATABASE_URL, REDIS_URL, GATEWAY_ENCRYPTION_KEY: KEY })).toEqual([]);
  });

  it('counts a value from the config file as given, and an empty variable as missing', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-container-config-')), 'config.yaml');
    writeFileSync(file, `encryption_key: ${KEY}\nsetup_token: setup-token-1\n`);
    expect(refusal({ DATABASE_URL, GATEWAY_CONFIG: file })).toEqual([]);
    expect(refusal({ DATABASE_URL, GATEWAY_ENCRYPTION_KEY: '', GATEWAY_SETUP_TOKEN: 'setup-token-1' })).toEqual([
      expect.stringMatching(/^GATEWAY_ENCRYPTION_KEY /),
    ]);
  });

  it('leaves a process outside a container as it was (a warning, not a refusal)', () => {
    expect(() => loadConfig({ env: { DATABASE_URL } })).not.toThrow();
    expect(() => loadConfig({ env: { DATABASE_URL, GATEWAY_CONTAINER: 'false' } })).not.toThrow();
  });

  it.skipIf(!existsSync(MAIN_JS))(
    'exits 2 with one line per missing variable, before connecting anywhere',
    async () => {
      const gw = spawnGateway([], { GATEWAY_CONTAINER: 'true', GATEWAY_ROLE: 'api' });
      expect(await gw.exit).toEqual({ code: 2, signal: null });
      expect(gw.stderr().trim().split('\n')).toEqual([
        expect.stringMatching(/^config: DATABASE_URL \(database_url\) is required with role api: /),
        expect.stringMatching(/^config: REDIS_URL \(redis_url\) is required with role api: /),
        expect.stringMatching(/^config: GATEWAY_ENCRYPTION_KEY \(encryption_key\) is required /),
        expect.stringMatching(/^config: GATEWAY_SETUP_TOKEN \(setup_token\) is required /),
      ]);
      expect(gw.stdout).toEqual([]);
    },
  );
});
