import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { expectInferenceError, seen, startInferenceStack, type InferenceStack } from './inference-kit.js';
import { addProvider } from './more-providers-kit.js';

const WEATHER: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const RESPONSES_WEATHER: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

/** A chat stream from the SDK, merged: text, tool calls by index, finish reason, usage. */
async function mergeChatStream(stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>) {
  let text = '';
  let role: string | undefined;
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | undefined;
  const ids = new Set<string>();
  const calls = new Map<number, { id?: string; name?: string; arguments: string }>();
  for await (const chunk of stream) {
    ids.add(chunk.id);
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    role ??= choice.delta.role ?? undefined;
    text += choice.delta.content ?? '';
    for (const call of choice.delta.tool_calls ?? []) {
      const merged = calls.get(call.index) ?? { arguments: '' };
      if (call.id) merged.id = call.id;
      if (call.function?.name) merged.name = call.function.name;
      merged.arguments += call.function?.arguments ?? '';
      calls.set(call.index, merged);
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  return { text, role, finish, usage, ids, calls: [...calls.values()] };
}

/**
 * OpenCode Zen / Go serve each model family on one surface; the gateway serves both APIs for every model: a chat
 * request to a `gpt-*` model goes upstream as a Responses request and comes back as a chat completion (unary and
 * streamed, tool calls and usage), and a Responses request to any other model goes through the Responses→chat
 * bridge and on to the model's own wire format (Anthropic Messages, Gemini, chat completions).
 */
describe(`OpenCode: chat ↔ Responses bridges (${RUN_MODE})`, () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
    await addProvider(s, 'opencode-zen', `${s.sim.url}/opencode`, [{ name: 'zen', value: 'oc-zen-key' }]);
    await addProvider(s, 'opencode-go', `${s.sim.url}/opencode`, [
      {
        name: 'go',
        value: 'oc-go-key',
        aliases: { smart: { model_id: 'claude-sonnet-4-5' }, coder: { model_id: 'gpt-5.1-codex' } },
      },
    ]);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  describe('chat request to gpt-* → /v1/responses', () => {
    it('unary: the prompt goes as instructions and input items, the answer comes back a chat completion', async () => {
      s.sim.scenario({
        match: { path: '/opencode/v1/responses' },
        responses: [{ ok: true, usage: { input_tokens: 11, output_tokens: 3, reasoning_tokens: 2 } }],
      });
      const answer = await s.openai.chat.completions.create({
        model: 'opencode-zen/gpt-5.1',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'zen chat to gpt' },
        ],
        max_tokens: 50,
        reasoning_effort: 'low',
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'reply', schema: { type: 'object' }, strict: true },
        },
      });
      expect(answer.object).toBe('chat.completion');
      expect(answer.id).toMatch(/^chatcmpl-/);
      expect(answer.model).toBe('gpt-5.1');
      expect(answer.choices).toEqual([
        {
          index: 0,
          message: { role: 'assistant', content: 'echo: zen chat to gpt', refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ]);
      expect(answer.usage).toMatchObject({
        prompt_tokens: 11,
        completion_tokens: 5,
        total_tokens: 16,
        completion_tokens_details: { reasoning_tokens: 2 },
      });
      const [call] = seen(s.sim);
      expect(call.path).toBe('/opencode/v1/responses');
      expect(call.headers.authorization).toBe('Bearer oc-zen-key');
      expect(call.body).toEqual({
        model: 'gpt-5.1',
        instructions: 'be brief',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'zen chat to gpt' }] }],
        max_output_tokens: 50,
        reasoning: { effort: 'low' },
        text: { format: { type: 'json_schema', name: 'reply', schema: { type: 'object' }, strict: true } },
        store: false,
      });
    });

    it('unary: tool calls come back as tool_calls with the call ids, and their results go as function_call_output', async () => {
      const first = await s.openai.chat.completions.create({
        model: 'opencode-go/gpt-5.1-codex',
        messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
        tools: [WEATHER],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      });
      const choice = first.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.content).toBeNull();
      expect(choice.message.tool_calls).toHaveLength(1);
      const toolCall = choice.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
      expect(toolCall).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
      expect(JSON.parse(toolCall.function.arguments)).toEqual({ city: 'Paris' });
      expect(toolCall.id).toMatch(/^call_/);

      const second = await s.openai.chat.completions.create({
        model: 'opencode-go/gpt-5.1-codex',
        messages: [
          { role: 'user', content: 'call get_weather {"city":"Paris"}' },
          { role: 'assistant', content: null, tool_calls: [toolCall] },
          { role: 'tool', tool_call_id: toolCall.id, content: 'sunny 21C' },
        ],
        tools: [WEATHER],
      });
      expect(second.choices[0]!.message.content).toBe('echo: sunny 21C');
      expect(second.choices[0]!.finish_reason).toBe('stop');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual(['/opencode/v1/responses', '/opencode/v1/responses']);
      expect(calls[0].headers.authorization).toBe('Bearer oc-go-key');
      expect(calls[0].body.tools).toEqual([
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: WEATHER.function.parameters,
        },
      ]);
      expect(calls[0].body.tool_choice).toEqual({ type: 'function', name: 'get_weather' });
      expect(calls[1].body.input).toEqual([
        { role: 'user', content: [{ type: 'input_text', text: 'call get_weather {"city":"Paris"}' }] },
        { type: 'function_call', call_id: toolCall.id, name: 'get_weather', arguments: toolCall.function.arguments },
        { type: 'function_call_output', call_id: toolCall.id, output: 'sunny 21C' },
      ]);
    });

    it('unary: an answer cut at max_tokens finishes with length', async () => {
      const answer = await s.openai.chat.completions.create({
        model: 'opencode-zen/gpt-5.1',
        messages: [{ role: 'user', content: 'one two three four five' }],
        max_completion_tokens: 2,
      });
      expect(answer.choices[0]!.message.content).toBe('echo: one');
      expect(answer.choices[0]!.finish_reason).toBe('length');
      expect(seen(s.sim)[0].body.max_output_tokens).toBe(2);
    });

    it('stream: text deltas, then the finish chunk and the usage chunk, then [DONE]', async () => {
      s.sim.scenario({
        match: { path: '/opencode/v1/responses' },
        responses: [{ ok: true, usage: { input_tokens: 7, output_tokens: 5, cached_read_tokens: 3 } }],
      });
      const stream = await s.openai.chat.completions.create({
        model: 'opencode-zen/gpt-5.1',
        messages: [{ role: 'user', content: 'stream zen gpt please' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const merged = await mergeChatStream(stream);
      expect(merged.role).toBe('assistant');
      expect(merged.text).toBe('echo: stream zen gpt please');
      expect(merged.finish).toBe('stop');
      expect(merged.ids.size).toBe(1);
      expect([...merged.ids][0]).toMatch(/^chatcmpl-/);
      expect(merged.usage).toMatchObject({
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 3 },
      });
      const [call] = seen(s.sim);
      expect(call.path).toBe('/opencode/v1/responses');
      expect(call.body.stream).toBe(true);
      expect(call.body.stream_options).toBeUndefined();
      expect(call.body.messages).toBeUndefined();
    });

    it('stream: a tool call arrives as a tool_calls delta with its id and name, then argument fragments', async () => {
      const res = await s.inference.post('/v1/chat/completions', {
        model: 'opencode-zen/gpt-5.1',
        messages: [{ role: 'user', content: 'call get_weather {"city":"Oslo"}' }],
        tools: [WEATHER],
        stream: true,
      });
      expect(res.status, res.text).toBe(200);
      const data = res.text
        .split('\n\n')
        .filter((block) => block.startsWith('data: '))
        .map((block) => block.slice(6));
      expect(data.at(-1)).toBe('[DONE]');
      const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as OpenAI.Chat.ChatCompletionChunk);
      expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
      // Without include_usage, no chunk carries usage.
      expect(chunks.every((c) => c.usage === undefined || c.usage === null)).toBe(true);
      const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
      expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
      expect(deltas[0]!.id).toMatch(/^call_/);
      expect(deltas.length).toBeGreaterThan(2);
      expect(deltas.slice(1).every((d) => d.index === 0 && d.id === undefined)).toBe(true);
      expect(JSON.parse(deltas.map((d) => d.function?.arguments ?? '').join(''))).toEqual({ city: 'Oslo' });
      expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
    });

    it('through the /anthropic format too: an Anthropic client reaches gpt-* on OpenCode', async () => {
      const anthropic = new Anthropic({ baseURL: `${s.gw.baseUrl}/anthropic`, apiKey: s.vk, maxRetries: 0 });
      const message = await anthropic.messages.create({
        model: 'opencode-zen/gpt-5.1',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'anthropic to zen gpt' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: 'echo: anthropic to zen gpt' }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(seen(s.sim)[0].path).toBe('/opencode/v1/responses');
    });

    it('n above 1 is a 400 naming n, and nothing goes upstream', async () => {
      const res = await s.inference.post('/v1/chat/completions', {
        model: 'opencode-zen/gpt-5.1',
        messages: [{ role: 'user', content: 'two please' }],
        n: 2,
      });
      expectInferenceError(res, 400, 'caller_invalid_request', { param: 'n' });
      expect(seen(s.sim)).toHaveLength(0);
    });
  });

  describe('Responses request to another model → the Responses→chat bridge', () => {
    it('claude-* (unary): Anthropic /v1/messages upstream, a Responses object back', async () => {
      const response = await s.openai.responses.create({
        model: 'opencode-zen/claude-sonnet-4-5',
        instructions: 'be brief',
        input: 'responses to zen claude',
        max_output_tokens: 100,
      });
      expect(response.object).toBe('response');
      expect(response.status).toBe('completed');
      expect(response.output_text).toBe('echo: responses to zen claude');
      expect(response.instructions).toBe('be brief');
      expect(response.usage?.output_tokens).toBe(5);
      expect(response.usage?.total_tokens).toBe(response.usage!.input_tokens + 5);
      const [call] = seen(s.sim);
      expect(call.path).toBe('/opencode/v1/messages');
      expect(call.headers['x-api-key']).toBe('oc-zen-key');
      expect(call.body).toMatchObject({
        model: 'claude-sonnet-4-5',
        system: 'be brief',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'responses to zen claude' }],
      });
    });

    it('qwen* (stream) with a function tool: typed events with the function_call item and usage', async () => {
      const stream = await s.openai.responses.create({
        model: 'opencode-go/qwen3-coder',
        input: 'call get_weather {"city":"Rome"}',
        tools: [RESPONSES_WEATHER],
        max_output_tokens: 100,
        stream: true,
      });
      const types: string[] = [];
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.completed') completed = event.response;
      }
      expect(types[0]).toBe('response.created');
      expect(types).toContain('response.function_call_arguments.delta');
      expect(types.at(-1)).toBe('response.completed');
      const item = completed!.output.find(
        (o) => o.type === 'function_call',
      ) as OpenAI.Responses.ResponseFunctionToolCall;
      expect(item.name).toBe('get_weather');
      expect(JSON.parse(item.arguments)).toEqual({ city: 'Rome' });
      expect(completed!.usage!.total_tokens).toBeGreaterThan(0);
      const [call] = seen(s.sim);
      expect(call.path).toBe('/opencode/v1/messages');
      expect(call.headers['x-api-key']).toBe('oc-go-key');
      expect(call.body.stream).toBe(true);
      expect(call.body.tools).toEqual([
        { name: 'get_weather', description: 'Weather of a city', input_schema: RESPONSES_WEATHER.parameters },
      ]);
    });

    it('gemini-* and other models: the Gemini surface and chat completions', async () => {
      const gemini = await s.openai.responses.create({ model: 'opencode-zen/gemini-3-flash', input: 'zen gemini' });
      expect(gemini.output_text).toBe('echo: zen gemini');
      const kimi = await s.openai.responses.create({
        model: 'opencode-zen/kimi-k2.5',
        input: [{ role: 'user', content: 'zen kimi' }],
      });
      expect(kimi.output_text).toBe('echo: zen kimi');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual([
        '/opencode/v1/models/gemini-3-flash:generateContent',
        '/opencode/v1/chat/completions',
      ]);
      expect(calls[1].body.messages).toEqual([{ role: 'user', content: 'zen kimi' }]);
    });

    it('a key alias is routed by the model it names: Responses to a Claude alias, chat to a gpt alias', async () => {
      const response = await s.openai.responses.create({ model: 'opencode-go/smart', input: 'alias to claude' });
      expect(response.output_text).toBe('echo: alias to claude');
      const answer = await s.openai.chat.completions.create({
        model: 'opencode-go/coder',
        messages: [{ role: 'user', content: 'alias to codex' }],
      });
      expect(answer.choices[0]!.message.content).toBe('echo: alias to codex');
      const calls = seen(s.sim);
      expect(calls.map((c) => [c.path, c.body.model])).toEqual([
        ['/opencode/v1/messages', 'claude-sonnet-4-5'],
        ['/opencode/v1/responses', 'gpt-5.1-codex'],
      ]);
    });

    it('server-side state is refused as for any bridged provider: 400 naming previous_response_id', async () => {
      const res = await s.inference.post('/v1/responses', {
        model: 'opencode-zen/claude-sonnet-4-5',
        input: 'again',
        previous_response_id: 'resp_123',
      });
      expectInferenceError(res, 400, 'caller_invalid_request', { param: 'previous_response_id' });
      expect(seen(s.sim)).toHaveLength(0);
    });
  });
});
