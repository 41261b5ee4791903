import { describe, expect, it } from 'vitest';
import { logsLinkOf, overviewRange, overviewSearchOf, rangeKindOf, readOverviewSearch } from './overview-search';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');

describe('overview URL', () => {
  it('reads the period, a custom range and the grouping, and drops what it does not know', () => {
    expect(readOverviewSearch({ period: '7d', group_by: 'provider', page: '2' })).toEqual({
      period: '7d',
      group_by: 'provider',
    });
    expect(readOverviewSearch({ period: '30d', group_by: 'team' })).toEqual({});
    expect(readOverviewSearch({ start_time: '2026-12-01T00:00:00Z', end_time: '2026-12-02T00:00:00Z' })).toEqual({
      start_time: '2026-12-01T00:00:00Z',
      end_time: '2026-12-02T00:00:00Z',
    });
  });

  it('leaves defaults out, and keeps either a period or a custom range, never both', () => {
    expect(overviewSearchOf({ period: '24h', group_by: 'model' })).toEqual({});
    expect(overviewSearchOf({ period: '1h', start_time: '2026-12-01T00:00:00Z' })).toEqual({ period: '1h' });
    expect(overviewSearchOf({ start_time: '2026-12-01T00:00:00Z', group_by: 'provider' })).toEqual({
      start_time: '2026-12-01T00:00:00Z',
      group_by: 'provider',
    });
  });

  it('is the last 24 hours by default, a period ending now, or the custom range', () => {
    expect(rangeKindOf({})).toBe('24h');
    expect(overviewRange({}, NOW)).toEqual({
      start_time: '2026-12-06T12:00:00.000Z',
      end_time: '2026-12-07T12:00:00.000Z',
    });
    expect(overviewRange({ period: '1h' }, NOW)).toEqual({
      start_time: '2026-12-07T11:00:00.000Z',
      end_time: '2026-12-07T12:00:00.000Z',
    });
    expect(overviewRange({ period: '7d' }, NOW).start_time).toBe('2026-11-30T12:00:00.000Z');
    expect(rangeKindOf({ end_time: '2026-12-01T00:00:00.000Z' })).toBe('custom');
    expect(overviewRange({ start_time: '2026-12-01T00:00:00.000Z' }, NOW)).toEqual({
      start_time: '2026-12-01T00:00:00.000Z',
      end_time: '2026-12-07T12:00:00.000Z',
    });
    expect(overviewRange({ end_time: '2026-12-02T00:00:00.000Z' }, NOW)).toEqual({
      start_time: '2026-12-01T00:00:00.000Z',
      end_time: '2026-12-02T00:00:00.000Z',
    });
  });

  it('links to the request logs with the same range and the group as filters', () => {
    expect(logsLinkOf({}, { providers: 'openai', models: 'gpt-4o' })).toEqual({
      period: '24h',
      providers: 'openai',
      models: 'gpt-4o',
    });
    expect(logsLinkOf({ start_time: '2026-12-01T00:00:00Z' }, { virtual_key_ids: 'vk-1', models: undefined })).toEqual({
      start_time: '2026-12-01T00:00:00Z',
      virtual_key_ids: 'vk-1',
    });
  });
});
