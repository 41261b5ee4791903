import { GatewayException } from '../errors/gateway.exception.js';

/** RFC 3339 date-times as list filters take them (`T` or a space between date and time). */
const RFC3339_QUERY = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A comma-separated query value as its non-empty items; undefined when absent or empty. */
export function commaList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.length ? items : undefined;
}

/** A comma list whose items must be among `allowed`: 400 naming `param` otherwise. */
export function enumList<T extends string>(
  param: string,
  value: string | undefined,
  allowed: readonly T[],
): T[] | undefined {
  const items = commaList(value);
  const unknown = items?.find((item) => !(allowed as readonly string[]).includes(item));
  if (unknown !== undefined) {
    throw GatewayException.validation(
      param,
      `${param}: unknown value ${JSON.stringify(unknown.slice(0, 64))}; use ${allowed.join(', ')}`,
    );
  }
  return items as T[] | undefined;
}

/** An RFC 3339 date-time query value: 400 naming `param` when it is not one. */
export function timeQuery(param: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const date = new Date(value);
  if (!RFC3339_QUERY.test(value) || Number.isNaN(date.getTime())) {
    throw GatewayException.validation(param, `${param} must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z`);
  }
  return date;
}

/** `start_time` and `end_time` parsed; 400 naming `start_time` when it is after `end_time`. */
export function timeRange(q: { start_time?: string; end_time?: string }): { start?: Date; end?: Date } {
  const start = timeQuery('start_time', q.start_time);
  const end = timeQuery('end_time', q.end_time);
  if (start && end && start > end) throw GatewayException.validation('start_time', 'start_time is after end_time');
  return { start, end };
}

/** 400 naming `min` when both bounds are given and the low one is greater. */
export function checkBounds(min: string, low: number | undefined, max: string, high: number | undefined): void {
  if (low !== undefined && high !== undefined && low > high) {
    throw GatewayException.validation(min, `${min} is greater than ${max}`);
  }
}

/**
 * A search term trimmed; undefined when empty. Any length is searched: one or two characters, which no trigram index
 * serves, by a bounded read of the newest rows (`SHORT_SEARCH_WINDOW`).
 */
export function searchTerm(value: string | undefined): string | undefined {
  const term = value?.trim();
  return term ? term : undefined;
}
