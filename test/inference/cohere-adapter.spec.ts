import { describe, expect, it } from 'vitest';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import { cohereAdapter } from '../../src/modules/inference/providers/cohere/cohere.adapter.js';
import type { ProviderTarget, StreamOutput } from '../../src/modules/inference/providers/shared/provider-adapter.js';

const target: ProviderTarget = {
  provider: 'cohere',
  baseUrl: 'https://api.cohere.ai',
  extraHeaders: { 'X-Client-Name': 'gw' },
  key: { id: 'k1', name: 'main', value: 'co-secret' },
  model: 'command-a-03-2025',
};

const sse = (events: Array<Record<string, unknown>>) =>
  events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');

/** Decodes `text` fed in `size`-character pieces (any split must give the same outputs). */
function decode(text: string, size: number): StreamOutput[] {
  const decoder = cohereAdapter.streamDecoder('chat', target);
  const out: StreamOutput[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...decoder.push(text.slice(i, i + size)));
  return [...out, ...decoder.end()];
}

describe('cohere adapter (pure translation)', () => {
  it('is registered; builds /v2/chat with Bearer last, thinking from reasoning_effort, a named tool as REQUIRED', () => {
    expect(adapterFor('cohere')).toBe(cohereAdapter);
    const call = cohereAdapter.buildRequest(
      'chat',
      {
        model: target.model,
        messages: [
          { role: 'developer', content: [{ type: 'text', text: 'rules' }] },
          { role: 'user', content: 'q' },
        ],
        tools: [
          { type: 'function', function: { name: 'a' } },
          { type: 'function', function: { name: 'b', description: 'B' } },
        ],
        tool_choice: { type: 'function', function: { name: 'b' } },
        reasoning_effort: 'high',
        top_k: 5,
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
      },
      target,
      true,
    );
    expect(call.url).toBe('https://api.cohere.ai/v2/chat');
    expect(call.headers).toEqual({
      'x-client-name': 'gw',
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: 'Bearer co-secret',
    });
    expect(JSON.parse(call.body!)).toEqual({
      model: target.model,
      messages: [
        { role: 'system', content: 'rules' },
        { role: 'user', content: 'q' },
      ],
      tools: [
        { type: 'function', function: { name: 'b', description: 'B', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: 'REQUIRED',
      k: 5,
      response_format: { type: 'json_object', json_schema: { type: 'object' } },
      thinking: { type: 'enabled', token_budget: 16384 },
      stream: true,
    });
  });

  it('parses a unary answer: thinking → reasoning_content, billed units as the usage fallback, cached tokens', () => {
    const parsed = cohereAdapter.parseResponse(
      'chat',
      {
        id: 'c1',
        finish_reason: 'MAX_TOKENS',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm' },
            { type: 'text', text: 'cut' },
          ],
        },
        usage: { billed_units: { input_tokens: 7, output_tokens: 2 }, cached_tokens: 3 },
      },
      target,
    );
    const choice = (parsed.body.choices as any[])[0];
    expect(choice.message).toEqual({ role: 'assistant', content: 'cut', reasoning_content: 'hmm' });
    expect(choice.finish_reason).toBe('length');
    expect(parsed.usage).toEqual({
      prompt_tokens: 7,
      completion_tokens: 2,
      total_tokens: 9,
      prompt_tokens_details: { cached_read_tokens: 3 },
    });
  });

  it('decodes a stream with thinking, a tool plan and a call, split anywhere; usage from message-end', () => {
    const text = sse([
      { type: 'message-start', id: 'm1', delta: { message: { role: 'assistant' } } },
      { type: 'content-start', index: 0, delta: { message: { content: { type: 'thinking', thinking: '' } } } },
      { type: 'content-delta', index: 0, delta: { message: { content: { thinking: 'think' } } } },
      { type: 'content-end', index: 0 },
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'plan' } } },
      {
        type: 'tool-call-start',
        index: 0,
        delta: { message: { tool_calls: { id: 't1', type: 'function', function: { name: 'f', arguments: '' } } } },
      },
      { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: '{"a":1}' } } } } },
      { type: 'tool-call-end', index: 0 },
      {
        type: 'message-end',
        delta: { finish_reason: 'TOOL_CALL', usage: { tokens: { input_tokens: 5, output_tokens: 4 } } },
      },
    ]);
    for (const size of [1, 7, text.length]) {
      const out = decode(text, size);
      const deltas = out.map((o) => (o.kind === 'chunk' ? (o.chunk.choices as any[])[0].delta : o));
      expect(deltas).toEqual([
        { role: 'assistant', content: '' },
        { reasoning_content: 'think' },
        { content: 'plan' },
        { tool_calls: [{ index: 0, id: 't1', type: 'function', function: { name: 'f', arguments: '' } }] },
        { tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] },
        {},
      ]);
      const last = out.at(-1)!;
      expect(last.kind === 'chunk' && (last.chunk.choices as any[])[0].finish_reason).toBe('tool_calls');
      expect(last.kind === 'chunk' && last.usage).toEqual({ prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 });
    }
  });

  it('a stream without message-end, or ending with ERROR, is an error output', () => {
    const cut = decode(sse([{ type: 'message-start', id: 'm' }]), 5).at(-1)!;
    expect(cut.kind === 'error' && cut.error).toMatchObject({ status: 502, reason: 'provider_server_error' });
    const failed = decode(sse([{ type: 'message-end', delta: { finish_reason: 'ERROR', error: 'boom' } }]), 9).at(-1)!;
    expect(failed.kind === 'error' && failed.error.message).toBe('boom');
  });

  it('errors: {message} and the status; 498 is an auth failure; no hint is read', () => {
    expect(cohereAdapter.parseError(429, { 'retry-after': '3' }, '{"message":"slow down"}')).toEqual({
      status: 429,
      message: 'slow down',
      reason: 'provider_rate_limited',
    });
    expect(cohereAdapter.parseError(498, {}, '{"message":"invalid api token"}').reason).toBe('provider_auth_failed');
    expect(cohereAdapter.parseError(502, {}, '<html>').message).toBe('<html>');
  });

  it('lists models from models[].name', () => {
    const call = cohereAdapter.buildListModels(target);
    expect(call.url).toBe('https://api.cohere.ai/v1/models');
    expect(cohereAdapter.parseListModels({ models: [{ name: 'command-r' }, { x: 1 }] })).toEqual([
      { id: 'command-r', owned_by: 'cohere' },
    ]);
  });
});
