import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { jsonReply, type Reply, type SimRequest } from '../family.js';

/**
 * Vertex's OAuth side: a fixed test service account (its key pair made once per process) and the token endpoint of
 * the JWT-bearer grant, which verifies the assertion's RS256 signature, issuer, audience, scope and lifetime as
 * Google's does, and issues opaque access tokens the API paths then require.
 */

const KEY_ID = 'sim-vertex-key-1';
const CLIENT_EMAIL = 'gateway-tests@sim-project.iam.gserviceaccount.com';
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const VERTEX_TOKEN_LIFETIME_S = 3600;

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

/** Tokens issued by any simulator of this process (random, so sharing them across instances is harmless). */
const issued = new Set<string>();

/** The service-account JSON whose `token_uri` is this simulator's token endpoint (`${simUrl}/vertex/token`). */
export function vertexServiceAccount(simUrl: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: 'sim-project',
    private_key_id: KEY_ID,
    private_key: PRIVATE_KEY_PEM,
    client_email: CLIENT_EMAIL,
    client_id: '100000000000000000001',
    token_uri: `${simUrl}/vertex/token`,
    ...overrides,
  });
}

export const isIssuedToken = (token: string | undefined): boolean => token !== undefined && issued.has(token);

/** Google's OAuth error body (`invalid_grant` and a description), as the token endpoint answers it. */
function oauthError(status: number, error: string, description: string): Reply {
  return jsonReply(status, { error, error_description: description });
}

function decodeSegment(segment: string | undefined): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `POST /vertex/token`: the form-encoded JWT-bearer grant → `{access_token, expires_in, token_type}`. */
export function tokenExchange(req: SimRequest): Reply {
  const form = new URLSearchParams(typeof req.body === 'string' ? req.body : '');
  if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
    return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type: ' + (form.get('grant_type') ?? ''));
  }
  const parts = (form.get('assertion') ?? '').split('.');
  const header = decodeSegment(parts[0]);
  const claims = decodeSegment(parts[1]);
  if (parts.length !== 3 || !header || !claims) return oauthError(400, 'invalid_grant', 'Invalid JWT.');
  if (header.alg !== 'RS256' || header.kid !== KEY_ID) {
    return oauthError(400, 'invalid_grant', 'Invalid JWT: unknown signing key or algorithm.');
  }
  const signed = createVerify('RSA-SHA256')
    .update(`${parts[0]}.${parts[1]}`)
    .verify(publicKey, Buffer.from(parts[2]!, 'base64url'));
  if (!signed) return oauthError(400, 'invalid_grant', 'Invalid JWT Signature.');
  const now = Math.floor(Date.now() / 1000);
  const iat = typeof claims.iat === 'number' ? claims.iat : NaN;
  const exp = typeof claims.exp === 'number' ? claims.exp : NaN;
  if (claims.iss !== CLIENT_EMAIL) return oauthError(400, 'invalid_grant', 'Invalid JWT: unknown issuer.');
  if (typeof claims.aud !== 'string' || !claims.aud.endsWith('/vertex/token')) {
    return oauthError(400, 'invalid_grant', 'Invalid JWT: audience is not the token endpoint.');
  }
  if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(SCOPE)) {
    return oauthError(400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
  }
  if (!(iat <= now + 60 && exp > now && exp - iat <= 3600)) {
    return oauthError(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes).');
  }
  const token = `ya29.sim-${randomBytes(18).toString('base64url')}`;
  issued.add(token);
  return jsonReply(200, { access_token: token, expires_in: VERTEX_TOKEN_LIFETIME_S, token_type: 'Bearer' });
}
