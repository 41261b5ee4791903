import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** Splits an event-stream body into frames, each decoded by the codec (which checks both CRCs). */
function decodeFrames(bytes: Uint8Array): Array<{ headers: Record<string, unknown>; payload: any }> {
  const frames = [];
  let at = 0;
  while (at < bytes.length) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
    const message = codec.decode(bytes.subarray(at, at + length));
    const headers = Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [k, v.value]));
    frames.push({ headers, payload: JSON.parse(toUtf8(message.body)) });
    at += length;
  }
  return frames;
}

async function post(s: InferenceStack, path: string, body: unknown) {
  const response = await fetch(`${s.gw.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const converseRequest = {
  system: [{ text: 'be brief' }],
  messages: [{ role: 'user', content: [{ text: 'golden words' }] }],
  inferenceConfig: { maxTokens: 50, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
};

/**
 * Golden conversions of `/bedrock` (Bedrock in) against OpenAI and Anthropic (out): the exact body the simulator
 * received, the exact answer, and the event stream decoded frame by frame from the raw bytes.
 */
describe('provider format: /bedrock golden conversions', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('Converse → openai: the chat body sent and the Converse answer', async () => {
    const { response, bytes } = await post(s, '/bedrock/model/openai%2Fgpt-4o-mini/converse', converseRequest);
    expect(response.status).toBe(200);
    expect(seen(s.sim).at(-1).body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'golden words' }] },
      ],
      max_tokens: 50,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
    });
    const answer = JSON.parse(toUtf8(bytes));
    expect(answer.metrics.latencyMs).toBeGreaterThanOrEqual(0);
    expect({ ...answer, metrics: undefined }).toEqual({
      output: { message: { role: 'assistant', content: [{ text: 'echo: golden words' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 4, outputTokens: 3, totalTokens: 7 },
      metrics: undefined,
    });
  });

  it('Converse → anthropic: the Messages body sent and the Converse answer', async () => {
    const { response, bytes } = await post(s, '/bedrock/model/anthropic%2Fclaude-sonnet-4/converse', converseRequest);
    expect(response.status).toBe(200);
    expect(seen(s.sim).at(-1).body).toEqual({
      model: 'claude-sonnet-4',
      system: 'be brief',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'golden words' }] }],
      max_tokens: 50,
      stop_sequences: ['END'],
      temperature: 0.2,
      top_p: 0.9,
    });
    const answer = JSON.parse(toUtf8(bytes));
    expect(answer.output).toEqual({ message: { role: 'assistant', content: [{ text: 'echo: golden words' }] } });
    expect(answer.usage).toEqual({ inputTokens: 4, outputTokens: 3, totalTokens: 7 });
  });

  for (const model of ['openai%2Fgpt-4o-mini', 'anthropic%2Fclaude-sonnet-4']) {
    it(`ConverseStream → ${decodeURIComponent(model)}: frames decoded from the raw bytes`, async () => {
      const { response, bytes } = await post(s, `/bedrock/model/${model}/converse-stream`, converseRequest);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
      expect(response.headers.get('x-gateway-routing-info-model')).toBe(decodeURIComponent(model).split('/')[1]);
      const frames = decodeFrames(bytes);
      for (const frame of frames) {
        expect(frame.headers[':message-type']).toBe('event');
        expect(frame.headers[':content-type']).toBe('application/json');
      }
      const metadata = frames.at(-1)!;
      expect(metadata.payload.metrics.latencyMs).toBeGreaterThanOrEqual(0);
      delete metadata.payload.metrics;
      expect(frames.map((f) => [f.headers[':event-type'], f.payload])).toEqual([
        ['messageStart', { role: 'assistant' }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'echo:' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' golden' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' words' } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'end_turn' }],
        ['metadata', { usage: { inputTokens: 4, outputTokens: 3, totalTokens: 7 } }],
      ]);
    });
  }

  it('ConverseStream with reasoning and a tool call from anthropic', async () => {
    s.sim.scenario({ responses: [{ ok: true, tool_calls: [{ name: 'lookup', arguments: { q: 'x' } }] }] });
    const { bytes } = await post(s, '/bedrock/model/anthropic%2Fclaude-sonnet-4/converse-stream', {
      messages: [{ role: 'user', content: [{ text: 'think then call' }] }],
      toolConfig: { tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object' } } } }] },
      inferenceConfig: { maxTokens: 3000 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
    });
    const sent = seen(s.sim).at(-1).body;
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    const frames = decodeFrames(bytes).map((f) => [f.headers[':event-type'], f.payload]);
    const reasoning = frames.filter(([, p]) => p.delta?.reasoningContent).map(([, p]) => p.delta.reasoningContent.text);
    expect(reasoning.join('')).not.toBe('');
    const start = frames.find(([type]) => type === 'contentBlockStart')!;
    expect(start[1]).toEqual({
      contentBlockIndex: 1,
      start: { toolUse: { toolUseId: expect.any(String), name: 'lookup' } },
    });
    const input = frames.filter(([, p]) => p.delta?.toolUse).map(([, p]) => p.delta.toolUse.input);
    expect(JSON.parse(input.join(''))).toEqual({ q: 'x' });
    expect(frames.find(([type]) => type === 'messageStop')![1]).toEqual({ stopReason: 'tool_use' });
  });

  it('InvokeModel → anthropic: the Messages body sent and the Anthropic answer', async () => {
    const { response, bytes } = await post(s, '/bedrock/model/anthropic%2Fclaude-sonnet-4/invoke', {
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 64,
      system: 'be brief',
      messages: [{ role: 'user', content: 'invoke golden' }],
    });
    expect(response.status).toBe(200);
    expect(seen(s.sim).at(-1).body).toEqual({
      model: 'claude-sonnet-4',
      system: 'be brief',
      messages: [{ role: 'user', content: 'invoke golden' }],
      max_tokens: 64,
    });
    const answer = JSON.parse(toUtf8(bytes));
    expect(answer).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4',
      content: [{ type: 'text', text: 'echo: invoke golden' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 3 },
    });
  });

  it('InvokeModelWithResponseStream → openai: chunk frames holding the Anthropic events', async () => {
    const { response, bytes } = await post(s, '/bedrock/model/openai%2Fgpt-4o-mini/invoke-with-response-stream', {
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'two words' }],
    });
    expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const frames = decodeFrames(bytes);
    expect(new Set(frames.map((f) => f.headers[':event-type']))).toEqual(new Set(['chunk']));
    const events = frames.map((f) => JSON.parse(Buffer.from(f.payload.bytes, 'base64').toString('utf8')));
    const metrics = events.at(-1)['amazon-bedrock-invocationMetrics'];
    expect(metrics).toMatchObject({ inputTokenCount: 2, outputTokenCount: 3 });
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0].message).toMatchObject({ role: 'assistant', model: 'openai/gpt-4o-mini', content: [] });
    expect(events[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    expect(events[2]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'echo:' } });
    expect(events[6]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 3 },
    });
  });

  it('a mid-stream failure ends the stream with an exception frame', async () => {
    s.sim.scenario({ match: { family: 'anthropic' }, responses: [{ fault: 'stream_error', after_events: 3 }] });
    const { response, bytes } = await post(
      s,
      '/bedrock/model/anthropic%2Fclaude-sonnet-4/converse-stream',
      converseRequest,
    );
    expect(response.status).toBe(200);
    const last = decodeFrames(bytes).at(-1)!;
    expect(last.headers[':message-type']).toBe('exception');
    expect(last.headers[':exception-type']).toBe('serviceUnavailableException');
    expect(last.payload.message).toBeTruthy();
    expect(last.payload.event_id).toBeTruthy();
  });
});
