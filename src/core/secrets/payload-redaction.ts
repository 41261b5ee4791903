/** Largest payload kept in a history row (serialized JSON); bigger payloads keep a truncated preview. */
export const MAX_PAYLOAD_CHARS = 64 * 1024;
export const REDACTED = '<REDACTED>';

// Field names whose values are credentials wherever they appear (push configs carry `token` and
// `authentication.credentials`; clients sometimes put keys in metadata).
const SECRET_KEYS = new Set([
  'token',
  'credentials',
  'authorization',
  'password',
  'secret',
  'client_secret',
  'clientsecret',
  'api_key',
  'apikey',
  'x-api-key',
  'access_token',
  'accesstoken',
  'refresh_token',
  'refreshtoken',
  'x-gateway-vk',
  'proxy-authorization',
  'cookie',
]);

/** Postgres refuses U+0000 in jsonb (and rows are written in batches, where one refused row costs a retry). */
function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

function redactValue(value: unknown, depth: number, redact = true): unknown {
  if (depth > 32) return '[depth limit]';
  if (typeof value === 'string') return withoutNul(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1, redact));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[withoutNul(k)] =
        redact && SECRET_KEYS.has(k.toLowerCase()) && v !== '' && v !== null && v !== undefined
          ? REDACTED
          : redactValue(v, depth + 1, redact);
    }
    return out;
  }
  return value;
}

/** A JSON value as jsonb takes it (NUL characters removed), nothing redacted: error bodies. */
export function jsonbSafe<T>(value: T): T {
  return redactValue(value, 0, false) as T;
}

/** Redacts secrets and caps the size of a payload before it is stored in history. */
export function redactPayload(value: unknown, maxChars = MAX_PAYLOAD_CHARS): unknown {
  if (value === undefined) return null;
  const redacted = redactValue(value, 0);
  const text = JSON.stringify(redacted) ?? 'null';
  if (text.length <= maxChars) return redacted;
  return { truncated: true, original_chars: text.length, preview: text.slice(0, maxChars) };
}
