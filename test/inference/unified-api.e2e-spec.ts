import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seen, sseMessages, startInferenceStack, type InferenceStack } from './inference-kit.js';

/**
 * The unified /v1 API end to end with the official openai SDK as the client, one provider family at a time, asserting
 * what the caller got and what the provider simulator received.
 */
describe('unified /v1 API', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  const lastRequest = () => {
    const all = seen(s.sim);
    expect(all.length).toBeGreaterThan(0);
    return all[all.length - 1]!;
  };

  it('chat completion on openai: echo, contract usage with cost, routing headers, translated upstream call', async () => {
    const { data, response } = await s.openai.chat.completions
      .create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }] })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toContain('hello there');
    expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
    const cost = (data.usage as any).cost;
    expect(cost.total_cost).toBeGreaterThan(0);
    for (const field of ['input_tokens_cost', 'output_tokens_cost', 'request_cost', 'total_cost']) {
      expect(typeof cost[field], field).toBe('number');
    }
    expect(Number(response.headers.get('x-gateway-cost-usd'))).toBeCloseTo(cost.total_cost, 12);
    expect(response.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    expect(response.headers.get('x-gateway-routing-info-model')).toBe('gpt-4o-mini');
    expect(['oa-1', 'oa-2']).toContain(response.headers.get('x-gateway-routing-info-key'));
    expect(response.headers.get('x-gateway-routing-info-requested-provider')).toBe('openai');
    expect(response.headers.get('x-gateway-routing-info-requested-model')).toBe('gpt-4o-mini');
    expect(response.headers.get('x-gateway-routing-info-is-fallback')).toBeNull();
    expect(response.headers.get('x-gateway-fallback-index')).toBeNull();
    expect(Number(response.headers.get('x-gateway-upstream-latency-ms'))).toBeGreaterThan(0);
    // Written past Fastify's send pipeline: the request id and an exact length still go out.
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(100);

    const seen = lastRequest();
    expect(seen.path).toBe('/openai/v1/chat/completions');
    expect(seen.body.model).toBe('gpt-4o-mini');
    expect(seen.body.fallbacks).toBeUndefined();
    const usedKey = response.headers.get('x-gateway-routing-info-key') === 'oa-1' ? 'sk-oa-1' : 'sk-oa-2';
    expect(seen.headers.authorization).toBe(`Bearer ${usedKey}`);
  });

  it('streams openai chat as chunks with one priced usage chunk when include_usage is set', async () => {
    const stream = await s.openai.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'stream me please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const usages: any[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect(text).toContain('stream me please');
    expect(usages).toHaveLength(1);
    expect(usages[0].completion_tokens).toBeGreaterThan(0);
    expect(usages[0].cost.total_cost).toBeGreaterThan(0);
    expect(lastRequest().body.stream_options).toEqual({ include_usage: true });
  });

  it('relays each event as it arrives: events the provider sends 120 ms apart reach the client as far apart', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'chunk_delay', chunk_delay_ms: 120 }] });
    const stream = await s.openai.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'one two three four' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const arrivals: { at: number; content: string; usage: boolean }[] = [];
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta?.content ?? '';
      arrivals.push({ at: performance.now(), content, usage: chunk.usage != null });
    }
    const words = arrivals.filter((a) => a.content.trim() !== '');
    expect(words.map((a) => a.content.trim())).toEqual(['echo:', 'one', 'two', 'three', 'four']);
    // Written as it came (no event held for a later one): the five words span about four gaps (480 ms), where a relay
    // that held the events until the stream ended would deliver them together. Half of it leaves room for a busy host.
    expect(words.at(-1)!.at - words[0]!.at).toBeGreaterThan(240);
    // The priced usage chunk closes the stream.
    expect(arrivals.at(-1)!.usage).toBe(true);
  });

  it('without include_usage the caller sees no usage chunk, though the gateway asked the provider for one', async () => {
    const res = await s.inference.post('/v1/chat/completions', {
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'no usage' }],
      stream: true,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    const messages = sseMessages(res.text);
    expect(messages[messages.length - 1]!.data).toBe('[DONE]');
    const chunks = messages.slice(0, -1).map((m) => JSON.parse(m.data));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.usage === undefined && c.choices.length > 0)).toBe(true);
    expect(lastRequest().body.stream_options).toEqual({ include_usage: true });
  });

  it('anthropic: chat through the Messages API, unary and streamed', async () => {
    const { data, response } = await s.openai.chat.completions
      .create({
        model: 'anthropic/claude-sonnet-4-5',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hello claude' },
        ],
        max_tokens: 100,
      })
      .withResponse();
    expect(data.choices[0]!.message.content).toContain('hello claude');
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-gateway-routing-info-provider')).toBe('anthropic');
    const seen = lastRequest();
    expect(seen.path).toBe('/anthropic/v1/messages');
    expect(seen.headers['x-api-key']).toBe('sk-ant-1');
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen.body.system).toBeDefined();
    expect(JSON.stringify(seen.body.system)).toContain('be brief');
    expect(seen.body.max_tokens).toBe(100);
    expect(seen.body.messages).toHaveLength(1);

    const stream = await s.openai.chat.completions.create({
      model: 'anthropic/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'stream claude' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: any;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toContain('stream claude');
    expect(finish).toBe('stop');
    expect(usage.completion_tokens).toBeGreaterThan(0);
  });

  it('gemini: chat, streamed chat and embeddings', async () => {
    const chat = await s.openai.chat.completions.create({
      model: 'gemini/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hello gemini' }],
    });
    expect(chat.choices[0]!.message.content).toContain('hello gemini');
    const seen = lastRequest();
    expect(seen.path).toBe('/gemini/v1beta/models/gemini-2.5-flash:generateContent');
    expect(seen.headers['x-goog-api-key']).toBe('gem-key-1');

    const stream = await s.openai.chat.completions.create({
      model: 'gemini/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'stream gemini' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toContain('stream gemini');
    expect(lastRequest().path).toContain(':streamGenerateContent');

    const embeddings = await s.openai.embeddings.create({ model: 'gemini/text-embedding-004', input: ['a', 'b'] });
    expect(embeddings.data).toHaveLength(2);
    expect(embeddings.data[1]!.index).toBe(1);
    expect(embeddings.data[0]!.embedding.length).toBeGreaterThan(0);
  });

  it('azure: deployment path, api-version and api-key', async () => {
    const chat = await s.openai.chat.completions.create({
      model: 'azure/gpt-4o',
      messages: [{ role: 'user', content: 'hello azure' }],
    });
    expect(chat.choices[0]!.message.content).toContain('hello azure');
    const seen = lastRequest();
    expect(seen.path).toBe('/azure/openai/deployments/dep-4o/chat/completions');
    expect(seen.query['api-version']).toBe('2024-10-21');
    expect(seen.headers['api-key']).toBe('az-key-1');
    expect(seen.headers.authorization).toBeUndefined();
  });

  it('embeddings on openai', async () => {
    const { data, response } = await s.openai.embeddings
      .create({ model: 'openai/text-embedding-3-small', input: 'embed me' })
      .withResponse();
    expect(data.object).toBe('list');
    expect(data.data[0]!.embedding.length).toBeGreaterThan(0);
    expect(data.usage.prompt_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-gateway-routing-info-model')).toBe('text-embedding-3-small');
    expect(lastRequest().path).toBe('/openai/v1/embeddings');
  });

  it('tool calls come back in the OpenAI shape from openai and anthropic', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    for (const model of ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5']) {
      const res = await s.openai.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'please call get_weather' }],
        tools,
      });
      const call = res.choices[0]!.message.tool_calls?.[0];
      expect(call, model).toBeDefined();
      expect(call!.type).toBe('function');
      expect((call as any).function.name).toBe('get_weather');
      expect(typeof JSON.parse((call as any).function.arguments)).toBe('object');
      expect(res.choices[0]!.finish_reason).toBe('tool_calls');
    }
    const anthropicCall = lastRequest();
    expect(anthropicCall.body.tools[0]).toMatchObject({ name: 'get_weather', input_schema: { type: 'object' } });
  });

  it('responses API: native on openai, bridged through chat on anthropic (unary and streamed)', async () => {
    const native = await s.openai.responses.create({ model: 'openai/gpt-4o-mini', input: 'respond natively' });
    expect(native.object).toBe('response');
    expect(native.output_text).toContain('respond natively');
    expect(lastRequest().path).toBe('/openai/v1/responses');
    expect(native.usage!.input_tokens).toBeGreaterThan(0);

    const bridged = await s.openai.responses.create({
      model: 'anthropic/claude-sonnet-4-5',
      input: 'respond via chat',
      instructions: 'be nice',
    });
    expect(bridged.object).toBe('response');
    expect(bridged.status).toBe('completed');
    expect(bridged.output_text).toContain('respond via chat');
    expect(bridged.usage!.output_tokens).toBeGreaterThan(0);
    expect(lastRequest().path).toBe('/anthropic/v1/messages');

    const stream = await s.openai.responses.create({
      model: 'anthropic/claude-sonnet-4-5',
      input: 'stream via chat',
      stream: true,
    });
    const types: string[] = [];
    let text = '';
    let completed: any;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types[types.length - 1]).toBe('response.completed');
    expect(text).toContain('stream via chat');
    expect(completed.usage.output_tokens).toBeGreaterThan(0);
  });

  it('count_tokens on anthropic and openai', async () => {
    const anthropic = await s.inference.post('/v1/count_tokens', {
      model: 'anthropic/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'count these four words' }],
    });
    expect(anthropic.status, anthropic.text).toBe(200);
    expect(anthropic.body).toMatchObject({ object: 'response.input_tokens' });
    expect(anthropic.body.input_tokens).toBeGreaterThan(0);
    expect(lastRequest().path).toBe('/anthropic/v1/messages/count_tokens');
  });
});

describe('unified /v1 API: more kinds', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
    const vllm = await s.admin.post('/api/providers', { provider: 'vllm', base_url: `${s.sim.url}/openai/noauth/v1` });
    expect(vllm.status, vllm.text).toBe(201);
    const key = await s.admin.post('/api/providers/vllm/keys', { name: 'local', models: ['bge-reranker'] });
    expect(key.status, key.text).toBe(201);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('legacy completions, unary and streamed', async () => {
    const unary = await s.openai.completions.create({
      model: 'openai/gpt-3.5-turbo-instruct',
      prompt: 'complete this',
    });
    expect(unary.object).toBe('text_completion');
    expect(unary.choices[0]!.text).toContain('complete this');
    expect(seen(s.sim).at(-1)!.path).toBe('/openai/v1/completions');
    const stream = await s.openai.completions.create({
      model: 'openai/gpt-3.5-turbo-instruct',
      prompt: 'stream this',
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text).toContain('stream this');
  });

  it('rerank on a keyless self-hosted vllm, resolved from a bare model its key names', async () => {
    const res = await s.inference.post('/v1/rerank', {
      model: 'bge-reranker',
      query: 'which is about cats',
      documents: ['dogs bark', 'cats purr', 'birds sing'],
      top_n: 2,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toHaveLength(2);
    expect(res.body.results[0]).toMatchObject({ index: expect.any(Number), relevance_score: expect.any(Number) });
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('vllm');
    const call = seen(s.sim).at(-1)!;
    expect(call.path).toBe('/openai/noauth/v1/rerank');
    expect(call.headers.authorization).toBeUndefined();
  });

  it('native Responses stream on openai: typed events, usage with cost on response.completed', async () => {
    const stream = await s.openai.responses.create({
      model: 'openai/gpt-4o-mini',
      input: 'native stream',
      stream: true,
    });
    let completed: any;
    let text = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(text).toContain('native stream');
    expect(completed.usage.input_tokens).toBeGreaterThan(0);
    expect(completed.usage.cost.total_cost).toBeGreaterThan(0);
  });

  it('lists models: /v1/models in the OpenAI shape, /api/models with per-key statuses', async () => {
    const v1 = await s.openai.models.list();
    const ids = v1.data.map((m) => m.id);
    expect(ids.some((id) => id.startsWith('openai/'))).toBe(true);
    expect(ids.some((id) => id.startsWith('anthropic/'))).toBe(true);
    expect(ids.some((id) => id.startsWith('gemini/'))).toBe(true);
    expect(v1.data[0]!.object).toBe('model');

    s.sim.scenario({ match: { family: 'anthropic' }, responses: [{ fault: 'error', status: 500 }], repeat: true });
    const api = await s.admin.get('/api/models');
    expect(api.status, api.text).toBe(200);
    expect(api.body.count).toBe(api.body.models.length);
    const statuses = api.body.key_statuses as Array<{ provider: string; status: string; error?: any }>;
    expect(statuses.find((k) => k.provider === 'openai')!.status).toBe('success');
    const failed = statuses.find((k) => k.provider === 'anthropic')!;
    expect(failed.status).toBe('list_models_failed');
    expect(failed.error.is_gateway_error).toBe(false);
    expect(failed.error.status_code).toBe(500);
    expect(api.body.models.some((m: any) => m.provider === 'anthropic')).toBe(false);
    // Each model with the price table's rates, per token as a pricing override takes them; none for a model the
    // table does not price.
    const listed = new Map<string, any>(api.body.models.map((m: any) => [m.id, m]));
    expect(listed.get('openai/gpt-4o-mini').catalogue_price).toEqual({
      input_cost_per_token: expect.closeTo(0.15e-6, 15),
      output_cost_per_token: expect.closeTo(0.6e-6, 15),
      cache_read_input_token_cost: expect.closeTo(0.075e-6, 15),
      search_context_cost_per_query: 0.01,
    });
    expect(listed.get('openai/gpt-4o').catalogue_price.input_cost_per_token).toBeCloseTo(2.5e-6, 15);
    expect(listed.get('openai/sim-echo')).toBeDefined();
    expect(listed.get('openai/sim-echo').catalogue_price).toBeUndefined();
    const filtered = await s.admin.get('/api/models', { query: { provider: 'gemini' } });
    expect(filtered.body.models.every((m: any) => m.provider === 'gemini')).toBe(true);
    expect(filtered.body.models.length).toBeGreaterThan(0);
  });

  it('an inactive virtual key is refused with 403 from the in-memory cache, before any provider call', async () => {
    const created = await s.admin.post('/api/governance/virtual-keys', { name: 'to-block' });
    const vk = created.body.virtual_key;
    const ok = await s.gw.http.post(
      '/v1/chat/completions',
      { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] },
      { headers: { 'x-gateway-vk': vk.value } },
    );
    expect(ok.status).toBe(200);
    expect((await s.admin.put(`/api/governance/virtual-keys/${vk.id}`, { is_active: false })).status).toBe(200);
    s.sim.reset();
    const blocked = await s.gw.http.post(
      '/v1/chat/completions',
      { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] },
      { headers: { 'x-api-key': vk.value } },
    );
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('virtual_key_blocked');
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('a key whose secret cannot be resolved: 502 secret_unresolved, never a 500', async () => {
    await s.admin.post('/api/providers', { provider: 'groq', base_url: `${s.sim.url}/openai/v1` });
    const key = await s.admin.post('/api/providers/groq/keys', { name: 'envkey', value: 'env.GW_TEST_UNSET_GROQ_KEY' });
    expect(key.status, key.text).toBe(201);
    const res = await s.inference.post('/v1/chat/completions', {
      model: 'groq/llama-3.3-70b',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(res.status, res.text).toBe(502);
    expect(res.body.error.code).toBe('secret_unresolved');
    expect(res.text).not.toContain('GW_TEST_UNSET_GROQ_KEY=');
  });
});
