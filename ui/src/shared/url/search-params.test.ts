import { describe, expect, it } from 'vitest';
import { listLogsQuery } from '../../api/constraints.gen';
import { compactSearch, parseSearchString, readSearch, stringifySearchObject } from './search-params';

describe('filters <-> URL', () => {
  it('a link reads like the API query it stands for, and round-trips', () => {
    const values = { providers: 'openai,anthropic', min_latency: 250, missing_cost_only: true, status: 'error' };
    const search = stringifySearchObject(values);
    expect(search).toBe('?providers=openai%2Canthropic&min_latency=250&missing_cost_only=true&status=error');
    expect(readSearch(parseSearchString(search), listLogsQuery)).toEqual(values);
  });

  it('each value is read as its parameter type; unknown keys and unreadable values are dropped', () => {
    const raw = parseSearchString(
      '?min_tokens=12&max_tokens=1.5&max_cost=0.25&cache_hit=maybe&order=sideways&sort_by=cost&utm_source=x&start_time=2026-01-31T12:00:00Z',
    );
    expect(readSearch(raw, listLogsQuery)).toEqual({
      min_tokens: 12,
      max_cost: 0.25,
      sort_by: 'cost',
      start_time: '2026-01-31T12:00:00Z',
    });
  });

  it('blanks and defaults stay out of the URL', () => {
    expect(
      compactSearch({ offset: 0, limit: 50, sort_by: 'latency', providers: '' }, { offset: 0, limit: 50 }),
    ).toEqual({
      sort_by: 'latency',
    });
    expect(stringifySearchObject({ a: undefined, b: '' })).toBe('');
  });
});
