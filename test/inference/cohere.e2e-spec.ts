import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addCohere } from './cohere-kit.js';
import { seen, startInferenceStack, type InferenceStack } from './inference-kit.js';

/** The cohere adapter through /v1 with the official openai SDK: Cohere v2 on the wire, OpenAI shapes to the caller. */
describe('cohere adapter on /v1', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
    await addCohere(s);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('chat unary: the v2 body upstream with Bearer, the answer as chat.completion with usage and cost', async () => {
    const { data, response } = await s.openai.chat.completions
      .create({
        model: 'cohere/command-r',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hello there' },
        ],
        max_tokens: 50,
        temperature: 0.2,
        top_p: 0.9,
        stop: 'END',
      })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toBe('echo: hello there');
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
    expect(Number(response.headers.get('x-gateway-cost-usd'))).toBeGreaterThan(0);
    expect(response.headers.get('x-gateway-routing-info-provider')).toBe('cohere');
    const call = seen(s.sim).at(-1);
    expect(call.path).toBe('/cohere/v2/chat');
    expect(call.headers.authorization).toBe('Bearer co-key-1');
    expect(call.body).toEqual({
      model: 'command-r',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
      ],
      max_tokens: 50,
      temperature: 0.2,
      p: 0.9,
      stop_sequences: ['END'],
    });
  });

  it('chat with tools: tool_calls and TOOL_CALL → tool_calls; the tool turn goes back with tool_call_id', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    ];
    const first = await s.openai.chat.completions.create({
      model: 'cohere/command-r',
      messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
      tools,
      tool_choice: 'required',
    });
    const call = first.choices[0]!.message.tool_calls![0]! as any;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(first.choices[0]!.message.content).toBe('I will call get_weather.');
    expect(seen(s.sim).at(-1).body).toMatchObject({ tools, tool_choice: 'REQUIRED' });

    const second = await s.openai.chat.completions.create({
      model: 'cohere/command-r',
      messages: [
        { role: 'user', content: 'call get_weather {"city":"Paris"}' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: 'sunny' },
      ],
      tools,
    });
    expect(second.choices[0]!.message.content).toBe('echo: sunny');
    expect(seen(s.sim).at(-1).body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        tool_plan: 'I will call get_weather.',
        tool_calls: [
          { id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: call.id, content: 'sunny' },
    ]);
  });

  it('chat stream: content chunks, then the finish chunk with usage from message-end', async () => {
    const stream = await s.openai.chat.completions.create({
      model: 'cohere/command-r',
      messages: [{ role: 'user', content: 'stream me please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null | undefined;
    let usage: any;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish ??= chunk.choices[0]?.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('echo: stream me please');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(usage.cost.total_cost).toBeGreaterThan(0);
    expect(seen(s.sim).at(-1).body.stream).toBe(true);
  });

  it('chat stream with tool calls: tool-call-start/delta become tool-call deltas', async () => {
    const stream = await s.openai.chat.completions.create({
      model: 'cohere/command-r',
      messages: [{ role: 'user', content: 'call lookup {"q":"a long query text here"}' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      stream: true,
    });
    let args = '';
    let name = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta?.tool_calls?.[0];
      if (call?.function?.name) name = call.function.name;
      args += call?.function?.arguments ?? '';
      finish ??= chunk.choices[0]?.finish_reason;
    }
    expect(name).toBe('lookup');
    expect(JSON.parse(args)).toEqual({ q: 'a long query text here' });
    expect(finish).toBe('tool_calls');
  });

  it('a stream cut before message-end is an error event, not a clean end', async () => {
    s.sim.scenario({ match: { family: 'cohere' }, responses: [{ fault: 'drop', after_events: 3 }] });
    const res = await s.inference.post('/v1/chat/completions', {
      model: 'cohere/command-r',
      messages: [{ role: 'user', content: 'one two three four five' }],
      stream: true,
    });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('[DONE]');
    expect(res.text).toContain('is_gateway_error');
  });

  it('embeddings: texts, input_type and embedding_types upstream; an OpenAI list with usage back', async () => {
    const out = await s.openai.embeddings.create({
      model: 'cohere/embed-v4.0',
      input: ['first text', 'second one here'],
      encoding_format: 'float',
    });
    expect(out.data).toHaveLength(2);
    expect(out.data[1]!.index).toBe(1);
    expect(out.data[0]!.embedding).toHaveLength(16);
    expect(out.usage).toMatchObject({ prompt_tokens: 5, total_tokens: 5 });
    const call = seen(s.sim).at(-1);
    expect(call.path).toBe('/cohere/v2/embed');
    expect(call.body).toEqual({
      model: 'embed-v4.0',
      texts: ['first text', 'second one here'],
      input_type: 'search_document',
      embedding_types: ['float'],
    });
    const query = await s.inference.post('/v1/embeddings', {
      model: 'cohere/embed-v4.0',
      input: 'q',
      input_type: 'search_query',
    });
    expect(query.status, query.text).toBe(200);
    expect(seen(s.sim).at(-1).body.input_type).toBe('search_query');
  });

  it('rerank: /v2/rerank upstream, the unified answer back', async () => {
    const res = await s.inference.post('/v1/rerank', {
      model: 'cohere/rerank-v3.5',
      query: 'cats',
      documents: ['dogs bark', { text: 'cats purr' }, 'birds sing'],
      top_n: 2,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toHaveLength(2);
    expect(res.body.results[0]).toEqual({ index: 1, relevance_score: 1 });
    expect(res.body.usage).toMatchObject({ prompt_tokens: 7, total_tokens: 7 });
    expect(seen(s.sim).at(-1).body).toEqual({
      model: 'rerank-v3.5',
      query: 'cats',
      documents: ['dogs bark', 'cats purr', 'birds sing'],
      top_n: 2,
    });
  });

  it('a 429 ({message}, no hint) is retried and then served', async () => {
    s.sim.scenario({ match: { family: 'cohere' }, responses: [{ fault: 'rate_limit' }] });
    const { data, response } = await s.openai.chat.completions
      .create({ model: 'cohere/command-r', messages: [{ role: 'user', content: 'retry me' }] })
      .withResponse();
    expect(data.choices[0]!.message.content).toBe('echo: retry me');
    expect(seen(s.sim, { family: 'cohere' })).toHaveLength(2);
    expect(seen(s.sim, { family: 'cohere' })[0].status).toBe(429);
    expect(response.headers.get('x-gateway-routing-info-provider')).toBe('cohere');
  });

  it('a provider 400 is relayed with its message; an unsupported kind is a 400', async () => {
    s.sim.scenario({ match: { family: 'cohere' }, responses: [{ fault: 'error', status: 400, message: 'bad k' }] });
    const bad = await s.inference.post('/v1/chat/completions', {
      model: 'cohere/command-r',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('bad k');
    const completions = await s.inference.post('/v1/completions', { model: 'cohere/command-r', prompt: 'x' });
    expect(completions.status).toBe(400);
  });
});
