import { GatewayException } from '../../core/errors/gateway.exception.js';
import { parseCacheTtl } from './cache-config.js';

/** Response headers saying what the cache did (decisions.md). */
export const CACHE_STATUS_HEADER = 'x-gateway-cache-status';
export const CACHE_TYPE_HEADER = 'x-gateway-cache-type';
export const CACHE_KEY_HEADER = 'x-gateway-cache-key';

/** Request headers that steer the cache for one request. */
export const CACHE_TTL_HEADER = 'x-gateway-cache-ttl';
export const CACHE_FORCE_HEADER = 'x-gateway-cache-force';
export const NO_CACHE_HEADER = 'x-gateway-no-cache';

/** What one request asks of the cache. */
export interface CacheDirectives {
  /** `x-gateway-no-cache`: neither read nor write. */
  skip: boolean;
  /** `x-gateway-cache-force: true`: no read, the fresh answer is written. */
  force: boolean;
  /** `x-gateway-cache-ttl`, when given. */
  ttlMs: number | undefined;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function first(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim();
}

/** A flag header is on when present with any value but `false` or `0` (`x-gateway-no-cache: 1` and bare names count). */
function flag(headers: Headers, name: string): boolean {
  const value = first(headers, name);
  return value !== undefined && !/^(false|0)$/i.test(value);
}

/** Reads the request's cache headers; a TTL that is not a duration is a 400 naming the header. */
export function cacheDirectivesOf(headers: Headers): CacheDirectives {
  const ttl = first(headers, CACHE_TTL_HEADER);
  let ttlMs: number | undefined;
  if (ttl !== undefined) {
    ttlMs = parseCacheTtl(ttl);
    if (ttlMs === undefined) {
      throw GatewayException.validation(
        CACHE_TTL_HEADER,
        `${CACHE_TTL_HEADER} must be a duration such as 30s, 5m or 1h (at most 30d)`,
      );
    }
  }
  return { skip: flag(headers, NO_CACHE_HEADER), force: flag(headers, CACHE_FORCE_HEADER), ttlMs };
}
