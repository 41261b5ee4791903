import { describe, expect, it } from 'vitest';
import { PricingOverrideCreateRequest } from '../../api/constraints.gen';
import { nestedProblems, objectProblems } from '../../shared/forms/constraints';
import {
  effectiveRates,
  findOverride,
  narrowerOverrides,
  patchLines,
  scopeLabel,
  splitModelId,
  type PricingOverride,
} from './effective-price';
import {
  modelConfigLabel,
  modelConfigRequest,
  modelConfigValues,
  overrideProblems,
  overrideRequest,
  overrideValues,
  providerLimitsRequest,
  providerLimitsValues,
} from './pricing-values';
import { budgetOverrideRequest, overrideLine } from '../virtual-keys/budget-override-values';

let seq = 0;
function override(fields: Partial<PricingOverride>): PricingOverride {
  seq += 1;
  return {
    id: `o${seq}`,
    name: `override ${seq}`,
    scope_kind: 'global',
    virtual_key_id: null,
    user_id: null,
    provider_id: null,
    provider_key_id: null,
    match_type: 'exact',
    pattern: 'gpt-4o-mini',
    request_types: ['chat_completion'],
    patch: { input_cost_per_token: 0.000001 },
    pricing_patch: '{}',
    created_at: `2026-12-0${(seq % 9) + 1}T00:00:00.000Z`,
    updated_at: '2026-12-01T00:00:00.000Z',
    ...fields,
  };
}

const chat = { provider: 'openai', model: 'gpt-4o-mini', requestType: 'chat_completion' };

describe('findOverride: the gateway’s precedence', () => {
  it('takes the most specific scope the request has ids for, whatever the pattern', () => {
    const global = override({ scope_kind: 'global' });
    const provider = override({ scope_kind: 'provider', provider_id: 'openai', match_type: 'wildcard', pattern: '*' });
    const vk = override({ scope_kind: 'virtual_key', virtual_key_id: 'vk1', match_type: 'wildcard', pattern: 'gpt*' });
    const vkKey = override({ scope_kind: 'virtual_key_provider_key', virtual_key_id: 'vk1', provider_key_id: 'k1' });
    const all = [global, provider, vk, vkKey];
    expect(findOverride(all, chat)).toBe(provider);
    expect(findOverride(all, { ...chat, virtualKeyId: 'vk1' })).toBe(vk);
    expect(findOverride(all, { ...chat, virtualKeyId: 'vk1', providerKeyId: 'k1' })).toBe(vkKey);
    expect(findOverride(all, { ...chat, virtualKeyId: 'vk2' })).toBe(provider);
    expect(findOverride([global], { ...chat, provider: 'anthropic' })).toBe(global);
  });

  it('within a scope: exact first, then the longest prefix, then the newest', () => {
    const short = override({ match_type: 'wildcard', pattern: 'gpt*', created_at: '2026-12-05T00:00:00.000Z' });
    const long = override({ match_type: 'wildcard', pattern: 'gpt-4o*', created_at: '2026-12-01T00:00:00.000Z' });
    const exact = override({ match_type: 'exact', pattern: 'gpt-4o-mini', created_at: '2026-12-01T00:00:00.000Z' });
    expect(findOverride([short, long], chat)).toBe(long);
    expect(findOverride([short, long, exact], chat)).toBe(exact);
    const older = override({ pattern: 'gpt-4o-mini', created_at: '2026-11-01T00:00:00.000Z' });
    const newer = override({ pattern: 'gpt-4o-mini', created_at: '2026-12-06T00:00:00.000Z' });
    expect(findOverride([older, newer], chat)).toBe(newer);
  });

  it('matches the request type (a stream as its base type) and the model exactly or by prefix', () => {
    const embeddings = override({ request_types: ['embedding'] });
    expect(findOverride([embeddings], chat)).toBeUndefined();
    const o = override({ request_types: ['chat_completion'] });
    expect(findOverride([o], { ...chat, requestType: 'chat_completion_stream' })).toBe(o);
    expect(findOverride([o], { ...chat, model: 'gpt-4o-mini-2024' })).toBeUndefined();
    const prefix = override({ match_type: 'wildcard', pattern: 'gpt-4o-mini*' });
    expect(findOverride([prefix], { ...chat, model: 'gpt-4o-mini-2024' })).toBe(prefix);
    expect(findOverride([prefix], { ...chat, model: 'gpt-4o' })).toBeUndefined();
  });

  it('never matches a user scope without a user, nor a key scope before the key is known', () => {
    const user = override({ scope_kind: 'user', user_id: 'u1' });
    const key = override({ scope_kind: 'provider_key', provider_key_id: 'k1' });
    expect(findOverride([user, key], chat)).toBeUndefined();
    expect(findOverride([user, key], { ...chat, providerKeyId: 'k1' })).toBe(key);
    expect(findOverride([user], { ...chat, userId: 'u1' })).toBe(user);
  });

  it('lists the narrower overrides some requests for the model meet', () => {
    const vk = override({ scope_kind: 'virtual_key', virtual_key_id: 'vk1' });
    const otherProvider = override({ scope_kind: 'virtual_key_provider', virtual_key_id: 'vk1', provider_id: 'groq' });
    const provider = override({ scope_kind: 'provider', provider_id: 'openai' });
    expect(narrowerOverrides([vk, otherProvider, provider], chat)).toEqual([vk]);
  });
});

describe('reading overrides', () => {
  it('writes rates per 1M tokens and per request', () => {
    expect(
      patchLines(
        { input_cost_per_token: 0.0000025, output_cost_per_token: 0.00001, input_cost_per_request: 0.01 },
        'en-US',
      ),
    ).toEqual(['Input $2.50 / 1M tokens', 'Output $10.00 / 1M tokens', 'Request $0.01 / request']);
  });

  it('names the scope', () => {
    expect(scopeLabel(override({ scope_kind: 'global' }))).toBe('Every request');
    expect(
      scopeLabel(override({ scope_kind: 'virtual_key_provider', virtual_key_id: 'vk1', provider_id: 'openai' }), {
        virtualKey: () => 'research',
      }),
    ).toBe('Virtual key research · provider openai');
  });

  it('splits a catalogue id', () => {
    expect(splitModelId('openai/gpt-4o-mini')).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(splitModelId('openrouter/openai/gpt-4o')).toEqual({ provider: 'openrouter', model: 'openai/gpt-4o' });
  });
});

describe('the forms’ requests', () => {
  it('sends rates per token and only the ids the scope needs', () => {
    const values = {
      ...overrideValues(),
      name: ' negotiated ',
      scope_kind: 'provider' as const,
      provider_id: 'openai',
      virtual_key_id: 'left over',
      pattern: 'gpt-4o-mini',
      patch: { ...overrideValues().patch, input_cost_per_token: '2.5', output_cost_per_token: '10' },
    };
    const body = overrideRequest(values);
    expect(body).toEqual({
      name: 'negotiated',
      scope_kind: 'provider',
      provider_id: 'openai',
      match_type: 'exact',
      pattern: 'gpt-4o-mini',
      request_types: ['chat_completion'],
      patch: { input_cost_per_token: 0.0000025, output_cost_per_token: 0.00001 },
    });
    expect(objectProblems(body as never, PricingOverrideCreateRequest)).toEqual({});
    expect(overrideProblems(values)).toEqual({});
    // Read back, the form shows the rates as typed.
    expect(overrideValues({ ...override({}), patch: body.patch }).patch.input_cost_per_token).toBe('2.5');
  });

  it('names what a scope lacks and a rate typed badly', () => {
    const values = { ...overrideValues(), scope_kind: 'virtual_key' as const };
    expect(overrideProblems(values)).toEqual({
      virtual_key_id: 'Required for this scope',
      'patch.input_cost_per_token': 'Set at least one price',
    });
    const bad = overrideRequest({ ...values, patch: { ...values.patch, output_cost_per_token: 'ten' } });
    expect(nestedProblems(bad as never, PricingOverrideCreateRequest)).toEqual({
      'patch.output_cost_per_token': 'Must be a number',
    });
  });

  it('builds a model config’s create and update bodies', () => {
    const values = {
      ...modelConfigValues(),
      model_name: 'gpt-4o-mini',
      provider: 'openai',
      budgets: [{ max_limit: '5', reset_duration: '1d', calendar_aligned: false }],
    };
    expect(modelConfigRequest(values, false)).toEqual({
      model_name: 'gpt-4o-mini',
      provider: 'openai',
      calendar_aligned: false,
      scope: 'global',
      budgets: [{ max_limit: 5, reset_duration: '1d', calendar_aligned: false }],
    });
    expect(modelConfigRequest({ ...values, provider: '' }, true)).toEqual({
      model_name: 'gpt-4o-mini',
      provider: null,
      budgets: [{ max_limit: 5, reset_duration: '1d', calendar_aligned: false }],
      rate_limit: null,
    });
    expect(modelConfigLabel({ model_name: '*', provider: null })).toBe('every model (every provider)');
  });

  it('builds a provider’s PUT and a budget override', () => {
    const values = {
      ...providerLimitsValues(),
      provider: 'openai',
      budgets: [{ max_limit: '100', reset_duration: '1M', calendar_aligned: true }],
    };
    expect(providerLimitsRequest(values)).toEqual({
      calendar_aligned: false,
      budgets: [{ max_limit: 100, reset_duration: '1M', calendar_aligned: true }],
      rate_limit: null,
    });
    expect(budgetOverrideRequest({ amount: '50', mode: 'forever', cycles: '3' })).toEqual({
      amount: 50,
      mode: 'forever',
    });
    expect(budgetOverrideRequest({ amount: '5', mode: 'cycles', cycles: '2' })).toEqual({
      amount: 5,
      mode: 'cycles',
      cycles: 2,
    });
    expect(overrideLine({ override: null })).toBeUndefined();
    expect(overrideLine({ override: { amount: 5, mode: 'cycles', cycles: 2, expires_at: null } }, 'en-US')).toBe(
      '+$5.00 for 2 windows',
    );
  });
});

describe('effectiveRates', () => {
  const catalogue = {
    input_cost_per_token: 0.15e-6,
    output_cost_per_token: 0.6e-6,
    cache_read_input_token_cost: 0.075e-6,
  };
  it('is the catalogue without an override', () => {
    expect(effectiveRates(catalogue, undefined)).toEqual(catalogue);
  });
  it('takes the rates the override sets and keeps the catalogue for the rest', () => {
    const o = override({ patch: { input_cost_per_token: 2.5e-6, output_cost_per_token: 10e-6 } });
    expect(effectiveRates(catalogue, o)).toEqual({
      input_cost_per_token: 2.5e-6,
      output_cost_per_token: 10e-6,
      cache_read_input_token_cost: 0.075e-6,
    });
  });
  it('is the override alone for a model the price table does not price', () => {
    const o = override({ patch: { input_cost_per_request: 0.01 } });
    expect(effectiveRates(undefined, o)).toEqual({ input_cost_per_request: 0.01 });
  });
});
