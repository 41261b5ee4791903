import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDashboardAuthActive } from '../auth/dashboard-auth.js';
import type { GatewayConfig } from '../config/gateway-config.js';

export const SETUP_TOKEN_FILE = 'setup-token';
/** 24 random bytes: 32 base64url characters, well past the 16 the start-up check asks for. */
const TOKEN_BYTES = 24;
const MIN_LENGTH = 8;

/**
 * How a starting gateway can be unlocked:
 * - `dashboard_auth`: the admin logs in, no setup lock;
 * - `config`: `setup_token` / `GATEWAY_SETUP_TOKEN` is set;
 * - `file` / `generated`: embedded default with neither, the token is kept in `<app_dir>/setup-token` (mode 0600);
 * - `none`: locked with no way in (scale-out with neither set): the start-up line says what to set.
 */
export type SetupTokenSource = 'dashboard_auth' | 'config' | 'file' | 'generated' | 'none';

export interface SetupTokenState {
  source: SetupTokenSource;
  /** The token file, for `file` and `generated`. */
  path?: string;
}

/** Start-up error for an unusable token file; names the file, never its content. */
export class SetupTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupTokenError';
  }
}

/**
 * Makes sure a first run has a way in. In the embedded default (no DATABASE_URL) without a setup token and without
 * dashboard auth, the token is read from `<app_dir>/setup-token`, or generated there on first start the way the
 * encryption key is, and put into `config.setup_token`. A shared database gets no per-host token: replicas would
 * each invent their own.
 */
export function prepareSetupToken(config: GatewayConfig): SetupTokenState {
  if (isDashboardAuthActive(config)) return { source: 'dashboard_auth' };
  if (config.setup_token) return { source: 'config' };
  if (config.database_url) return { source: 'none' };

  const path = resolve(join(config.app_dir, SETUP_TOKEN_FILE));
  const existing = readTokenFile(path);
  if (existing !== undefined) {
    config.setup_token = existing;
    return { source: 'file', path };
  }
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  try {
    mkdirSync(config.app_dir, { recursive: true, mode: 0o700 });
    // `wx` fails if another process created the file meanwhile; its token is then the one to use.
    writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      config.setup_token = readTokenFile(path);
      return { source: 'file', path };
    }
    throw new SetupTokenError(`setup_token: is not set and ${path} cannot be written: ${(err as Error).message}`);
  }
  config.setup_token = token;
  return { source: 'generated', path };
}

function readTokenFile(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SetupTokenError(`setup_token: is not set and ${path} cannot be read: ${(err as Error).message}`);
  }
  const token = text.trim();
  if (token.length < MIN_LENGTH) {
    throw new SetupTokenError(`setup_token: the file ${path} must hold a token of at least ${MIN_LENGTH} characters`);
  }
  return token;
}

/** The start-up line that tells a newcomer how to get in (never the token itself). */
export function setupTokenNotice(state: SetupTokenState): { level: 'info' | 'warn'; msg: string } | undefined {
  switch (state.source) {
    case 'dashboard_auth':
    case 'config':
      return undefined;
    case 'generated':
    case 'file':
      return {
        level: 'warn',
        msg:
          `setup lock: ${state.source === 'generated' ? 'generated a setup token into' : 'the setup token is in'} ` +
          `${state.path}; send it as X-Gateway-Setup-Token to use /api/* (or set GATEWAY_SETUP_TOKEN, or enable dashboard auth)`,
      };
    case 'none':
      return {
        level: 'warn',
        msg:
          'setup lock: /api/* is locked and no setup token is configured; set GATEWAY_SETUP_TOKEN, or enable dashboard ' +
          'auth (GATEWAY_AUTH_ENABLED=true with GATEWAY_ADMIN_USERNAME and GATEWAY_ADMIN_PASSWORD)',
      };
  }
}
