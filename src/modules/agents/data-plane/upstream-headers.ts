import type { IncomingHttpHeaders } from 'node:http';
import { CREDENTIAL_HEADERS } from '../../../core/auth/credential-headers.js';

// RFC 9110 §7.6.1 hop-by-hop headers plus the legacy ones proxies still see (`proxy-authorization`: a credential).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Never forwarded upstream, whatever the caller sends: no credential the caller presented (in any header that can
 * carry one) reaches an agent; the agent's own credential is the registration's runtime auth, or the accepted
 * credential forwarded on purpose (`forwardedCredential`).
 */
const NEVER = new Set([
  ...HOP_BY_HOP,
  ...CREDENTIAL_HEADERS,
  'host',
  'content-length',
  // Set by the gateway itself.
  'a2a-version',
  'a2a-extensions',
  'x-a2a-extensions',
  'content-type',
  'accept-encoding',
  'x-request-id',
]);

export interface UpstreamHeaderInput {
  incoming: IncomingHttpHeaders;
  requestId: string;
  contentType?: string;
  /** Runtime auth headers of the registration (from UpstreamAuthService). */
  runtimeAuth: Record<string, string>;
  /** The caller's virtual key as presented, when forwarding is enabled. */
  forwardedCredential?: string;
  /** forward_accepted_credential_overrides_auth */
  forwardOverridesAuth: boolean;
  /** URIs both registered (extension_uris) and declared by the upstream card. */
  allowedExtensions: ReadonlySet<string>;
}

/** The headers sent upstream (lower-case names). */
export function buildUpstreamHeaders(input: UpstreamHeaderInput): Record<string, string> {
  const out: Record<string, string> = {};
  const connectionListed = new Set(
    String(input.incoming.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const [rawName, value] of Object.entries(input.incoming)) {
    const name = rawName.toLowerCase();
    if (value === undefined || NEVER.has(name) || connectionListed.has(name)) continue;
    if (name.startsWith('x-gateway-') || name.startsWith('proxy-') || name.startsWith(':')) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  out['a2a-version'] = '1.0';
  out['accept-encoding'] = 'identity';
  out['x-request-id'] = input.requestId;
  if (input.contentType) out['content-type'] = input.contentType;

  const requested = [input.incoming['a2a-extensions'], input.incoming['x-a2a-extensions']]
    .flatMap((v) => (Array.isArray(v) ? v : v ? [v] : []))
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((uri) => uri && input.allowedExtensions.has(uri));
  if (requested.length) out['a2a-extensions'] = [...new Set(requested)].join(', ');

  const runtime = Object.fromEntries(Object.entries(input.runtimeAuth).map(([k, v]) => [k.toLowerCase(), v]));
  const credential = input.forwardedCredential ? `Bearer ${input.forwardedCredential}` : undefined;
  if (credential && input.forwardOverridesAuth) {
    // The caller's credential replaces the configured runtime auth entirely.
    out.authorization = credential;
  } else {
    if (credential) out.authorization = credential;
    // Runtime auth wins over a forwarded credential on the same header.
    Object.assign(out, runtime);
  }
  return out;
}

/** Upstream response headers passed back to the caller on non-streamed answers. */
export const RELAYED_RESPONSE_HEADERS = ['content-type', 'a2a-extensions', 'a2a-version', 'retry-after'] as const;
