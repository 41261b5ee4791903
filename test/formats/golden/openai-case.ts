import { expect } from 'vitest';
import { type FormatCase, postNative, sseEvents } from './golden-kit.js';

const SYSTEM = 'You are a careful agent.';
export const OPENAI_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_time',
      description: 'Local time of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

const REQUESTS = {
  unary: {
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: null,
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
    tool_choice: 'auto',
    reasoning_effort: 'low',
    max_tokens: 2048,
    temperature: 1,
  },
  toolStream: {
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'call get_weather {"city":"Paris"}' },
    ],
    tools: OPENAI_TOOLS,
    reasoning_effort: 'low',
    max_tokens: 2048,
    stream: true,
    stream_options: { include_usage: true },
  },
  textStream: {
    messages: [{ role: 'user', content: 'golden words' }],
    max_tokens: 64,
    stream: true,
    stream_options: { include_usage: true },
  },
};

/** `/openai/v1/chat/completions`: the canonical shape itself, chunks and `[DONE]` back. */
export const OPENAI_CASE: FormatCase = {
  name: 'openai',
  streamType: 'text/event-stream',
  async send(s, model, request) {
    const sent = await postNative(s, '/openai/v1/chat/completions', { model, ...REQUESTS[request] });
    const text = Buffer.from(sent.bytes).toString('utf8');
    if (request === 'unary' || sent.status !== 200) return { status: sent.status, answer: JSON.parse(text) };
    expect(sent.contentType).toContain(this.streamType);
    return { status: sent.status, answer: sseEvents(text).map((e) => e.data) };
  },
};
