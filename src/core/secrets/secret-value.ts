/**
 * SecretValue: the one way a field may hold a secret (gateway-api.md "Secret-capable value").
 *
 * Input form A is a bare string: plain text, `env.VAR_NAME` or `vault.<mount>/<path...>[#field]`.
 * Output form B is `{ value, ref, type }`. Persisted form is `StoredSecret`: the reference for env/vault, the
 * AES-256-GCM ciphertext for plain text. This file is pure parsing, shared by the service and the DTO decorator.
 */

export const SECRET_TYPES = ['plain_text', 'env', 'vault'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

/** What responses carry instead of a secret; sending it back on a PUT keeps the stored secret. */
export const REDACTED = '<REDACTED>';

export const ENV_PREFIX = 'env.';
export const VAULT_PREFIX = 'vault.';
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The persisted (jsonb) form. `ciphertext` is `v1:` + base64(iv | tag | data). */
export interface StoredSecret {
  type: SecretType;
  ref?: string;
  ciphertext?: string;
}

/** Output form B. */
export interface SecretValueView {
  value: string;
  ref: string;
  type: SecretType;
}

/** What a request may carry: form A (string) or form B (object). */
export type SecretInput = string | { value?: string; ref?: string; type?: SecretType };

export interface ParsedSecret {
  type: SecretType;
  /** `env.VAR` or `vault.mount/path#field`, for references. */
  ref?: string;
  /** The plain text, for `plain_text` (never `<REDACTED>`). */
  plain?: string;
  /** True when the caller sent `<REDACTED>` back: keep the stored secret. */
  redacted?: boolean;
}

/** A parsed vault reference: KV v2 mount, secret path and the optional field after `#`. */
export interface VaultRef {
  mount: string;
  path: string;
  field?: string;
}

/** Invalid SecretValue input. Callers map it to their field path (`GatewayException.validation(path, message)`). */
export class SecretInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretInputError';
  }
}

const FORM_B_KEYS = new Set(['value', 'ref', 'type']);
// Path segments of a vault reference: no empty segments, no `.`/`..`, nothing that would change the URL's meaning.
const VAULT_SEGMENT = /^[A-Za-z0-9_\-.@=+:]+$/;

/** Splits `vault.<mount>/<path...>[#field]`; throws SecretInputError when it is not one. */
export function parseVaultRef(ref: string): VaultRef {
  if (!ref.startsWith(VAULT_PREFIX)) throw new SecretInputError('a vault reference must start with "vault."');
  const body = ref.slice(VAULT_PREFIX.length);
  const hash = body.indexOf('#');
  const location = hash === -1 ? body : body.slice(0, hash);
  const field = hash === -1 ? undefined : body.slice(hash + 1);
  if (!location) throw new SecretInputError('a vault reference needs a path: vault.<mount>/<path>[#field]');
  const segments = location.split('/');
  if (segments.length < 2) {
    throw new SecretInputError('a vault reference needs a mount and a path: vault.<mount>/<path>[#field]');
  }
  for (const s of segments) {
    if (!s || s === '.' || s === '..' || !VAULT_SEGMENT.test(s)) {
      throw new SecretInputError('a vault reference path has an empty or invalid segment');
    }
  }
  if (field !== undefined && (!field || /[\s#]/.test(field))) {
    throw new SecretInputError('a vault reference field after "#" must be non-empty without spaces');
  }
  const [mount, ...rest] = segments as [string, ...string[]];
  return { mount, path: rest.join('/'), field };
}

function parseReference(ref: string): ParsedSecret {
  if (ref.startsWith(ENV_PREFIX)) {
    const name = ref.slice(ENV_PREFIX.length);
    if (!ENV_NAME_PATTERN.test(name)) {
      throw new SecretInputError('env reference must be env.VAR_NAME with a name matching [A-Za-z_][A-Za-z0-9_]*');
    }
    return { type: 'env', ref };
  }
  parseVaultRef(ref);
  return { type: 'vault', ref };
}

/** Form A: `env.X` and `vault.x/y` are references (their syntax is checked); anything else non-empty is plain text. */
function parseString(input: string): ParsedSecret {
  if (input === REDACTED) return { type: 'plain_text', redacted: true };
  if (input.length === 0) throw new SecretInputError('must not be empty');
  if (input.startsWith(ENV_PREFIX) || input.startsWith(VAULT_PREFIX)) return parseReference(input);
  return { type: 'plain_text', plain: input };
}

function parseObject(input: Record<string, unknown>): ParsedSecret {
  for (const key of Object.keys(input)) {
    if (!FORM_B_KEYS.has(key))
      throw new SecretInputError(`unknown SecretValue field "${key}" (allowed: value, ref, type)`);
  }
  const { value, ref, type } = input;
  if (value !== undefined && typeof value !== 'string') throw new SecretInputError('value must be a string');
  if (ref !== undefined && typeof ref !== 'string') throw new SecretInputError('ref must be a string');
  if (type !== undefined && !SECRET_TYPES.includes(type as SecretType)) {
    throw new SecretInputError(`type must be one of ${SECRET_TYPES.join(', ')}`);
  }
  switch (type as SecretType | undefined) {
    case 'env':
    case 'vault': {
      if (!ref) throw new SecretInputError(`ref is required when type is ${String(type)}`);
      const parsed = parseReference(ref);
      if (parsed.type !== type) throw new SecretInputError(`ref "${ref}" is not a ${String(type)} reference`);
      return parsed;
    }
    case 'plain_text':
      if (ref) throw new SecretInputError('ref must be empty when type is plain_text');
      if (value === undefined) throw new SecretInputError('value is required when type is plain_text');
      if (value === REDACTED) return { type: 'plain_text', redacted: true };
      if (value.length === 0) throw new SecretInputError('value must not be empty');
      return { type: 'plain_text', plain: value };
    case undefined:
      // Without a type, a reference wins; else the value is read as form A.
      if (ref) return parseReference(ref);
      if (value === undefined) throw new SecretInputError('needs a value or a ref');
      return parseString(value);
  }
}

/** Parses form A or form B; throws SecretInputError with a message that never contains the value. */
export function parseSecretInput(input: unknown): ParsedSecret {
  if (typeof input === 'string') return parseString(input);
  if (input && typeof input === 'object' && !Array.isArray(input)) return parseObject(input as Record<string, unknown>);
  throw new SecretInputError('must be a string or an object { value, ref, type }');
}

/** True for a value read back from a jsonb column that has the StoredSecret shape. */
export function isStoredSecret(value: unknown): value is StoredSecret {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (v.type === 'plain_text') return typeof v.ciphertext === 'string';
  return (v.type === 'env' || v.type === 'vault') && typeof v.ref === 'string';
}
