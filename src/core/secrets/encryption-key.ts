import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/gateway-config.js';

export const ENCRYPTION_KEY_FILE = 'encryption.key';
const KEY_BYTES = 32;

export type EncryptionKeySource = 'config' | 'file' | 'generated';

export interface EncryptionKey {
  key: Buffer;
  source: EncryptionKeySource;
  /** The key file, when the key came from (or was written to) the app dir. */
  path?: string;
}

/** Start-up error for a bad key; names the config key and never the value. */
export class EncryptionKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionKeyError';
  }
}

/** 32 bytes given as 64 hex characters or as base64 (standard or url-safe, padding optional). */
export function decodeEncryptionKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  throw new EncryptionKeyError(`${origin} must be 32 bytes encoded as base64 (44 characters) or hex (64 characters)`);
}

/**
 * The key that encrypts plain-text secrets and tokens at rest: `config.encryption_key`, else `<app_dir>/encryption.key`,
 * else 32 random bytes written to that file (mode 0600) on first start.
 */
export function loadEncryptionKey(config: GatewayConfig, logger?: Logger): EncryptionKey {
  if (config.encryption_key !== undefined && config.encryption_key !== '') {
    return { key: decodeEncryptionKey(config.encryption_key, 'encryption_key'), source: 'config' };
  }
  const path = join(config.app_dir, ENCRYPTION_KEY_FILE);
  let existing: string | undefined;
  try {
    existing = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new EncryptionKeyError(`encryption_key is not set and ${path} cannot be read: ${(err as Error).message}`);
    }
  }
  if (existing !== undefined) {
    const key = decodeEncryptionKey(existing, `encryption_key file ${path}`);
    warnAboutReplicas(config, logger, path);
    return { key, source: 'file', path };
  }
  const key = randomBytes(KEY_BYTES);
  try {
    mkdirSync(config.app_dir, { recursive: true, mode: 0o700 });
    // `wx` fails if another process created the file meanwhile; the read below then picks up its key.
    writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      return {
        key: decodeEncryptionKey(readFileSync(path, 'utf8'), `encryption_key file ${path}`),
        source: 'file',
        path,
      };
    }
    throw new EncryptionKeyError(`encryption_key is not set and ${path} cannot be written: ${(err as Error).message}`);
  }
  // Debug, not info: the first line a starting process prints is its "gateway listening" line.
  logger?.debug({ path }, 'generated a new encryption key in the app dir');
  warnAboutReplicas(config, logger, path);
  return { key, source: 'generated', path };
}

/** With a shared database every replica must decrypt what the others wrote, so a per-host key file is a trap. */
function warnAboutReplicas(config: GatewayConfig, logger: Logger | undefined, path: string): void {
  if (!config.database_url) return;
  logger?.warn(
    { path },
    'encryption_key is not configured: the key comes from the app dir file; replicas sharing this database must all be configured with the same encryption_key',
  );
}
