import { describe, expect, it } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import { anthropicAdapter } from '../../src/modules/inference/providers/anthropic/anthropic.adapter.js';
import type {
  Json,
  ProviderTarget,
  StreamDecoder,
  StreamOutput,
} from '../../src/modules/inference/providers/shared/provider-adapter.js';

const target: ProviderTarget = {
  provider: 'anthropic',
  baseUrl: 'https://api.anthropic.com',
  extraHeaders: { 'Anthropic-Beta': 'prompt-caching-2024-07-31' },
  key: { id: 'k1', name: 'main', value: 'sk-ant-api03-test' },
  model: 'claude-sonnet-4-5',
};

const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function chatRequest(body: Json, stream = false): { url: string; headers: Record<string, string>; body: Json } {
  const call = anthropicAdapter.buildRequest('chat', { model: target.model, ...body }, target, stream);
  expect(call.method).toBe('POST');
  return { url: call.url, headers: call.headers, body: JSON.parse(call.body!) as Json };
}

function thrown(fn: () => unknown): GatewayException {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayException);
    return e as GatewayException;
  }
  throw new Error('expected a GatewayException');
}

/** Feeds `text` to a fresh decoder in pieces of `size` characters, then ends it. */
function decode(text: string, size: number): StreamOutput[] {
  const decoder: StreamDecoder = anthropicAdapter.streamDecoder('chat', target);
  const out: StreamOutput[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...decoder.push(text.slice(i, i + size)));
  out.push(...decoder.end());
  return out;
}

/** The outputs with `created` removed, so decodes started in different seconds compare equal. */
function normalized(outputs: StreamOutput[]): unknown[] {
  return outputs.map((o) => (o.kind === 'chunk' ? { ...o, chunk: { ...o.chunk, created: 0 } } : o));
}

/** Accumulates chunk deltas the way an OpenAI client does. */
function accumulate(outputs: StreamOutput[]) {
  let content = '';
  let reasoning = '';
  const tools: Array<{ id?: string; name?: string; arguments: string }> = [];
  const finishes: unknown[] = [];
  for (const o of outputs) {
    if (o.kind !== 'chunk') continue;
    for (const choice of o.chunk.choices as Array<{ delta: any; finish_reason: unknown }>) {
      content += choice.delta.content ?? '';
      reasoning += choice.delta.reasoning_content ?? '';
      for (const t of choice.delta.tool_calls ?? []) {
        const entry = (tools[t.index] ??= { arguments: '' });
        if (t.id) entry.id = t.id;
        if (t.function?.name) entry.name = t.function.name;
        entry.arguments += t.function?.arguments ?? '';
      }
      if (choice.finish_reason !== null) finishes.push(choice.finish_reason);
    }
  }
  return { content, reasoning, tools, finishes };
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A thinking + text + two tool_use blocks stream, as the Messages API sends it (reference §2.3). */
const TOOL_STREAM =
  sse('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 472, cache_creation_input_tokens: 1024, cache_read_input_tokens: 2048, output_tokens: 1 },
    },
  }) +
  'event: ping\ndata: {"type": "ping"}\n\n' +
  sse('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'thinking', thinking: '', signature: '' },
  }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'thinking_delta', thinking: 'The user wants ' },
  }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'thinking_delta', thinking: 'the weather.' },
  }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
  }) +
  sse('content_block_stop', { type: 'content_block_stop', index: 0 }) +
  sse('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'text_delta', text: 'Let me check ' },
  }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'text_delta', text: 'the weather — ☀️?' },
  }) +
  sse('content_block_stop', { type: 'content_block_stop', index: 1 }) +
  sse('content_block_start', {
    type: 'content_block_start',
    index: 2,
    content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {} },
  }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 2,
    delta: { type: 'input_json_delta', partial_json: '' },
  }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 2,
    delta: { type: 'input_json_delta', partial_json: '{"location": "San Fra' },
  }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 2,
    delta: { type: 'input_json_delta', partial_json: 'ncisco, CA", "unit": "c"}' },
  }) +
  sse('content_block_stop', { type: 'content_block_stop', index: 2 }) +
  sse('content_block_start', {
    type: 'content_block_start',
    index: 3,
    content_block: { type: 'tool_use', id: 'toolu_02AbC', name: 'get_time', input: {} },
  }) +
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 3,
    delta: { type: 'input_json_delta', partial_json: '' },
  }) +
  sse('content_block_stop', { type: 'content_block_stop', index: 3 }) +
  sse('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 89 },
  }) +
  sse('message_stop', { type: 'message_stop' });

describe('anthropic: registry and request building', () => {
  it('is registered for anthropic with chat and count_tokens', () => {
    expect(adapterFor('anthropic')).toBe(anthropicAdapter);
    expect([...anthropicAdapter.kinds].sort()).toEqual(['chat', 'count_tokens']);
    expect(anthropicAdapter.defaultBaseUrl('anthropic')).toBe('https://api.anthropic.com');
  });

  it('builds POST /v1/messages with the key, version, extra headers and a translated body', () => {
    const { url, headers, body } = chatRequest({
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'developer',
          content: [{ type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these pictures?' },
            { type: 'image_url', image_url: { url: PNG_DATA_URL } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '{"temp_c":21}' },
        { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '14:05' }] },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
        { type: 'function', function: { name: 'get_time' } },
      ],
      tool_choice: 'required',
      max_completion_tokens: 512,
      stop: 'END',
      temperature: 0.2,
      top_p: 0.9,
      user: 'user-42',
      stream_options: { include_usage: true },
    });

    expect(url).toBe('https://api.anthropic.com/v1/messages');
    expect(headers).toEqual({
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'anthropic-beta': 'prompt-caching-2024-07-31',
      'x-api-key': 'sk-ant-api03-test',
    });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      system: [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these pictures?' },
            {
              type: 'image',
              source: {
                type: 'base64',
                media_type: 'image/png',
                data: PNG_DATA_URL.slice('data:image/png;base64,'.length),
              },
            },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp_c":21}' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '14:05' }] },
          ],
        },
        { role: 'user', content: 'Thanks' },
      ],
      max_tokens: 512,
      stop_sequences: ['END'],
      temperature: 0.2,
      top_p: 0.9,
      tools: [
        {
          name: 'get_weather',
          description: 'Current weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
        { name: 'get_time', input_schema: { type: 'object', properties: {} } },
      ],
      tool_choice: { type: 'any' },
      metadata: { user_id: 'user-42' },
    });
  });

  it('sends a single system message as a string, defaults max_tokens and sets stream', () => {
    const { body } = chatRequest(
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        max_tokens: 100,
      },
      true,
    );
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 100,
      stream: true,
    });
    expect(chatRequest({ messages: [{ role: 'user', content: 'Hi' }] }).body.max_tokens).toBe(4096);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    [
      { type: 'function', function: { name: 'get_weather' } },
      { type: 'tool', name: 'get_weather' },
    ],
  ])('maps tool_choice %j', (choice, expected) => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
    const { body } = chatRequest({ messages: [{ role: 'user', content: 'x' }], tools, tool_choice: choice });
    expect(body.tool_choice).toEqual(expected);
  });

  it('turns parallel_tool_calls: false into disable_parallel_tool_use', () => {
    const tools = [{ type: 'function', function: { name: 'f' } }];
    const { body } = chatRequest({ messages: [{ role: 'user', content: 'x' }], tools, parallel_tool_calls: false });
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });

  it('maps reasoning_effort to a thinking budget and keeps max_tokens above it', () => {
    const messages = [{ role: 'user', content: 'Prove it.' }];
    expect(chatRequest({ messages, reasoning_effort: 'low' }).body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 1024 },
      max_tokens: 1024 + 4096,
    });
    expect(chatRequest({ messages, reasoning_effort: 'medium' }).body.thinking).toEqual({
      type: 'enabled',
      budget_tokens: 4096,
    });
    expect(chatRequest({ messages, reasoning_effort: 'high', max_completion_tokens: 8000 }).body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 7999 },
      max_tokens: 8000,
    });
    expect(chatRequest({ messages, reasoning_effort: 'minimal' }).body.thinking).toBeUndefined();
    const explicit = chatRequest({
      messages,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      max_tokens: 3000,
    }).body;
    expect(explicit).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2000 }, max_tokens: 3000 });
    expect(thrown(() => chatRequest({ messages, reasoning_effort: 'extreme' })).param).toBe('reasoning_effort');
  });

  it('refuses what Anthropic could not read with a 400 naming the field', () => {
    const badArgs = thrown(() =>
      chatRequest({
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{oops' } }],
          },
        ],
      }),
    );
    expect(badArgs.status).toBe(400);
    expect(badArgs.param).toBe('messages[1].tool_calls[0].function.arguments');
    const badImage = thrown(() =>
      chatRequest({
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }],
      }),
    );
    expect(badImage.param).toBe('messages[0].content[0].image_url.url');
    expect(thrown(() => chatRequest({ messages: [{ role: 'tool', content: 'x' }] })).param).toBe(
      'messages[0].tool_call_id',
    );
    expect(thrown(() => chatRequest({ messages: [{ role: 'narrator', content: 'x' }] })).param).toBe(
      'messages[0].role',
    );
    expect(
      thrown(() => chatRequest({ messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'web_search' }] })).param,
    ).toBe('tools[0].type');
    expect(thrown(() => chatRequest({ messages: [{ role: 'user', content: 'x' }], n: 3 })).param).toBe('n');
    const embeddings = thrown(() => anthropicAdapter.buildRequest('embeddings', { input: 'x' }, target, false));
    expect(embeddings.code).toBe('unsupported_operation');
  });

  it('builds count_tokens without max_tokens or stream', () => {
    const call = anthropicAdapter.buildRequest(
      'count_tokens',
      {
        model: target.model,
        messages: [
          { role: 'system', content: 'Sys' },
          { role: 'user', content: 'Count me' },
        ],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
      },
      target,
      false,
    );
    expect(call.url).toBe('https://api.anthropic.com/v1/messages/count_tokens');
    expect(call.headers['x-api-key']).toBe('sk-ant-api03-test');
    expect(JSON.parse(call.body!)).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Count me' }],
      system: 'Sys',
      tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
    });
    expect(anthropicAdapter.parseResponse('count_tokens', { input_tokens: 2095 }, target).body).toEqual({
      object: 'response.input_tokens',
      input_tokens: 2095,
    });
  });
});

describe('anthropic: unary responses', () => {
  const MESSAGE = JSON.parse(`{
    "id": "msg_01Aq9w938a90dw8q",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5-20250929",
    "content": [
      {"type": "thinking", "thinking": "Need the weather tool.", "signature": "WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIuMfFG/UvLEczmEsUjavL"},
      {"type": "text", "text": "I'll look that up. "},
      {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "weather SF"}},
      {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []},
      {"type": "text", "text": "One moment."},
      {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"location": "San Francisco, CA"}}
    ],
    "stop_reason": "tool_use",
    "stop_sequence": null,
    "usage": {
      "input_tokens": 2095,
      "cache_creation_input_tokens": 100,
      "cache_read_input_tokens": 1500,
      "cache_creation": {"ephemeral_5m_input_tokens": 100, "ephemeral_1h_input_tokens": 0},
      "output_tokens": 503,
      "server_tool_use": {"web_search_requests": 1},
      "service_tier": "standard"
    }
  }`) as Json;

  it('becomes a chat.completion with tool_calls, reasoning_content, thinking_blocks and contract usage', () => {
    const parsed = anthropicAdapter.parseResponse('chat', MESSAGE, target);
    const expectedUsage = {
      prompt_tokens: 2095 + 1500 + 100,
      completion_tokens: 503,
      total_tokens: 2095 + 1500 + 100 + 503,
      prompt_tokens_details: { cached_read_tokens: 1500, cached_write_tokens: 100 },
      completion_tokens_details: { num_search_queries: 1 },
      tool_usage: { web_search: { num_requests: 1 } },
    };
    expect(parsed.usage).toEqual(expectedUsage);
    expect(parsed.answeredModel).toBe('claude-sonnet-4-5-20250929');
    expect(parsed.body).toMatchObject({
      id: 'msg_01Aq9w938a90dw8q',
      object: 'chat.completion',
      model: 'claude-sonnet-4-5-20250929',
      usage: expectedUsage,
    });
    expect(typeof parsed.body.created).toBe('number');
    expect(parsed.body.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: "I'll look that up. One moment.",
          reasoning_content: 'Need the weather tool.',
          thinking_blocks: [
            {
              type: 'thinking',
              thinking: 'Need the weather tool.',
              signature: 'WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIuMfFG/UvLEczmEsUjavL',
            },
          ],
          tool_calls: [
            {
              id: 'toolu_01A09q90qw90lq917835lq9',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA"}' },
            },
          ],
        },
        finish_reason: 'tool_calls',
        logprobs: null,
      },
    ]);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
  ])('maps stop_reason %s to %s', (stopReason, finish) => {
    const body = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: stopReason,
      usage: { input_tokens: 10, output_tokens: 2 },
    };
    const parsed = anthropicAdapter.parseResponse('chat', body, target);
    expect((parsed.body.choices as any)[0].finish_reason).toBe(finish);
    expect(parsed.usage).toEqual({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
    expect(parsed.answeredModel).toBeUndefined();
  });
});

describe('anthropic: streams', () => {
  it('turns the event stream into chunks whatever the byte splits', () => {
    const whole = decode(TOOL_STREAM, TOOL_STREAM.length);
    for (const size of [1, 2, 7, 13, 64]) expect(normalized(decode(TOOL_STREAM, size))).toEqual(normalized(whole));

    expect(whole.every((o) => o.kind === 'chunk')).toBe(true);
    const chunks = whole.map((o) => (o as { chunk: Json }).chunk);
    expect(chunks[0]).toMatchObject({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      object: 'chat.completion.chunk',
      model: 'claude-sonnet-4-5-20250929',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    expect(chunks.every((c) => c.id === 'msg_01XFDUDYJgAACzvnptvVoYEL')).toBe(true);

    const merged = accumulate(whole);
    expect(merged.content).toBe('Let me check the weather — ☀️?');
    expect(merged.reasoning).toBe('The user wants the weather.');
    expect(merged.tools).toEqual([
      {
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        name: 'get_weather',
        arguments: '{"location": "San Francisco, CA", "unit": "c"}',
      },
      { id: 'toolu_02AbC', name: 'get_time', arguments: '{}' },
    ]);
    expect(merged.finishes).toEqual(['tool_calls']);

    // The first fragment of each tool call carries id, type and name; later ones only argument text.
    const toolDeltas = chunks.flatMap((c) => (c.choices as any)[0].delta.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(toolDeltas[1]).toEqual({ index: 0, function: { arguments: '{"location": "San Fra' } });

    // Only the last chunk carries usage: message_delta had no cache fields, message_start's are kept.
    const last = whole.at(-1)!;
    expect(whole.slice(0, -1).every((o) => o.kind === 'chunk' && o.usage === undefined)).toBe(true);
    expect(last).toMatchObject({ kind: 'chunk', chunk: { choices: [{ delta: {}, finish_reason: 'tool_calls' }] } });
    expect(last.kind === 'chunk' && last.usage).toEqual({
      prompt_tokens: 472 + 1024 + 2048,
      completion_tokens: 89,
      total_tokens: 472 + 1024 + 2048 + 89,
      prompt_tokens_details: { cached_read_tokens: 2048, cached_write_tokens: 1024 },
    });
  });

  it('takes the per-field max of message_start and a cumulative message_delta', () => {
    const stream =
      sse('message_start', {
        type: 'message_start',
        message: {
          id: 'msg_2',
          model: 'claude-sonnet-4-5',
          usage: { input_tokens: 30, cache_read_input_tokens: 5, output_tokens: 1 },
        },
      }) +
      sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }) +
      sse('content_block_stop', { type: 'content_block_stop', index: 0 }) +
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: {
          input_tokens: 30,
          cache_read_input_tokens: 5,
          cache_creation_input_tokens: 0,
          output_tokens: 12,
          server_tool_use: { web_search_requests: 2 },
        },
      }) +
      sse('message_stop', { type: 'message_stop' });
    const out = decode(stream, 5);
    const last = out.at(-1)!;
    expect(last.kind === 'chunk' && last.chunk.choices).toEqual([{ index: 0, delta: {}, finish_reason: 'stop' }]);
    expect(last.kind === 'chunk' && last.usage).toEqual({
      prompt_tokens: 35,
      completion_tokens: 12,
      total_tokens: 47,
      prompt_tokens_details: { cached_read_tokens: 5 },
      completion_tokens_details: { num_search_queries: 2 },
      tool_usage: { web_search: { num_requests: 2 } },
    });
  });

  it('reports an overloaded_error event as a 529 provider_overloaded error with what was billed', () => {
    const stream =
      TOOL_STREAM.slice(0, TOOL_STREAM.indexOf('event: content_block_start')) +
      'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n' +
      sse('message_stop', { type: 'message_stop' });
    const out = decode(stream, 9);
    expect(out.map((o) => o.kind)).toEqual(['chunk', 'error']);
    expect(out[1]).toEqual({
      kind: 'error',
      error: {
        status: 529,
        message: 'Overloaded',
        type: 'overloaded_error',
        reason: 'provider_overloaded',
        billedUsage: {
          prompt_tokens: 3544,
          completion_tokens: 1,
          total_tokens: 3545,
          prompt_tokens_details: { cached_read_tokens: 2048, cached_write_tokens: 1024 },
        },
      },
    });
  });

  it('reports a stream cut before message_stop as a 502 provider_server_error, once', () => {
    const cut = TOOL_STREAM.slice(0, TOOL_STREAM.indexOf('event: message_delta') + 30);
    const decoder = anthropicAdapter.streamDecoder('chat', target);
    const pushed = decoder.push(cut);
    expect(pushed.every((o) => o.kind === 'chunk')).toBe(true);
    expect(accumulate(pushed).finishes).toEqual([]);
    const ended = decoder.end();
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({
      kind: 'error',
      error: {
        status: 502,
        reason: 'provider_server_error',
        message: 'anthropic stream ended before message_stop',
        billedUsage: { prompt_tokens: 3544, completion_tokens: 1, total_tokens: 3545 },
      },
    });
    expect(decoder.end()).toEqual([]);
    expect(decoder.push(sse('message_stop', { type: 'message_stop' }))).toEqual([]);
  });

  it('accepts a message_stop whose blank line never came', () => {
    const out = decode(TOOL_STREAM.trimEnd(), 11);
    expect(out.at(-1)).toMatchObject({ kind: 'chunk', chunk: { choices: [{ finish_reason: 'tool_calls' }] } });
    expect(out.some((o) => o.kind === 'error')).toBe(false);
  });

  it('reports an empty stream as an error without billed usage', () => {
    const out = decode('', 1);
    expect(out).toEqual([
      {
        kind: 'error',
        error: { status: 502, reason: 'provider_server_error', message: 'anthropic stream ended before message_stop' },
      },
    ]);
  });
});

describe('anthropic: errors', () => {
  it('classifies a 529 overloaded answer and keeps its retry-after hint', () => {
    const error = anthropicAdapter.parseError(
      529,
      { 'retry-after': '12', 'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fy' },
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}',
    );
    expect(error).toEqual({
      status: 529,
      message: 'Overloaded',
      type: 'overloaded_error',
      reason: 'provider_overloaded',
      retryAfterMs: 12000,
    });
  });

  it.each([
    [429, 'rate_limit_error', 'This request would exceed your rate limit.', 'provider_rate_limited'],
    [401, 'authentication_error', 'invalid x-api-key', 'provider_auth_failed'],
    [
      403,
      'permission_error',
      'Your API key does not have permission to use the specified resource.',
      'provider_auth_failed',
    ],
    [400, 'invalid_request_error', 'messages: roles must alternate', 'caller_invalid_request'],
    [400, 'invalid_request_error', 'Your credit balance is too low to access the Anthropic API.', 'provider_billing'],
    [404, 'not_found_error', 'model: claude-nope', 'caller_model_unknown'],
    [500, 'api_error', 'Internal server error', 'provider_server_error'],
  ])('classifies %i %s', (status, type, message, reason) => {
    const body = JSON.stringify({ type: 'error', error: { type, message } });
    expect(anthropicAdapter.parseError(status, {}, body)).toEqual({ status, message, type, reason });
  });

  it('quotes a body that is not JSON and reads an HTTP-date retry-after', () => {
    const date = new Date(Date.now() + 30_000).toUTCString();
    const error = anthropicAdapter.parseError(503, { 'retry-after': date }, '<html>upstream connect error</html>');
    expect(error).toMatchObject({
      status: 503,
      message: '<html>upstream connect error</html>',
      reason: 'provider_overloaded',
    });
    expect(error.type).toBeUndefined();
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(anthropicAdapter.parseError(502, {}, '').message).toBe('anthropic answered HTTP 502');
  });
});

describe('anthropic: models', () => {
  it('lists models with created as epoch seconds', () => {
    const call = anthropicAdapter.buildListModels(target);
    expect(call).toEqual({
      method: 'GET',
      url: 'https://api.anthropic.com/v1/models?limit=1000',
      headers: {
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'prompt-caching-2024-07-31',
        'x-api-key': 'sk-ant-api03-test',
      },
    });
    const models = anthropicAdapter.parseListModels({
      data: [
        {
          type: 'model',
          id: 'claude-sonnet-4-5-20250929',
          display_name: 'Claude Sonnet 4.5',
          created_at: '2025-09-29T00:00:00Z',
        },
        {
          type: 'model',
          id: 'claude-3-5-haiku-20241022',
          display_name: 'Claude Haiku 3.5',
          created_at: '2024-10-22T00:00:00Z',
        },
      ],
      has_more: false,
      first_id: 'claude-sonnet-4-5-20250929',
      last_id: 'claude-3-5-haiku-20241022',
    });
    expect(models).toEqual([
      {
        id: 'claude-sonnet-4-5-20250929',
        owned_by: 'anthropic',
        display_name: 'Claude Sonnet 4.5',
        created: Date.UTC(2025, 8, 29) / 1000,
      },
      {
        id: 'claude-3-5-haiku-20241022',
        owned_by: 'anthropic',
        display_name: 'Claude Haiku 3.5',
        created: Date.UTC(2024, 9, 22) / 1000,
      },
    ]);
  });
});
