/** Marks a value cut to fit its column, so a reader knows it saw a prefix. */
export const TRUNCATION_MARKER = '…[truncated]';

/**
 * A string as a text/varchar column takes it: NUL characters removed (Postgres refuses them in text and jsonb) and
 * cut to `maxLength` characters, the cut marked (columns too short for the marker are cut plainly). Rows are written
 * in batches, so one unfit value must not cost the rows written with it.
 */
export function textColumn(value: string, maxLength?: number): string;
export function textColumn(value: string | null | undefined, maxLength?: number): string | null;
export function textColumn(value: string | null | undefined, maxLength?: number): string | null {
  if (value === null || value === undefined) return null;
  const clean = value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  if (maxLength === undefined || clean.length <= maxLength) return clean;
  if (maxLength < TRUNCATION_MARKER.length * 2) return clean.slice(0, maxLength);
  return clean.slice(0, maxLength - TRUNCATION_MARKER.length) + TRUNCATION_MARKER;
}

/** JSON text as a jsonb column takes it: `\u0000` escapes (which jsonb refuses) removed, escaped backslashes kept. */
export function jsonbText(json: string): string {
  return json.includes('\\u0000') ? json.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1') : json;
}
