import { describe, expect, it } from 'vitest';
import { liveVerdict, type RequestLog } from './live-filter';

const row = (over: Partial<RequestLog> = {}): RequestLog =>
  ({
    id: '5f0c0000-0000-4000-8000-000000000001',
    parent_request_id: null,
    timestamp: '2026-06-01T12:00:00.000Z',
    object: 'chat_completion',
    provider: 'openai',
    model: 'gpt-4o-mini',
    status: 'success',
    selected_key_id: 'k1',
    virtual_key_id: 'v1',
    team_id: null,
    customer_id: null,
    routing_rule_id: null,
    latency: 120,
    total_tokens: 30,
    cost: 0.0002,
    cache_hit: false,
    ...over,
  }) as RequestLog;

describe('live rows: the same filter as the server', () => {
  it('comma lists as the server splits them; a null column never matches a list', () => {
    expect(liveVerdict(row(), { providers: ' anthropic , openai,' })).toBe('match');
    expect(liveVerdict(row(), { providers: 'anthropic' })).toBe('no');
    expect(liveVerdict(row(), { providers: ' , ' })).toBe('match');
    expect(liveVerdict(row(), { team_ids: 't1' })).toBe('no');
    expect(liveVerdict(row({ status: 'error' }), { status: 'success,processing' })).toBe('no');
    expect(liveVerdict(row({ parent_request_id: 'p1' }), { parent_request_ids: 'p1' })).toBe('match');
  });

  it('time range and bounds are inclusive; a null value never meets a bound', () => {
    expect(liveVerdict(row(), { start_time: '2026-06-01T12:00:00Z', end_time: '2026-06-01T12:00:00Z' })).toBe('match');
    expect(liveVerdict(row(), { start_time: '2026-06-01T12:00:00.001Z' })).toBe('no');
    expect(liveVerdict(row(), { end_time: '2026-06-01T13:00:00+02:00' })).toBe('no');
    expect(liveVerdict(row(), { min_latency: 120, max_latency: 120 })).toBe('match');
    expect(liveVerdict(row(), { min_tokens: 31 })).toBe('no');
    expect(liveVerdict(row({ cost: null }), { max_cost: 1 })).toBe('no');
    expect(liveVerdict(row({ total_tokens: null }), { min_tokens: 0 })).toBe('no');
  });

  it('missing cost, cache hits; a content search can only be judged by the server', () => {
    expect(liveVerdict(row({ cost: null }), { missing_cost_only: true })).toBe('match');
    expect(liveVerdict(row(), { missing_cost_only: true })).toBe('no');
    expect(liveVerdict(row(), { missing_cost_only: false })).toBe('match');
    expect(liveVerdict(row(), { cache_hit: true })).toBe('no');
    expect(liveVerdict(row(), { cache_hit: false })).toBe('match');
    expect(liveVerdict(row(), { content_search: 'hello' })).toBe('unknown');
    expect(liveVerdict(row(), { content_search: 'hello', providers: 'anthropic' })).toBe('no');
  });
});
