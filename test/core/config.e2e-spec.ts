import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
      append_log: { max_buffered_rows: 10_000, batch_size: 500, flush_interval: '200ms' },
      agent_history: { retention: '30d' },
      audit_logs: { retention: '90d' },
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
        GATEWAY_ADMIN_USERNAME: 'admin',
        GATEWAY_ADMIN_PASSWORD: 'env.ADMIN_PW',
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

  it('reads the append-log settings and retentions from the file and the environment', () => {
    const dir = tmpDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ append_log: { batch_size: 100, flush_interval: '1s' }, audit_logs: { retention: '365d' } }),
    );
    const config = loadConfig({
      argv: ['--app-dir', dir],
      env: {
        GATEWAY_APPEND_LOG_MAX_BUFFERED_ROWS: '2000',
        GATEWAY_APPEND_LOG_FLUSH_INTERVAL: '50ms',
        GATEWAY_AGENT_HISTORY_RETENTION: '7d',
      },
    });
    expect(config.append_log).toEqual({ max_buffered_rows: 2000, batch_size: 100, flush_interval: '50ms' });
    expect(config.agent_history).toEqual({ retention: '7d' });
    expect(config.audit_logs).toEqual({ retention: '365d' });
    const env = loadConfig({
      env: { GATEWAY_APP_DIR: tmpDir(), GATEWAY_APPEND_LOG_BATCH_SIZE: '25', GATEWAY_AUDIT_LOGS_RETENTION: '12h' },
    });
    expect(env.append_log.batch_size).toBe(25);
    expect(env.audit_logs.retention).toBe('12h');

    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        append_log: { max_buffered_rows: 0, batch_size: 'many', flush_interval: '0ms', extra: true },
        agent_history: { retention: '0d' },
        audit_logs: { retention: 'forever' },
      }),
    );
    const problems = problemsOf(() => loadConfig({ argv: ['--app-dir', dir], env: {} }));
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'agent_history.retention',
      'append_log.batch_size',
      'append_log.extra',
      'append_log.flush_interval',
      'append_log.max_buffered_rows',
      'audit_logs.retention',
    ]);
    expect(problems.find((p) => p.startsWith('agent_history.retention'))).toMatch(/greater than zero/);
  });

  it('the dashboard is on by default; the file, GATEWAY_UI_ENABLED and --ui turn it off, in that precedence', () => {
    const dir = tmpDir();
    expect(loadConfig({ env: { GATEWAY_APP_DIR: dir } }).ui).toEqual({ enabled: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ui: { enabled: false } }));
    expect(loadConfig({ env: { GATEWAY_APP_DIR: dir } }).ui.enabled).toBe(false);
    expect(loadConfig({ env: { GATEWAY_APP_DIR: dir, GATEWAY_UI_ENABLED: 'true' } }).ui.enabled).toBe(true);
    expect(
      loadConfig({ argv: ['--ui', 'false'], env: { GATEWAY_APP_DIR: dir, GATEWAY_UI_ENABLED: 'true' } }).ui.enabled,
    ).toBe(false);
    expect(problemsOf(() => loadConfig({ argv: ['--ui', 'sometimes'], env: { GATEWAY_APP_DIR: tmpDir() } }))).toEqual([
      'ui.enabled: must be a boolean value',
    ]);
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

  it('checks keys that depend on each other: dashboard auth needs both credentials, encryption_key must decode', () => {
    expect(problemsOf(() => loadConfig({ env: { GATEWAY_APP_DIR: tmpDir(), GATEWAY_AUTH_ENABLED: 'true' } }))).toEqual([
      'auth_config.admin_username: is required when auth_config.is_enabled is true (or GATEWAY_ADMIN_USERNAME)',
      'auth_config.admin_password: is required when auth_config.is_enabled is true (or GATEWAY_ADMIN_PASSWORD)',
    ]);
    expect(
      problemsOf(() =>
        loadConfig({
          env: { GATEWAY_APP_DIR: tmpDir() },
          overrides: { auth_config: { is_enabled: true, admin_username: 'a' } },
        }),
      ),
    ).toEqual([expect.stringMatching(/^auth_config\.admin_password: is required/)]);
    // Disabled auth may keep its credentials configured (they are ignored until enabled).
    expect(loadConfig({ env: { GATEWAY_APP_DIR: tmpDir(), GATEWAY_ADMIN_USERNAME: 'a' } }).auth_config.is_enabled).toBe(
      false,
    );

    const badKey = problemsOf(() =>
      loadConfig({ env: { GATEWAY_APP_DIR: tmpDir(), GATEWAY_ENCRYPTION_KEY: 'short' } }),
    );
    expect(badKey).toEqual([
      'encryption_key: must be 32 bytes encoded as base64 (44 characters) or hex (64 characters)',
    ]);
    expect(badKey.join()).not.toContain('short');
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ env: { GATEWAY_APP_DIR: tmpDir(), GATEWAY_ENCRYPTION_KEY: hex } }).encryption_key).toBe(hex);
  });

  it('docs/config.example.yaml loads, and names every key the loader knows', () => {
    const path = resolve('docs/config.example.yaml');
    const config = loadConfig({ argv: ['--config', path, '--app-dir', tmpDir()], env: {} });
    expect(config.config_path).toBe(path);
    const text = readFileSync(path, 'utf8');
    const documented = new Set<string>();
    // Keys, commented out or not: `key:` indented two spaces a level, optionally after `# ` (prose comments use no `word:`).
    const stack: string[] = [];
    for (const line of text.split('\n')) {
      const match = /^( *)(# ?)?( *)([a-z_]+):/.exec(line);
      if (!match) continue;
      const depth = (match[1]!.length + match[3]!.length) / 2;
      stack.length = depth;
      stack[depth] = match[4]!;
      documented.add(stack.join('.'));
    }
    const known = (value: object, prefix = ''): string[] =>
      Object.entries(value).flatMap(([k, v]) =>
        v && typeof v === 'object' && !Array.isArray(v) ? known(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    const defaults = loadConfig({ env: { GATEWAY_APP_DIR: tmpDir() } });
    const everyKey = [
      ...known(defaults),
      'setup_token',
      'encryption_key',
      'public_base_url',
      'auth_config.admin_username',
      'auth_config.admin_password',
      'database_url',
      'redis_url',
      'vault_addr',
      'vault_token',
      'providers',
    ].filter((k) => k !== 'config_path');
    expect(everyKey.filter((k) => !documented.has(k))).toEqual([]);
    // Nothing documented that the loader does not know (sections are the prefixes of their keys).
    // Under `providers:` the names are provider ids and key settings (validated by the inference catalog).
    expect(
      [...documented].filter(
        (k) => !k.startsWith('providers.') && !everyKey.some((e) => e === k || e.startsWith(`${k}.`)),
      ),
    ).toEqual([]);
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
