/** Fields censored wherever they appear in a log record, down to `REDACTED_DEPTH` levels. */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password',
  'admin_password',
  'client_secret',
  'client_id',
  'secret',
  'token',
  'api_key',
  'apiKey',
  'encryption_key',
  'setup_token',
  'authorization',
  'cookie',
  'value',
  'ciphertext',
  'client_key_pem',
  'private_key',
]);

/** Headers censored in any `headers` object of a record (names compared in lower case). */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-goog-api-key',
  'x-gateway-vk',
  'x-gateway-setup-token',
]);

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
    const secret =
      field !== undefined && (SECRET_FIELDS.has(key) || (inHeaders && SECRET_HEADERS.has(key.toLowerCase())));
    const next = secret ? LOG_CENSOR : redactLogFields(field, depth + 1, key === 'headers');
    if (next === field) continue;
    copy ??= (Array.isArray(value) ? [...(value as unknown[])] : { ...source }) as Record<string, unknown>;
    copy[key] = next;
  }
  return copy ?? value;
}
