import type { IncomingHttpHeaders } from 'node:http';
import { isCredentialHeader } from '../auth/credential-headers.js';

const MAX_METADATA_ENTRIES = 32;
const MAX_METADATA_VALUE_CHARS = 1024;

/**
 * The metadata a log row keeps of its request (request logs, MCP tool logs): headers under `prefix` (the config's
 * `logs.metadata_header_prefix`, removed from the name) and the caller's own `x-request-id`; at most 32 entries of at
 * most 1,024 characters. Undefined when there are none.
 */
export function logMetadataOf(headers: IncomingHttpHeaders, prefix: string): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  let count = 0;
  for (const name in headers) {
    const own = name === 'x-request-id';
    // A credential header is never metadata, whatever prefix is configured (`x-` would otherwise take `x-api-key`).
    if (!own && (!name.startsWith(prefix) || isCredentialHeader(name))) continue;
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (value === undefined) continue;
    out ??= {};
    out[own ? 'x-request-id' : name.slice(prefix.length)] = value.slice(0, MAX_METADATA_VALUE_CHARS);
    if (++count >= MAX_METADATA_ENTRIES) break;
  }
  return out;
}
