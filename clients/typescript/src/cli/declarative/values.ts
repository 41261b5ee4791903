/** Plain JSON values as the declarative engine handles them. */
export type Obj = Record<string, unknown>;

export const isObj = (value: unknown): value is Obj => !!value && typeof value === 'object' && !Array.isArray(value);

/** JSON with object keys sorted: equal values have equal text whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObj(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export const sameValue = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** A stored secret as the API shows it (`{ value, ref, type }`). */
function isSecretView(value: unknown): value is { value: unknown; ref: string; type: string } {
  return isObj(value) && typeof value.type === 'string' && 'ref' in value && 'value' in value;
}

/** An environment variable name for a secret stored as plain text, from where it sits (`OPENAI_MAIN_VALUE`). */
export function secretEnvName(parts: readonly (string | number)[]): string {
  const name = parts
    .map((p) => String(p))
    .join('_')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return `GATEWAY_SECRET_${name}`;
}

/**
 * Every stored secret in `value` as its file form: a reference the gateway resolves (`env.NAME`, `vault.path`) stays
 * that reference; a plain-text one, whose value the API never shows, becomes `{ fromEnv: GATEWAY_SECRET_… }`, the
 * variable apply reads it from when it has to send it.
 */
export function secretsToFile(value: unknown, where: readonly (string | number)[]): unknown {
  if (isSecretView(value)) return value.type === 'plain_text' ? { fromEnv: secretEnvName(where) } : value.ref;
  if (Array.isArray(value)) return value.map((v, i) => secretsToFile(v, [...where, i]));
  if (isObj(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, secretsToFile(v, [...where, k])]));
  return value;
}

/** A secret the CLI resolves itself (`{ fromEnv }`, `{ fromFile }`): the gateway stores its value as plain text. */
export function isCliSecret(value: unknown): value is { fromEnv: string } | { fromFile: string } {
  return isObj(value) && Object.keys(value).length === 1 && ('fromEnv' in value || 'fromFile' in value);
}

/**
 * Whether the live value already is what the file asks for. Only what the file gives is compared, at every depth: a
 * field left out of a nested object (a budget's `calendar_aligned`, a target's `key`) keeps whatever the gateway holds,
 * as a top-level field left out does; lists compare item by item. A secret the CLI resolves matches any stored
 * plain-text secret (neither value can be read back), so only a change of reference is a change.
 */
export function matches(desired: unknown, live: unknown): boolean {
  if (isCliSecret(desired)) return isCliSecret(live);
  if (Array.isArray(desired)) {
    return Array.isArray(live) && live.length === desired.length && desired.every((d, i) => matches(d, live[i]));
  }
  if (isObj(desired)) {
    if (!isObj(live)) return false;
    return Object.entries(desired).every(([k, v]) => matches(v, live[k]));
  }
  return desired === live || (desired === null && live === undefined);
}

/** Removes null and undefined fields (the API's "not set"). */
export function compact(value: Obj): Obj {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}
