import { getLogGroupsQuery, type ObjectConstraints } from '../../api/constraints.gen';
import { PERIODS } from '../../shared/time/ranges';
import { compactSearch, readSearch } from '../../shared/url/search-params';

/** The ranges the overview offers besides a custom one. */
export const OVERVIEW_PERIODS = ['1h', '24h', '7d'] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];

/**
 * The overview's URL: a relative `period` (the last hour, 24 hours or 7 days whenever the link is opened) or a custom
 * `start_time`/`end_time` (the API's own names and formats), and what the breakdown groups by (`group_by`).
 */
export const OVERVIEW_SEARCH: ObjectConstraints = {
  required: [],
  properties: {
    period: { type: 'string', enum: [...OVERVIEW_PERIODS] },
    start_time: getLogGroupsQuery.properties.start_time!,
    end_time: getLogGroupsQuery.properties.end_time!,
    group_by: { type: 'string', enum: ['model', 'provider'] },
  },
};

export interface OverviewSearch {
  period?: OverviewPeriod;
  start_time?: string;
  end_time?: string;
  group_by?: 'model' | 'provider';
}

export const OVERVIEW_DEFAULTS = { period: '24h', group_by: 'model' } as const;

export function readOverviewSearch(raw: Record<string, unknown>): OverviewSearch {
  return readSearch(raw, OVERVIEW_SEARCH);
}

/** What goes into the URL: defaults left out. A custom range drops the period, a period drops the custom range. */
export function overviewSearchOf(search: OverviewSearch): OverviewSearch {
  const custom = !search.period && (search.start_time || search.end_time);
  return compactSearch(
    custom ? { ...search, period: undefined } : { ...search, start_time: undefined, end_time: undefined },
    OVERVIEW_DEFAULTS,
  );
}

/** The range shown: a custom range when the URL has one, else the period (24 hours by default). */
export function rangeKindOf(search: OverviewSearch): OverviewPeriod | 'custom' {
  if (search.period) return search.period;
  return search.start_time || search.end_time ? 'custom' : OVERVIEW_DEFAULTS.period;
}

/**
 * The range as the API's `start_time` and `end_time`, made absolute against `now`: a period ends now; a custom range
 * missing one side ends now or starts a day before its end.
 */
export function overviewRange(search: OverviewSearch, now: number): { start_time: string; end_time: string } {
  const kind = rangeKindOf(search);
  if (kind !== 'custom') {
    return { start_time: new Date(now - PERIODS[kind]).toISOString(), end_time: new Date(now).toISOString() };
  }
  const end = search.end_time ?? new Date(now).toISOString();
  const start = search.start_time ?? new Date(Date.parse(end) - PERIODS['24h']).toISOString();
  return { start_time: start, end_time: end };
}

/**
 * The request logs' URL for a part of the overview: the same range (a period stays relative) and the given filters.
 */
export function logsLinkOf(
  search: OverviewSearch,
  filters: { providers?: string; models?: string; virtual_key_ids?: string },
): Record<string, string> {
  const kind = rangeKindOf(search);
  const range: Record<string, string> =
    kind === 'custom'
      ? Object.fromEntries(
          Object.entries({ start_time: search.start_time, end_time: search.end_time }).filter(
            (e): e is [string, string] => !!e[1],
          ),
        )
      : { period: kind };
  const picked = Object.entries(filters).filter((e): e is [string, string] => !!e[1]);
  return { ...range, ...Object.fromEntries(picked) };
}
