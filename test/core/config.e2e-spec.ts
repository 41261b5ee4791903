import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config/config.loader.js';

function tmpDir(): string {
  return mkdtempSync(join(tmpdir(), 'gw-config-'));
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('config loading', () => {
  it('uses built-in defaults when nothing is configured', () => {
    const dir = tmpDir();
    const config = loadConfig({ env: { GATEWAY_APP_DIR: dir } });
    expect(config).toMatchObject({
      edition: 'oss',
      host: '127.0.0.1',
      port: 8080,
      app_dir: dir,
      role: 'all',
      log_level: 'info',
      limits: { max_body_bytes: 10 * 1024 * 1024 },
      auth_config: { is_enabled: false, session_ttl: '24h' },
      outbound: { allow_loopback: false, allow_private_networks: true },
    });
    expect(config.database_url).toBeUndefined();
    expect(config.config_path).toBeUndefined();
  });

  it('reads <app-dir>/config.json by default, and YAML through --config', () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ edition: 'enterprise', setup_token: 'from-json-file' }));
    const fromJson = loadConfig({ argv: ['--app-dir', dir], env: {} });
    expect(fromJson.edition).toBe('enterprise');
    expect(fromJson.setup_token).toBe('from-json-file');
    expect(fromJson.config_path).toBe(join(dir, 'config.json'));

    const yamlPath = join(dir, 'gateway.yaml');
    writeFileSync(
      yamlPath,
      'auth_config:\n  is_enabled: true\n  admin_username: admin\n  admin_password: env.ADMIN_PW\nlimits:\n  max_body_bytes: 2048\n',
    );
    const fromYaml = loadConfig({ argv: ['--config', yamlPath], env: {} });
    expect(fromYaml.auth_config).toMatchObject({
      is_enabled: true,
      admin_username: 'admin',
      admin_password: 'env.ADMIN_PW',
    });
    expect(fromYaml.limits.max_body_bytes).toBe(2048);
  });

  it('environment overrides the file and flags override the environment', () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ edition: 'oss', log_level: 'warn' }));
    const config = loadConfig({
      argv: ['--app-dir', dir, '--port', '9999', '--log-level', 'debug', '--role', 'worker'],
      env: {
        GATEWAY_EDITION: 'enterprise',
        PORT: '7000',
        LOG_LEVEL: 'error',
        GATEWAY_SETUP_TOKEN: 'token-from-env',
        GATEWAY_AUTH_ENABLED: 'true',
        GATEWAY_MAX_BODY_BYTES: '65536',
        DATABASE_URL: 'postgres://u@db:5432/gw',
        REDIS_URL: 'redis://cache:6379',
      },
    });
    expect(config).toMatchObject({
      edition: 'enterprise',
      port: 9999,
      log_level: 'debug',
      role: 'worker',
      setup_token: 'token-from-env',
      database_url: 'postgres://u@db:5432/gw',
      redis_url: 'redis://cache:6379',
    });
    expect(config.auth_config.is_enabled).toBe(true);
    expect(config.limits.max_body_bytes).toBe(65536);
  });

  it('reports one readable line per problem, naming the key', () => {
    const dir = tmpDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        edition: 'platinum',
        auth_config: { is_enabled: 'yes please', session_ttl: 'forever' },
        limits: { max_body_bytes: 10 },
        bogus_key: 1,
      }),
    );
    const problems = problemsOf(() => loadConfig({ argv: ['--app-dir', dir], env: { PORT: 'eighty' } }));
    const keys = problems.map((p) => p.split(':')[0]);
    expect(keys).toEqual(
      expect.arrayContaining([
        'edition',
        'auth_config.is_enabled',
        'auth_config.session_ttl',
        'limits.max_body_bytes',
        'port',
        'bogus_key',
      ]),
    );
    expect(problems.find((p) => p.startsWith('edition'))).toMatch(/oss, enterprise/);
  });

  it('rejects unreadable or malformed config files and unknown flags', () => {
    const dir = tmpDir();
    expect(problemsOf(() => loadConfig({ argv: ['--config', join(dir, 'missing.json')], env: {} }))[0]).toMatch(
      /cannot be read/,
    );
    writeFileSync(join(dir, 'bad.json'), '{ "edition": ');
    expect(problemsOf(() => loadConfig({ argv: ['--config', join(dir, 'bad.json')], env: {} }))[0]).toMatch(
      /bad\.json/,
    );
    writeFileSync(join(dir, 'list.yaml'), '- a\n- b\n');
    expect(problemsOf(() => loadConfig({ argv: ['--config', join(dir, 'list.yaml')], env: {} }))[0]).toMatch(/object/);
    expect(problemsOf(() => loadConfig({ argv: ['--colour', 'blue'], env: {} }))[0]).toMatch(/command line/);
  });
});
