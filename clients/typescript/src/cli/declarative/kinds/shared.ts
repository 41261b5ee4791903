import type { Registry } from '../kind.js';
import { compact, isObj, type Obj } from '../values.js';

/** A budget's file form: its limit, window and alignment (no id, usage or override). */
export function budgetsToFile(value: unknown): Obj[] {
  if (!Array.isArray(value)) return [];
  return (value as Obj[]).map((b) => ({
    max_limit: b.max_limit,
    reset_duration: b.reset_duration,
    calendar_aligned: b.calendar_aligned ?? false,
  }));
}

/** A rate limit's file form: its set limits and windows, or null. */
export function rateLimitToFile(value: unknown): Obj | null {
  if (!isObj(value)) return null;
  const limits = compact({
    request_max_limit: value.request_max_limit,
    request_reset_duration: value.request_reset_duration,
    token_max_limit: value.token_max_limit,
    token_reset_duration: value.token_reset_duration,
  });
  return Object.keys(limits).length ? limits : null;
}

/** The fields of `form` that `names` lists, in that order (the file's field order). */
export function pickFields(form: Obj, names: readonly string[]): Obj {
  const out: Obj = {};
  for (const name of names) if (name in form) out[name] = form[name];
  return out;
}

/** A create body: the fields given, without nulls that mean "not set" on create. */
export function createBody(body: Obj, nullable: readonly string[] = ['rate_limit']): Obj {
  const out = { ...body };
  for (const name of nullable) if (out[name] === null) delete out[name];
  return out;
}

export const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
export const str = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** A provider key's name in the file (registered as `<provider>/<name>`), from its id. */
export function keyName(registry: Registry, provider: unknown, id: unknown): string {
  const full = registry.name('provider_keys', str(id)) ?? str(id);
  const prefix = `${str(provider)}/`;
  return full.startsWith(prefix) ? full.slice(prefix.length) : full;
}
