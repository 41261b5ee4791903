import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { GatewayException } from '../errors/gateway.exception.js';
import { LOGGER } from '../logging/logging.module.js';
import { OutboundHttpService, readBodyCapped, type AgentTlsSettings } from './outbound-http.service.js';
import { SecretsService } from '../secrets/secrets.service.js';
import type { StoredUpstreamAuth, StoredUpstreamOAuth } from './upstream-auth.types.js';
import { resolveUpstreamTls } from './upstream-tls.js';

/** Tokens are reused until this long before they expire. */
const EXPIRY_MARGIN_MS = 30_000;
/** Lifetime assumed when a token response has no `expires_in`. */
const DEFAULT_TOKEN_TTL_S = 300;
const TOKEN_TIMEOUT_MS = 10_000;
const TOKEN_MAX_BYTES = 64 * 1024;
const METADATA_TTL_MS = 10 * 60_000;

interface CachedToken {
  fingerprint: string;
  token: string;
  /** Epoch ms after which the token is not used any more (expiry minus the margin). */
  usableUntil: number;
}

function authFailed(message: string): GatewayException {
  return new GatewayException(502, 'upstream_error', message, { reason: 'provider_auth_failed' });
}

/**
 * Turns an agent's upstream auth into request headers and TLS options at call time: header secrets are resolved
 * on every call (references may rotate), OAuth client-credentials tokens are cached per agent and phase until
 * 30 s before expiry, with one token request in flight at a time.
 */
@Injectable()
export class UpstreamAuthService {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly inflight = new Map<string, { fingerprint: string; promise: Promise<string> }>();
  private readonly metadata = new Map<string, { tokenEndpoint: string; expires: number }>();

  constructor(
    private readonly secrets: SecretsService,
    private readonly outbound: OutboundHttpService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** TLS options of a stored auth block (null: system defaults). */
  tlsForAuth(auth: StoredUpstreamAuth | null | undefined): Promise<AgentTlsSettings | null> {
    return resolveUpstreamTls(this.secrets, auth?.tls);
  }

  /** Headers to add to a request authenticated by `auth` (`{}` for none); `cacheKey` scopes cached OAuth tokens. */
  async headersForAuth(auth: StoredUpstreamAuth | null | undefined, cacheKey: string): Promise<Record<string, string>> {
    if (!auth) return {};
    switch (auth.type) {
      case 'none':
        return {};
      case 'headers': {
        const out: Record<string, string> = {};
        for (const [name, stored] of Object.entries(auth.headers ?? {})) {
          out[name.toLowerCase()] = await this.secrets.resolve(stored);
        }
        return out;
      }
      case 'oauth':
        if (!auth.oauth) throw authFailed('Upstream OAuth is configured without its settings');
        return { authorization: `Bearer ${await this.token(auth.oauth, cacheKey)}` };
    }
  }

  /** Drops cached tokens whose cache key starts with `prefix:` (an agent's, on update and delete). */
  forget(prefix: string): void {
    for (const key of [...this.tokens.keys()]) if (key.startsWith(`${prefix}:`)) this.tokens.delete(key);
  }

  private async token(oauth: StoredUpstreamOAuth, cacheKey: string): Promise<string> {
    // A changed configuration (new secret, URL or scopes) must not reuse a token issued for the old one.
    const fingerprint = createHash('sha256').update(canonicalJson(oauth)).digest('hex');
    const cached = this.tokens.get(cacheKey);
    if (cached && cached.fingerprint === fingerprint && cached.usableUntil > Date.now()) return cached.token;
    const pending = this.inflight.get(cacheKey);
    if (pending && pending.fingerprint === fingerprint) return pending.promise;
    const promise = this.requestToken(oauth)
      .then(({ token, expiresIn }) => {
        const usableUntil = Date.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS;
        if (usableUntil > Date.now()) this.tokens.set(cacheKey, { fingerprint, token, usableUntil });
        else this.tokens.delete(cacheKey);
        return token;
      })
      .finally(() => {
        if (this.inflight.get(cacheKey)?.promise === promise) this.inflight.delete(cacheKey);
      });
    this.inflight.set(cacheKey, { fingerprint, promise });
    return promise;
  }

  private async requestToken(oauth: StoredUpstreamOAuth): Promise<{ token: string; expiresIn: number }> {
    const tokenUrl = await this.tokenEndpoint(oauth);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: await this.secrets.resolve(oauth.client_id),
      client_secret: await this.secrets.resolve(oauth.client_secret),
    });
    if (oauth.scopes?.length) form.set('scope', oauth.scopes.join(' '));
    if (oauth.resource) form.set('resource', oauth.resource);
    const res = await this.outbound.request(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      timeoutMs: TOKEN_TIMEOUT_MS,
      bodyTimeoutMs: TOKEN_TIMEOUT_MS,
      maxBytes: TOKEN_MAX_BYTES,
    });
    const text = (await readBodyCapped(res.body, TOKEN_MAX_BYTES, new URL(tokenUrl).host)).toString('utf8');
    if (res.status !== 200) {
      let detail = '';
      try {
        const err = JSON.parse(text) as { error?: unknown };
        if (typeof err.error === 'string') detail = ` (${err.error})`;
      } catch {
        // Not JSON: the status says enough.
      }
      throw authFailed(`OAuth token request to ${tokenUrl} answered status ${res.status}${detail}`);
    }
    let body: { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw authFailed(`OAuth token response from ${tokenUrl} is not JSON`);
    }
    if (typeof body.access_token !== 'string' || !body.access_token) {
      throw authFailed(`OAuth token response from ${tokenUrl} has no access_token`);
    }
    if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer') {
      throw authFailed(`OAuth token from ${tokenUrl} has unsupported token_type ${body.token_type}`);
    }
    const expiresIn = Number(body.expires_in);
    this.logger.debug({ token_url: tokenUrl }, 'obtained upstream OAuth token');
    return {
      token: body.access_token,
      expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : DEFAULT_TOKEN_TTL_S,
    };
  }

  /** `token_url`, else `token_endpoint` from `discovery_url`, else from the provider's RFC 8414 metadata. */
  private async tokenEndpoint(oauth: StoredUpstreamOAuth): Promise<string> {
    if (oauth.token_url) return oauth.token_url;
    let metadataUrl = oauth.discovery_url;
    if (!metadataUrl && oauth.provider_url) {
      metadataUrl = `${oauth.provider_url.replace(/\/+$/, '')}/.well-known/oauth-authorization-server`;
    }
    if (!metadataUrl) throw authFailed('Upstream OAuth has no token_url, discovery_url or provider_url');
    const hit = this.metadata.get(metadataUrl);
    if (hit && hit.expires > Date.now()) return hit.tokenEndpoint;
    const res = await this.outbound.request(metadataUrl, {
      headers: { accept: 'application/json' },
      timeoutMs: TOKEN_TIMEOUT_MS,
      bodyTimeoutMs: TOKEN_TIMEOUT_MS,
      maxBytes: TOKEN_MAX_BYTES,
    });
    const text = (await readBodyCapped(res.body, TOKEN_MAX_BYTES, new URL(metadataUrl).host)).toString('utf8');
    if (res.status !== 200) throw authFailed(`OAuth metadata ${metadataUrl} answered status ${res.status}`);
    let endpoint: unknown;
    try {
      endpoint = (JSON.parse(text) as { token_endpoint?: unknown }).token_endpoint;
    } catch {
      throw authFailed(`OAuth metadata ${metadataUrl} is not JSON`);
    }
    if (typeof endpoint !== 'string' || !/^https?:\/\//i.test(endpoint)) {
      throw authFailed(`OAuth metadata ${metadataUrl} has no http(s) token_endpoint`);
    }
    this.metadata.set(metadataUrl, { tokenEndpoint: endpoint, expires: Date.now() + METADATA_TTL_MS });
    return endpoint;
  }
}

/** JSON with sorted keys: jsonb does not keep key order, and a fingerprint must not depend on it. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
