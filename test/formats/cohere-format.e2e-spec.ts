import { CohereClientV2, CohereError } from 'cohere-ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seen, sseMessages, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { addCohere } from '../inference/cohere-kit.js';

/** The events of a Cohere SSE body: `event:` name, and the parsed data (whose `type` must be the same name). */
function events(text: string): Array<{ type: string; [k: string]: unknown }> {
  return sseMessages(text).map((m) => {
    const data = JSON.parse(m.data) as { type: string };
    expect(m.event).toBe(data.type);
    return data;
  });
}

const TOOLS = [
  {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
];

/**
 * The `/cohere` provider-format set: Cohere v2 bodies in, Cohere answers and events out, served by Cohere or by any
 * other provider. The official cohere-ai client, unchanged but for its environment and token, plus golden
 * conversions held against exact bodies.
 */
describe('provider format: /cohere', () => {
  let s: InferenceStack;
  const client = (base = '/cohere') =>
    new CohereClientV2({ token: s.vk, environment: `${s.gw.baseUrl}${base}`, maxRetries: 0 });
  beforeAll(async () => {
    s = await startInferenceStack();
    await addCohere(s);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  for (const base of ['/cohere', '/litellm/cohere']) {
    for (const model of ['command-r', 'openai/gpt-4o-mini']) {
      it(`${base}, ${model}: the cohere-ai client's chat, chatStream and embed`, async () => {
        const chat = await client(base).chat({ model, messages: [{ role: 'user', content: 'hello sdk' }] });
        expect(chat.finishReason).toBe('COMPLETE');
        expect(chat.message.content?.[0]).toEqual({ type: 'text', text: 'echo: hello sdk' });
        expect(chat.usage?.tokens).toEqual({ inputTokens: 2, outputTokens: 3 });

        const stream = await client(base).chatStream({ model, messages: [{ role: 'user', content: 'stream sdk' }] });
        let text = '';
        const types: string[] = [];
        let end: any;
        for await (const event of stream) {
          types.push(event.type);
          if (event.type === 'content-delta') text += event.delta?.message?.content?.text ?? '';
          if (event.type === 'message-end') end = event;
        }
        expect(text).toBe('echo: stream sdk');
        expect(types[0]).toBe('message-start');
        expect(types.at(-1)).toBe('message-end');
        expect(end.delta.finishReason).toBe('COMPLETE');
        expect(end.delta.usage.tokens).toEqual({ inputTokens: 2, outputTokens: 3 });

        const embedModel = model === 'command-r' ? 'embed-v4.0' : 'openai/text-embedding-3-small';
        const embedded = await client(base).embed({
          model: embedModel,
          texts: ['one', 'two words'],
          inputType: 'search_document',
          embeddingTypes: ['float'],
        });
        expect(embedded.embeddings.float).toHaveLength(2);
        expect(embedded.embeddings.float![0]).toHaveLength(16);
        expect(seen(s.sim).at(-1).path).toBe(model === 'command-r' ? '/cohere/v2/embed' : '/openai/v1/embeddings');
      });
    }
  }

  it('rerank with the client against cohere; against openai a native 400', async () => {
    const ranked = await client().rerank({
      model: 'rerank-v3.5',
      query: 'cats',
      documents: ['dogs bark', 'cats purr'],
      topN: 1,
    });
    expect(ranked.results).toEqual([{ index: 1, relevanceScore: 1 }]);
    expect(seen(s.sim).at(-1).body).toEqual({
      model: 'rerank-v3.5',
      query: 'cats',
      documents: ['dogs bark', 'cats purr'],
      top_n: 1,
    });
    const err = await client()
      .rerank({ model: 'openai/gpt-4o-mini', query: 'cats', documents: ['x'] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CohereError);
    expect((err as CohereError).statusCode).toBe(400);
    expect((err as any).body.message).toEqual(expect.any(String));
    expect((err as any).body.is_gateway_error).toBe(true);
  });

  describe('golden conversions, cohere in', () => {
    const request = {
      model: 'command-r',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'hi there' }] },
      ],
      max_tokens: 20,
      p: 0.5,
      k: 10,
      stop_sequences: ['XYZ'],
    };
    const answer = (id: unknown) => ({
      id,
      finish_reason: 'COMPLETE',
      message: { role: 'assistant', content: [{ type: 'text', text: 'echo: hi there' }] },
      usage: {
        billed_units: { input_tokens: 4, output_tokens: 3 },
        tokens: { input_tokens: 4, output_tokens: 3 },
      },
    });

    it('× cohere out: the v2 body upstream, the v2 answer back', async () => {
      const res = await s.inference.post('/cohere/v2/chat', request);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(answer(expect.any(String)));
      expect(Number(res.headers.get('x-gateway-cost-usd'))).toBeGreaterThan(0);
      expect(seen(s.sim).at(-1).body).toEqual({
        model: 'command-r',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: [{ type: 'text', text: 'hi there' }] },
        ],
        max_tokens: 20,
        p: 0.5,
        k: 10,
        stop_sequences: ['XYZ'],
      });
    });

    it('× openai out: the chat completions body upstream (k dropped), the v2 answer back', async () => {
      const res = await s.inference.post('/cohere/v2/chat', { ...request, model: 'openai/gpt-4o-mini' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(answer(expect.stringMatching(/^chatcmpl/)));
      const call = seen(s.sim).at(-1);
      expect(call.path).toBe('/openai/v1/chat/completions');
      expect(call.body).toEqual({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: [{ type: 'text', text: 'hi there' }] },
        ],
        max_tokens: 20,
        top_p: 0.5,
        stop: ['XYZ'],
      });
    });

    for (const [target, path] of [
      ['command-r', '/cohere/v2/chat'],
      ['openai/gpt-4o-mini', '/openai/v1/chat/completions'],
    ] as const) {
      it(`× ${target}: a tool-call round trip, unary and streamed event by event`, async () => {
        const ask = {
          model: target,
          messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
          tools: TOOLS,
          tool_choice: 'REQUIRED',
        };
        const unary = await s.inference.post('/cohere/v2/chat', ask);
        expect(unary.status, unary.text).toBe(200);
        expect(unary.body.finish_reason).toBe('TOOL_CALL');
        const call = unary.body.message.tool_calls[0];
        expect(call).toEqual({
          id: expect.any(String),
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        });
        expect(unary.body.message.content).toBeUndefined();
        expect(unary.body.message.tool_plan).toBe(target === 'command-r' ? 'I will call get_weather.' : undefined);
        const upstream = seen(s.sim).at(-1);
        expect(upstream.path).toBe(path);
        expect(upstream.body.tools).toEqual(TOOLS);
        expect(upstream.body.tool_choice).toBe(target === 'command-r' ? 'REQUIRED' : 'required');

        const streamed = await s.inference.post('/cohere/v2/chat', { ...ask, stream: true });
        expect(streamed.status).toBe(200);
        expect(streamed.headers.get('content-type')).toContain('text/event-stream');
        const got = events(streamed.text);
        const plan = target === 'command-r';
        // Cohere's tool plan comes back as text content; OpenAI writes none before its calls.
        const lead = plan
          ? [
              { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
              {
                type: 'content-delta',
                index: 0,
                delta: { message: { content: { text: 'I will call get_weather.' } } },
              },
              { type: 'content-end', index: 0 },
            ]
          : [];
        const argsDeltas = got.filter((e) => e.type === 'tool-call-delta');
        expect(argsDeltas.map((e: any) => e.delta.message.tool_calls.function.arguments as string).join('')).toBe(
          '{"city":"Paris"}',
        );
        expect(got).toEqual([
          {
            type: 'message-start',
            id: expect.any(String),
            delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
          },
          ...lead,
          {
            type: 'tool-call-start',
            index: 0,
            delta: {
              message: {
                tool_calls: {
                  id: expect.any(String),
                  type: 'function',
                  function: { name: 'get_weather', arguments: '' },
                },
              },
            },
          },
          ...argsDeltas,
          { type: 'tool-call-end', index: 0 },
          {
            type: 'message-end',
            id: got[0]!.id,
            delta: {
              finish_reason: 'TOOL_CALL',
              usage: {
                billed_units: { input_tokens: 3, output_tokens: expect.any(Number) },
                tokens: { input_tokens: 3, output_tokens: expect.any(Number) },
              },
            },
          },
        ]);

        const answered = await s.inference.post('/cohere/v2/chat', {
          model: target,
          messages: [
            ...ask.messages,
            { role: 'assistant', tool_plan: 'I will call get_weather.', tool_calls: [call] },
            { role: 'tool', tool_call_id: call.id, content: [{ type: 'document', document: { data: 'sunny' } }] },
          ],
          tools: TOOLS,
        });
        expect(answered.status, answered.text).toBe(200);
        expect(answered.body.message.content).toEqual([{ type: 'text', text: 'echo: sunny' }]);
        const back = seen(s.sim).at(-1).body.messages.slice(1);
        expect(back).toEqual(
          plan
            ? [
                { role: 'assistant', tool_plan: 'I will call get_weather.', tool_calls: [call] },
                { role: 'tool', tool_call_id: call.id, content: 'sunny' },
              ]
            : [
                { role: 'assistant', content: 'I will call get_weather.', tool_calls: [call] },
                { role: 'tool', tool_call_id: call.id, content: 'sunny' },
              ],
        );
      });
    }

    it('× cohere out: a text stream event by event, usage in message-end', async () => {
      const res = await s.inference.post('/cohere/v2/chat', {
        model: 'command-r',
        messages: [{ role: 'user', content: 'two words' }],
        stream: true,
      });
      const got = events(res.text);
      expect(got.map((e) => e.type)).toEqual([
        'message-start',
        'content-start',
        'content-delta',
        'content-delta',
        'content-delta',
        'content-end',
        'message-end',
      ]);
      expect(got.slice(2, 5).map((e: any) => e.delta.message.content.text)).toEqual(['echo:', ' two', ' words']);
      expect(got.at(-1)).toEqual({
        type: 'message-end',
        id: got[0]!.id,
        delta: {
          finish_reason: 'COMPLETE',
          usage: { billed_units: { input_tokens: 2, output_tokens: 3 }, tokens: { input_tokens: 2, output_tokens: 3 } },
        },
      });
      expect(seen(s.sim).at(-1).body).toEqual({
        model: 'command-r',
        messages: [{ role: 'user', content: 'two words' }],
        stream: true,
      });
    });

    it('× cohere out: thinking streams as its own content part before the text', async () => {
      const res = await s.inference.post('/cohere/v2/chat', {
        model: 'command-r',
        messages: [{ role: 'user', content: 'think' }],
        thinking: { type: 'enabled', token_budget: 2000 },
        stream: true,
      });
      const got = events(res.text);
      expect(got.slice(1, 7)).toEqual([
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'thinking', thinking: '' } } } },
        {
          type: 'content-delta',
          index: 0,
          delta: { message: { content: { thinking: 'Let me think about this request.' } } },
        },
        { type: 'content-end', index: 0 },
        { type: 'content-start', index: 1, delta: { message: { content: { type: 'text', text: '' } } } },
        { type: 'content-delta', index: 1, delta: { message: { content: { text: 'echo:' } } } },
        { type: 'content-delta', index: 1, delta: { message: { content: { text: ' think' } } } },
      ]);
      expect(seen(s.sim).at(-1).body.thinking).toEqual({ type: 'enabled', token_budget: 2000 });
    });

    it('embed × {cohere, openai}: exact bodies both ways', async () => {
      const co = await s.inference.post('/cohere/v2/embed', {
        model: 'embed-v4.0',
        texts: ['a b'],
        input_type: 'search_query',
        embedding_types: ['float'],
      });
      expect(co.status, co.text).toBe(200);
      expect(co.body).toEqual({
        id: expect.any(String),
        embeddings: { float: [expect.any(Array)] },
        texts: ['a b'],
        meta: { api_version: { version: '2' }, billed_units: { input_tokens: 2 } },
        response_type: 'embeddings_by_type',
      });
      expect(seen(s.sim).at(-1).body).toEqual({
        model: 'embed-v4.0',
        texts: ['a b'],
        input_type: 'search_query',
        embedding_types: ['float'],
      });
      const oa = await s.inference.post('/cohere/v2/embed', {
        model: 'openai/text-embedding-3-small',
        texts: ['a b'],
        input_type: 'search_query',
      });
      expect(oa.status, oa.text).toBe(200);
      expect(oa.body.embeddings.float[0]).toEqual(co.body.embeddings.float[0]);
      expect(seen(s.sim).at(-1).body).toEqual({ model: 'text-embedding-3-small', input: ['a b'] });
    });

    it('a failure mid-stream ends with message-end ERROR carrying our fields', async () => {
      s.sim.scenario({ match: { family: 'cohere' }, responses: [{ fault: 'drop', after_events: 3 }] });
      const res = await s.inference.post('/cohere/v2/chat', {
        model: 'command-r',
        messages: [{ role: 'user', content: 'one two three four' }],
        stream: true,
      });
      const last: any = events(res.text).at(-1);
      expect(last.type).toBe('message-end');
      expect(last.delta.finish_reason).toBe('ERROR');
      expect(last.delta.error).toEqual(expect.any(String));
      expect(last.is_gateway_error).toBe(true);
      expect(last.event_id).toEqual(expect.any(String));
    });
  });

  it('bad input is a 400 {message} naming the field; no key is a 401 in the same shape', async () => {
    const noMessages = await s.inference.post('/cohere/v2/chat', { model: 'command-r' });
    expect(noMessages.status).toBe(400);
    expect(noMessages.body.message).toContain('messages');
    expect(noMessages.body.error.param).toBe('messages');
    const noTexts = await s.inference.post('/litellm/cohere/v2/embed', { model: 'embed-v4.0', input_type: 'x' });
    expect(noTexts.status).toBe(400);
    expect(noTexts.body.error.param).toBe('texts');
    const sdk = await client()
      .chat({ model: 'command-r', messages: [{ role: 'user', content: 'x' }], toolChoice: 'AUTO' as never })
      .catch((e: unknown) => e);
    expect((sdk as CohereError).statusCode).toBe(400);
    expect((sdk as any).body.error.param).toBe('tool_choice');
    const anonymous = await s.gw.http.post('/cohere/v2/chat', {
      model: 'command-r',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toEqual(expect.any(String));
    expect(anonymous.body.error.code).toBe('missing_credentials');
    expect(seen(s.sim)).toHaveLength(0);
  });
});
