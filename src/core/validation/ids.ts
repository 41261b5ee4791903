import { isUUID } from 'class-validator';

/** Ids are UUIDs; anything else cannot exist, so it is answered as not found instead of reaching the database. */
export function isId(value: string): boolean {
  return isUUID(value);
}

/** An RFC 3339 date-time with an explicit zone (`Z` or `±hh:mm`). */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
