import { parseDuration } from '../../core/config/duration.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import type { PluginJson } from '../plugins/index.js';

/** Who may be served an answer: the virtual key that asked (the default) or every caller of the gateway. */
export type CacheScope = 'virtual_key' | 'shared';

/** The `cache` plugin's config, checked and with its defaults (decisions.md "Config, plugins, cache, live channel"). */
export interface CacheSettings {
  ttlMs: number;
  semantic: boolean;
  threshold: number;
  /** `provider/model` of the embeddings used by the semantic cache; required when `semantic` is on. */
  embeddingModel: string | undefined;
  scope: CacheScope;
  /** Entries of the in-process store (embedded mode); Redis bounds itself by TTL and its own `maxmemory`. */
  maxEntries: number;
}

export const CACHE_DEFAULTS = {
  ttl: '5m',
  semantic: false,
  threshold: 0.9,
  scope: 'virtual_key',
  max_entries: 10_000,
} as const;

/** Longest TTL an entry may have (config or `x-gateway-cache-ttl`). */
export const MAX_CACHE_TTL_MS = 30 * 86_400_000;
const MAX_ENTRIES_LIMIT = 10_000_000;
const KNOWN_KEYS = new Set(['ttl', 'semantic', 'threshold', 'embedding_model', 'scope', 'max_entries']);

/** Parses a TTL such as `30s` or `5m` (integer + ms|s|m|h|d, above 0, at most 30 days); undefined when it is not one. */
export function parseCacheTtl(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = parseDuration(value);
  return ms !== undefined && ms > 0 && ms <= MAX_CACHE_TTL_MS ? ms : undefined;
}

/**
 * Checks a config given to `PUT /api/plugins/cache` (400 naming `config.<key>`, nothing applied) and fills in the
 * defaults. `semanticAvailable` is false on a Postgres without pgvector: turning `semantic` on there is refused.
 */
export function parseCacheConfig(config: PluginJson, semanticAvailable: boolean): CacheSettings {
  for (const key of Object.keys(config)) {
    if (!KNOWN_KEYS.has(key))
      throw GatewayException.validation(`config.${key}`, `config.${key} is not a cache setting`);
  }
  const ttlValue = config.ttl ?? CACHE_DEFAULTS.ttl;
  const ttlMs = parseCacheTtl(ttlValue);
  if (ttlMs === undefined) {
    throw GatewayException.validation(
      'config.ttl',
      'config.ttl must be a duration such as 30s, 5m or 1h (at most 30d)',
    );
  }
  const semantic = config.semantic ?? CACHE_DEFAULTS.semantic;
  if (typeof semantic !== 'boolean')
    throw GatewayException.validation('config.semantic', 'config.semantic must be a boolean');
  const threshold = config.threshold ?? CACHE_DEFAULTS.threshold;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw GatewayException.validation('config.threshold', 'config.threshold must be a number from 0 to 1');
  }
  const embeddingModel = config.embedding_model;
  if (embeddingModel !== undefined && (typeof embeddingModel !== 'string' || !/^[^/\s]+\/\S+$/.test(embeddingModel))) {
    throw GatewayException.validation(
      'config.embedding_model',
      'config.embedding_model must name an embedding model as provider/model, such as openai/text-embedding-3-small',
    );
  }
  if (semantic && embeddingModel === undefined) {
    throw GatewayException.validation(
      'config.embedding_model',
      'config.embedding_model is required when semantic is on',
    );
  }
  if (semantic && !semanticAvailable) {
    throw GatewayException.validation(
      'config.semantic',
      'The semantic cache needs the pgvector extension in the database: install it on the Postgres server (e.g. the postgresql-<version>-pgvector package) and restart the gateway; see docs/cache.md',
    );
  }
  const scope = config.scope ?? CACHE_DEFAULTS.scope;
  if (scope !== 'virtual_key' && scope !== 'shared') {
    throw GatewayException.validation('config.scope', 'config.scope must be virtual_key or shared');
  }
  const maxEntries = config.max_entries ?? CACHE_DEFAULTS.max_entries;
  if (
    typeof maxEntries !== 'number' ||
    !Number.isSafeInteger(maxEntries) ||
    maxEntries < 1 ||
    maxEntries > MAX_ENTRIES_LIMIT
  ) {
    throw GatewayException.validation(
      'config.max_entries',
      `config.max_entries must be an integer from 1 to ${MAX_ENTRIES_LIMIT}`,
    );
  }
  return { ttlMs, semantic, threshold, embeddingModel, scope, maxEntries };
}
