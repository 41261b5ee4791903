/**
 * The one list of the request headers, cookies and query parameters that carry a credential: a gateway credential
 * (virtual key, management key, dashboard session, setup token, job ticket) or a provider's own key, in every
 * spelling the gateway accepts. The authenticators read from it; every outbound header filter, log and payload
 * redaction, async job storage and the routing rules' inputs derive their sets from it, so a header added here is
 * never forwarded, stored or shown anywhere. Nothing else spells these names (the `credential-literal` lint rule).
 *
 * A provider's own outbound key header (Azure's `api-key`, Gemini's `x-goog-api-key`, Anthropic's `x-api-key`) is its
 * wire format and is written by its adapter: that is the one place a credential goes upstream.
 */

/** The gateway's own virtual-key header. */
export const VIRTUAL_KEY_HEADER = 'x-gateway-vk';
/** Anthropic's key header; the data plane takes a virtual key in it. */
export const API_KEY_HEADER = 'x-api-key';
/** Gemini's key header (the Google SDKs send it); the data plane takes a virtual key in it. */
export const GOOGLE_API_KEY_HEADER = 'x-goog-api-key';
/** Azure OpenAI's key header (the Azure SDKs send it); the data plane takes a virtual key in it. */
export const AZURE_API_KEY_HEADER = 'api-key';
export const AUTHORIZATION_HEADER = 'authorization';
/** The open-source setup lock's token. */
export const SETUP_TOKEN_HEADER = 'x-gateway-setup-token';
/** A proxy's credential (hop-by-hop: never passed on, and never configurable as an upstream header). */
export const PROXY_AUTHORIZATION_HEADER = 'proxy-authorization';
/** A queued async job's replay carries its one-use ticket here (the job runs as its virtual key). */
export const JOB_TICKET_HEADER = 'x-gateway-job-ticket';

/**
 * Where the data plane looks for a virtual key, in order (`authorization` is read as `Bearer <key>`). The last two
 * are the native SDKs' own (Gemini, Azure OpenAI).
 */
export const DATA_PLANE_CREDENTIAL_SOURCES = [
  VIRTUAL_KEY_HEADER,
  API_KEY_HEADER,
  AUTHORIZATION_HEADER,
  GOOGLE_API_KEY_HEADER,
  AZURE_API_KEY_HEADER,
] as const;

/** Every request or response header that carries a credential (lower case, as Node gives header names). */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  ...DATA_PLANE_CREDENTIAL_SOURCES,
  SETUP_TOKEN_HEADER,
  JOB_TICKET_HEADER,
  PROXY_AUTHORIZATION_HEADER,
  'cookie',
  'cookie2',
  'set-cookie',
]);

/** Gemini's query parameter for the key (`?key=`); the Gemini-format routes take a virtual key in it. */
export const GOOGLE_API_KEY_QUERY = 'key';

/** Query parameters that carry a credential: Gemini's `?key=`. */
export const CREDENTIAL_QUERY_PARAMS: ReadonlySet<string> = new Set([GOOGLE_API_KEY_QUERY]);

/** True when `name` (any case) is a header that carries a credential. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name) || CREDENTIAL_HEADERS.has(name.toLowerCase());
}

/**
 * A field name folded for comparison: lower case, `-` and `_` dropped, so `api-key`, `api_key`, `apiKey` and `API_KEY`
 * are one name.
 */
export function foldFieldName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/**
 * Body and record field names whose values are secrets wherever they appear, folded: every credential header's name
 * (a client that copies headers into a JSON body or metadata) and the usual secret field names.
 */
const CREDENTIAL_FIELDS: ReadonlySet<string> = new Set(
  [
    ...CREDENTIAL_HEADERS,
    'api_key',
    'token',
    'credentials',
    'password',
    'secret',
    'client_secret',
    'access_token',
    'refresh_token',
    'setup_token',
  ].map(foldFieldName),
);

/** A name that may fold to another: with a capital, `-` or `_` (most record keys have none and skip the fold). */
const FOLDABLE = /[A-Z_-]/;

/** True when a body or record field of this name holds a secret (case-insensitive, `-` and `_` ignored). */
export function isCredentialField(name: string): boolean {
  return CREDENTIAL_FIELDS.has(name) || (FOLDABLE.test(name) && CREDENTIAL_FIELDS.has(foldFieldName(name)));
}
