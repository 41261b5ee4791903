/**
 * Time ranges of the screens' URLs: a relative `period` (`period=1h` always means the last hour when the link is
 * opened) or a custom `start_time`/`end_time`, and the datetime-local inputs that edit them.
 */
export const PERIODS = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
  '30d': 30 * 24 * 3_600_000,
} as const;
export type Period = keyof typeof PERIODS;

/** `2026-06-01T12:30` in the browser's zone, as a datetime-local input holds it. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A datetime-local value as RFC 3339 (UTC); anything unreadable is passed on as typed, for the check to name. */
export function fromLocalInput(value: string): string | undefined {
  if (!value.trim()) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
