import type { FieldConstraints, ObjectConstraints } from '../../api/constraints.gen';

/** A screen's URL state: each value typed by the constraints of the API parameter it stands for. */
export type SearchValues = Record<string, string | number | boolean | undefined>;

/**
 * The router's search serialisation: plain `a=1&b=x` (not JSON), so a link reads like the API query it stands for and
 * can be pasted into one. Every value is a string here; each route types its own (`readSearch`).
 */
export function parseSearchString(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search.startsWith('?') ? search.slice(1) : search));
}

export function stringifySearchObject(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** One URL value read as its parameter's type; undefined when it cannot be one (a hand-edited link). */
export function readValue(raw: unknown, c: FieldConstraints): string | number | boolean | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = (typeof raw === 'string' ? raw : JSON.stringify(raw)).trim();
  if (text === '') return undefined;
  switch (c.type) {
    case 'integer':
      return /^-?\d+$/.test(text) ? Number(text) : undefined;
    case 'number':
      return Number.isFinite(Number(text)) ? Number(text) : undefined;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'string':
    case undefined:
      return c.enum && !c.enum.includes(text) ? undefined : text;
    case 'array':
    case 'object':
      return undefined;
  }
}

/**
 * A route's search values from its URL: every parameter the constraints know (the API operation's query, plus any
 * screen-only ones), read as its type; unknown keys and unreadable values are dropped.
 */
export function readSearch(raw: Record<string, unknown>, c: ObjectConstraints): SearchValues {
  const values: SearchValues = {};
  for (const [name, rule] of Object.entries(c.properties)) {
    const value = readValue(raw[name], rule);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/** The values worth a URL: without blanks and without values equal to their default (shorter, stable links). */
export function compactSearch<T extends SearchValues>(values: T, defaults: Partial<T> = {}): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(values) as Array<[keyof T, T[keyof T]]>) {
    if (value === undefined || value === '' || defaults[key] === value) continue;
    out[key] = value;
  }
  return out;
}
