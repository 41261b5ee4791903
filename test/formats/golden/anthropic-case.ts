import { expect } from 'vitest';
import { type FormatCase, postNative, sseEvents } from './golden-kit.js';

const SYSTEM = 'You are a careful agent.';
const SIGNATURE = 'EqQBCkYIARgCIkDnb2xkZW4gc2lnbmF0dXJlIGJ5dGVz';
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const TOOLS = [
  { name: 'get_weather', description: 'Weather of a city', input_schema: schema },
  { name: 'get_time', description: 'Local time of a city', input_schema: schema },
];
const THINKING = { type: 'enabled', budget_tokens: 1024 };

const REQUESTS = {
  unary: {
    max_tokens: 2048,
    system: SYSTEM,
    messages: [
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should call the weather tool.', signature: SIGNATURE },
          { type: 'tool_use', id: 'toolu_golden_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_golden_1', content: 'sunny, 21C' }],
      },
    ],
    tools: TOOLS,
    tool_choice: { type: 'auto' },
    thinking: THINKING,
  },
  toolStream: {
    max_tokens: 2048,
    system: SYSTEM,
    messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
    tools: TOOLS,
    thinking: THINKING,
    stream: true,
  },
  textStream: { max_tokens: 64, messages: [{ role: 'user', content: 'golden words' }], stream: true },
};

/** `/anthropic/v1/messages`: a message back, or the Messages events (each `event:` naming its `type`). */
export const ANTHROPIC_CASE: FormatCase = {
  name: 'anthropic',
  streamType: 'text/event-stream',
  async send(s, model, request) {
    const sent = await postNative(
      s,
      '/anthropic/v1/messages',
      { model, ...REQUESTS[request] },
      { 'x-api-key': s.vk, 'anthropic-version': '2023-06-01' },
    );
    const text = Buffer.from(sent.bytes).toString('utf8');
    if (request === 'unary' || sent.status !== 200) return { status: sent.status, answer: JSON.parse(text) };
    expect(sent.contentType).toContain(this.streamType);
    const events = sseEvents(text);
    for (const e of events) expect(e.event).toBe((e.data as { type: string }).type);
    return { status: sent.status, answer: events.map((e) => e.data) };
  },
};
