import { describe, expect, it } from 'vitest';
import {
  AzureKeyConfig,
  LoginRequest,
  ProviderCreateRequest,
  VertexKeyConfig,
  VirtualKeyCreateRequest,
  listLogsQuery,
} from '../../api/constraints.gen';
import { fieldProblem, formPath, nestedProblems, objectProblems } from './constraints';

describe('client-side validation from the API constraints', () => {
  it('required fields and lengths of a request body (LoginRequest)', () => {
    expect(objectProblems({ username: '', password: 'x' }, LoginRequest)).toEqual({ username: 'Required' });
    expect(objectProblems({ username: 'a'.repeat(256), password: 'x' }, LoginRequest)).toEqual({
      username: 'At most 255 characters',
    });
    expect(objectProblems({ username: 'admin', password: 'secret' }, LoginRequest)).toEqual({});
  });

  it('query parameters: types, ranges, enums, lengths (listLogs)', () => {
    const p = listLogsQuery.properties;
    expect(fieldProblem('abc', p.min_latency!)).toBe('Must be a number');
    expect(fieldProblem('-1', p.min_latency!)).toBe('Must be at least 0');
    expect(fieldProblem('2.5', p.min_tokens!)).toBe('Must be a whole number');
    expect(fieldProblem(2_000_000_001, p.max_tokens!)).toBe('Must be at most 2000000000');
    expect(fieldProblem('newest', p.sort_by!)).toBe('Must be one of: timestamp, latency, tokens, cost');
    // Any length from 1 (a short search scans the newest rows, docs/logs.md); at most 256.
    expect(fieldProblem('ab', p.content_search!)).toBeUndefined();
    expect(fieldProblem('a'.repeat(257), p.content_search!)).toBe('At most 256 characters');
    expect(fieldProblem('yesterday', p.start_time!)).toBe('Must be a date and time');
    expect(fieldProblem('2026-01-31T12:00:00Z', p.start_time!)).toBeUndefined();
    expect(fieldProblem('', p.min_latency!)).toBeUndefined();
    expect(objectProblems({ min_latency: '5', max_cost: 'x', limit: 0 }, listLogsQuery)).toEqual({
      max_cost: 'Must be a number',
      limit: 'Must be at least 1',
    });
  });

  it('arrays: sizes, repeats and each item', () => {
    const c = {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      items: { type: 'string', maxLength: 3 },
    } as const;
    expect(fieldProblem([], c)).toBe('Needs at least 1 items');
    expect(fieldProblem(['a', 'b', 'c'], c)).toBe('At most 2 items');
    expect(fieldProblem(['a', 'a'], c)).toBe('Items must not repeat');
    expect(fieldProblem(['abcd'], c)).toBe('At most 3 characters');
  });

  it('nested objects and lists of objects are checked by their own constraints, named by form path', () => {
    expect(
      nestedProblems(
        {
          name: 'k',
          budgets: [
            { max_limit: '10', reset_duration: '1d' },
            { max_limit: '-1', reset_duration: '' },
          ],
        },
        VirtualKeyCreateRequest,
      ),
    ).toEqual({ 'budgets.1.max_limit': 'Must be at least 0', 'budgets.1.reset_duration': 'Required' });
    expect(
      nestedProblems({ rate_limit: { request_max_limit: '1.5', token_max_limit: '' } }, VirtualKeyCreateRequest),
    ).toEqual({ 'rate_limit.request_max_limit': 'Must be a whole number' });
    expect(
      nestedProblems(
        { provider: 'openai', network_config: { default_request_timeout: '0s', max_retries: '11' } },
        ProviderCreateRequest,
      ),
    ).toEqual({
      'network_config.default_request_timeout': 'Has the wrong format',
      'network_config.max_retries': 'Must be at most 10',
    });
    expect(nestedProblems({ provider: 'openai', network_config: null }, ProviderCreateRequest)).toEqual({});
  });

  it('maps (their size and each value) and SecretValues (one of: a string, or its object form)', () => {
    const headers = ProviderCreateRequest.properties.extra_headers!;
    expect(fieldProblem({ 'X-Org': 'env.ORG' }, headers)).toBeUndefined();
    expect(fieldProblem({ 'X-Org': 'a'.repeat(8193) }, headers)).toBe('At most 8192 characters');
    expect(fieldProblem({ 'X-Org': { type: 'env', ref: 'env.ORG' } }, headers)).toBeUndefined();
    expect(fieldProblem({ 'X-Org': { type: 'file' } }, headers)).toBe('Must be one of: plain_text, env, vault');
    expect(fieldProblem({ 'X-Org': 7 }, headers)).toBe('Has the wrong type');
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`X-${i}`, 'v']));
    expect(fieldProblem(many, headers)).toBe('At most 64 entries');
    const deployments = AzureKeyConfig.properties.deployments!;
    expect(fieldProblem({ 'gpt-4o': 'prod' }, deployments)).toBeUndefined();
    expect(fieldProblem({ 'gpt-4o': 'p'.repeat(256) }, deployments)).toBe('At most 255 characters');
    expect(fieldProblem('a'.repeat(65_537), VertexKeyConfig.properties.auth_credentials!)).toBe(
      'At most 65536 characters',
    );
  });

  it('an API param reads as a form path', () => {
    expect(formPath('budgets[1].reset_duration')).toBe('budgets.1.reset_duration');
    expect(formPath('provider_configs[0].budgets[2].max_limit')).toBe('provider_configs.0.budgets.2.max_limit');
    expect(formPath('network_config.max_retries')).toBe('network_config.max_retries');
  });
});
