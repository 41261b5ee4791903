import { describe, expect, it } from 'vitest';
import { bucketLabel, chartRows, circuitLabel, groupLabel } from './overview-data';

const UTC = { locale: 'en-US', timeZone: 'UTC' };
const group = { provider: null, model: null, virtual_key_id: null, virtual_key_name: null } as const;

describe('overview data', () => {
  it('labels buckets by time of day under a day, by date from a day up, in the given zone', () => {
    expect(bucketLabel('2026-12-06T14:05:00Z', 60, UTC)).toBe('14:05');
    expect(bucketLabel('2026-12-06T00:00:00Z', 10_800, UTC)).toBe('00:00');
    expect(bucketLabel('2026-12-06T23:30:00Z', 900, { locale: 'en-US', timeZone: 'Europe/Berlin' })).toBe('00:30');
    expect(bucketLabel('2026-12-06T00:00:00Z', 86_400, UTC)).toBe('Dec 6');
  });

  it('makes one labelled row per bucket; an empty bucket has no latency but zero requests', () => {
    const buckets = [
      { timestamp: '2026-12-06T14:00:00Z', count: 2, success: 1, error: 1, p50: 120 },
      { timestamp: '2026-12-06T14:01:00Z', count: 0, success: 0, error: 0, p50: null },
    ];
    expect(chartRows(buckets, 60, ['success', 'error'], UTC)).toEqual([
      { time: '14:00', success: 1, error: 1 },
      { time: '14:01', success: 0, error: 0 },
    ]);
    expect(chartRows(buckets, 60, ['p50'], UTC)).toEqual([
      { time: '14:00', p50: 120 },
      { time: '14:01', p50: null },
    ]);
  });

  it('names a group by what it was grouped by', () => {
    expect(groupLabel({ ...group, provider: 'openai', model: 'gpt-4o' } as never)).toBe('openai / gpt-4o');
    expect(groupLabel({ ...group, provider: 'openai' } as never)).toBe('openai');
    expect(groupLabel({ ...group, virtual_key_id: 'vk-1', virtual_key_name: 'team-a' } as never)).toBe('team-a');
    expect(groupLabel({ ...group, virtual_key_id: 'vk-1' } as never)).toBe('vk-1');
    expect(groupLabel(group as never)).toBe('No virtual key');
  });

  it('reads a circuit key: a policy, or a policy and a provider key', () => {
    expect(circuitLabel('openai-overload')).toEqual({ policy: 'openai-overload' });
    expect(circuitLabel('openai-overload\u0000key-1')).toEqual({ policy: 'openai-overload', keyId: 'key-1' });
  });
});
