import { expect } from 'vitest';
import { type FormatCase, postNative, sseEvents } from './golden-kit.js';

const SYSTEM = { parts: [{ text: 'You are a careful agent.' }] };
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const TOOLS = [
  {
    functionDeclarations: [
      { name: 'get_weather', description: 'Weather of a city', parameters: schema },
      { name: 'get_time', description: 'Local time of a city', parameters: schema },
    ],
  },
];
const THINKING = { thinkingBudget: 1024, includeThoughts: true };

const REQUESTS = {
  unary: {
    systemInstruction: SYSTEM,
    contents: [
      { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny, 21C' } } }] },
    ],
    tools: TOOLS,
    toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    generationConfig: { maxOutputTokens: 2048, temperature: 1, thinkingConfig: THINKING },
  },
  toolStream: {
    systemInstruction: SYSTEM,
    contents: [{ role: 'user', parts: [{ text: 'call get_weather {"city":"Paris"}' }] }],
    tools: TOOLS,
    generationConfig: { maxOutputTokens: 2048, thinkingConfig: THINKING },
  },
  textStream: {
    contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
    generationConfig: { maxOutputTokens: 64 },
  },
};

/** `/genai/v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse` (whole responses as events). */
export const GENAI_CASE: FormatCase = {
  name: 'genai',
  streamType: 'text/event-stream',
  async send(s, model, request) {
    const action = request === 'unary' ? 'generateContent' : 'streamGenerateContent?alt=sse';
    const sent = await postNative(s, `/genai/v1beta/models/${encodeURIComponent(model)}:${action}`, REQUESTS[request], {
      'x-goog-api-key': s.vk,
    });
    const text = Buffer.from(sent.bytes).toString('utf8');
    if (request === 'unary' || sent.status !== 200) return { status: sent.status, answer: JSON.parse(text) };
    expect(sent.contentType).toContain(this.streamType);
    const events = sseEvents(text);
    for (const e of events) expect(e.event).toBeUndefined();
    return { status: sent.status, answer: events.map((e) => e.data) };
  },
};
