import type { Json } from './provider-adapter.js';

/** Narrowing helpers for parsed wire JSON, where every member may be missing or of another type. */

export function asObject(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
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
