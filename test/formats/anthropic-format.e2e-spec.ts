import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { seen, sseMessages, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { GOLDEN, GOLDEN_REQUEST, GOLDEN_STREAM_REQUEST } from './anthropic-golden.js';

const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Each target: the model the Anthropic client names and the upstream path the simulator must see. */
const TARGETS = [
  { model: 'claude-sonnet-4-5', provider: 'anthropic', path: '/anthropic/v1/messages' },
  { model: 'openai/gpt-4o-mini', provider: 'openai', path: '/openai/v1/chat/completions' },
  {
    model: 'gemini/gemini-2.0-flash',
    provider: 'gemini',
    path: '/gemini/v1beta/models/gemini-2.0-flash:generateContent',
  },
] as const;

/**
 * The `/anthropic` provider format through the official `@anthropic-ai/sdk`, unchanged but for its base URL and the
 * virtual key as its API key: unary, streamed, tools, count_tokens, against Anthropic, OpenAI and Gemini targets, on
 * `/anthropic` and `/litellm/anthropic`; errors in Anthropic's shape.
 */
describe(`provider format: /anthropic (${RUN_MODE})`, () => {
  let s: InferenceStack;
  const client = (base = '/anthropic') =>
    new Anthropic({ baseURL: `${s.gw.baseUrl}${base}`, apiKey: s.vk, maxRetries: 0, timeout: 20_000 });

  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  for (const target of TARGETS) {
    for (const base of ['/anthropic', '/litellm/anthropic']) {
      it(`${base} → ${target.provider}: messages.create answers an Anthropic message, routed and priced`, async () => {
        const { data, response } = await client(base)
          .messages.create({
            model: target.model,
            max_tokens: 256,
            system: 'be brief',
            messages: [{ role: 'user', content: 'hello through anthropic' }],
          })
          .withResponse();
        expect(data).toMatchObject({
          type: 'message',
          role: 'assistant',
          model: target.model,
          content: [{ type: 'text', text: 'echo: hello through anthropic' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
        });
        expect(data.id).toMatch(/^msg_/);
        expect(data.usage.output_tokens).toBe(4);
        expect(data.usage.input_tokens).toBeGreaterThan(0);
        expect(response.headers.get('x-gateway-routing-info-provider')).toBe(target.provider);
        expect(Number(response.headers.get('x-gateway-cost-usd'))).toBeGreaterThan(0);
        const upstream = seen(s.sim).at(-1);
        expect(upstream.path).toBe(target.path);
      });
    }

    it(`→ ${target.provider}: messages.stream gives the Anthropic events and a final message with usage`, async () => {
      const stream = client('/litellm/anthropic').messages.stream({
        model: target.model,
        max_tokens: 256,
        messages: [{ role: 'user', content: 'stream me please' }],
      });
      const types: string[] = [];
      stream.on('streamEvent', (event) => types.push(event.type));
      const final = await stream.finalMessage();
      expect(final.content).toHaveLength(1);
      expect(final.content[0]).toMatchObject({ type: 'text', text: 'echo: stream me please' });
      expect(final.stop_reason).toBe('end_turn');
      expect(final.usage.output_tokens).toBe(4);
      expect(final.usage.input_tokens).toBeGreaterThan(0);
      expect(types[0]).toBe('message_start');
      expect(types.at(-1)).toBe('message_stop');
      expect(types.at(-2)).toBe('message_delta');
      expect(types).toContain('content_block_delta');
      expect(seen(s.sim).at(-1).stream).toBe(true);
    });

    it(`→ ${target.provider}: a tool_use answer, then the tool_result turn answered`, async () => {
      const first = await client().messages.create({
        model: target.model,
        max_tokens: 256,
        tools: [WEATHER],
        messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
      });
      expect(first.stop_reason).toBe('tool_use');
      const use = first.content.find((b) => b.type === 'tool_use');
      expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
      const id = (use as Anthropic.ToolUseBlock).id;
      const second = await client().messages.create({
        model: target.model,
        max_tokens: 256,
        tools: [WEATHER],
        messages: [
          { role: 'user', content: 'call get_weather {"city":"Paris"}' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'sunny and warm' }] },
        ],
      });
      // Gemini's functionResponse wraps the result ({"content": …}); every target answers from it.
      expect(second.content).toHaveLength(1);
      expect(second.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('sunny and warm') });
      expect(second.stop_reason).toBe('end_turn');
    });
  }

  it("the caller's anthropic-beta header reaches Anthropic beside the provider's own, and never another provider", async () => {
    await client().messages.create(
      { model: 'claude-sonnet-4-5', max_tokens: 32, messages: [{ role: 'user', content: 'beta' }] },
      { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
    );
    const toAnthropic = seen(s.sim).at(-1);
    expect(toAnthropic.path).toBe('/anthropic/v1/messages');
    expect(toAnthropic.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(toAnthropic.body.anthropic_beta).toBeUndefined();
    await client().messages.create(
      { model: 'openai/gpt-4o-mini', max_tokens: 32, messages: [{ role: 'user', content: 'beta' }] },
      { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
    );
    const toOpenAi = seen(s.sim).at(-1);
    expect(toOpenAi.path).toBe('/openai/v1/chat/completions');
    expect(toOpenAi.headers['anthropic-beta']).toBeUndefined();
    expect(toOpenAi.body.anthropic_beta).toBeUndefined();
  });

  it('count_tokens against Anthropic and Gemini targets', async () => {
    const anthropic = await client().messages.countTokens({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'count these four words' }],
    });
    expect(anthropic.input_tokens).toBeGreaterThan(0);
    expect(seen(s.sim).at(-1).path).toBe('/anthropic/v1/messages/count_tokens');
    const gemini = await client('/litellm/anthropic').messages.countTokens({
      model: 'gemini/gemini-2.0-flash',
      messages: [{ role: 'user', content: 'count these four words' }],
    });
    expect(gemini).toEqual({ input_tokens: expect.any(Number) });
    expect(gemini.input_tokens).toBeGreaterThan(0);
    expect(seen(s.sim).at(-1).path).toBe('/gemini/v1beta/models/gemini-2.0-flash:countTokens');
    // OpenAI counts a Responses-shaped prompt: the chat messages arrive as `instructions` and `input` items.
    const openai = await client().messages.countTokens({
      model: 'openai/gpt-4o-mini',
      system: 'be brief',
      messages: [{ role: 'user', content: 'count these four words' }],
    });
    expect(openai.input_tokens).toBe(6); // one token per word, instructions included
    const upstream = seen(s.sim).at(-1);
    expect(upstream.path).toBe('/openai/v1/responses/input_tokens');
    expect(upstream.body).toMatchObject({
      model: 'gpt-4o-mini',
      instructions: 'be brief',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'count these four words' }] }],
    });
    expect(upstream.body.messages).toBeUndefined();
  });

  it('a tool_use streamed from OpenAI arrives as a tool_use block with input_json_delta', async () => {
    const res = await s.inference.post('/anthropic/v1/messages', {
      model: 'openai/gpt-4o-mini',
      max_tokens: 100,
      stream: true,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'call get_weather {"city":"Oslo"}' }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    const events = sseMessages(res.text).map((m) => ({ event: m.event, data: JSON.parse(m.data) }));
    expect(res.text).not.toContain('[DONE]');
    const start = events.find((e) => e.event === 'content_block_start')!.data;
    expect(start.content_block).toMatchObject({ type: 'tool_use', name: 'get_weather', input: {} });
    const json = events
      .filter((e) => e.data.delta?.type === 'input_json_delta')
      .map((e) => e.data.delta.partial_json as string)
      .join('');
    expect(JSON.parse(json)).toEqual({ city: 'Oslo' });
    const delta = events.find((e) => e.event === 'message_delta')!.data;
    expect(delta.delta.stop_reason).toBe('tool_use');
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
    expect(seen(s.sim).at(-1).body.stream_options).toEqual({ include_usage: true });
  });

  describe('errors in Anthropic shape', () => {
    it('no max_tokens: 400 invalid_request_error naming it (the SDK raises BadRequestError)', async () => {
      const err = await client()
        .messages.create({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] } as never)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      const body = (err as InstanceType<typeof Anthropic.BadRequestError>).error as any;
      expect(body).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', param: 'max_tokens', code: 'validation_failed' },
        is_gateway_error: true,
        extra_fields: { error_type: 'caller_invalid_request' },
      });
      expect(body.error.event_id).toBe(body.event_id);
      expect(seen(s.sim)).toEqual([]);
    });

    it('a bad block type names its field; empty messages names messages', async () => {
      const bad = await s.inference.post('/anthropic/v1/messages', {
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'video', url: 'x' }] },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', param: 'messages[1].content[0].type' });
      const empty = await s.inference.post('/litellm/anthropic/v1/messages', {
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        messages: [],
      });
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', param: 'messages' } });
    });

    it('no virtual key: 401 authentication_error', async () => {
      const res = await s.gw.http.post('/anthropic/v1/messages', {
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error', code: 'missing_credentials' },
      });
      const sdk = await new Anthropic({
        baseURL: `${s.gw.baseUrl}/anthropic`,
        apiKey: 'sk-not-a-key',
        maxRetries: 0,
      }).messages
        .create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(sdk).toBeInstanceOf(Anthropic.AuthenticationError);
    });

    it('a model of an unconfigured provider: a native-looking 4xx, nothing sent upstream', async () => {
      const err = await client()
        .messages.create({ model: 'mistral/mistral-large', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.APIError);
      const status = (err as InstanceType<typeof Anthropic.APIError>).status!;
      expect([400, 404]).toContain(status);
      const body = (err as InstanceType<typeof Anthropic.APIError>).error as any;
      expect(body.type).toBe('error');
      expect(body.error.type).toBe(status === 404 ? 'not_found_error' : 'invalid_request_error');
      expect(seen(s.sim)).toEqual([]);
    });

    it("an unknown Claude model: Anthropic's 404 comes back as not_found_error (the SDK's NotFoundError)", async () => {
      s.sim.scenario({
        match: { family: 'anthropic', model: 'claude-nonexistent-9' },
        responses: [{ fault: 'error', status: 404, message: 'model: claude-nonexistent-9' }],
        repeat: true,
      });
      const err = await client()
        .messages.create({ model: 'claude-nonexistent-9', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.NotFoundError);
      const body = (err as InstanceType<typeof Anthropic.NotFoundError>).error as any;
      expect(body).toMatchObject({
        type: 'error',
        error: { type: 'not_found_error', message: expect.stringContaining('claude-nonexistent-9') },
        extra_fields: { routing_info: { provider: 'anthropic', model: 'claude-nonexistent-9' } },
      });
    });

    it('a provider 429 is relayed as rate_limit_error with retry-after and the routing headers', async () => {
      s.sim.scenario({
        match: { family: 'anthropic' },
        responses: [{ fault: 'rate_limit', hint: 'retry-after-seconds', hint_ms: 3000 }],
        repeat: true,
      });
      const res = await s.inference.post('/anthropic/v1/messages', {
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(res.status, res.text).toBe(429);
      expect(res.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
      expect(res.body.extra_fields.routing_info).toMatchObject({ provider: 'anthropic' });
      expect(res.headers.get('retry-after')).toBe('3');
      expect(res.headers.get('x-gateway-routing-info-provider')).toBe('anthropic');
      const sdk = await client()
        .messages.create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(sdk).toBeInstanceOf(Anthropic.RateLimitError);
    });

    it('a failure mid-stream is one event: error in Anthropic shape', async () => {
      s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'stream_error', after_events: 2 }] });
      const res = await s.inference.post('/anthropic/v1/messages', {
        model: 'openai/gpt-4o-mini',
        max_tokens: 50,
        stream: true,
        messages: [{ role: 'user', content: 'one two three four five' }],
      });
      expect(res.status).toBe(200);
      const events = sseMessages(res.text);
      expect(events[0]!.event).toBe('message_start');
      const last = events.at(-1)!;
      expect(last.event).toBe('error');
      expect(JSON.parse(last.data)).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
      expect(events.some((e) => e.event === 'message_stop')).toBe(false);
    });
  });

  describe('golden conversions (Anthropic in, each provider out)', () => {
    /** Generated ids (the message's, a tool call's) checked for their shape, then replaced by placeholders. */
    const normalised = (events: Array<{ event?: string; data: string }>) =>
      events.map((m) => {
        const data = JSON.parse(m.data);
        expect(data.type).toBe(m.event);
        if (data.type === 'message_start') {
          expect(data.message.id).toMatch(/^msg_/);
          data.message.id = 'MSG_ID';
        }
        if (data.content_block?.type === 'tool_use') {
          expect(data.content_block.id).toMatch(/^(toolu_|call_)/);
          data.content_block.id = 'TOOL_ID';
        }
        return data;
      });

    for (const [model, golden] of Object.entries(GOLDEN)) {
      it(`${model}: the exact upstream body and the exact answer, unary`, async () => {
        const res = await s.inference.post('/anthropic/v1/messages', { ...GOLDEN_REQUEST, model });
        expect(res.status, res.text).toBe(200);
        const upstream = seen(s.sim).at(-1);
        expect(upstream.path).toBe(golden.path);
        expect(upstream.body).toEqual(golden.upstream);
        expect(res.body.id).toMatch(/^msg_/);
        expect({ ...res.body, id: 'MSG_ID' }).toEqual(golden.answer);
      });

      it(`${model}: the exact upstream body and the exact event sequence, streamed with a tool call`, async () => {
        const res = await s.inference.post('/anthropic/v1/messages', { ...GOLDEN_STREAM_REQUEST, model });
        expect(res.status, res.text).toBe(200);
        expect(seen(s.sim).at(-1).body).toEqual(golden.streamUpstream);
        expect(normalised(sseMessages(res.text))).toEqual(golden.events);
      });
    }

    it('Anthropic round trip: signatures, redacted thinking, cache_control and tool ids reach Anthropic byte for byte', async () => {
      const res = await s.inference.post('/anthropic/v1/messages', GOLDEN_REQUEST);
      expect(res.status, res.text).toBe(200);
      const upstream = seen(s.sim).at(-1).body;
      for (const field of ['system', 'messages', 'tools', 'thinking', 'tool_choice', 'metadata'] as const)
        expect(JSON.stringify(upstream[field]), field).toBe(JSON.stringify(GOLDEN_REQUEST[field]));
    });

    it('Anthropic round trip through the SDK: a streamed thinking signature goes back verbatim on the next turn', async () => {
      const params = {
        model: 'claude-sonnet-4-5',
        max_tokens: 4000,
        thinking: { type: 'enabled' as const, budget_tokens: 2048 },
        tools: [WEATHER],
        messages: [{ role: 'user' as const, content: 'call get_weather {"city":"Rome"}' }],
      };
      const first = await client().messages.stream(params).finalMessage();
      const thinking = first.content[0] as Anthropic.ThinkingBlock;
      expect(thinking.type).toBe('thinking');
      expect(thinking.signature).toMatch(/^Eq/);
      const use = first.content[1] as Anthropic.ToolUseBlock;
      expect(use).toMatchObject({ type: 'tool_use', id: expect.stringMatching(/^toolu_/), input: { city: 'Rome' } });
      await client().messages.create({
        ...params,
        messages: [
          ...params.messages,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'cloudy' }] },
        ],
      });
      const sent = seen(s.sim).at(-1).body.messages[1].content;
      expect(sent).toEqual([
        { type: 'thinking', thinking: thinking.thinking, signature: thinking.signature },
        { type: 'tool_use', id: use.id, name: 'get_weather', input: { city: 'Rome' } },
      ]);
    });
  });

  it('a served call leaves a request log row', async () => {
    const res = await s.inference.post('/anthropic/v1/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'log me' }],
    });
    expect(res.status, res.text).toBe(200);
    const id = res.headers.get('x-request-id')!;
    let row: any;
    for (let i = 0; i < 50 && !row; i++) {
      const got = await s.admin.get(`/api/logs/${id}`);
      if (got.status === 200) row = got.body;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(row).toMatchObject({ id, provider: 'anthropic', model: 'claude-sonnet-4-5', object: 'chat_completion' });
  });
});
