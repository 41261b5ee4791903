import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGoldenStack } from '../formats/golden/golden-kit.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { REDACTED_CONTENT, REDACTED_THINKING_TRIGGER } from '../simulator/families/bedrock.js';
import { seen, sseMessages, type InferenceStack } from './inference-kit.js';

const CLAUDE = 'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0';
const CACHE_POINT = { cachePoint: { type: 'default' } };
const EPHEMERAL = { type: 'ephemeral' } as const;
const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The Converse calls the simulator served (SigV4-signed `converse` / `converse-stream`). */
const converseCalls = (s: InferenceStack) => seen(s.sim).filter((c) => /\/converse(-stream)?$/.test(c.path));

/**
 * Claude on Bedrock Converse keeps what Anthropic clients send and get: `cache_control` breakpoints become Converse
 * `cachePoint` blocks (after the block each marks) and Bedrock's cache usage comes back as Anthropic's and the
 * contract's cache counts; redacted thinking goes both ways as `reasoningContent.redactedContent`.
 */
describe(`Claude on Bedrock Converse: cache points and redacted thinking (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let anthropic: Anthropic;
  beforeAll(async () => {
    s = await startGoldenStack();
    anthropic = new Anthropic({ baseURL: `${s.gw.baseUrl}/anthropic`, apiKey: s.vk, maxRetries: 0 });
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  describe('cache_control → cachePoint', () => {
    const cachedRequest = {
      model: CLAUDE,
      max_tokens: 200,
      system: [
        { type: 'text' as const, text: 'You answer weather questions briefly', cache_control: EPHEMERAL },
        { type: 'text' as const, text: 'today' },
      ],
      tools: [{ ...WEATHER, cache_control: EPHEMERAL }],
      messages: [
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'a long stable context block', cache_control: EPHEMERAL },
            { type: 'text' as const, text: 'what now' },
          ],
        },
      ],
    };

    it('system, content and tool breakpoints become cachePoints after their blocks; the cache write is reported', async () => {
      const message = await anthropic.messages.create(cachedRequest);
      expect(message.content).toEqual([{ type: 'text', text: 'echo: a long stable context block what now' }]);
      // Cached prefix: the 5 words of the first system block, "today" and the 5 words of the marked user block.
      expect(message.usage).toMatchObject({
        cache_creation_input_tokens: 11,
        cache_read_input_tokens: 0,
        input_tokens: 2,
        output_tokens: 8,
      });
      const [call] = converseCalls(s);
      expect(call.path).toBe('/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse');
      expect(call.body.system).toEqual([
        { text: 'You answer weather questions briefly' },
        CACHE_POINT,
        { text: 'today' },
      ]);
      expect(call.body.toolConfig.tools).toEqual([
        {
          toolSpec: {
            name: 'get_weather',
            description: 'Weather of a city',
            inputSchema: { json: WEATHER.input_schema },
          },
        },
        CACHE_POINT,
      ]);
      expect(call.body.messages).toEqual([
        { role: 'user', content: [{ text: 'a long stable context block' }, CACHE_POINT, { text: 'what now' }] },
      ]);
    });

    it('streamed: a cache read comes back in message_delta and in the /v1 usage', async () => {
      s.sim.scenario({
        match: { path: '/converse' },
        repeat: true,
        responses: [{ ok: true, usage: { input_tokens: 2, cached_read_tokens: 12 } }],
      });
      const res = await s.inference.post('/anthropic/v1/messages', { ...cachedRequest, stream: true });
      expect(res.status, res.text).toBe(200);
      const events = sseMessages(res.text).map((m) => JSON.parse(m.data) as Record<string, any>);
      expect(events.find((e) => e.type === 'message_delta')!.usage).toEqual({
        input_tokens: 2,
        output_tokens: 8,
        cache_read_input_tokens: 12,
        cache_creation_input_tokens: 0,
      });
      expect(converseCalls(s)[0].path).toMatch(/converse-stream$/);
      expect(converseCalls(s)[0].body.system[1]).toEqual(CACHE_POINT);

      const chat = await s.openai.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'cached read' }],
      });
      expect(chat.usage).toMatchObject({
        prompt_tokens: 14,
        prompt_tokens_details: { cached_read_tokens: 12, cached_tokens: 12 },
      });
    });

    it('/v1: breakpoints on a tool call and a tool result go after the toolUse and the toolResult', async () => {
      const body = {
        model: CLAUDE,
        messages: [
          { role: 'user', content: 'call get_weather {"city":"Paris"}' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'tooluse_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                cache_control: EPHEMERAL,
              },
            ],
          },
          { role: 'tool', tool_call_id: 'tooluse_1', content: 'sunny', cache_control: EPHEMERAL },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
          },
        ],
      };
      const res = await s.inference.post('/v1/chat/completions', body);
      expect(res.status, res.text).toBe(200);
      expect(res.body.choices[0].message.content).toBe('echo: sunny');
      expect(res.body.usage.prompt_tokens_details.cached_write_tokens).toBe(4);
      const [call] = converseCalls(s);
      expect(call.body.messages).toEqual([
        { role: 'user', content: [{ text: 'call get_weather {"city":"Paris"}' }] },
        {
          role: 'assistant',
          content: [
            { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } },
            CACHE_POINT,
          ],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'sunny' }] } }, CACHE_POINT],
        },
      ]);
    });

    it('a model without prompt caching on Bedrock gets no cachePoint (it would refuse one)', async () => {
      const res = await s.inference.post('/v1/chat/completions', {
        model: 'bedrock/meta.llama3-70b-instruct-v1:0',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hello llama', cache_control: EPHEMERAL }] }],
      });
      expect(res.status, res.text).toBe(200);
      expect(converseCalls(s)[0].body.messages).toEqual([{ role: 'user', content: [{ text: 'hello llama' }] }]);
    });
  });

  describe('redacted thinking ↔ reasoningContent.redactedContent', () => {
    const thinking = { type: 'enabled' as const, budget_tokens: 2048 };
    const prompt = `weather please ${REDACTED_THINKING_TRIGGER}`;

    it('a redacted answer comes back as a redacted_thinking block (unary and streamed)', async () => {
      const message = await anthropic.messages.create({
        model: CLAUDE,
        max_tokens: 4096,
        thinking,
        messages: [{ role: 'user', content: prompt }],
      });
      expect(message.content[0]).toEqual({ type: 'redacted_thinking', data: REDACTED_CONTENT });
      expect(message.content[1]).toMatchObject({ type: 'text' });
      expect(converseCalls(s)[0].body.additionalModelRequestFields).toEqual({ thinking });

      const stream = anthropic.messages.stream({
        model: CLAUDE,
        max_tokens: 4096,
        thinking,
        messages: [{ role: 'user', content: prompt }],
      });
      const final = await stream.finalMessage();
      expect(final.content[0]).toEqual({ type: 'redacted_thinking', data: REDACTED_CONTENT });
      expect(final.content[1]).toMatchObject({ type: 'text' });
    });

    it('sent back on the next turn, the redacted block reaches Converse byte for byte, first in its turn', async () => {
      const message = await anthropic.messages.create({
        model: CLAUDE,
        max_tokens: 4096,
        thinking,
        tools: [WEATHER],
        messages: [{ role: 'user', content: `call get_weather {"city":"Oslo"} ${REDACTED_THINKING_TRIGGER}` }],
      });
      expect(message.content.map((b) => b.type)).toEqual(['redacted_thinking', 'tool_use']);
      const toolUse = message.content[1] as Anthropic.ToolUseBlock;
      s.sim.reset();
      const next = await anthropic.messages.create({
        model: CLAUDE,
        max_tokens: 4096,
        thinking,
        tools: [WEATHER],
        messages: [
          { role: 'user', content: `call get_weather {"city":"Oslo"} ${REDACTED_THINKING_TRIGGER}` },
          { role: 'assistant', content: message.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'cloudy' }] },
        ],
      });
      expect(next.content.at(-1)).toMatchObject({ type: 'text', text: 'echo: cloudy' });
      const [call] = converseCalls(s);
      expect(call.body.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { reasoningContent: { redactedContent: REDACTED_CONTENT } },
          { toolUse: { toolUseId: toolUse.id, name: 'get_weather', input: { city: 'Oslo' } } },
        ],
      });
      // Thinking stays on: the tool-use turn begins with its (redacted) reasoning.
      expect(call.body.additionalModelRequestFields).toEqual({ thinking });
    });
  });
});
