import { CREDENTIAL_HEADERS } from '../auth/credential-headers.js';

/**
 * `inference.forward_headers`: which caller request headers go on to the upstream provider. An entry is a lower-case
 * header name, or a prefix ending in `*`. Whatever the entries say, a header that carries a credential, shapes the
 * connection or the body, or steers the gateway itself is never forwarded: the gateway sets those for the provider.
 */
const NEVER_FORWARDED: ReadonlySet<string> = new Set([
  ...CREDENTIAL_HEADERS,
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'transfer-encoding',
  'expect',
  'content-length',
  'content-type',
  'content-encoding',
  'accept',
  'accept-encoding',
]);
/** Gateway control headers (`x-gateway-vk`, `x-gateway-cache-*`, ...), AWS signing headers, proxy headers. */
const NEVER_FORWARDED_PREFIXES = ['x-gateway-', 'x-amz-', 'proxy-'] as const;

function neverForwarded(name: string): boolean {
  return NEVER_FORWARDED.has(name) || NEVER_FORWARDED_PREFIXES.some((p) => name.startsWith(p));
}

/** Why an entry cannot be configured (every header it names is never forwarded), or undefined when it can. */
export function forwardHeaderRefusal(entry: string): string | undefined {
  const prefix = entry.endsWith('*') ? entry.slice(0, -1) : undefined;
  if (prefix === undefined)
    return neverForwarded(entry) ? 'is never forwarded (credential, connection or gateway header)' : undefined;
  if (NEVER_FORWARDED_PREFIXES.some((p) => prefix.startsWith(p))) {
    return 'only names headers that are never forwarded (gateway, AWS signing or proxy headers)';
  }
  return undefined;
}

/**
 * The caller's headers that `entries` allow through, names lower-case (Node gives them so), first value of a repeated
 * header; undefined when none is. With no entries the request path pays one length check and allocates nothing.
 */
export function forwardedHeaders(
  headers: Record<string, string | string[] | undefined> | undefined,
  entries: readonly string[],
): Record<string, string> | undefined {
  if (entries.length === 0 || !headers) return undefined;
  let out: Record<string, string> | undefined;
  for (const [name, raw] of Object.entries(headers)) {
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || neverForwarded(name)) continue;
    if (entries.some((e) => (e.endsWith('*') ? name.startsWith(e.slice(0, -1)) : name === e))) {
      out ??= {};
      out[name] = value;
    }
  }
  return out;
}
