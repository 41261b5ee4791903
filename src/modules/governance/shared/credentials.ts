import { hash, randomBytes } from 'node:crypto';

/** decisions.md, "Names and conventions". */
export const VIRTUAL_KEY_PREFIX = 'sk-gw-';
export const MANAGEMENT_KEY_PREFIX = 'gwm_';

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters drawn uniformly from `alphabet` (rejection sampling keeps every character equally likely). */
function randomString(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= limit) continue;
      out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** `sk-gw-` + 32 URL-safe characters (192 bits). */
export function generateVirtualKeyValue(): string {
  return VIRTUAL_KEY_PREFIX + randomString(32, URL_SAFE);
}

/** `gwm_` + 40 alphanumeric characters (~238 bits); alphanumeric so a double click selects the whole key. */
export function generateManagementKeyValue(): string {
  return MANAGEMENT_KEY_PREFIX + randomString(40, ALPHANUMERIC);
}

/**
 * SHA-256 of a generated credential, hex. The values carry 190+ bits of randomness, so a fast unsalted hash is
 * enough: there is nothing to brute-force. Lookups go by this hash as the index key, so the comparison an attacker
 * could time is between hashes of their own guesses, which reveals nothing about a stored value. One-shot `hash`
 * (half the cost of a Hash object): every data-plane request hashes its virtual key.
 */
export function hashCredential(value: string): string {
  return hash('sha256', value, 'hex');
}

/**
 * A key value as lists show it (`sk-gw-ab…wxyz`): its first 8 and last 4 characters. Stored beside the hash when the
 * value is made (`virtual_key_credentials.value_hint`), since a hash cannot be masked afterwards.
 */
export function maskKeyValue(value: string): string {
  return `${value.slice(0, 8)}…${value.slice(-4)}`;
}
