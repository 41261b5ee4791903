import { describe, expect, it } from 'vitest';
import type { ConfiguredKey } from '../../src/modules/inference/catalog/provider-snapshot.js';
import { eligibleKeys, keyAllows, pickKey } from '../../src/modules/inference/routing/key-selector.js';
import { parseModelRef } from '../../src/modules/inference/providers/shared/model-ref.js';
import {
  allowsFallback,
  backoffMs,
  retryActionFor,
  waitBeforeRetry,
} from '../../src/modules/inference/routing/retry-policy.js';
import { routingErrorFields, routingHeaders } from '../../src/modules/inference/routing/routing-info.js';

const network = { timeoutMs: 1000, maxRetries: 3, backoffInitialMs: 500, backoffMaxMs: 5000 };

function key(name: string, extra: Partial<ConfiguredKey> = {}): ConfiguredKey {
  return {
    id: `id-${name}`,
    name,
    weight: 1,
    models: ['*'],
    blacklisted_models: [],
    aliases: {},
    enabled: true,
    credentials: { id: `id-${name}`, name, value: 'v' },
    ...extra,
  };
}

describe('routing policy units', () => {
  it('parses <provider>/<model> only when the prefix is a provider id', () => {
    expect(parseModelRef('openai/gpt-4o')).toEqual({ provider: 'openai', model: 'gpt-4o', requested: 'openai/gpt-4o' });
    expect(parseModelRef('meta-llama/Llama-3.1-8B')).toEqual({
      model: 'meta-llama/Llama-3.1-8B',
      requested: 'meta-llama/Llama-3.1-8B',
    });
    expect(parseModelRef('huggingface/meta-llama/Llama-3.1-8B').model).toBe('meta-llama/Llama-3.1-8B');
    expect(parseModelRef('openai/').provider).toBeUndefined();
  });

  it('classifies statuses: same key, rotate, drop, fail; and which end in fallbacks', () => {
    expect([0, 408, 500, 502, 503, 529].map(retryActionFor)).toEqual(Array(6).fill('retry-same-key'));
    expect(retryActionFor(429)).toBe('rotate-key');
    expect([401, 402, 403].map(retryActionFor)).toEqual(['drop-key', 'drop-key', 'drop-key']);
    expect([400, 404, 422, 499].map(retryActionFor)).toEqual(['fail', 'fail', 'fail', 'fail']);
    expect([0, 429, 500, 503].every((s) => allowsFallback(s, false))).toBe(true);
    expect(allowsFallback(400, false)).toBe(false);
    expect(allowsFallback(401, true)).toBe(true);
  });

  it('backs off exponentially with ±20 % jitter, capped at the max; waits for hints that fit', () => {
    expect(backoffMs(network, 0, () => 0.5)).toBe(500);
    expect(backoffMs(network, 2, () => 0.5)).toBe(2000);
    expect(backoffMs(network, 10, () => 0.5)).toBe(5000);
    expect(backoffMs(network, 0, () => 0)).toBe(400);
    expect(backoffMs(network, 0, () => 0.999999)).toBe(600);
    expect(waitBeforeRetry(network, 0, 1200)).toBe(1200);
    expect(waitBeforeRetry(network, 0, 5000)).toBe(5000);
    expect(waitBeforeRetry(network, 0, 5001)).toBeUndefined();
  });

  it('block lists win, [] allows nothing, aliases count; picks by weight, skipping excluded keys', () => {
    expect(keyAllows(key('a', { models: [], aliases: { fast: { model_id: 'x' } } }), 'fast')).toBe(true);
    expect(keyAllows(key('a', { models: [] }), 'gpt-4o')).toBe(false);
    expect(keyAllows(key('a', { blacklisted_models: ['gpt-4o'] }), 'gpt-4o')).toBe(false);
    const keys = [key('light', { weight: 1 }), key('heavy', { weight: 3 }), key('off', { enabled: false })];
    const provider = { id: 'openai' as const, extra_headers: {}, network, source: 'api' as const, keys };
    expect(eligibleKeys(provider, 'gpt-4o').map((k) => k.name)).toEqual(['light', 'heavy']);
    expect(eligibleKeys(provider, 'gpt-4o', { name: 'heavy' }).map((k) => k.name)).toEqual(['heavy']);
    expect(eligibleKeys(provider, 'gpt-4o', { id: 'id-light', name: 'heavy' }).map((k) => k.name)).toEqual(['light']);
    const eligible = eligibleKeys(provider, 'gpt-4o');
    const counts = { light: 0, heavy: 0 };
    for (let i = 0; i < 4000; i++) counts[pickKey(eligible, new Set())!.name as 'light' | 'heavy']++;
    expect(counts.heavy / counts.light).toBeGreaterThan(2.5);
    expect(counts.heavy / counts.light).toBeLessThan(3.5);
    expect(pickKey(eligible, new Set(['id-heavy']))!.name).toBe('light');
    expect(pickKey(eligible, new Set(['id-heavy', 'id-light']))).toBeUndefined();
  });

  it('routing headers: kebab-case names, is-fallback only as true, empty values never sent; deprecated mirrors', () => {
    const info = {
      provider: 'anthropic' as const,
      model: 'claude-x',
      key: 'k',
      resolved_key_alias: { model_id: 'claude-x', model_family: 'claude' },
      is_fallback: true as const,
      primary_provider: 'openai' as const,
      primary_model: 'gpt-4o',
      requested_model: 'gpt-4o',
      server_side_fallback_model: '',
    };
    expect(routingHeaders(info)).toEqual({
      'x-gateway-routing-info-provider': 'anthropic',
      'x-gateway-routing-info-model': 'claude-x',
      'x-gateway-routing-info-key': 'k',
      'x-gateway-routing-info-alias-model-id': 'claude-x',
      'x-gateway-routing-info-alias-model-family': 'claude',
      'x-gateway-routing-info-is-fallback': 'true',
      'x-gateway-routing-info-primary-provider': 'openai',
      'x-gateway-routing-info-primary-model': 'gpt-4o',
      'x-gateway-routing-info-requested-model': 'gpt-4o',
    });
    expect(routingErrorFields(info)).toMatchObject({
      provider: 'anthropic',
      original_model_requested: 'gpt-4o',
      resolved_model_used: 'claude-x',
    });
  });
});
