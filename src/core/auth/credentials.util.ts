import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { API_KEY_HEADER, AUTHORIZATION_HEADER, SETUP_TOKEN_HEADER, VIRTUAL_KEY_HEADER } from './credential-headers.js';

export const VIRTUAL_KEY_PREFIX = 'sk-gw-';
export const MANAGEMENT_KEY_PREFIX = 'gwm_';
export const SESSION_COOKIE = 'gateway_session';
export const SETUP_SESSION_COOKIE = 'gateway_setup_session';

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function sha256Hex(value: string): string {
  return sha256(value).toString('hex');
}

/** Constant-time equality over SHA-256 digests, so neither the content nor the length of the secret leaks. */
export function constantTimeEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(sha256(presented), sha256(expected));
}

/** An opaque bearer token: 32 random bytes, base64url. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface PresentedCredentials {
  basic?: { username: string; password: string };
  /** The raw bearer token (`Authorization: Bearer <token>`). */
  bearer?: string;
  /** A Basic header that is not valid base64 `user:pass`. */
  malformedAuthorization?: boolean;
  apiKeyHeader?: string;
  virtualKeyHeader?: string;
  setupToken?: string;
  sessionCookie?: string;
  setupSessionCookie?: string;
}

/** Splits `user:password` (the password may contain colons). */
export function splitUserPassword(decoded: string): { username: string; password: string } | undefined {
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Reads every credential a request may carry, without judging any of them. */
export function readCredentials(request: FastifyRequest): PresentedCredentials {
  const out: PresentedCredentials = {};
  const authorization = header(request, AUTHORIZATION_HEADER)?.trim();
  if (authorization) {
    const [scheme, ...rest] = authorization.split(/\s+/);
    const value = rest.join(' ');
    if (scheme?.toLowerCase() === 'basic' && value) {
      const pair = splitUserPassword(Buffer.from(value, 'base64').toString('utf8'));
      if (pair) out.basic = pair;
      else out.malformedAuthorization = true;
    } else if (scheme?.toLowerCase() === 'bearer' && value) {
      out.bearer = value;
    } else {
      out.malformedAuthorization = true;
    }
  }
  const apiKey = header(request, API_KEY_HEADER);
  if (apiKey !== undefined) out.apiKeyHeader = apiKey.trim();
  const vk = header(request, VIRTUAL_KEY_HEADER);
  if (vk !== undefined) out.virtualKeyHeader = vk.trim();
  const setup = header(request, SETUP_TOKEN_HEADER);
  if (setup !== undefined) out.setupToken = setup;
  const cookies = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies ?? {};
  if (cookies[SESSION_COOKIE]) out.sessionCookie = cookies[SESSION_COOKIE];
  if (cookies[SETUP_SESSION_COOKIE]) out.setupSessionCookie = cookies[SETUP_SESSION_COOKIE];
  return out;
}

/** True when the request carries a virtual key in any of the places the data plane reads one. */
export function presentsVirtualKey(c: PresentedCredentials): boolean {
  return (
    c.apiKeyHeader !== undefined ||
    c.virtualKeyHeader !== undefined ||
    (c.bearer !== undefined && c.bearer.startsWith(VIRTUAL_KEY_PREFIX))
  );
}

/** The virtual key value a data-plane request presents: `x-gateway-vk`, then `x-api-key`, then a Bearer token. */
export function virtualKeyValue(c: PresentedCredentials): string | undefined {
  return c.virtualKeyHeader || c.apiKeyHeader || c.bearer || undefined;
}

/**
 * A credential that may be a provider key passed through (`inference.allow_direct_keys`): the Bearer token or
 * `x-api-key`, when it is neither a virtual key nor a management key.
 */
export function passThroughCredential(c: PresentedCredentials): string | undefined {
  const credential = c.bearer ?? c.apiKeyHeader;
  if (credential === undefined) return undefined;
  return credential.startsWith(VIRTUAL_KEY_PREFIX) || credential.startsWith(MANAGEMENT_KEY_PREFIX)
    ? undefined
    : credential;
}
