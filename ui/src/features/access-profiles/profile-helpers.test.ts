import { describe, expect, it } from 'vitest';
import {
  failuresOf,
  parseSnapshot,
  progressOf,
  progressOfResult,
  resultSummary,
  templateFormValues,
  templateProblems,
  templateRequest,
  snapshotFields,
  versionDiff,
  type PropagationResult,
} from './profile-helpers';

const v1 = {
  id: 1,
  version: 1,
  name: 'engineers',
  description: '',
  is_active: true,
  tags: ['eng'],
  provider_configs: [{ provider_name: 'openai', all_models_allowed: true, allowed_models: [] }],
  budgets: [],
  rate_limit: null,
  updated_at: '2026-12-01T00:00:00.000Z',
};

describe('versionDiff', () => {
  it('lists the changed leaves field by field, in the template order, bookkeeping left out', () => {
    const v2 = {
      ...v1,
      version: 2,
      description: 'Engineering',
      tags: ['eng', 'beta'],
      provider_configs: [{ provider_name: 'openai', all_models_allowed: false, allowed_models: ['gpt-4o-mini'] }],
      budgets: [{ max_limit: 50, reset_duration: '1M' }],
      rate_limit: { request_max_limit: 100, request_reset_duration: '1m' },
      updated_at: '2026-12-02T00:00:00.000Z',
    };
    expect(versionDiff(v1, v2)).toEqual([
      { field: 'description', change: 'changed', before: '—', after: 'Engineering' },
      { field: 'tags', change: 'changed', before: 'eng', after: 'eng, beta' },
      { field: 'provider_configs[0].all_models_allowed', change: 'changed', before: 'true', after: 'false' },
      { field: 'provider_configs[0].allowed_models', change: 'changed', before: 'none', after: 'gpt-4o-mini' },
      { field: 'budgets[0].max_limit', change: 'added', before: '—', after: '50' },
      { field: 'budgets[0].reset_duration', change: 'added', before: '—', after: '1M' },
      { field: 'rate_limit.request_max_limit', change: 'added', before: '—', after: '100' },
      { field: 'rate_limit.request_reset_duration', change: 'added', before: '—', after: '1m' },
    ]);
  });
  it('finds nothing between equal snapshots, and reads a broken one as empty', () => {
    expect(versionDiff(v1, { ...v1, version: 7, updated_at: 'later' })).toEqual([]);
    expect(parseSnapshot('not json')).toEqual({});
    expect(parseSnapshot(JSON.stringify(v1))).toEqual(v1);
  });
});

describe('snapshotFields', () => {
  it('reads every field of one version in the template order, bookkeeping left out', () => {
    expect(snapshotFields({ ...v1, rate_limit: { request_max_limit: 5, request_reset_duration: '1m' } })).toEqual([
      { field: 'name', value: 'engineers' },
      { field: 'description', value: '—' },
      { field: 'is_active', value: 'true' },
      { field: 'tags', value: 'eng' },
      { field: 'provider_configs[0].provider_name', value: 'openai' },
      { field: 'provider_configs[0].all_models_allowed', value: 'true' },
      { field: 'provider_configs[0].allowed_models', value: 'none' },
      { field: 'budgets', value: 'none' },
      { field: 'rate_limit.request_max_limit', value: '5' },
      { field: 'rate_limit.request_reset_duration', value: '1m' },
    ]);
  });
});

const result = (over: Partial<PropagationResult>): PropagationResult => ({
  affected_users: 0,
  failed_users: 0,
  skipped_users: 0,
  user_ids: [],
  fields: ['rate_limit'],
  applied: true,
  vk_sync_errors: [],
  ...over,
});

describe('progress', () => {
  it('follows processed of total, and ends at total / total', () => {
    expect(progressOf({ status: 'running', processed: 0, total: 0 })).toEqual({
      done: 0,
      total: 0,
      percent: 0,
      text: '0 / 0',
      finished: false,
    });
    expect(progressOf({ status: 'running', processed: 150, total: 500 })).toEqual({
      done: 150,
      total: 500,
      percent: 30,
      text: '150 / 500',
      finished: false,
    });
    expect(
      progressOf({
        status: 'completed',
        processed: 500,
        total: 500,
        result: result({ affected_users: 498, failed_users: 2 }),
      }),
    ).toEqual({ done: 500, total: 500, percent: 100, text: '500 / 500', failed: 2, finished: true });
    expect(progressOf({ status: 'failed', processed: 120, total: 500 })).toEqual({
      done: 120,
      total: 500,
      percent: 24,
      text: '120 / 500',
      finished: true,
    });
  });
  it('reads a result answered at once as a finished job', () => {
    expect(progressOfResult(result({ affected_users: 3, skipped_users: 1 }))).toEqual({
      done: 4,
      total: 4,
      percent: 100,
      text: '4 / 4',
      failed: 0,
      finished: true,
    });
  });
});

describe('resultSummary and failures', () => {
  it('says a dry run with nothing to do changes nothing', () => {
    expect(resultSummary(result({ applied: false, skipped_users: 500 }))).toBe(
      'No changes: every selected copy (500) already matches the template on these fields.',
    );
    expect(resultSummary(result({ applied: false, affected_users: 499, skipped_users: 1 }))).toBe(
      '499 users would change, 1 unchanged, 0 would fail.',
    );
    expect(resultSummary(result({ affected_users: 1, failed_users: 2 }))).toBe(
      '1 user changed, 0 unchanged, 2 failed.',
    );
    expect(resultSummary(result({ skipped_users: 1 }))).toBe(
      'Nothing changed: 1 selected copy already matched the template.',
    );
  });
  it('reads the key sync errors per user', () => {
    expect(failuresOf(result({ vk_sync_errors: ['user 6f1c: key locked: retry', 'odd'] }))).toEqual([
      { user: '6f1c', error: 'key locked: retry' },
      { user: '—', error: 'odd' },
    ]);
  });
});

describe('template form', () => {
  it('turns the values into the request, and back', () => {
    const values = {
      ...templateFormValues(),
      name: ' engineers ',
      tags: 'eng, beta,',
      providers: [
        { provider_name: 'openai', models: 'gpt-4o-mini, gpt-4o' },
        { provider_name: 'anthropic', models: '' },
      ],
      budgets: [{ max_limit: 50, reset_duration: '1M' }],
      request_max_limit: 100,
      request_reset_duration: '1m',
      mcp_tool_groups: ['g-1'],
    };
    const request = templateRequest(values);
    expect(request).toEqual({
      name: 'engineers',
      description: '',
      tags: ['eng', 'beta'],
      is_active: true,
      provider_configs: [
        { provider_name: 'openai', all_models_allowed: false, allowed_models: ['gpt-4o-mini', 'gpt-4o'] },
        { provider_name: 'anthropic', all_models_allowed: true, allowed_models: [] },
      ],
      budgets: [{ max_limit: 50, reset_duration: '1M' }],
      rate_limit: {
        request_max_limit: 100,
        request_reset_duration: '1m',
        token_max_limit: null,
        token_reset_duration: null,
      },
      mcp_tool_groups: [{ tool_group_id: 'g-1' }],
    });
    expect(templateRequest(templateFormValues()).rate_limit).toBeNull();
    const view = {
      ...request,
      id: 1,
      version: 1,
      description: '',
      tags: request.tags ?? [],
      is_active: true,
      calendar_aligned: false,
      provider_configs: request.provider_configs as never,
      budgets: request.budgets as never,
      rate_limit: request.rate_limit ?? null,
      mcp_servers: [],
      mcp_tool_groups: [{ tool_group_id: 'g-1' }],
      mcp_tool_overrides: [],
      created_at: '',
      updated_at: '',
    };
    expect(templateFormValues(view)).toMatchObject({
      tags: 'eng, beta',
      providers: values.providers,
      request_max_limit: 100,
      token_max_limit: '',
      mcp_tool_groups: ['g-1'],
    });
    // An edit sends the tool groups only when they changed (the API checks those sent).
    expect(templateRequest(templateFormValues(view), view)).not.toHaveProperty('mcp_tool_groups');
    expect(templateRequest({ ...templateFormValues(view), mcp_tool_groups: [] }, view).mcp_tool_groups).toEqual([]);
  });
  it('wants a window with a limit and an amount with a budget', () => {
    expect(
      templateProblems({
        ...templateFormValues(),
        request_max_limit: 5,
        token_reset_duration: '1h',
        budgets: [{ max_limit: '', reset_duration: '' }],
      }),
    ).toEqual({
      request_reset_duration: 'A window is required with a limit',
      token_max_limit: 'A limit is required with a window',
      'budgets.0.max_limit': 'An amount is required',
      'budgets.0.reset_duration': 'A reset window is required',
    });
  });
});
