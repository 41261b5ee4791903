import { GatewayException } from '../../core/errors/gateway.exception.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';

/**
 * The config keys `PUT /api/config` may change (docs/config.md). Each is read by its consumers at request time (or at
 * each purge), never copied at start, so a change applies on the next request. A key read only at start must not be
 * listed here.
 */
export const RUNTIME_KEYS = [
  'inference.require_virtual_key',
  'inference.allow_direct_keys',
  'inference.routing_chain_max_depth',
  'inference.async_job_result_ttl',
  'inference.forward_headers',
  'inference.network_defaults.default_request_timeout',
  'inference.network_defaults.max_retries',
  'inference.network_defaults.retry_backoff_initial',
  'inference.network_defaults.retry_backoff_max',
  'logs.enabled',
  'logs.capture_content',
  'logs.max_content_bytes',
  'logs.capture_raw',
  'logs.metadata_header_prefix',
  'logs.retention',
  'governance.redis_failure_mode',
  'mcp.max_agent_depth',
  'http.cors_allowed_origins',
] as const;
export type RuntimeKey = (typeof RUNTIME_KEYS)[number];

const RUNTIME: ReadonlySet<string> = new Set(RUNTIME_KEYS);

export function isRuntimeKey(key: string): key is RuntimeKey {
  return RUNTIME.has(key);
}

/**
 * Process-level settings: shown read-only under `process` by `GET /api/config`; set in the file, the environment or
 * flags, and applied by a restart. A PUT naming one is refused.
 */
const PROCESS_KEYS: ReadonlySet<string> = new Set([
  'process',
  'host',
  'port',
  'app_dir',
  'role',
  'edition',
  'database_url',
  'database_parallel_query',
  'redis_url',
  'redis_prefix',
  'encryption_key',
  'vault_addr',
  'vault_token',
  'config_path',
  'setup_token',
  'auth_config',
]);

type Plain = Record<string, unknown>;

/** A plain object or a class instance (the live GatewayConfig), not an array. */
function isPlainObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getPath(target: object, key: string): unknown {
  let node: unknown = target;
  // Own fields only: `constructor` or `toString` are no config keys.
  for (const part of key.split('.')) node = isPlainObject(node) && Object.hasOwn(node, part) ? node[part] : undefined;
  return node;
}

export function setPath(target: object, key: string, value: unknown): void {
  const parts = key.split('.');
  let node = target as Plain;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(node[part])) node[part] = {};
    node = node[part] as Plain;
  }
  node[parts[parts.length - 1]!] = value;
}

/** A value copied, so the live config never shares an array with a request body or a stored row. */
export function copyValue<T>(value: T): T {
  return Array.isArray(value) ? ([...value] as T) : value;
}

/** Objects (dotted) that hold at least one runtime key: `inference`, `inference.network_defaults`, ... */
const SECTIONS: ReadonlySet<string> = new Set(
  RUNTIME_KEYS.flatMap((k) =>
    k
      .split('.')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('.')),
  ),
);
const CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys(new GatewayConfig()));

/**
 * The changes a PUT body asks for: dotted runtime key to its new value, `null` resetting the key to the file or
 * default value. Throws 400 naming the first key that is not a runtime setting.
 */
export function changesOf(body: unknown): Map<RuntimeKey, unknown> {
  if (!isPlainObject(body)) throw GatewayException.validation('body', 'must be an object of runtime settings');
  const changes = new Map<RuntimeKey, unknown>();
  const walk = (node: Plain, prefix: string) => {
    for (const [name, value] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${name}` : name;
      if (isRuntimeKey(key)) {
        changes.set(key, value);
        continue;
      }
      if (!prefix && PROCESS_KEYS.has(key)) {
        throw GatewayException.validation(
          key,
          `${key} is a process setting: read-only here (file, environment or flag, then a restart)`,
        );
      }
      if (SECTIONS.has(key)) {
        if (!isPlainObject(value))
          throw GatewayException.validation(key, `${key} must be an object of runtime settings`);
        walk(value, key);
        continue;
      }
      const known = getPath(new GatewayConfig(), key) !== undefined || (!prefix && CONFIG_KEYS.has(key));
      throw GatewayException.validation(
        key,
        known
          ? `${key} is not a runtime setting: it is read at start (set it in the config file)`
          : `${key} is not a known field`,
      );
    }
  };
  walk(body, '');
  if (changes.size === 0) throw GatewayException.validation('body', 'must name at least one runtime setting');
  return changes;
}
