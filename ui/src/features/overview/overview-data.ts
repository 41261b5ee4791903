import type { Schema } from '../../api/schemas';
import type { FormatOptions } from '../../shared/format/format';

type Bucket = Schema<'RequestLogHistogramBucket'>;
type Group = Schema<'RequestLogGroup'>;

const DAY_SECONDS = 86_400;

/**
 * A bucket's start as an axis label: the time of day for buckets under a day (`14:05`), the date otherwise (`Dec 6`),
 * in the browser's zone.
 */
export function bucketLabel(iso: string, bucketSeconds: number, o: FormatOptions = {}): string {
  const date = new Date(iso);
  const options: Intl.DateTimeFormatOptions =
    bucketSeconds < DAY_SECONDS
      ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: o.timeZone }
      : { month: 'short', day: 'numeric', timeZone: o.timeZone };
  return new Intl.DateTimeFormat(o.locale, options).format(date);
}

/** The rows a chart draws: one per bucket, labelled, with the measures it names (a missing one as 0, or null). */
export function chartRows<K extends keyof Bucket>(
  buckets: Bucket[],
  bucketSeconds: number,
  measures: readonly K[],
  o: FormatOptions = {},
): Array<Record<string, string | number | null>> {
  return buckets.map((bucket) => {
    const row: Record<string, string | number | null> = { time: bucketLabel(bucket.timestamp, bucketSeconds, o) };
    for (const m of measures) {
      const value = bucket[m];
      row[m] = typeof value === 'number' ? value : m === 'count' || bucket.count > 0 ? 0 : null;
    }
    return row;
  });
}

/** A group's name in the breakdown: `openai / gpt-4o`, `openai`, or a virtual key's name (its id without one). */
export function groupLabel(group: Group): string {
  if (group.model !== null) return `${group.provider ?? '—'} / ${group.model}`;
  if (group.provider !== null) return group.provider;
  if (group.virtual_key_id === null) return 'No virtual key';
  return group.virtual_key_name ?? group.virtual_key_id;
}

/**
 * A circuit's key as people read it: a policy's main circuit is the policy name; a key's sub-circuit
 * (`<policy>\u0000<key id>`) names both.
 */
export function circuitLabel(key: string): { policy: string; keyId?: string } {
  const at = key.indexOf('\u0000');
  return at < 0 ? { policy: key } : { policy: key.slice(0, at), keyId: key.slice(at + 1) };
}
