import type { Json } from './provider-adapter.js';

/** Narrowing helpers for parsed wire JSON, where every member may be missing or of another type. */

/** The parse of a wire body or event, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isJsonObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(v: unknown): Json | undefined {
  return isJsonObject(v) ? v : undefined;
}

/** The objects of a JSON array (anything else: none). */
export const jsonObjects = (v: unknown): Json[] => (Array.isArray(v) ? (v as unknown[]).filter(isJsonObject) : []);

/**
 * A shallow copy of `o` without the `omit` members. Copying around them rather than deleting keeps the copy a fast
 * object for `JSON.stringify` (a deleted property turns an object into a dictionary).
 */
export function copyWithout(o: Json, omit: ReadonlySet<string>): Json {
  const out: Json = {};
  for (const key in o) if (!omit.has(key)) out[key] = o[key];
  return out;
}

/**
 * The members of `o` that are not undefined, as a new object (undefined when none is left). Built rather than
 * deleted from: a deleted member turns an object into a slow dictionary for every later read and `JSON.stringify`.
 */
export function definedMembers<T extends object>(o: T): T | undefined {
  let kept: Partial<T> | undefined;
  for (const key in o) {
    const value = o[key];
    if (value !== undefined) (kept ??= {} as Partial<T>)[key] = value;
  }
  return kept as T | undefined;
}

export function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function asArray(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

/** A string, or a number as text (some providers send numeric error codes). */
export function asCode(v: unknown): string | undefined {
  if (typeof v === 'string') return v || undefined;
  return typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
}

/** The strings of a list (other members dropped). */
export const strings = (v: unknown): string[] =>
  Array.isArray(v) ? (v as unknown[]).filter((x): x is string => typeof x === 'string') : [];
