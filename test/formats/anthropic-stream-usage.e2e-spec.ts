import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { sseMessages, type InferenceStack } from '../inference/inference-kit.js';
import { startGoldenStack } from './golden/golden-kit.js';

/** Upstream usage for every target: 9 uncached input tokens, 5 read from the cache, 3 written to it. */
const USAGE = { input_tokens: 9, cached_read_tokens: 5, cached_write_tokens: 3 };
const KNOWN_EARLY = { input_tokens: 9, output_tokens: 1, cache_read_input_tokens: 5, cache_creation_input_tokens: 3 };
const UNKNOWN_EARLY = { input_tokens: 0, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

/**
 * `/anthropic/v1/messages` streams: `message_start` carries the input and cache tokens when the target reported them
 * in its own opening event (Anthropic, Claude on Vertex), and zeros otherwise (OpenAI; Claude on Bedrock Converse,
 * whose usage comes in its last event); `message_delta` always carries the final figures.
 */
describe(`/anthropic streams: message_start usage (${RUN_MODE})`, () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startGoldenStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  const cases = [
    { model: 'anthropic/claude-sonnet-4-5', path: '/anthropic/v1/messages', early: KNOWN_EARLY },
    { model: 'vertex/claude-sonnet-4-5', path: ':streamRawPredict', early: KNOWN_EARLY },
    { model: 'openai/gpt-4o-mini', path: '/openai/v1/chat/completions', early: UNKNOWN_EARLY },
    { model: 'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0', path: '/converse-stream', early: UNKNOWN_EARLY },
  ];
  for (const c of cases) {
    it(`${c.model}: message_start ${c.early === KNOWN_EARLY ? 'has the input tokens' : 'has zeros'}, message_delta the final usage`, async () => {
      s.sim.scenario({ match: { path: c.path }, responses: [{ ok: true, usage: USAGE }] });
      const res = await s.inference.post('/anthropic/v1/messages', {
        model: c.model,
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'count my tokens' }],
      });
      expect(res.status, res.text).toBe(200);
      const events = sseMessages(res.text).map((m) => JSON.parse(m.data) as Record<string, any>);
      expect(events[0]!.type).toBe('message_start');
      expect(events[0]!.message.usage).toEqual(c.early);
      const delta = events.find((e) => e.type === 'message_delta')!;
      expect(delta.usage).toEqual({
        input_tokens: 9,
        output_tokens: 4,
        cache_read_input_tokens: 5,
        cache_creation_input_tokens: 3,
      });
      expect(s.sim.requests().some((r) => r.path.includes(c.path))).toBe(true);
    });
  }

  it('the Anthropic SDK reads the early figures, then the final ones', async () => {
    s.sim.scenario({ match: { path: '/anthropic/v1/messages' }, responses: [{ ok: true, usage: USAGE }] });
    const client = new Anthropic({ baseURL: `${s.gw.baseUrl}/anthropic`, apiKey: s.vk, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'count my tokens' }],
    });
    let startInput: number | undefined;
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') startInput = event.message.usage.input_tokens;
    });
    const final = await stream.finalMessage();
    expect(startInput).toBe(9);
    expect(final.usage).toMatchObject({
      input_tokens: 9,
      output_tokens: 4,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 3,
    });
  });
});
