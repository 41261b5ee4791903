import { toUtf8 } from '@smithy/util-utf8';
import { expect } from 'vitest';
import { decodeFrames, type FormatCase, postNative } from './golden-kit.js';

const SYSTEM = [{ text: 'You are a careful agent.' }];
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const TOOL_CONFIG = {
  tools: [
    { toolSpec: { name: 'get_weather', description: 'Weather of a city', inputSchema: { json: schema } } },
    { toolSpec: { name: 'get_time', description: 'Local time of a city', inputSchema: { json: schema } } },
  ],
  toolChoice: { auto: {} },
};
const THINKING = { thinking: { type: 'enabled', budget_tokens: 1024 } };
const SIGNATURE = 'EqQBCkYIARgCIkDnb2xkZW4gc2lnbmF0dXJlIGJ5dGVz';

const REQUESTS = {
  unary: {
    system: SYSTEM,
    messages: [
      { role: 'user', content: [{ text: 'What is the weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { reasoningContent: { reasoningText: { text: 'I should call the weather tool.', signature: SIGNATURE } } },
          { toolUse: { toolUseId: 'tooluse_golden_1', name: 'get_weather', input: { city: 'Paris' } } },
        ],
      },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: 'tooluse_golden_1', content: [{ text: 'sunny, 21C' }] } }],
      },
    ],
    toolConfig: TOOL_CONFIG,
    inferenceConfig: { maxTokens: 2048, temperature: 1 },
    additionalModelRequestFields: THINKING,
  },
  toolStream: {
    system: SYSTEM,
    messages: [{ role: 'user', content: [{ text: 'call get_weather {"city":"Paris"}' }] }],
    toolConfig: TOOL_CONFIG,
    inferenceConfig: { maxTokens: 2048 },
    additionalModelRequestFields: THINKING,
  },
  textStream: {
    messages: [{ role: 'user', content: [{ text: 'golden words' }] }],
    inferenceConfig: { maxTokens: 64 },
  },
};

/** `/bedrock/model/{modelId}/converse` and `/converse-stream` (binary event-stream frames back). */
export const BEDROCK_CASE: FormatCase = {
  name: 'bedrock',
  streamType: 'application/vnd.amazon.eventstream',
  async send(s, model, request) {
    const action = request === 'unary' ? 'converse' : 'converse-stream';
    const sent = await postNative(s, `/bedrock/model/${encodeURIComponent(model)}/${action}`, REQUESTS[request]);
    if (request === 'unary' || sent.status !== 200)
      return { status: sent.status, answer: JSON.parse(toUtf8(sent.bytes)) };
    expect(sent.contentType).toBe(this.streamType);
    return { status: sent.status, answer: decodeFrames(sent.bytes) };
  },
};
