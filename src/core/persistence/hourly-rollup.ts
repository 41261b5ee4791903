import { SqlWhere } from './log-sql.js';

/**
 * Reading the log tables' hourly rollups (`request_log_hourly`, `mcp_tool_log_hourly`: one row per UTC hour and
 * status, kept exact by statement-level triggers; docs/logs.md and docs/mcp.md, "... at scale"). A count or a sum over
 * a time range is the rollup over the range's whole hours plus the log rows of its two partial hours, at its edges.
 */

const HOUR_MS = 3600_000;

/** The whole hours `[firstHour, endHour)` inside a range (an open side is unbounded). */
export interface WholeHours {
  firstHour?: Date;
  endHour?: Date;
}

/** The whole hours of `[start, end]`, or undefined when none fits (the range lies within one or two hours). */
export function wholeHours(start: Date | undefined, end: Date | undefined): WholeHours | undefined {
  const firstHour = start && new Date(Math.ceil(start.getTime() / HOUR_MS) * HOUR_MS);
  const endHour = end && new Date(Math.floor(end.getTime() / HOUR_MS) * HOUR_MS);
  if (firstHour && endHour && firstHour >= endHour) return undefined;
  return { firstHour, endHour };
}

/**
 * The log rows of the filters' range outside its whole hours, as WHERE clauses built by the table's own `whereOf`:
 * `[start, firstHour)` (its end exclusive) and `[endHour, end]`.
 */
export function edgeWheres<F extends { start_time?: Date; end_time?: Date }>(
  filters: F,
  hours: WholeHours,
  whereOf: (filters: F) => SqlWhere,
): SqlWhere[] {
  const edges: SqlWhere[] = [];
  const { start_time: start, end_time: end } = filters;
  if (start && hours.firstHour && start < hours.firstHour) {
    const head = whereOf({ ...filters, end_time: undefined });
    head.add((p) => `timestamp < ${p}`, hours.firstHour);
    edges.push(head);
  }
  if (end && hours.endHour) edges.push(whereOf({ ...filters, start_time: hours.endHour }));
  return edges;
}

/** The rollup rows of the whole hours, over the statuses asked for (all when none). */
export function rollupWhere(statuses: readonly string[] | undefined, hours: WholeHours): SqlWhere {
  const w = new SqlWhere();
  w.inList('status', statuses);
  if (hours.firstHour) w.add((p) => `hour >= ${p}`, hours.firstHour);
  if (hours.endHour) w.add((p) => `hour < ${p}`, hours.endHour);
  return w;
}

/** Bucket rows of several parts of one range (each with a `bucket` start) added up by bucket, on `measures`. */
export function sumByBucket(
  parts: Array<Array<Record<string, unknown>>>,
  measures: readonly string[],
): Array<Record<string, unknown>> {
  const byStart = new Map<number, Record<string, unknown>>();
  for (const row of parts.flat()) {
    const at = new Date(row.bucket as string | Date);
    let sum = byStart.get(at.getTime());
    if (!sum) byStart.set(at.getTime(), (sum = { bucket: at }));
    for (const m of measures) sum[m] = ((sum[m] as number | undefined) ?? 0) + (Number(row[m] ?? 0) || 0);
  }
  return [...byStart.values()];
}
