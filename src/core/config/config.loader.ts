import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { decodeEncryptionKey } from '../secrets/encryption-key.js';
import { parseDuration } from './duration.js';
import { forwardHeaderRefusal } from './forward-headers.js';
import { GatewayConfig } from './gateway-config.js';
import { CONTAINER_ENV, missingContainerVariables } from './required-variables.js';

type Plain = Record<string, unknown>;
type Coerce = 'string' | 'int' | 'bool' | 'list';

/** Environment variables the gateway reads, with the config key each one sets. Documented in docs/deploy.md. */
export const ENV_OVERRIDES: ReadonlyArray<{ env: string; key: string; coerce: Coerce }> = [
  { env: 'GATEWAY_EDITION', key: 'edition', coerce: 'string' },
  { env: 'GATEWAY_SETUP_TOKEN', key: 'setup_token', coerce: 'string' },
  { env: 'GATEWAY_ENCRYPTION_KEY', key: 'encryption_key', coerce: 'string' },
  { env: 'GATEWAY_PUBLIC_BASE_URL', key: 'public_base_url', coerce: 'string' },
  { env: 'LOG_LEVEL', key: 'log_level', coerce: 'string' },
  { env: 'GATEWAY_LOG_MAX_BUFFERED_BYTES', key: 'log_max_buffered_bytes', coerce: 'int' },
  { env: 'GATEWAY_AUTH_ENABLED', key: 'auth_config.is_enabled', coerce: 'bool' },
  { env: 'GATEWAY_ADMIN_USERNAME', key: 'auth_config.admin_username', coerce: 'string' },
  { env: 'GATEWAY_ADMIN_PASSWORD', key: 'auth_config.admin_password', coerce: 'string' },
  { env: 'GATEWAY_SESSION_TTL', key: 'auth_config.session_ttl', coerce: 'string' },
  { env: 'GATEWAY_MAX_BODY_BYTES', key: 'limits.max_body_bytes', coerce: 'int' },
  { env: 'GATEWAY_OUTBOUND_ALLOW_LOOPBACK', key: 'outbound.allow_loopback', coerce: 'bool' },
  { env: 'GATEWAY_OUTBOUND_ALLOW_PRIVATE_NETWORKS', key: 'outbound.allow_private_networks', coerce: 'bool' },
  { env: 'GATEWAY_APPEND_LOG_MAX_BUFFERED_ROWS', key: 'append_log.max_buffered_rows', coerce: 'int' },
  { env: 'GATEWAY_APPEND_LOG_BATCH_SIZE', key: 'append_log.batch_size', coerce: 'int' },
  { env: 'GATEWAY_APPEND_LOG_FLUSH_INTERVAL', key: 'append_log.flush_interval', coerce: 'string' },
  { env: 'GATEWAY_REQUIRE_VIRTUAL_KEY', key: 'inference.require_virtual_key', coerce: 'bool' },
  { env: 'GATEWAY_ALLOW_DIRECT_KEYS', key: 'inference.allow_direct_keys', coerce: 'bool' },
  { env: 'GATEWAY_MCP_MAX_AGENT_DEPTH', key: 'mcp.max_agent_depth', coerce: 'int' },
  { env: 'GATEWAY_MCP_ALLOWED_ORIGINS', key: 'mcp.allowed_origins', coerce: 'list' },
  { env: 'GATEWAY_MCP_ALLOWED_HOSTS', key: 'mcp.allowed_hosts', coerce: 'list' },
  { env: 'GATEWAY_GOVERNANCE_REDIS_FAILURE_MODE', key: 'governance.redis_failure_mode', coerce: 'string' },
  { env: 'GATEWAY_GOVERNANCE_COUNTER_TIMEOUT', key: 'governance.counter_timeout', coerce: 'string' },
  { env: 'GATEWAY_GOVERNANCE_COUNTER_LEASES', key: 'governance.counter_leases', coerce: 'bool' },
  { env: 'GATEWAY_PRICING_REFRESH', key: 'pricing.refresh', coerce: 'bool' },
  { env: 'GATEWAY_PRICING_REFRESH_INTERVAL', key: 'pricing.refresh_interval', coerce: 'string' },
  { env: 'GATEWAY_PRICING_REFRESH_URL', key: 'pricing.refresh_url', coerce: 'string' },
  { env: 'GATEWAY_OTEL_ENDPOINT', key: 'otel.endpoint', coerce: 'string' },
  { env: 'GATEWAY_OTEL_SERVICE_NAME', key: 'otel.service_name', coerce: 'string' },
  { env: 'GATEWAY_ACCESS_PROFILES_PROPAGATION_WAIT', key: 'access_profiles.propagation_wait', coerce: 'string' },
  { env: 'GATEWAY_AGENT_HISTORY_RETENTION', key: 'agent_history.retention', coerce: 'string' },
  { env: 'GATEWAY_AUDIT_LOGS_RETENTION', key: 'audit_logs.retention', coerce: 'string' },
  { env: 'GATEWAY_UI_ENABLED', key: 'ui.enabled', coerce: 'bool' },
  { env: 'HOST', key: 'host', coerce: 'string' },
  { env: 'PORT', key: 'port', coerce: 'int' },
  { env: 'GATEWAY_APP_DIR', key: 'app_dir', coerce: 'string' },
  { env: 'GATEWAY_ROLE', key: 'role', coerce: 'string' },
  { env: 'DATABASE_URL', key: 'database_url', coerce: 'string' },
  { env: 'GATEWAY_DATABASE_PARALLEL_QUERY', key: 'database_parallel_query', coerce: 'bool' },
  { env: 'REDIS_URL', key: 'redis_url', coerce: 'string' },
  { env: 'GATEWAY_REDIS_PREFIX', key: 'redis_prefix', coerce: 'string' },
  { env: 'VAULT_ADDR', key: 'vault_addr', coerce: 'string' },
  { env: 'VAULT_TOKEN', key: 'vault_token', coerce: 'string' },
];

/** Command-line flags, each with the config key it sets. Flags win over the environment, which wins over the file. */
const FLAGS = {
  host: { key: 'host', coerce: 'string' },
  port: { key: 'port', coerce: 'int' },
  'app-dir': { key: 'app_dir', coerce: 'string' },
  config: { key: 'config_path', coerce: 'string' },
  'log-level': { key: 'log_level', coerce: 'string' },
  role: { key: 'role', coerce: 'string' },
  ui: { key: 'ui.enabled', coerce: 'bool' },
} as const satisfies Record<string, { key: string; coerce: Coerce }>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  config: ${p}`).join('\n')}`);
  }
}

export interface ConfigSources {
  argv?: string[];
  env?: NodeJS.ProcessEnv;
  /** Values that win over everything else (tests use this). */
  overrides?: Plain;
}

function coerce(value: string, kind: Coerce): unknown {
  if (kind === 'int') return /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (kind === 'bool') {
    const v = value.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(v)) return true;
    if (['false', '0', 'no'].includes(v)) return false;
    return value;
  }
  // A comma-separated list (spaces around items ignored; an empty value is an empty list).
  if (kind === 'list')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  return value;
}

function setPath(target: Plain, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object' || next === null) node[part] = {};
    node = node[part] as Plain;
  }
  node[parts[parts.length - 1]!] = value;
}

function deepMerge(base: Plain, extra: Plain): Plain {
  const out: Plain = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const current = out[k];
    out[k] =
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      current &&
      typeof current === 'object' &&
      !Array.isArray(current)
        ? deepMerge(current as Plain, v as Plain)
        : v;
  }
  return out;
}

/**
 * The YAML parser, loaded (synchronously, its CommonJS build) only when a config file is YAML: a gateway configured
 * by JSON or the environment alone does not hold it (about 0.6 MB of V8 heap).
 */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(text);
}

function readConfigFile(path: string): Plain {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError([`config file ${path}: cannot be read (${(err as Error).message})`]);
  }
  try {
    const parsed: unknown = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
    if (parsed === null || parsed === undefined) return {};
    if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the top level must be an object');
    return parsed as Plain;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError([`config file ${path}: ${(err as Error).message}`]);
  }
}

/** One problem of a config value: its dotted key (`inference.require_virtual_key`) and what is wrong. */
export interface ConfigProblem {
  key: string;
  message: string;
}

function flatten(errors: ValidationError[], prefix = ''): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const e of errors) {
    const key = prefix ? `${prefix}.${e.property}` : e.property;
    for (const message of Object.values(e.constraints ?? {})) {
      out.push({ key, message: message.replace(/^\S+ /, '') });
    }
    if (e.children?.length) out.push(...flatten(e.children, key));
  }
  return out;
}

/** The dotted keys of every leaf of a plain config object (arrays are leaves). */
function leafKeys(plain: Plain, prefix = ''): string[] {
  return Object.entries(plain).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return v && typeof v === 'object' && !Array.isArray(v) ? leafKeys(v as Plain, key) : [key];
  });
}

/** Keys each loaded config was given by the file, the environment, flags or overrides (the rest are defaults). */
const givenKeys = new WeakMap<GatewayConfig, ReadonlySet<string>>();

/** Whether `key` (dotted) came from the file, the environment or a flag, rather than the built-in default. */
export function isConfigKeyGiven(config: GatewayConfig, key: string): boolean {
  return givenKeys.get(config)?.has(key) ?? false;
}

/**
 * Validates a merged plain config (defaults fill what it lacks) with the same rules as start-up: the field decorators
 * of GatewayConfig, then the cross-field checks. The runtime settings (PUT /api/config) are checked here too.
 */
export function validateConfigPlain(merged: Plain): { config: GatewayConfig; problems: ConfigProblem[] } {
  const config = plainToInstance(GatewayConfig, merged, { exposeDefaultValues: true });
  const problems = flatten(
    validateSync(config, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true }),
  );
  if (!problems.length) problems.push(...crossFieldProblems(config));
  return { config, problems };
}

/** Merges defaults, the config file, the environment and flags, then validates. Throws ConfigError on any problem. */
export function loadConfig(sources: ConfigSources = {}): GatewayConfig {
  const env = sources.env ?? {};
  const problems: string[] = [];

  const fromFlags: Plain = {};
  try {
    const { values } = parseArgs({
      args: sources.argv ?? [],
      options: Object.fromEntries(Object.keys(FLAGS).map((f) => [f, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    });
    for (const [flag, raw] of Object.entries(values)) {
      const spec = FLAGS[flag as keyof typeof FLAGS];
      if (typeof raw === 'string') setPath(fromFlags, spec.key, coerce(raw, spec.coerce));
    }
  } catch (err) {
    problems.push(`command line: ${(err as Error).message}`);
  }

  const fromEnv: Plain = {};
  for (const { env: name, key, coerce: kind } of ENV_OVERRIDES) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') setPath(fromEnv, key, coerce(raw, kind));
  }
  const overrides = sources.overrides ?? {};

  const appDir = [overrides.app_dir, fromFlags.app_dir, fromEnv.app_dir].find((v) => typeof v === 'string') ?? './data';
  const explicitPath = (overrides.config_path ?? fromFlags.config_path ?? env.GATEWAY_CONFIG) as string | undefined;
  const defaultPath = join(appDir, 'config.json');
  const configPath = explicitPath ?? (existsSync(defaultPath) ? defaultPath : undefined);
  const fromFile = configPath ? readConfigFile(configPath) : {};

  const merged = deepMerge(deepMerge(deepMerge(fromFile, fromEnv), fromFlags), overrides);
  if (configPath) merged.config_path = resolve(configPath);

  const validated = validateConfigPlain(merged);
  problems.push(...validated.problems.map((p) => `${p.key}: ${p.message}`));
  if (!problems.length && coerce(env[CONTAINER_ENV] ?? '', 'bool') === true) {
    problems.push(...missingContainerVariables(validated.config));
  }
  if (problems.length) throw new ConfigError(problems);
  givenKeys.set(validated.config, new Set(leafKeys(merged)));
  return validated.config;
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Bounds the decorators cannot express, as a provider's own `network_config` has them (docs/inference.md). */
function networkDefaultsProblems(config: GatewayConfig): ConfigProblem[] {
  const n = config.inference.network_defaults;
  const key = (name: string) => `inference.network_defaults.${name}`;
  const timeout = parseDuration(n.default_request_timeout) ?? 0;
  if (timeout > 3_600_000) return [{ key: key('default_request_timeout'), message: 'must be at most 1h' }];
  const initial = parseDuration(n.retry_backoff_initial) ?? 0;
  const max = parseDuration(n.retry_backoff_max) ?? 0;
  if (initial > 300_000) return [{ key: key('retry_backoff_initial'), message: 'must be at most 5m' }];
  if (max > 300_000) return [{ key: key('retry_backoff_max'), message: 'must be at most 5m' }];
  if (initial > max) {
    return [
      {
        key: key('retry_backoff_initial'),
        message: `must not be longer than retry_backoff_max (${n.retry_backoff_max})`,
      },
    ];
  }
  return [];
}

/** Checks that span keys or need more than a decorator; same one-line-per-problem form. */
function crossFieldProblems(config: GatewayConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const problem = (key: string, message: string) => problems.push({ key, message });
  if (config.encryption_key) {
    try {
      decodeEncryptionKey(config.encryption_key, 'encryption_key');
    } catch {
      problem('encryption_key', 'must be 32 bytes encoded as base64 (44 characters) or hex (64 characters)');
    }
  }
  for (const [name, value] of Object.entries(config.otel.headers ?? {})) {
    if (!HEADER_NAME.test(name)) problem('otel.headers', `${JSON.stringify(name)} is not a header name`);
    else if (typeof value !== 'string' || value === '') problem(`otel.headers.${name}`, 'must be a non-empty string');
  }
  problems.push(...networkDefaultsProblems(config));
  for (const entry of config.inference.forward_headers) {
    const refused = forwardHeaderRefusal(entry);
    if (refused) problem('inference.forward_headers', `${JSON.stringify(entry)} ${refused}`);
  }
  // Enabling dashboard auth without credentials used to start with auth silently off (isDashboardAuthActive).
  const auth = config.auth_config;
  if (auth.is_enabled) {
    for (const key of ['admin_username', 'admin_password'] as const) {
      const env = ENV_OVERRIDES.find((o) => o.key === `auth_config.${key}`)?.env;
      if (!auth[key]) problem(`auth_config.${key}`, `is required when auth_config.is_enabled is true (or ${env})`);
    }
  }
  return problems;
}
