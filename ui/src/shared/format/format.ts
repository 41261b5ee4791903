/**
 * How numbers, costs, durations and times read on screen: the browser's locale and time zone by default, UTC on
 * demand. Pure: tests pass `locale` and `timeZone`.
 */
export interface FormatOptions {
  locale?: string;
  timeZone?: string;
}

/** Shown for a value the API does not know (null cost, tokens of a failed request). */
export const UNKNOWN = '—';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

const numberFormat = (locale: string | undefined, options: Intl.NumberFormatOptions) =>
  cached(`n|${locale ?? ''}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

/** A count (requests, tokens): grouped for the locale (`12,345`). */
export function formatNumber(value: number | null | undefined, o: FormatOptions = {}): string {
  if (value === null || value === undefined || Number.isNaN(value)) return UNKNOWN;
  return numberFormat(o.locale, { maximumFractionDigits: 2 }).format(value);
}

/**
 * A cost in USD: cents for a dollar and more, up to six decimals below (single requests cost fractions of a cent),
 * never rounded to zero when it is not zero.
 */
export function formatCost(usd: number | null | undefined, o: FormatOptions = {}): string {
  if (usd === null || usd === undefined || Number.isNaN(usd)) return UNKNOWN;
  const small = Math.abs(usd) < 1 && usd !== 0;
  return numberFormat(o.locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: small ? 6 : 2,
  }).format(usd);
}

/** A duration in milliseconds: `850 ms`, `1.25 s`, `2 min 5 s`. */
export function formatLatency(ms: number | null | undefined, o: FormatOptions = {}): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return UNKNOWN;
  if (ms < 1000) return `${numberFormat(o.locale, { maximumFractionDigits: ms < 10 ? 1 : 0 }).format(ms)} ms`;
  if (ms < 60_000) return `${numberFormat(o.locale, { maximumFractionDigits: 2 }).format(ms / 1000)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${numberFormat(o.locale, {}).format(minutes)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A percentage given as 0–100: `97.5 %` (the locale's own sign and spacing). */
export function formatPercent(percent: number | null | undefined, o: FormatOptions = {}): string {
  if (percent === null || percent === undefined || Number.isNaN(percent)) return UNKNOWN;
  return numberFormat(o.locale, { style: 'percent', maximumFractionDigits: 1 }).format(percent / 100);
}

/** A date-time in the browser's zone (or `timeZone`): `Dec 6, 2026, 9:02:22 PM`. */
export function formatDateTime(iso: string | null | undefined, o: FormatOptions = {}): string {
  if (!iso) return UNKNOWN;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return cached(
    `d|${o.locale ?? ''}|${o.timeZone ?? ''}`,
    () => new Intl.DateTimeFormat(o.locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone: o.timeZone }),
  ).format(date);
}

/** The same instant in UTC, to the millisecond, for the tooltip: `2026-12-06 21:02:22.907 UTC`. */
export function formatUtc(iso: string | null | undefined): string {
  if (!iso) return UNKNOWN;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}
