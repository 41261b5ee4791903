import { PROXY_AUTHORIZATION_HEADER } from '../auth/credential-headers.js';
import { GatewayException } from '../errors/gateway.exception.js';
import type { SecretInput, StoredSecret } from '../secrets/secret-value.js';

/** RFC 9110 `token`: what a header field name may be made of. */
export const HEADER_NAME_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Hop-by-hop headers and those the outbound client sets itself: a configured header map (a provider's
 * `extra_headers`, an agent's headers auth) may not name them.
 */
export const UNFORWARDABLE_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  PROXY_AUTHORIZATION_HEADER,
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** Seals one header value; `param` is the field path to name in a 400. */
export type HeaderValueSealer = (value: SecretInput, previous: StoredSecret | undefined, param: string) => StoredSecret;

const invalid = (param: string, message: string) => GatewayException.validation(param, `${param} ${message}`);

/**
 * Checks and seals a configured header map sent upstream as is: every name a token, none of `forbidden`, none twice
 * (names are case-insensitive). A value sent back as `<REDACTED>` keeps the stored value of the same name, whatever
 * its case. Each failure is a 400 whose param is `path.name`.
 */
export function sealForwardableHeaders(
  input: Record<string, SecretInput>,
  previous: Record<string, StoredSecret> | undefined,
  path: string,
  seal: HeaderValueSealer,
  forbidden: ReadonlySet<string> = UNFORWARDABLE_HEADERS,
): Record<string, StoredSecret> {
  const out: Record<string, StoredSecret> = {};
  const seen = new Set<string>();
  const previousByName = new Map(Object.entries(previous ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (const [name, value] of Object.entries(input)) {
    const param = `${path}.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME_TOKEN.test(name)) throw invalid(param, 'is not a valid HTTP header name');
    if (forbidden.has(lower)) throw invalid(param, 'cannot be set: the gateway does not forward it');
    if (seen.has(lower)) throw invalid(param, 'is listed twice (header names are case-insensitive)');
    seen.add(lower);
    out[name] = seal(value, previousByName.get(lower), param);
  }
  return out;
}
