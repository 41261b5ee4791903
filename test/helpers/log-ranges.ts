const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** One time range and status filter of a log query: its query parameters and the WHERE clause of the same rows. */
export interface RangeCase {
  query: Record<string, string>;
  where: string;
  params: unknown[];
}

/**
 * Time ranges around `now` cut anywhere (open sides, off the hour, on whole hours, inside one hour), times each of
 * `statuses` (undefined: no status filter): what the hourly rollups must answer exactly as the rows do.
 */
export function rangeCases(now: number, statuses: ReadonlyArray<string | undefined>): RangeCase[] {
  const at = (msAgo: number) => new Date(now - msAgo);
  const onHour = (msAgo: number) => new Date(Math.floor((now - msAgo) / HOUR) * HOUR);
  const ranges: Array<[Date | undefined, Date | undefined]> = [
    [undefined, undefined],
    [at(DAY), at(0)],
    [at(7 * DAY + 1234), at(3 * HOUR + 99)],
    [at(30 * DAY), undefined],
    [undefined, at(5 * DAY + 1)],
    [onHour(10 * DAY), onHour(2 * DAY)],
    [at(2 * HOUR + 5), at(2 * HOUR)], // inside one hour: no whole hour
  ];
  return ranges.flatMap(([start, end]) =>
    statuses.map((status) => {
      const query: Record<string, string> = {};
      const where = ['true'];
      const params: unknown[] = [];
      if (start) {
        query.start_time = start.toISOString();
        where.push(`timestamp >= $${params.push(start)}`);
      }
      if (end) {
        query.end_time = end.toISOString();
        where.push(`timestamp <= $${params.push(end)}`);
      }
      if (status) {
        query.status = status;
        where.push(`status = ANY($${params.push(status.split(','))}::varchar[])`);
      }
      return { query, where: where.join(' AND '), params };
    }),
  );
}
