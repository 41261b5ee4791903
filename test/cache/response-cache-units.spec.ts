import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock/clock.js';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { parseCacheConfig } from '../../src/modules/cache/cache-config.js';
import { cacheDirectivesOf } from '../../src/modules/cache/cache-headers.js';
import { cacheKeyOf, canonicalJson, scopeOf } from '../../src/modules/cache/cache-key.js';
import { semanticTextOf } from '../../src/modules/cache/semantic/request-text.js';
import { MemoryResponseCacheStore } from '../../src/modules/cache/store/memory-response-cache.store.js';

function paramOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayException);
    expect((err as GatewayException).status).toBe(400);
    return (err as GatewayException).param;
  }
  throw new Error('expected a 400');
}

describe('cache key', () => {
  const body = { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }], temperature: 0 };

  it('ignores key order and the fields that do not change the answer', () => {
    const key = cacheKeyOf('chat', false, 'vk:1', body);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const reordered = { temperature: 0, messages: [{ content: 'hi', role: 'user' }], model: 'openai/gpt-4o' };
    expect(cacheKeyOf('chat', false, 'vk:1', reordered)).toBe(key);
    expect(
      cacheKeyOf('chat', false, 'vk:1', { ...body, user: 'u', metadata: { a: 1 }, store: true, stream: false }),
    ).toBe(key);
  });

  it('changes with the model, messages, parameters, kind, stream flag and scope', () => {
    const key = cacheKeyOf('chat', false, 'vk:1', body);
    const others = [
      cacheKeyOf('chat', false, 'vk:1', { ...body, model: 'openai/gpt-4o-mini' }),
      cacheKeyOf('chat', false, 'vk:1', { ...body, messages: [{ role: 'user', content: 'hi!' }] }),
      cacheKeyOf('chat', false, 'vk:1', { ...body, temperature: 1 }),
      cacheKeyOf('chat', false, 'vk:1', { ...body, fallbacks: ['anthropic/claude'] }),
      cacheKeyOf('responses', false, 'vk:1', body),
      cacheKeyOf('chat', true, 'vk:1', body),
      cacheKeyOf('chat', false, 'vk:2', body),
      cacheKeyOf('chat', false, 'shared', body),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });

  it('scopes by virtual key unless shared', () => {
    expect(scopeOf('virtual_key', 'abc')).toBe('vk:abc');
    expect(scopeOf('virtual_key', undefined)).toBe('vk:anonymous');
    expect(scopeOf('shared', 'abc')).toBe('shared');
  });

  it('writes canonical JSON', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: undefined, a: null }], a: 'x' })).toBe(
      '{"a":"x","b":[1,{"a":null,"d":1}]}',
    );
  });
});

describe('cache config', () => {
  it('fills the defaults', () => {
    expect(parseCacheConfig({}, true)).toEqual({
      ttlMs: 300_000,
      semantic: false,
      threshold: 0.9,
      embeddingModel: undefined,
      scope: 'virtual_key',
      maxEntries: 10_000,
    });
  });

  it('names the key at fault', () => {
    expect(paramOf(() => parseCacheConfig({ ttl: '5 minutes' }, true))).toBe('config.ttl');
    expect(paramOf(() => parseCacheConfig({ ttl: '0s' }, true))).toBe('config.ttl');
    expect(paramOf(() => parseCacheConfig({ semantic: 'yes' }, true))).toBe('config.semantic');
    expect(paramOf(() => parseCacheConfig({ threshold: 1.5 }, true))).toBe('config.threshold');
    expect(paramOf(() => parseCacheConfig({ scope: 'team' }, true))).toBe('config.scope');
    expect(paramOf(() => parseCacheConfig({ max_entries: 0 }, true))).toBe('config.max_entries');
    expect(paramOf(() => parseCacheConfig({ embedding_model: 'no-provider' }, true))).toBe('config.embedding_model');
    expect(paramOf(() => parseCacheConfig({ semantic: true }, true))).toBe('config.embedding_model');
    expect(paramOf(() => parseCacheConfig({ colour: 'red' }, true))).toBe('config.colour');
  });

  it('refuses the semantic cache where pgvector is missing', () => {
    const config = { semantic: true, embedding_model: 'openai/text-embedding-3-small' };
    expect(parseCacheConfig(config, true).semantic).toBe(true);
    expect(paramOf(() => parseCacheConfig(config, false))).toBe('config.semantic');
  });
});

describe('cache request headers', () => {
  it('reads ttl, force and no-cache', () => {
    expect(cacheDirectivesOf({})).toEqual({ skip: false, force: false, ttlMs: undefined });
    expect(cacheDirectivesOf({ 'x-gateway-cache-ttl': '30s', 'x-gateway-cache-force': 'true' })).toEqual({
      skip: false,
      force: true,
      ttlMs: 30_000,
    });
    expect(cacheDirectivesOf({ 'x-gateway-no-cache': 'true' }).skip).toBe(true);
    expect(cacheDirectivesOf({ 'x-gateway-cache-force': 'false' }).force).toBe(false);
    expect(paramOf(() => cacheDirectivesOf({ 'x-gateway-cache-ttl': 'soon' }))).toBe('x-gateway-cache-ttl');
  });
});

describe('semantic text', () => {
  it('takes the last user message, a Responses input or a prompt', () => {
    const messages = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'answer' },
      { role: 'user', content: [{ type: 'text', text: 'second' }] },
    ];
    expect(semanticTextOf('chat', { messages })).toBe('second');
    expect(semanticTextOf('responses', { input: ' question ' })).toBe('question');
    expect(semanticTextOf('completions', { prompt: 'say hi' })).toBe('say hi');
    expect(semanticTextOf('embeddings', { input: 'x' })).toBe('');
  });
});

describe('in-process store', () => {
  const entry = (key: string, value = 'v', ttlMs = 1000) => ({ key, requestId: `req-${key}`, value, ttlMs });

  it('evicts the least recently used entry past max_entries', async () => {
    const store = new MemoryResponseCacheStore(new ManualClock(0));
    await store.put(entry('a'), 2);
    await store.put(entry('b'), 2);
    expect(await store.get('a')).toBe('v');
    await store.put(entry('c'), 2);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe('v');
    expect(await store.keyOfRequest('req-b')).toBeUndefined();
    expect(await store.keyOfRequest('req-c')).toBe('c');
    expect((await store.stats()).entries).toBe(2);
  });

  it('evicts past its byte bound and skips an entry larger than it', async () => {
    const store = new MemoryResponseCacheStore(new ManualClock(0), 10);
    await store.put(entry('a', '123456'), 100);
    await store.put(entry('b', '12345'), 100);
    expect(await store.get('a')).toBeUndefined();
    await store.put(entry('c', 'x'.repeat(11)), 100);
    expect(await store.get('c')).toBeUndefined();
    expect(await store.stats()).toMatchObject({ entries: 1, bytes: 5 });
  });

  it('expires entries by TTL and counts hits and misses', async () => {
    const clock = new ManualClock(0);
    const store = new MemoryResponseCacheStore(clock);
    await store.put(entry('a', 'v', 100), 10);
    clock.advance(99);
    expect(await store.get('a')).toBe('v');
    clock.advance(1);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.delete('a')).toBe(false);
    store.count('hit');
    store.count('miss');
    store.count('miss');
    expect(await store.stats()).toEqual({ entries: 0, bytes: 0, hits: 1, misses: 2 });
  });
});
