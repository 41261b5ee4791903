import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayException } from '../errors/gateway.exception.js';
import { LOGGER } from '../logging/logging.module.js';
import { OutboundHttpService, readBodyCapped } from '../outbound/outbound-http.service.js';
import { loadEncryptionKey, type EncryptionKeySource } from './encryption-key.js';
import {
  ENV_PREFIX,
  REDACTED,
  SecretInputError,
  parseSecretInput,
  parseVaultRef,
  type SecretInput,
  type SecretValueView,
  type StoredSecret,
} from './secret-value.js';

/** Optional overrides (tests): where `env.` references are read and the clock of the vault cache. */
export const SECRETS_OPTIONS = Symbol('SECRETS_OPTIONS');
export interface SecretsOptions {
  /** Defaults to `process.env`, read at use time. */
  env?: Record<string, string | undefined>;
  now?: () => number;
}

export const VAULT_CACHE_TTL_MS = 30_000;
const VAULT_TIMEOUT_MS = 10_000;
/** A KV v2 read answers a few fields; a larger body is not Vault's. */
const VAULT_MAX_BYTES = 1024 * 1024;
const CIPHER_VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface CachedVaultRead {
  expires: number;
  data: Promise<Record<string, unknown>>;
}

/** Thrown internally while resolving; becomes a 502 `secret_unresolved` naming the reference, never the value. */
class Unresolved extends Error {}

/**
 * Seals SecretValue input into its stored form, resolves stored secrets at use time (decrypt, environment, Vault
 * KV v2) and renders the redacted view. Also the AES-256-GCM helper for anything else kept encrypted at rest.
 */
@Injectable()
export class SecretsService implements OnModuleDestroy {
  readonly keySource: EncryptionKeySource;
  private readonly key: Buffer;
  private readonly env: Record<string, string | undefined>;
  private readonly now: () => number;
  private readonly vaultCache = new Map<string, CachedVaultRead>();
  /**
   * Vault is reached through the outbound client like every other peer: the address policy (metadata never, loopback
   * and private ranges per `outbound`), DNS answers checked at connect, no redirects. Its own instance: the outbound
   * module depends on this one.
   */
  private readonly outbound: OutboundHttpService;

  constructor(
    private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(SECRETS_OPTIONS) options?: SecretsOptions,
  ) {
    const loaded = loadEncryptionKey(config, logger);
    this.key = loaded.key;
    this.keySource = loaded.source;
    // The one place besides config loading that reads the process environment: `env.` references resolve at use time.
    this.env = options?.env ?? process.env;
    this.now = options?.now ?? Date.now;
    this.outbound = new OutboundHttpService(config);
  }

  onModuleDestroy(): Promise<void> {
    return this.outbound.onModuleDestroy();
  }

  /**
   * Input to stored form. `<REDACTED>` (or form B with that value) keeps `previous`; without one it is an error.
   * Throws SecretInputError (callers map it to their field path).
   */
  seal(input: SecretInput, previous?: StoredSecret | null): StoredSecret {
    const parsed = parseSecretInput(input);
    if (parsed.redacted) {
      if (!previous)
        throw new SecretInputError(`${REDACTED} can only be sent back for a secret that is already stored`);
      return previous;
    }
    if (parsed.type === 'plain_text') return { type: 'plain_text', ciphertext: this.encrypt(parsed.plain ?? '') };
    return { type: parsed.type, ref: parsed.ref };
  }

  /** Seals a map of SecretValues (header maps); `<REDACTED>` keeps the stored entry of the same key. */
  sealMap(
    inputs: Record<string, SecretInput>,
    previous?: Record<string, StoredSecret> | null,
  ): Record<string, StoredSecret> {
    const out: Record<string, StoredSecret> = {};
    for (const [key, input] of Object.entries(inputs)) {
      try {
        out[key] = this.seal(input, previous?.[key]);
      } catch (err) {
        if (err instanceof SecretInputError) throw new SecretInputError(`${key}: ${err.message}`);
        throw err;
      }
    }
    return out;
  }

  /** The secret's value now. Throws GatewayException 502 `secret_unresolved` (message names the ref, not the value). */
  async resolve(stored: StoredSecret): Promise<string> {
    const label = stored.type === 'plain_text' ? '(plain text)' : (stored.ref ?? '(missing ref)');
    try {
      switch (stored.type) {
        case 'plain_text':
          if (!stored.ciphertext) throw new Unresolved('no ciphertext stored');
          try {
            return this.decrypt(stored.ciphertext);
          } catch {
            throw new Unresolved('decryption failed (wrong encryption_key or tampered data)');
          }
        case 'env':
          return this.resolveEnv(stored.ref ?? '');
        case 'vault':
          return await this.resolveVault(stored.ref ?? '');
        default:
          throw new Unresolved(`unknown secret type ${String((stored as { type: unknown }).type)}`);
      }
    } catch (err) {
      if (err instanceof GatewayException) throw err;
      const reason = err instanceof Unresolved || err instanceof SecretInputError ? err.message : 'unexpected error';
      this.logger.warn({ ref: label, reason }, 'secret could not be resolved');
      throw new GatewayException(502, 'secret_unresolved', `Secret ${label} could not be resolved: ${reason}`, {
        reason: 'gateway_internal',
      });
    }
  }

  /** Optional variant for optional fields. */
  async resolveOptional(stored: StoredSecret | null | undefined): Promise<string | undefined> {
    return stored ? this.resolve(stored) : undefined;
  }

  /** Parses and resolves form A without storing it (config secrets such as `auth_config.admin_password`). */
  async resolveConfigSecret(input: string): Promise<string> {
    const parsed = parseSecretInput(input);
    if (parsed.redacted || parsed.type === 'plain_text') return input;
    return this.resolve({ type: parsed.type, ref: parsed.ref });
  }

  /**
   * Form B for responses. Redacted by default; `reveal` shows plain text (references keep `<REDACTED>`: use
   * `viewResolved` for their current value).
   */
  view(stored: StoredSecret | null | undefined, options: { reveal?: boolean } = {}): SecretValueView | undefined {
    if (!stored) return undefined;
    if (stored.type === 'plain_text') {
      if (!options.reveal) return { value: REDACTED, ref: '', type: 'plain_text' };
      try {
        return { value: this.decrypt(stored.ciphertext ?? ''), ref: '', type: 'plain_text' };
      } catch {
        throw new GatewayException(
          502,
          'secret_unresolved',
          'Secret (plain text) could not be resolved: decryption failed (wrong encryption_key or tampered data)',
          { reason: 'gateway_internal' },
        );
      }
    }
    return { value: REDACTED, ref: stored.ref ?? '', type: stored.type };
  }

  /** Views a map of stored secrets (header maps). */
  viewMap(
    stored: Record<string, StoredSecret> | null | undefined,
    options: { reveal?: boolean } = {},
  ): Record<string, SecretValueView> | undefined {
    if (!stored) return undefined;
    const out: Record<string, SecretValueView> = {};
    for (const [key, value] of Object.entries(stored)) {
      const v = this.view(value, options);
      if (v) out[key] = v;
    }
    return out;
  }

  /** Form B with the resolved value (non-secret fields that happen to be SecretValues). */
  async viewResolved(stored: StoredSecret): Promise<SecretValueView> {
    return { value: await this.resolve(stored), ref: stored.ref ?? '', type: stored.type };
  }

  /**
   * HMAC-SHA256 of `text` keyed by the encryption key (hex): a fingerprint that can be stored and
   * compared without revealing what it was taken of, even to a reader of the database.
   */
  fingerprint(text: string): string {
    return createHmac('sha256', this.key).update('fingerprint\u0000').update(text).digest('hex');
  }

  /** AES-256-GCM with a random 96-bit IV: `v1:` + base64(iv | tag | data). */
  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return CIPHER_VERSION + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
  }

  /** Inverse of `encrypt`; throws when the data was tampered with or sealed under another key. */
  decrypt(ciphertext: string): string {
    if (!ciphertext.startsWith(CIPHER_VERSION)) throw new Error('unsupported ciphertext version');
    const raw = Buffer.from(ciphertext.slice(CIPHER_VERSION.length), 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('ciphertext is too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** Drops cached Vault reads (tests, or after rotating a secret). */
  clearVaultCache(): void {
    this.vaultCache.clear();
  }

  private resolveEnv(ref: string): string {
    const name = ref.slice(ENV_PREFIX.length);
    const value = this.env[name];
    if (value === undefined) throw new Unresolved(`environment variable ${name} is not set`);
    return value;
  }

  private async resolveVault(ref: string): Promise<string> {
    const { mount, path, field } = parseVaultRef(ref);
    const data = await this.readVault(mount, path);
    let key = field;
    if (key === undefined) {
      const keys = Object.keys(data);
      if ('value' in data) key = 'value';
      else if (keys.length === 1) key = keys[0];
      else throw new Unresolved('the secret has several fields; name one with #field');
    }
    if (key === undefined || !(key in data)) throw new Unresolved(`field ${key ?? ''} not found in the secret`);
    const value = data[key];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw new Unresolved(`field ${key} is not a string`);
  }

  /** One KV v2 read per secret path per 30 s; concurrent reads share the request; failures are not cached. */
  private readVault(mount: string, path: string): Promise<Record<string, unknown>> {
    const cacheKey = `${mount}/${path}`;
    const now = this.now();
    const hit = this.vaultCache.get(cacheKey);
    if (hit && hit.expires > now) return hit.data;
    const data = this.fetchVault(mount, path);
    const entry = { expires: now + VAULT_CACHE_TTL_MS, data };
    this.vaultCache.set(cacheKey, entry);
    data.catch(() => {
      if (this.vaultCache.get(cacheKey) === entry) this.vaultCache.delete(cacheKey);
    });
    return data;
  }

  private async fetchVault(mount: string, path: string): Promise<Record<string, unknown>> {
    const { vault_addr: addr, vault_token: token } = this.config;
    if (!addr) throw new Unresolved('vault is not configured (vault_addr)');
    if (!token) throw new Unresolved('vault is not configured (vault_token)');
    const encoded = [mount, 'data', ...path.split('/')].map(encodeURIComponent).join('/');
    const url = `${addr.replace(/\/+$/, '')}/v1/${encoded}`;
    let status: number;
    let text: string;
    try {
      const res = await this.outbound.request(url, {
        headers: { 'X-Vault-Token': token, accept: 'application/json' },
        timeoutMs: VAULT_TIMEOUT_MS,
        bodyTimeoutMs: VAULT_TIMEOUT_MS,
        maxBytes: VAULT_MAX_BYTES,
      });
      status = res.status;
      if (status < 200 || status > 299) {
        await res.body.dump().catch(() => undefined);
        text = '';
      } else text = (await readBodyCapped(res.body, VAULT_MAX_BYTES, 'vault')).toString('utf8');
    } catch (err) {
      // The outbound client's message names the host and why (refused by the address policy, timed out, ...), never
      // the token.
      throw new Unresolved(
        `vault request failed (${err instanceof GatewayException ? err.message : (err as Error).name})`,
      );
    }
    if (status < 200 || status > 299) {
      if (status === 404) throw new Unresolved('vault has no secret at this path (404)');
      if (status === 403) throw new Unresolved('vault denied access (403)');
      throw new Unresolved(`vault answered ${status}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Unresolved('vault answered with invalid JSON');
    }
    const inner = (body as { data?: { data?: unknown } } | null)?.data?.data;
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) {
      throw new Unresolved('vault answered without data (deleted or not a KV v2 secret)');
    }
    return inner as Record<string, unknown>;
  }
}
