import { createHash } from 'node:crypto';
import type { AdapterIo, KeyCredentials } from '../shared/provider-adapter.js';
import { parseServiceAccount, signedAssertion, vertexAuthFailed } from './vertex-service-account.js';
import { isJsonObject, parseJson } from '../shared/wire-json.js';

/** A token is used until this long before Google says it expires. */
const EXPIRY_MARGIN_MS = 5 * 60_000;
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google's OAuth error fields are short codes and sentences; anything longer is cut. */
const MAX_ERROR_TEXT = 200;

interface CachedToken {
  token: string;
  /** Epoch ms (the io clock) after which the token is exchanged again. */
  usableUntil: number;
}

/**
 * Vertex access tokens per key: one JWT-bearer exchange per key and service-account JSON (the cache key is the key id
 * and a hash of the JSON, so a rotated JSON exchanges again), reused until 5 minutes before expiry. Concurrent
 * requests of one key share the exchange in flight. `evictAll` forgets every token: a provider 401/403 does not say
 * which key's token it refused, and one extra exchange per key is the cheap side of that trade.
 */
export class VertexTokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly inflight = new Map<string, Promise<CachedToken>>();

  async token(key: KeyCredentials, io: AdapterIo, signal?: AbortSignal): Promise<string> {
    const json = key.vertex?.serviceAccountJson ?? '';
    if (json === '') throw vertexAuthFailed(key.name, 'vertex_key_config.auth_credentials is empty');
    const cacheKey = `${key.id}:${createHash('sha256').update(json).digest('hex')}`;
    const cached = this.tokens.get(cacheKey);
    if (cached && cached.usableUntil > io.now()) return cached.token;
    let pending = this.inflight.get(cacheKey);
    if (!pending) {
      pending = this.exchange(json, key.name, io, signal).finally(() => this.inflight.delete(cacheKey));
      this.inflight.set(cacheKey, pending);
    }
    const fresh = await pending;
    this.forgetExpired(io.now());
    if (fresh.usableUntil > io.now()) this.tokens.set(cacheKey, fresh);
    return fresh.token;
  }

  evictAll(): void {
    this.tokens.clear();
  }

  /** Number of cached tokens (tests). */
  get size(): number {
    return this.tokens.size;
  }

  private async exchange(json: string, keyName: string, io: AdapterIo, signal?: AbortSignal): Promise<CachedToken> {
    const account = parseServiceAccount(json, keyName);
    const assertion = signedAssertion(account, io.now(), keyName);
    const form = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString();
    const host = new URL(account.tokenUri).host;
    let answer: { status: number; body: string };
    try {
      answer = await io.post(
        account.tokenUri,
        { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        form,
        signal,
      );
    } catch (err) {
      const why = err instanceof Error ? err.message : 'no answer';
      throw vertexAuthFailed(keyName, `the token exchange at ${host} failed: ${why}`);
    }
    const body = parseJson(answer.body);
    if (answer.status !== 200) {
      throw vertexAuthFailed(keyName, `the token exchange at ${host} answered ${answer.status}${oauthError(body)}`);
    }
    if (!isJsonObject(body) || typeof body.access_token !== 'string' || body.access_token === '') {
      throw vertexAuthFailed(keyName, `the token exchange at ${host} answered without an access_token`);
    }
    const lifetimeS = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    return { token: body.access_token, usableUntil: io.now() + lifetimeS * 1000 - EXPIRY_MARGIN_MS };
  }

  private forgetExpired(now: number): void {
    for (const [cacheKey, cached] of this.tokens) if (cached.usableUntil <= now) this.tokens.delete(cacheKey);
  }
}

/** `: invalid_grant (Invalid JWT Signature.)` from an OAuth error body, else ''. */
function oauthError(body: unknown): string {
  if (!isJsonObject(body)) return '';
  const code = typeof body.error === 'string' ? body.error.slice(0, MAX_ERROR_TEXT) : undefined;
  const text = typeof body.error_description === 'string' ? body.error_description.slice(0, MAX_ERROR_TEXT) : '';
  if (!code) return '';
  return text ? `: ${code} (${text})` : `: ${code}`;
}
