import { describe, expect, it } from 'vitest';
import {
  barOf,
  budgetBar,
  budgetResetAt,
  filterOwners,
  ownerProblems,
  ownerRequest,
  ownerValues,
  rateLimitBars,
  resetLine,
  type Team,
} from './owner-helpers';

const budget = (over: Partial<Team['budgets'][number]> = {}): Team['budgets'][number] => ({
  id: 'b1',
  max_limit: 10,
  effective_max_limit: 10,
  reset_duration: '1d',
  calendar_aligned: false,
  current_usage: 0,
  last_reset: '2026-03-10T15:30:00.000Z',
  override: null,
  ...over,
});

describe('bars', () => {
  it('shows how full a limit is, with the colour a person reads it by', () => {
    expect(barOf(1, 10, 'usd', 'en-US')).toEqual({
      percent: 10,
      color: 'green',
      label: '$1.00 of $10.00',
      full: false,
    });
    expect(barOf(8, 10, 'requests', 'en-US')).toMatchObject({
      percent: 80,
      color: 'yellow',
      label: '8 of 10 requests',
    });
    expect(barOf(9, 10, 'tokens', 'en-US')).toMatchObject({ percent: 90, color: 'red', full: false });
  });

  it('is full, never beyond, once the usage reaches or passes the limit', () => {
    expect(barOf(0.000021, 0.00002, 'usd', 'en-US')).toEqual({
      percent: 100,
      color: 'red',
      label: '$0.000021 of $0.00002',
      full: true,
    });
    expect(barOf(5, 5, 'requests', 'en-US')).toMatchObject({ percent: 100, full: true });
  });

  it('reads a limit of 0 as full once anything is used, and no usage as 0', () => {
    expect(barOf(0, 0, 'usd', 'en-US')).toMatchObject({ percent: 0, full: true });
    expect(barOf(0.1, 0, 'usd', 'en-US')).toMatchObject({ percent: 100, color: 'red' });
    expect(barOf(null, 100, 'requests', 'en-US')).toMatchObject({ percent: 0, label: '0 of 100 requests' });
  });

  it('compares a budget with its limit plus an active override', () => {
    expect(budgetBar(budget({ current_usage: 10, max_limit: 10, effective_max_limit: 20 }), 'en-US')).toMatchObject({
      percent: 50,
      label: '$10.00 of $20.00',
      full: false,
    });
  });

  it('lists only the rate limits set', () => {
    expect(rateLimitBars(null)).toEqual([]);
    const bars = rateLimitBars(
      {
        id: 'r',
        request_max_limit: 5,
        request_reset_duration: '1m',
        request_current_usage: 5,
        token_max_limit: null,
        token_reset_duration: null,
        token_current_usage: 0,
      },
      'en-US',
    );
    expect(bars).toHaveLength(1);
    expect(bars[0]).toMatchObject({ what: 'requests', window: '1m', bar: { label: '5 of 5 requests', full: true } });
  });
});

describe('reset time', () => {
  it('a window of fixed length resets one window after its start, once something is charged', () => {
    expect(budgetResetAt(budget({ current_usage: 0.5 }))?.toISOString()).toBe('2026-03-11T15:30:00.000Z');
    expect(budgetResetAt(budget({ current_usage: 0.5, reset_duration: '30m' }))?.toISOString()).toBe(
      '2026-03-10T16:00:00.000Z',
    );
    // Months without calendar alignment run 30 days, as the gateway counts them.
    expect(budgetResetAt(budget({ current_usage: 0.5, reset_duration: '1M' }))?.toISOString()).toBe(
      '2026-04-09T15:30:00.000Z',
    );
  });

  it('a window of fixed length with nothing charged has no reset to wait for', () => {
    expect(budgetResetAt(budget())).toBeUndefined();
    expect(resetLine('1d', undefined)).toBe('Every 1d · the window starts with the next charge');
    expect(resetLine('1d', new Date())).toBe('Every 1d · resets');
  });

  it('a calendar-aligned budget resets at the end of the UTC period (Monday weeks, quarters from January)', () => {
    const aligned = (reset_duration: string) => budgetResetAt(budget({ calendar_aligned: true, reset_duration }));
    expect(aligned('1d')?.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    // 10 March 2026 is a Tuesday: the week ends on Monday 16 March.
    expect(aligned('1w')?.toISOString()).toBe('2026-03-16T00:00:00.000Z');
    expect(aligned('1M')?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(aligned('1Q')?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(aligned('1Y')?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    // Two days is no calendar period: a window of its length from the first charge.
    expect(budgetResetAt(budget({ calendar_aligned: true, reset_duration: '2d' }))).toBeUndefined();
  });

  it('an unreadable window or start gives no reset time', () => {
    expect(budgetResetAt(budget({ current_usage: 1, reset_duration: 'soon' }))).toBeUndefined();
    expect(budgetResetAt(budget({ current_usage: 1, last_reset: 'never' }))).toBeUndefined();
  });
});

describe('the list and the form', () => {
  it('filters by name, case-insensitive, in name order', () => {
    const owners = [{ name: 'research' }, { name: 'Alpha' }, { name: 'search-infra' }];
    expect(filterOwners(owners, 'SEARCH').map((o) => o.name)).toEqual(['research', 'search-infra']);
    expect(filterOwners(owners, '  ').map((o) => o.name)).toEqual(['Alpha', 'research', 'search-infra']);
  });

  it('creates with what was typed, a blank rate limit left out', () => {
    const values = ownerValues();
    values.name = ' research ';
    values.budgets = [{ max_limit: '0.5', reset_duration: '1d ', calendar_aligned: false }];
    expect(ownerRequest(values, false)).toEqual({
      name: 'research',
      budgets: [{ max_limit: 0.5, reset_duration: '1d', calendar_aligned: false }],
    });
  });

  it('an update sends the rate limit (null when emptied) and the usage reset only when asked', () => {
    const values = ownerValues();
    values.name = 'research';
    expect(ownerRequest(values, true)).toEqual({ name: 'research', budgets: [], rate_limit: null });
    values.rate_limit.request_max_limit = '5';
    values.rate_limit.request_reset_duration = '1m';
    values.reset_usage = true;
    expect(ownerRequest(values, true)).toEqual({
      name: 'research',
      budgets: [],
      rate_limit: {
        request_max_limit: 5,
        request_reset_duration: '1m',
        token_max_limit: null,
        token_reset_duration: null,
      },
      reset_usage: true,
    });
  });

  it('names a limit without its window, and two budgets of one window', () => {
    const values = ownerValues();
    values.rate_limit.token_max_limit = '1000';
    values.budgets = [
      { max_limit: '1', reset_duration: '1d', calendar_aligned: false },
      { max_limit: '2', reset_duration: '1d', calendar_aligned: true },
    ];
    expect(ownerProblems(values)).toEqual({
      'rate_limit.token_reset_duration': 'A limit needs its window',
      'budgets.1.reset_duration': 'Another budget has this window',
    });
  });

  it('reads a stored owner back into the form', () => {
    const team: Team = {
      id: 't',
      name: 'research',
      budgets: [budget({ max_limit: 2, reset_duration: '1w', calendar_aligned: true })],
      rate_limit: {
        id: 'r',
        request_max_limit: null,
        request_reset_duration: null,
        request_current_usage: 0,
        token_max_limit: 500,
        token_reset_duration: '1h',
        token_current_usage: 0,
      },
      customer_ids: [],
      created_at: '',
      updated_at: '',
    };
    expect(ownerValues(team)).toEqual({
      name: 'research',
      budgets: [{ max_limit: '2', reset_duration: '1w', calendar_aligned: true }],
      rate_limit: {
        request_max_limit: '',
        request_reset_duration: '',
        token_max_limit: '500',
        token_reset_duration: '1h',
      },
      reset_usage: false,
    });
  });
});
