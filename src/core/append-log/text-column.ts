/**
 * A string as a text/varchar column takes it: NUL characters removed (Postgres refuses them in text and jsonb) and
 * cut to `maxLength`. Rows are written in batches, so one unfit value must not cost the rows written with it.
 */
export function textColumn(value: string, maxLength: number): string;
export function textColumn(value: string | null | undefined, maxLength: number): string | null;
export function textColumn(value: string | null | undefined, maxLength: number): string | null {
  if (value === null || value === undefined) return null;
  const clean = value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  return clean.length > maxLength ? clean.slice(0, maxLength) : clean;
}
