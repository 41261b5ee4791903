import { describe, expect, it } from 'vitest';
import type { PricingOverrideEntity } from '../../src/modules/governance/pricing-overrides/entities/pricing-override.entity.js';
import { PricingOverrideSet } from '../../src/modules/governance/pricing-overrides/pricing-override-set.js';
import { PriceTable } from '../../src/modules/inference/pricing/price-table.js';
import type { Usage } from '../../src/modules/inference/providers/shared/provider-adapter.js';

let n = 0;
function row(fields: Partial<PricingOverrideEntity>): PricingOverrideEntity {
  n++;
  return {
    id: `o${n}`,
    name: `o${n}`,
    scope_kind: 'global',
    virtual_key_id: null,
    user_id: null,
    provider_id: null,
    provider_key_id: null,
    match_type: 'exact',
    pattern: 'gpt-4o',
    request_types: ['chat_completion'],
    pricing_patch: { input_cost_per_token: n },
    created_at: new Date(1_000 * n),
    updated_at: new Date(1_000 * n),
    ...fields,
  };
}

const request = {
  provider: 'openai',
  providerKeyId: 'k1',
  virtualKeyId: 'vk1',
  model: 'gpt-4o',
  requestType: 'chat_completion',
};

describe('pricing override matching', () => {
  it('takes the most specific scope, then exact, then the longest prefix, then the newest', () => {
    const set = PricingOverrideSet.of([
      row({ name: 'global-wild', match_type: 'wildcard', pattern: 'gpt-*' }),
      row({ name: 'global-exact' }),
      row({
        name: 'provider-short',
        scope_kind: 'provider',
        provider_id: 'openai',
        match_type: 'wildcard',
        pattern: 'g*',
      }),
      row({
        name: 'provider-long',
        scope_kind: 'provider',
        provider_id: 'openai',
        match_type: 'wildcard',
        pattern: 'gpt-4*',
      }),
      row({ name: 'other-provider', scope_kind: 'provider', provider_id: 'anthropic' }),
      row({ name: 'user', scope_kind: 'user', user_id: 'u1' }),
    ]);
    expect(set.find(request)?.name).toBe('provider-long');
    expect(set.find({ ...request, provider: 'azure' })?.name).toBe('global-exact');
    expect(set.find({ ...request, provider: 'azure', model: 'gpt-4o-mini' })?.name).toBe('global-wild');
    expect(set.find({ ...request, requestType: 'embedding' })).toBeUndefined();
    expect(set.find({ ...request, userId: 'u1' })?.name).toBe('user');
    const vk = PricingOverrideSet.of([
      row({ name: 'vk', scope_kind: 'virtual_key', virtual_key_id: 'vk1' }),
      row({ name: 'vk-key', scope_kind: 'virtual_key_provider_key', virtual_key_id: 'vk1', provider_key_id: 'k1' }),
      row({ name: 'vk-provider', scope_kind: 'virtual_key_provider', virtual_key_id: 'vk1', provider_id: 'openai' }),
    ]);
    expect(vk.find(request)?.name).toBe('vk-key');
    expect(vk.find({ ...request, providerKeyId: 'k2' })?.name).toBe('vk-provider');
    expect(vk.find({ ...request, virtualKeyId: undefined })).toBeUndefined();
  });
});

describe('patched prices', () => {
  const table = new PriceTable();
  const usage = (prompt: number, completion: number, reasoning = 0): Usage => ({
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(reasoning ? { completion_tokens_details: { reasoning_tokens: reasoning } } : {}),
  });

  it('replaces only the rates set, over the table', () => {
    const base = table.costOf('openai', 'gpt-4o', usage(1000, 500))!;
    const patched = table.costOf('openai', 'gpt-4o', usage(1000, 500), undefined, { input_cost_per_token: 0.5 })!;
    expect(patched.input_tokens_cost).toBe(500);
    expect(patched.output_tokens_cost).toBe(base.output_tokens_cost);
  });

  it('wins over a cost the provider sent', () => {
    const sent = { ...usage(10, 10), cost: { total_cost: 99 } };
    expect(table.costOf('openrouter', 'x', sent)!.total_cost).toBe(99);
    expect(
      table.costOf('openrouter', 'x', sent, undefined, { input_cost_per_token: 1, output_cost_per_token: 0.5 })!
        .total_cost,
    ).toBe(15);
  });

  it('prices a model the table lacks, with a separate reasoning rate', () => {
    expect(table.costOf('openai', 'house-model', usage(10, 20))).toBeUndefined();
    const cost = table.costOf('openai', 'house-model', usage(10, 20, 8), undefined, {
      input_cost_per_token: 0.25,
      output_cost_per_token: 0.5,
      output_cost_per_reasoning_token: 1,
    })!;
    expect(cost).toMatchObject({
      input_tokens_cost: 2.5,
      reasoning_tokens_cost: 8,
      output_tokens_cost: 6,
      total_cost: 16.5,
    });
  });
});
