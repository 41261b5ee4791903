import { describe, expect, it } from 'vitest';
import { VirtualKeyCreateRequest } from '../../api/constraints.gen';
import { nestedProblems, objectProblems } from '../../shared/forms/constraints';
import { levelLabel, usage, usageLabel } from './quota';
import {
  createRequest,
  emptyBudget,
  emptyMcpGrant,
  emptyProviderConfig,
  grantsLine,
  instantOf,
  localInputOf,
  providersLine,
  updateRequest,
  virtualKeyProblems,
  virtualKeyValues,
  type VirtualKey,
} from './virtual-key-values';
import { readVirtualKeysSearch, virtualKeysQueryOf, virtualKeysSearchOf } from './virtual-keys-search';

const stored: VirtualKey = {
  id: 'vk',
  name: 'team-a',
  description: '',
  is_active: true,
  expires_at: null,
  team_id: null,
  customer_id: null,
  provider_configs: [
    {
      id: 'pc',
      provider: 'openai',
      weight: 1,
      allowed_models: ['gpt-4o'],
      blacklisted_models: ['o1'],
      key_ids: ['k1'],
      budgets: [],
      rate_limit: null,
    },
  ],
  budgets: [
    {
      id: 'b',
      max_limit: 5,
      reset_duration: '1d',
      calendar_aligned: true,
      current_usage: 1.25,
      last_reset: '2026-12-06T00:00:00Z',
      effective_max_limit: 5,
      override: null,
    },
  ],
  rate_limit: {
    id: 'rl',
    request_max_limit: 100,
    request_reset_duration: '1m',
    token_max_limit: null,
    token_reset_duration: null,
    request_current_usage: 0,
    token_current_usage: 0,
  },
  mcp_configs: [],
  access_profile_copy_id: null,
  created_at: '2026-12-06T00:00:00Z',
  updated_at: '2026-12-06T00:00:00Z',
};

describe('virtual key form ↔ requests', () => {
  it('a stored key round-trips: what the form holds is what an update stores (key ids and blocked models kept)', () => {
    expect(updateRequest(virtualKeyValues(stored))).toEqual({
      name: 'team-a',
      description: '',
      is_active: true,
      provider_configs: [
        { provider: 'openai', allowed_models: ['gpt-4o'], weight: 1, key_ids: ['k1'], blacklisted_models: ['o1'] },
      ],
      budgets: [{ max_limit: 5, reset_duration: '1d', calendar_aligned: true }],
      mcp_configs: [],
      team_id: null,
      customer_id: null,
      rate_limit: {
        request_max_limit: 100,
        request_reset_duration: '1m',
        token_max_limit: null,
        token_reset_duration: null,
      },
    });
  });

  it('a new key: blank rate limit left out on create, removed (null) on update; empty rows get defaults', () => {
    const values = virtualKeyValues();
    values.name = ' new-key ';
    expect(createRequest(values)).toEqual({
      name: 'new-key',
      description: '',
      is_active: true,
      provider_configs: [],
      budgets: [],
      mcp_configs: [],
    });
    expect(updateRequest(values).rate_limit).toBeNull();
    values.provider_configs.push({ ...emptyProviderConfig(), provider: 'anthropic', weight: '' });
    values.budgets.push({ ...emptyBudget(), max_limit: '10' });
    expect(createRequest(values)).toMatchObject({
      provider_configs: [{ provider: 'anthropic', allowed_models: ['*'], key_ids: ['*'], weight: null }],
      budgets: [{ max_limit: 10, reset_duration: '1M', calendar_aligned: false }],
    });
  });

  it('what is typed wrong stays as typed, so the API constraints name it', () => {
    const values = virtualKeyValues();
    values.name = 'x';
    values.budgets.push({ ...emptyBudget(), max_limit: 'ten' });
    values.rate_limit.request_max_limit = '1.5';
    const request = createRequest(values) as unknown as Record<string, unknown>;
    expect(objectProblems(request, VirtualKeyCreateRequest)).toEqual({});
    expect(nestedProblems(request, VirtualKeyCreateRequest)).toEqual({
      'budgets.0.max_limit': 'Must be a number',
      'rate_limit.request_max_limit': 'Must be a whole number',
    });
  });

  it('expiry: the browser’s local time to an RFC 3339 instant and back; sent on an update only when changed', () => {
    const iso = '2031-03-04T05:06:00Z';
    expect(instantOf(localInputOf(iso))).toBe(iso);
    expect(localInputOf(null)).toBe('');
    expect(instantOf('soon')).toBe('soon');
    const values = virtualKeyValues();
    values.name = 'k';
    values.expires_at = localInputOf(iso);
    expect(createRequest(values).expires_at).toBe(iso);
    const expiring = { ...stored, expires_at: iso };
    const edited = virtualKeyValues(expiring);
    expect(edited.expires_at).toBe(localInputOf(iso));
    expect('expires_at' in updateRequest(edited, expiring)).toBe(false);
    edited.expires_at = '';
    expect(updateRequest(edited, expiring).expires_at).toBeNull();
    edited.expires_at = localInputOf('2032-01-01T00:00:00Z');
    expect(updateRequest(edited, expiring).expires_at).toBe('2032-01-01T00:00:00Z');
    // A past expiry is refused when typed, not when it is the stored one left as it is.
    const now = Date.parse('2031-06-01T00:00:00Z');
    expect(virtualKeyProblems(virtualKeyValues(expiring), expiring, now)).toEqual({});
    edited.expires_at = localInputOf('2031-05-01T00:00:00Z');
    expect(virtualKeyProblems(edited, expiring, now)).toEqual({ expires_at: 'Must be in the future' });
  });

  it('owner: a team or a customer, never both; the other sent as null on an update', () => {
    const values = virtualKeyValues();
    values.name = 'k';
    values.owner = 'team';
    expect(virtualKeyProblems(values)).toEqual({ team_id: 'Pick a team' });
    values.team_id = 'team-1';
    values.customer_id = 'left-over';
    expect(createRequest(values)).toMatchObject({ team_id: 'team-1' });
    expect('customer_id' in createRequest(values)).toBe(false);
    values.owner = 'customer';
    expect(virtualKeyProblems(values)).toEqual({});
    expect(updateRequest(values)).toMatchObject({ team_id: null, customer_id: 'left-over' });
    values.owner = 'none';
    expect(updateRequest(values)).toMatchObject({ team_id: null, customer_id: null });
    expect(virtualKeyValues({ ...stored, customer_id: 'c' })).toMatchObject({ owner: 'customer', customer_id: 'c' });
  });

  it('MCP grants: one per client, * alone; stored grants round-trip', () => {
    const values = virtualKeyValues();
    values.name = 'k';
    values.mcp_configs.push({ ...emptyMcpGrant(), mcp_client_id: 'c1' });
    values.mcp_configs.push({ mcp_client_id: 'C1', tools_to_execute: ['*', 'echo'] });
    values.mcp_configs.push(emptyMcpGrant());
    expect(virtualKeyProblems(values)).toEqual({
      'mcp_configs.1.mcp_client_id': 'This client has a grant already',
      'mcp_configs.1.tools_to_execute': '* (every tool) stands alone',
      'mcp_configs.2.mcp_client_id': 'Required',
    });
    const granted = { ...stored, mcp_configs: [{ mcp_client_id: 'c1', tools_to_execute: ['echo', 'add'] }] };
    expect(updateRequest(virtualKeyValues(granted), granted).mcp_configs).toEqual([
      { mcp_client_id: 'c1', tools_to_execute: ['echo', 'add'] },
    ]);
    expect(grantsLine(granted.mcp_configs, new Map([['c1', 'tools']]))).toBe('tools (echo, add)');
    expect(grantsLine([{ mcp_client_id: 'c2', tools_to_execute: ['*'] }])).toBe('c2 (every tool)');
    expect(grantsLine([])).toBe('Only those allowed on every key');
  });

  it('the providers a key may use, as a line', () => {
    expect(providersLine(stored)).toBe('openai (gpt-4o)');
    expect(providersLine({ provider_configs: [] })).toBe('Every provider');
  });
});

describe('quota bars', () => {
  it('how full, and in which colour', () => {
    expect(usage(1.25, 5)).toEqual({ percent: 25, color: 'green' });
    expect(usage(4, 5)).toEqual({ percent: 80, color: 'yellow' });
    expect(usage(7, 5)).toEqual({ percent: 100, color: 'red' });
    expect(usage(null, 5)).toEqual({ percent: 0, color: 'green' });
    expect(usage(1, 0)).toEqual({ percent: 100, color: 'red' });
  });

  it('exact amounts, in the locale', () => {
    expect(usageLabel(0.000123, 5, 'usd', 'en-US')).toBe('$0.000123 of $5.00');
    expect(usageLabel(1234, 10000, 'tokens', 'en-US')).toBe('1,234 of 10,000 tokens');
    expect(usageLabel(null, 100, 'requests', 'en-US')).toBe('0 of 100 requests');
    expect(levelLabel('team', 'core')).toBe('Team core');
    expect(levelLabel('virtual_key', 'x')).toBe('This key');
  });
});

describe('the screen’s URL', () => {
  it('reads the API query and the open key, drops the rest, leaves defaults out', () => {
    const search = readVirtualKeysSearch({ search: 'team', limit: '25', sort_by: 'nope', key: 'vk', other: 'x' });
    expect(search).toEqual({ search: 'team', limit: 25, key: 'vk' });
    expect(virtualKeysQueryOf(search)).toEqual({
      search: 'team',
      limit: 25,
      offset: 0,
      sort_by: 'created_at',
      order: 'desc',
    });
    expect(virtualKeysSearchOf({ search: '', limit: 50, offset: 0, order: 'asc' })).toEqual({ order: 'asc' });
  });
});
