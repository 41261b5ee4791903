import { isCredentialField } from '../auth/credential-headers.js';

/** Largest payload kept in a history row (serialized JSON); bigger payloads keep a truncated preview. */
export const MAX_PAYLOAD_CHARS = 64 * 1024;
export const REDACTED = '<REDACTED>';

/** Postgres refuses U+0000 in jsonb (and rows are written in batches, where one refused row costs a retry). */
function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

/**
 * An upper bound of a value's JSON length, summed during the walk: a string's characters count six times (the longest
 * escape, `\uXXXX`), a number 24 (its longest form), anything else its longest literal. Only a payload whose bound
 * passes the cap is serialized to be measured; a chat request's is far below it.
 */
interface JsonLengthBound {
  chars: number;
}

const longestString = (text: string) => 2 + 6 * text.length;

function redactValue(value: unknown, depth: number, redact: boolean, bound: JsonLengthBound): unknown {
  if (depth > 32) {
    bound.chars += 15;
    return '[depth limit]';
  }
  if (typeof value === 'string') {
    bound.chars += longestString(value);
    return withoutNul(value);
  }
  if (Array.isArray(value)) {
    bound.chars += 2 + value.length;
    return value.map((v) => redactValue(v, depth + 1, redact, bound));
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    bound.chars += 2;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const secret = redact && isCredentialField(k) && v !== '' && v !== null && v !== undefined;
      bound.chars += longestString(k) + 2 + (secret ? REDACTED.length + 2 : 0);
      out[withoutNul(k)] = secret ? REDACTED : redactValue(v, depth + 1, redact, bound);
    }
    return out;
  }
  bound.chars += typeof value === 'number' ? 24 : 5;
  return value;
}

/** A JSON value as jsonb takes it (NUL characters removed), nothing redacted: error bodies. */
export function jsonbSafe<T>(value: T): T {
  return redactValue(value, 0, false, { chars: 0 }) as T;
}

/** A JSON value with every credential field's value replaced by `<REDACTED>` (and NULs removed), uncut. */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, 0, true, { chars: 0 }) as T;
}

/** Redacts secrets and caps the size of a payload before it is stored in history. */
export function redactPayload(value: unknown, maxChars = MAX_PAYLOAD_CHARS): unknown {
  if (value === undefined) return null;
  const bound: JsonLengthBound = { chars: 0 };
  const redacted = redactValue(value, 0, true, bound);
  if (bound.chars <= maxChars) return redacted;
  const text = JSON.stringify(redacted) ?? 'null';
  if (text.length <= maxChars) return redacted;
  return { truncated: true, original_chars: text.length, preview: text.slice(0, maxChars) };
}
