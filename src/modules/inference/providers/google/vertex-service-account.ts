import { createSign } from 'node:crypto';
import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { isJsonObject, parseJson } from '../shared/wire-json.js';

/** The OAuth scope every Vertex AI call needs. */
export const VERTEX_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Lifetime asked of the signed assertion (Google's maximum). */
const ASSERTION_LIFETIME_S = 3600;

/** The members of a service-account key file that the JWT-bearer grant uses. */
export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string;
  tokenUri: string;
}

/** A Vertex key that cannot yield a token: a 502 naming the problem, never the secret. */
export function vertexAuthFailed(keyName: string, problem: string): GatewayException {
  return new GatewayException(502, 'upstream_error', `Vertex key ${keyName}: ${problem}`, {
    reason: 'provider_auth_failed',
  });
}

/** Reads a service-account key file; throws `vertexAuthFailed` naming the missing or invalid member. */
export function parseServiceAccount(json: string, keyName: string): ServiceAccount {
  const file = parseJson(json);
  if (!isJsonObject(file)) {
    throw vertexAuthFailed(keyName, 'vertex_key_config.auth_credentials is not a service-account JSON object');
  }
  const member = (name: string): string => {
    const value = file[name];
    if (typeof value !== 'string' || value === '') {
      throw vertexAuthFailed(keyName, `the service-account JSON has no ${name}`);
    }
    return value;
  };
  const account: ServiceAccount = {
    clientEmail: member('client_email'),
    privateKey: member('private_key'),
    privateKeyId: member('private_key_id'),
    tokenUri: member('token_uri'),
  };
  if (!/^https?:\/\//.test(account.tokenUri)) {
    throw vertexAuthFailed(keyName, 'the service-account token_uri is not an http(s) URL');
  }
  return account;
}

const base64Url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/**
 * The RS256-signed JWT of the JWT-bearer grant (RFC 7523): issued by the service account, for the token endpoint,
 * asking for the cloud-platform scope. `nowMs` is the caller's clock.
 */
export function signedAssertion(account: ServiceAccount, nowMs: number, keyName: string): string {
  const iat = Math.floor(nowMs / 1000);
  const header = { alg: 'RS256', typ: 'JWT', kid: account.privateKeyId };
  const claims = {
    iss: account.clientEmail,
    scope: VERTEX_SCOPE,
    aud: account.tokenUri,
    iat,
    exp: iat + ASSERTION_LIFETIME_S,
  };
  const input = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(claims))}`;
  let signature: Buffer;
  try {
    signature = createSign('RSA-SHA256').update(input).sign(account.privateKey);
  } catch {
    // The crypto error may quote parts of the key: report only that it is unusable.
    throw vertexAuthFailed(keyName, 'the service-account private_key is not a usable RSA PEM key');
  }
  return `${input}.${base64Url(signature)}`;
}
