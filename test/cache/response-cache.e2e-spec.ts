import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpClient, HttpResult } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { createKey, settledQuota, type GovernedKey } from '../governance/limits-kit.js';
import {
  SETUP_TOKEN,
  expectInferenceError,
  sseMessages,
  startInferenceStack,
  type InferenceStack,
} from '../inference/inference-kit.js';

const CHAT = '/v1/chat/completions';

/** The request's log row once the writer has flushed it. */
function logRow(s: InferenceStack, requestId: string): Promise<any> {
  return vi.waitFor(
    async () => {
      const res = await s.admin.get(`/api/logs/${requestId}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    { timeout: 5_000, interval: 50 },
  );
}

/** The plugin hooks may take longer than the default 250 ms on a loaded test machine (the semantic lookup embeds). */
const CONFIG = { plugins: { hook_timeout: '10s' } };

const chat = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'openai/gpt-4o-mini',
  messages: [{ role: 'user', content }],
  ...extra,
});

/** Whether this run mode's database can hold the semantic cache's vectors (PGlite ships pgvector). */
async function pgvectorAvailable(): Promise<boolean> {
  if (!TEST_DATABASE_URL) return true;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

/** Decided before the suite is collected: the semantic cases differ by it. */
const SEMANTIC_AVAILABLE = await pgvectorAvailable();

/** A body without its usage cost: a hit answers the stored body, its cost zeroed (a hit costs nothing). */
function withoutCost(body: any): any {
  const copy = structuredClone(body);
  if (copy?.usage) delete copy.usage.cost;
  return copy;
}

/** An SSE message's data without the usage cost (the replay's usage chunk says cost 0). */
function messageWithoutCost(message: { event?: string; data: string }): unknown {
  return message.data === '[DONE]' ? message : { ...message, data: withoutCost(JSON.parse(message.data)) };
}

function cacheHeaders(res: HttpResult): { status: string | null; type: string | null; key: string | null } {
  return {
    status: res.headers.get('x-gateway-cache-status'),
    type: res.headers.get('x-gateway-cache-type'),
    key: res.headers.get('x-gateway-cache-key'),
  };
}

/**
 * Issue 17 §3 through /v1 with the provider simulator: exact and semantic hits and misses (a hit never reaches the
 * simulator), scope, TTL, the request headers, stream replay, the clear routes, stats, the log row and budgets.
 */
describe('response cache', () => {
  let s: InferenceStack;

  /** Chat completions the simulator has answered (embedding calls of the semantic cache are not counted). */
  const upstreamChats = () => s.sim.requests().filter((r) => r.path.endsWith('/chat/completions')).length;

  async function configure(config: Record<string, unknown>, enabled = true): Promise<void> {
    const res = await s.admin.put('/api/plugins/cache', { enabled, config });
    expect(res.status, res.text).toBe(200);
  }

  /** A request, then the same again: the second must be a hit the simulator never saw. */
  async function missThenHit(client: HttpClient, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const before = upstreamChats();
    const miss = await client.post(CHAT, body, { headers });
    expect(miss.status, miss.text).toBe(200);
    expect(cacheHeaders(miss)).toMatchObject({ status: 'miss', type: null });
    expect(cacheHeaders(miss).key).toMatch(/^[0-9a-f]{64}$/);
    const hit = await vi.waitFor(
      async () => {
        const res = await client.post(CHAT, body, { headers });
        expect(res.status, res.text).toBe(200);
        expect(cacheHeaders(res).status).toBe('hit');
        return res;
      },
      { timeout: 3_000, interval: 30 },
    );
    expect(upstreamChats()).toBe(before + 1);
    return { miss, hit };
  }

  beforeAll(async () => {
    s = await startInferenceStack(CONFIG);
    await configure({});
  });
  afterAll(() => s?.close());
  beforeEach(async () => {
    await configure({});
  });

  it('is off by default: no cache headers, every request reaches the provider', async () => {
    const fresh = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    try {
      const admin = fresh.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
      const cache = await admin.get('/api/plugins/cache');
      expect(cache.status, cache.text).toBe(200);
      expect(cache.body).toMatchObject({ name: 'cache', enabled: false });
    } finally {
      await fresh.close();
    }
    await configure({}, false);
    const before = upstreamChats();
    for (let i = 0; i < 2; i++) {
      const res = await s.inference.post(CHAT, chat('cache off'));
      expect(res.status).toBe(200);
      expect(cacheHeaders(res)).toEqual({ status: null, type: null, key: null });
    }
    expect(upstreamChats()).toBe(before + 2);
  });

  it('an exact hit answers the stored body with cache headers and never calls the provider', async () => {
    const { miss, hit } = await missThenHit(s.inference, chat('exact hit', { temperature: 0 }));
    expect(cacheHeaders(hit)).toEqual({ status: 'hit', type: 'direct', key: cacheHeaders(miss).key });
    expect(withoutCost(hit.body)).toEqual(withoutCost(miss.body));
    expect(miss.body.usage.cost.total_cost).toBeGreaterThan(0);
    expect(hit.body.usage.cost).toEqual({ total_cost: 0 });
    expect(hit.body.choices[0].message.content).toBe('echo: exact hit');
    // Key order and the fields that do not change the answer do not change the key; a parameter does.
    const reordered = await s.inference.post(CHAT, {
      temperature: 0,
      messages: [{ content: 'exact hit', role: 'user' }],
      model: 'openai/gpt-4o-mini',
      user: 'someone',
      metadata: { tag: 'x' },
    });
    expect(cacheHeaders(reordered)).toMatchObject({ status: 'hit', key: cacheHeaders(miss).key });
    const other = await s.inference.post(CHAT, chat('exact hit', { temperature: 1 }));
    expect(cacheHeaders(other).status).toBe('miss');
    expect(cacheHeaders(other).key).not.toBe(cacheHeaders(miss).key);
  });

  it('a hit costs nothing: its log row says cache_hit with cost 0, and the budget is not charged', async () => {
    const key: GovernedKey = await createKey(s, {
      name: 'cache-budget',
      budgets: [{ max_limit: 10, reset_duration: '1h' }],
    });
    const body = chat('budget hit', { max_tokens: 8 });
    const { miss, hit } = await missThenHit(key.client, body);
    expect(Number(miss.headers.get('x-gateway-cost-usd'))).toBeGreaterThan(0);
    expect(Number(hit.headers.get('x-gateway-cost-usd') ?? '0')).toBe(0);
    const usage = (await settledQuota(key)).budgets.find((b: any) => b.level === 'virtual_key').current_usage;
    expect(usage).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) expect(cacheHeaders(await key.client.post(CHAT, body)).status).toBe('hit');
    const after = (await settledQuota(key)).budgets.find((b: any) => b.level === 'virtual_key').current_usage;
    expect(after).toBe(usage);

    const requestId = hit.headers.get('x-request-id')!;
    const row = await logRow(s, requestId);
    expect(row).toMatchObject({ id: requestId, status: 'success', cache_hit: true, cache_type: 'direct', cost: 0 });
    expect(row.virtual_key_id ?? row.virtual_key?.id).toBe(key.id);
  });

  it('scopes entries by virtual key, or shares them when configured', async () => {
    const other = await createKey(s, { name: 'cache-other' });
    const body = chat('scoped');
    const first = await missThenHit(s.inference, body);
    const elsewhere = await other.client.post(CHAT, body);
    expect(cacheHeaders(elsewhere).status).toBe('miss');
    expect(cacheHeaders(elsewhere).key).not.toBe(cacheHeaders(first.miss).key);

    await configure({ scope: 'shared' });
    const shared = chat('shared between keys');
    const written = await s.inference.post(CHAT, shared);
    expect(cacheHeaders(written).status).toBe('miss');
    await vi.waitFor(async () => expect(cacheHeaders(await other.client.post(CHAT, shared)).status).toBe('hit'), {
      timeout: 3_000,
      interval: 30,
    });
  });

  it('expires entries after the TTL (config, or x-gateway-cache-ttl per request)', async () => {
    await configure({ ttl: '400ms' });
    const body = chat('short lived');
    await missThenHit(s.inference, body);
    await new Promise((r) => setTimeout(r, 500));
    expect(cacheHeaders(await s.inference.post(CHAT, body)).status).toBe('miss');

    await configure({ ttl: '1h' });
    const perRequest = chat('per request ttl');
    await missThenHit(s.inference, perRequest, { 'x-gateway-cache-ttl': '300ms' });
    await new Promise((r) => setTimeout(r, 400));
    expect(cacheHeaders(await s.inference.post(CHAT, perRequest)).status).toBe('miss');

    const bad = await s.inference.post(CHAT, chat('bad ttl'), { headers: { 'x-gateway-cache-ttl': 'soon' } });
    expectInferenceError(bad, 400, 'caller_invalid_request', { param: 'x-gateway-cache-ttl' });
  });

  it('x-gateway-cache-force skips the read and writes; x-gateway-no-cache skips both', async () => {
    const body = chat('forced');
    const { miss } = await missThenHit(s.inference, body);
    const before = upstreamChats();
    const forced = await s.inference.post(CHAT, body, { headers: { 'x-gateway-cache-force': 'true' } });
    expect(cacheHeaders(forced)).toEqual({ status: 'bypass', type: null, key: cacheHeaders(miss).key });
    expect(upstreamChats()).toBe(before + 1);
    // The forced answer replaced the entry: the next hit is that answer.
    await vi.waitFor(
      async () => {
        const res = await s.inference.post(CHAT, body);
        expect(cacheHeaders(res).status).toBe('hit');
        expect(res.body.id).toBe(forced.body.id);
      },
      { timeout: 3_000, interval: 30 },
    );

    const skipped = chat('never stored');
    for (let i = 0; i < 2; i++) {
      const res = await s.inference.post(CHAT, skipped, { headers: { 'x-gateway-no-cache': 'true' } });
      expect(res.status).toBe(200);
      expect(cacheHeaders(res).status).toBe('bypass');
    }
    expect(upstreamChats()).toBe(before + 3);
    expect(cacheHeaders(await s.inference.post(CHAT, skipped)).status).toBe('miss');
  });

  it('replays a stream as a stream with the same chunks; a unary request does not hit it', async () => {
    const body = chat('stream me please', { stream: true, stream_options: { include_usage: true } });
    const { miss, hit } = await missThenHit(s.inference, body);
    expect(hit.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = sseMessages(miss.text);
    const replay = sseMessages(hit.text);
    expect(first.length).toBeGreaterThan(3);
    // The same messages in the same order; only the usage chunk's cost differs (zero on a hit).
    expect(replay.map(messageWithoutCost)).toEqual(first.map(messageWithoutCost));
    expect(JSON.parse(first.at(-2)!.data).usage.cost.total_cost).toBeGreaterThan(0);
    expect(JSON.parse(replay.at(-2)!.data).usage.cost).toEqual({ total_cost: 0 });
    expect(replay.at(-1)?.data).toBe('[DONE]');
    const text = replay
      .filter((m) => m.data !== '[DONE]')
      .map((m) => JSON.parse(m.data).choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe('echo: stream me please');

    // The stream flag is part of the key: a unary request of the same body is a miss, answered as JSON.
    const unary = await s.inference.post(CHAT, { ...body, stream: false, stream_options: undefined });
    expect(cacheHeaders(unary).status).toBe('miss');

    // Through the official SDK too.
    const sdkBody = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user' as const, content: 'sdk stream' }] };
    const read = async () => {
      const parts: string[] = [];
      for await (const chunk of await s.openai.chat.completions.create({ ...sdkBody, stream: true })) {
        parts.push(chunk.choices[0]?.delta?.content ?? '');
      }
      return parts;
    };
    const before = upstreamChats();
    const fromProvider = await read();
    await vi.waitFor(async () => expect(await read()).toEqual(fromProvider), { timeout: 3_000, interval: 30 });
    expect(upstreamChats()).toBe(before + 1);
  });

  it('caches the provider-format routes too: a hit answered in that format, unary and streamed', async () => {
    const native = s.gw.http.withHeaders({ 'x-api-key': s.vk, 'anthropic-version': '2023-06-01' });
    const body = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'native hit' }] };
    const before = s.sim.requests().length;
    const miss = await native.post('/anthropic/v1/messages', body);
    expect(miss.status, miss.text).toBe(200);
    expect(cacheHeaders(miss).status).toBe('miss');
    const hit = await vi.waitFor(
      async () => {
        const res = await native.post('/anthropic/v1/messages', body);
        expect(cacheHeaders(res)).toEqual({ status: 'hit', type: 'direct', key: cacheHeaders(miss).key });
        return res;
      },
      { timeout: 3_000, interval: 30 },
    );
    expect(hit.body).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'echo: native hit' }] });
    expect(hit.body.id).toBe(miss.body.id);

    const streamed = { ...body, stream: true };
    const first = await native.post('/anthropic/v1/messages', streamed);
    expect(cacheHeaders(first).status).toBe('miss');
    const replay = await vi.waitFor(
      async () => {
        const res = await native.post('/anthropic/v1/messages', streamed);
        expect(cacheHeaders(res).status).toBe('hit');
        return res;
      },
      { timeout: 3_000, interval: 30 },
    );
    expect(replay.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (text: string) => sseMessages(text).map((m) => m.event);
    expect(events(replay.text)).toEqual(events(first.text));
    expect(events(replay.text)).toContain('message_stop');
    expect(s.sim.requests().length).toBe(before + 2);
  });

  it('clears entries by the request that wrote them and by key; stats count entries, hits and misses', async () => {
    const before = await s.admin.get('/api/cache/stats');
    expect(before.status, before.text).toBe(200);
    expect(before.body.store).toBe(TEST_REDIS_URL ? 'redis' : 'memory');

    const body = chat('clear me');
    const { miss } = await missThenHit(s.inference, body);
    const key = cacheHeaders(miss).key!;
    const stats = (await s.admin.get('/api/cache/stats')).body;
    expect(stats.hits).toBe(before.body.hits + 1);
    expect(stats.misses).toBe(before.body.misses + 1);
    expect(stats.entries).toBeGreaterThanOrEqual(1);
    expect(stats.bytes).toBeGreaterThan(before.body.bytes);
    expect(stats.hit_rate).toBeCloseTo(stats.hits / (stats.hits + stats.misses), 12);

    const cleared = await s.admin.delete(`/api/cache/clear/${miss.headers.get('x-request-id')}`);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toEqual({ message: 'Cache entry removed', cache_key: key });
    expect(cacheHeaders(await s.inference.post(CHAT, body)).status).toBe('miss');
    const again = await s.admin.delete(`/api/cache/clear/${miss.headers.get('x-request-id')}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('cache_entry_not_found');

    await vi.waitFor(async () => expect(cacheHeaders(await s.inference.post(CHAT, body)).status).toBe('hit'), {
      timeout: 3_000,
      interval: 30,
    });
    const byKey = await s.admin.delete(`/api/cache/clear-by-key/${key}`);
    expect(byKey.status, byKey.text).toBe(200);
    expect(byKey.body.cache_key).toBe(key);
    expect(cacheHeaders(await s.inference.post(CHAT, body)).status).toBe('miss');
    for (const path of [`/api/cache/clear-by-key/${'0'.repeat(64)}`, '/api/cache/clear-by-key/not-a-key']) {
      const unknown = await s.admin.delete(path);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('cache_entry_not_found');
    }
    const unknownRequest = await s.admin.delete('/api/cache/clear/00000000-0000-4000-8000-000000000000');
    expect(unknownRequest.status).toBe(404);
  });

  it('checks its config: 400 naming the key, nothing applied', async () => {
    await configure({ ttl: '1m' });
    for (const [config, param] of [
      [{ ttl: 'forever' }, 'config.ttl'],
      [{ threshold: 2 }, 'config.threshold'],
      [{ scope: 'team' }, 'config.scope'],
      [{ max_entries: 0 }, 'config.max_entries'],
      [{ semantic: true }, 'config.embedding_model'],
    ] as const) {
      const res = await s.admin.put('/api/plugins/cache', { config });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
    expect((await s.admin.get('/api/plugins/cache')).body.config).toEqual({ ttl: '1m' });
  });

  describe('semantic', () => {
    const semanticConfig = { semantic: true, embedding_model: 'openai/sim-bow-embed', threshold: 0.85 };

    it.runIf(!SEMANTIC_AVAILABLE)('cannot be turned on without pgvector (400 naming config.semantic)', async () => {
      const res = await s.admin.put('/api/plugins/cache', { enabled: true, config: semanticConfig });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.param).toBe('config.semantic');
      expect(res.body.error.message).toMatch(/pgvector/);
    });

    // PGlite ships pgvector; a Postgres server needs it installed (docs/cache.md), else the case above runs instead.
    it.runIf(SEMANTIC_AVAILABLE)('a paraphrase hits above the threshold, another question misses', async () => {
      await configure(semanticConfig);
      const asked = await s.inference.post(CHAT, chat('What is the capital of France?'));
      expect(cacheHeaders(asked).status).toBe('miss');
      const embeddings = s.sim.requests().filter((r) => r.path.endsWith('/embeddings'));
      expect(embeddings.at(-1)?.body).toMatchObject({
        model: 'sim-bow-embed',
        input: 'What is the capital of France?',
      });
      const before = upstreamChats();

      const paraphrase = await vi.waitFor(
        async () => {
          const res = await s.inference.post(CHAT, chat('what is the capital of france please'));
          expect(cacheHeaders(res)).toEqual({ status: 'hit', type: 'semantic', key: cacheHeaders(asked).key });
          return res;
        },
        { timeout: 3_000, interval: 50 },
      );
      expect(withoutCost(paraphrase.body)).toEqual(withoutCost(asked.body));
      expect(upstreamChats()).toBe(before);

      // Similar words, another question: below the threshold.
      const other = await s.inference.post(CHAT, chat('What is the capital of Spain?'));
      expect(cacheHeaders(other).status).toBe('miss');
      expect(other.body.choices[0].message.content).toBe('echo: What is the capital of Spain?');
      expect(upstreamChats()).toBe(before + 1);

      // Same text, another model: no semantic hit.
      const otherModel = await s.inference.post(CHAT, {
        ...chat('what is the capital of france please'),
        model: 'openai/gpt-4o',
      });
      expect(cacheHeaders(otherModel).status).toBe('miss');

      const requestId = paraphrase.headers.get('x-request-id')!;
      const row = await logRow(s, requestId);
      expect(row).toMatchObject({ cache_hit: true, cache_type: 'semantic', cost: 0 });
      expect((await s.admin.get('/api/cache/stats')).body.semantic_entries).toBeGreaterThanOrEqual(2);
    });
  });

  describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('across replicas', () => {
    let replica: TestApp;
    beforeAll(async () => {
      replica = await startTestApp({
        config: { setup_token: SETUP_TOKEN, ...CONFIG },
        databaseUrl: s.gw.databaseUrl,
        redisPrefix: s.gw.config.redis_prefix,
        keepDatabase: true,
      });
    });
    afterAll(() => replica?.close());

    it('an entry written through one replica is a hit on the other', async () => {
      const onReplica = replica.http.withHeaders({ authorization: `Bearer ${s.vk}` });
      const body = chat('written on A');
      const written = await s.inference.post(CHAT, body);
      expect(cacheHeaders(written).status).toBe('miss');
      const before = upstreamChats();
      await vi.waitFor(
        async () => {
          const res = await onReplica.post(CHAT, body);
          expect(cacheHeaders(res)).toEqual({ status: 'hit', type: 'direct', key: cacheHeaders(written).key });
          expect(withoutCost(res.body)).toEqual(withoutCost(written.body));
        },
        { timeout: 3_000, interval: 30 },
      );
      expect(upstreamChats()).toBe(before);
      const stats = await replica.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN }).get('/api/cache/stats');
      expect(stats.body).toMatchObject({ store: 'redis' });
      expect(stats.body.hits).toBeGreaterThanOrEqual(1);
    });
  });
});
