import { expect } from 'vitest';
import { type FormatCase, postNative, sseEvents } from './golden-kit.js';
import { OPENAI_TOOLS } from './openai-case.js';

const SYSTEM = 'You are a careful agent.';
const THINKING = { type: 'enabled', token_budget: 1024 };

const REQUESTS = {
  unary: {
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        tool_plan: 'I will call get_weather.',
        tool_calls: [
          {
            id: 'call_golden_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_golden_1', content: 'sunny, 21C' },
    ],
    tools: OPENAI_TOOLS,
    thinking: THINKING,
    max_tokens: 2048,
    temperature: 1,
  },
  toolStream: {
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'call get_weather {"city":"Paris"}' },
    ],
    tools: OPENAI_TOOLS,
    thinking: THINKING,
    max_tokens: 2048,
    stream: true,
  },
  textStream: { messages: [{ role: 'user', content: 'golden words' }], max_tokens: 64, stream: true },
};

/** `/cohere/v2/chat`: a v2 answer back, or the v2 events (each `event:` naming its `type`). */
export const COHERE_CASE: FormatCase = {
  name: 'cohere',
  streamType: 'text/event-stream',
  async send(s, model, request) {
    const sent = await postNative(s, '/cohere/v2/chat', { model, ...REQUESTS[request] });
    const text = Buffer.from(sent.bytes).toString('utf8');
    if (request === 'unary' || sent.status !== 200) return { status: sent.status, answer: JSON.parse(text) };
    expect(sent.contentType).toContain(this.streamType);
    const events = sseEvents(text);
    for (const e of events) expect(e.event).toBe((e.data as { type: string }).type);
    return { status: sent.status, answer: events.map((e) => e.data) };
  },
};
