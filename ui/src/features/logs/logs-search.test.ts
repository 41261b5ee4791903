import { describe, expect, it } from 'vitest';
import { parseSearchString, stringifySearchObject } from '../../shared/url/search-params';
import { logsQueryOf, logsSearchOf, readLogsSearch, showsNewestFirst } from './logs-search';

describe('the logs screen URL', () => {
  it('keeps every filter of GET /api/logs under its API name, plus period, live and the open log', () => {
    const url =
      '?providers=openai&models=gpt-4o-mini&status=error&objects=chat_completion&selected_key_ids=k1&virtual_key_ids=v1' +
      '&team_ids=t1&customer_ids=c1&routing_rule_ids=r1&parent_request_ids=p1&start_time=2026-01-01T00:00:00Z' +
      '&end_time=2026-01-02T00:00:00Z&min_latency=10&max_latency=900.5&min_tokens=1&max_tokens=99&min_cost=0.001' +
      '&max_cost=2&missing_cost_only=false&cache_hit=true&content_search=hello&limit=100&offset=200&sort_by=cost' +
      '&order=asc&period=1h&live=true&log=abc';
    const search = readLogsSearch(parseSearchString(url));
    expect(Object.keys(search).sort()).toEqual([...new URLSearchParams(url).keys()].sort());
    expect(search).toMatchObject({ min_latency: 10, max_latency: 900.5, max_tokens: 99, cache_hit: true, live: true });
    expect(readLogsSearch(parseSearchString(stringifySearchObject(search)))).toEqual(search);
  });

  it('defaults stay out of links; the period becomes a start time when read', () => {
    expect(logsSearchOf({ limit: 50, offset: 0, sort_by: 'timestamp', order: 'desc', status: 'error' })).toEqual({
      status: 'error',
    });
    const now = Date.parse('2026-06-01T12:00:00Z');
    expect(logsQueryOf({ period: '1h', live: true, log: 'x' }, now)).toEqual({
      start_time: '2026-06-01T11:00:00.000Z',
      limit: 50,
      offset: 0,
      sort_by: 'timestamp',
      order: 'desc',
    });
    expect(logsQueryOf({ period: '1h', start_time: '2026-01-01T00:00:00Z' }, now).start_time).toBe(
      '2026-01-01T00:00:00Z',
    );
  });

  it('live rows go on top only of the first page, newest first', () => {
    expect(showsNewestFirst({})).toBe(true);
    expect(showsNewestFirst({ offset: 50 })).toBe(false);
    expect(showsNewestFirst({ sort_by: 'cost' })).toBe(false);
    expect(showsNewestFirst({ order: 'asc' })).toBe(false);
  });
});
