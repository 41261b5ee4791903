import { isCredentialField, isCredentialHeader } from '../auth/credential-headers.js';

/**
 * Fields censored wherever they appear in a log record, down to `REDACTED_DEPTH` levels: every credential field
 * (`isCredentialField`: credential header names and the usual secret names, `-`/`_` and case folded) and these,
 * which are secrets in the gateway's own records (config, stored secrets, TLS material).
 */
const LOG_SECRET_FIELDS: ReadonlySet<string> = new Set([
  'admin_password',
  'client_id',
  'encryption_key',
  'value',
  'ciphertext',
  'client_key_pem',
  'private_key',
]);

const isSecretField = (key: string) => LOG_SECRET_FIELDS.has(key) || isCredentialField(key);

/** A record's own fields are level 1; a secret field is censored up to level 4 (`a.b.c.password`). */
const REDACTED_DEPTH = 4;

export const LOG_CENSOR = '<REDACTED>';

/**
 * `value` with every secret field and secret header in it censored. Nothing is changed in place: the objects on the
 * way to a secret are copied, and a value that holds none is returned as it is (no copy, the usual case).
 *
 * One pass over the record, so a line costs what its size does. pino's own `redact` option compiles wildcard paths
 * (`*.*.*.password`) that cost ~60 µs a level for every line, ~220 µs for these four levels: each error response
 * logs a line, so that was a refused request's largest cost.
 */
export function redactLogFields(value: unknown, depth = 1, inHeaders = false): unknown {
  if (typeof value !== 'object' || value === null || depth > REDACTED_DEPTH || ArrayBuffer.isView(value)) {
    return value;
  }
  // An object that serialises itself (a Date, a class hiding its fields) is written as it says: a copy would lose that.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const source = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(source)) {
    const field = source[key];
    const secret = field !== undefined && (isSecretField(key) || (inHeaders && isCredentialHeader(key)));
    const next = secret ? LOG_CENSOR : redactLogFields(field, depth + 1, key === 'headers');
    if (next === field) continue;
    copy ??= (Array.isArray(value) ? [...(value as unknown[])] : { ...source }) as Record<string, unknown>;
    copy[key] = next;
  }
  return copy ?? value;
}
