import { describe, expect, it } from 'vitest';
import { toErrorResponse } from '../../src/core/errors/error-response.js';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { messageFromCanonical } from '../../src/modules/inference/providers/anthropic/format/anthropic-answer.js';
import { renderAnthropicError } from '../../src/modules/inference/providers/anthropic/format/anthropic-error-shape.js';
import {
  countTokensToCanonical,
  messagesToCanonical,
} from '../../src/modules/inference/providers/anthropic/format/anthropic-request.js';
import { AnthropicStreamEncoder } from '../../src/modules/inference/providers/anthropic/format/anthropic-stream-encoder.js';
import { toAnthropicMessagesBody } from '../../src/modules/inference/providers/anthropic/anthropic-messages.js';
import { AnthropicStreamDecoder } from '../../src/modules/inference/providers/anthropic/anthropic-stream.js';
import type { Json, StreamOutput, Usage } from '../../src/modules/inference/providers/shared/provider-adapter.js';
import { GOLDEN_REQUEST, REDACTED, SIGNATURE } from './anthropic-golden.js';

function thrown(fn: () => unknown): GatewayException {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayException);
    return err as GatewayException;
  }
  throw new Error('expected a GatewayException');
}

/** The events of frames, parsed (`event:` name checked against the payload's type). */
function events(frames: Array<string | Uint8Array>): Json[] {
  return frames.map((f) => {
    const text = String(f);
    const [eventLine, dataLine] = text.trimEnd().split('\n');
    const data = JSON.parse(dataLine!.slice('data: '.length)) as Json;
    expect(eventLine).toBe(`event: ${String(data.type)}`);
    return data;
  });
}

const chunk = (delta: Json, finish: string | null = null, extra: Json = {}): Json => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish, ...extra }],
});

describe('anthropic format: request → canonical chat body', () => {
  it('an Anthropic target keeps cache_control, thinking blocks with signatures, is_error and tool ids', () => {
    const request = {
      ...GOLDEN_REQUEST,
      messages: [
        ...GOLDEN_REQUEST.messages.slice(0, 2),
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01GoldenA', content: 'boom', is_error: true },
            { type: 'text', text: 'try again' },
          ],
        },
      ],
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      stream: true,
    };
    const { body, stream } = messagesToCanonical(request);
    expect(stream).toBe(true);
    expect(body).toEqual({
      model: 'anthropic/claude-sonnet-4-5',
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'You are a careful agent.' },
            { type: 'text', text: 'Long cached instructions.', cache_control: { type: 'ephemeral', ttl: '1h' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is the weather in Paris?' },
            { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            {
              id: 'toolu_01GoldenA',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
          thinking_blocks: [
            { type: 'thinking', thinking: 'I should call the weather tool.', signature: SIGNATURE },
            { type: 'redacted_thinking', data: REDACTED },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01GoldenA', content: 'boom', is_error: true },
        { role: 'user', content: [{ type: 'text', text: 'try again' }] },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: GOLDEN_REQUEST.tools[0]!.input_schema,
          },
          cache_control: { type: 'ephemeral' },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 4000,
      stop: ['END'],
      temperature: 1,
      top_k: 40,
      user: 'user-42',
      stream: true,
      stream_options: { include_usage: true },
    });
    // …and the Anthropic adapter turns it back into what the client sent, member for member.
    const back = toAnthropicMessagesBody({ ...body, model: 'claude-sonnet-4-5' }, true);
    expect(back.system).toEqual(GOLDEN_REQUEST.system);
    expect(back.messages).toEqual([
      ...GOLDEN_REQUEST.messages.slice(0, 2),
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_01GoldenA', content: 'boom', is_error: true }],
      },
      { role: 'user', content: [{ type: 'text', text: 'try again' }] },
    ]);
    expect(back.tools).toEqual(GOLDEN_REQUEST.tools);
    expect(back.tool_choice).toEqual({ type: 'tool', name: 'get_weather', disable_parallel_tool_use: true });
    expect(back.thinking).toEqual(GOLDEN_REQUEST.thinking);
  });

  it('another target gets the plain OpenAI shape: no Anthropic-only members, thinking as an effort', () => {
    const { body } = messagesToCanonical({ ...GOLDEN_REQUEST, model: 'openai/gpt-4o' });
    const text = JSON.stringify(body);
    for (const member of ['cache_control', 'thinking_blocks', 'signature', 'top_k', '"thinking"'])
      expect(text).not.toContain(member);
    expect(body).toMatchObject({ model: 'openai/gpt-4o', reasoning_effort: 'low', max_tokens: 4000 });
    const gemini = messagesToCanonical({ ...GOLDEN_REQUEST, model: 'gemini/gemini-2.5-pro' }).body;
    expect(gemini).toMatchObject({ top_k: 40, reasoning_effort: 'low' });
    expect(
      messagesToCanonical({
        ...GOLDEN_REQUEST,
        thinking: { type: 'enabled', budget_tokens: 20000 },
        model: 'openai/o3',
      }).body.reasoning_effort,
    ).toBe('high');
  });

  it('documents: base64 PDFs become file parts, text sources text parts', () => {
    const { body } = messagesToCanonical({
      model: 'openai/gpt-4o',
      max_tokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              title: 'a.pdf',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' },
            },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
          ],
        },
      ],
    });
    expect((body.messages as Json[])[0]).toEqual({
      role: 'user',
      content: [
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBER', filename: 'a.pdf' } },
        { type: 'text', text: 'plain words' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      ],
    });
  });

  it('an assistant turn of thinking only is an empty text turn for another target', () => {
    const { body } = messagesToCanonical({
      model: 'openai/gpt-4o',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: SIGNATURE }] },
        { role: 'user', content: 'b' },
      ],
    });
    expect((body.messages as Json[])[1]).toEqual({ role: 'assistant', content: '' });
  });

  it('count_tokens: the prompt only', () => {
    expect(
      countTokensToCanonical({ model: 'claude-haiku-4-5', system: 'sys', messages: [{ role: 'user', content: 'hi' }] }),
    ).toEqual({
      body: {
        model: 'anthropic/claude-haiku-4-5',
        messages: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: 'hi' },
        ],
      },
      stream: false,
    });
  });

  const base = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
  it.each([
    ['no max_tokens', { ...base, max_tokens: undefined }, 'max_tokens'],
    ['max_tokens 0', { ...base, max_tokens: 0 }, 'max_tokens'],
    ['no model', { ...base, model: undefined }, 'model'],
    ['no messages', { ...base, messages: undefined }, 'messages'],
    ['empty messages', { ...base, messages: [] }, 'messages'],
    ['a system role in messages', { ...base, messages: [{ role: 'system', content: 'x' }] }, 'messages[0].role'],
    [
      'an unknown user block',
      { ...base, messages: [{ role: 'user', content: [{ type: 'video' }] }] },
      'messages[0].content[0].type',
    ],
    [
      'a tool_use in a user turn',
      { ...base, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'x', name: 'y', input: {} }] }] },
      'messages[0].content[0].type',
    ],
    [
      'a tool_use without id',
      { ...base, messages: [{ role: 'assistant', content: [{ type: 'tool_use', name: 'y', input: {} }] }] },
      'messages[0].content[0].id',
    ],
    [
      'an image without source',
      { ...base, messages: [{ role: 'user', content: [{ type: 'image' }] }] },
      'messages[0].content[0].source',
    ],
    ['a server tool', { ...base, tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools[0].type'],
    ['a tool without input_schema', { ...base, tools: [{ name: 't' }] }, 'tools[0].input_schema'],
    ['an unknown tool_choice', { ...base, tool_choice: { type: 'sometimes' } }, 'tool_choice.type'],
    [
      'a small thinking budget',
      { ...base, thinking: { type: 'enabled', budget_tokens: 10 } },
      'thinking.budget_tokens',
    ],
    ['stop_sequences not strings', { ...base, stop_sequences: [1] }, 'stop_sequences'],
    ['a string temperature', { ...base, temperature: 'hot' }, 'temperature'],
    ['system blocks not text', { ...base, system: [{ type: 'image' }] }, 'system[0].type'],
  ])('%s is a 400 naming %s', (_name, body, param) => {
    const err = thrown(() => messagesToCanonical(body));
    expect(err.status).toBe(400);
    expect(err.param).toBe(param);
  });
});

describe('anthropic format: canonical answer → message', () => {
  const usage: Usage = {
    prompt_tokens: 130,
    completion_tokens: 20,
    total_tokens: 150,
    prompt_tokens_details: { cached_read_tokens: 100, cached_write_tokens: 10 },
  };

  it('thinking, text and tool_use blocks, stop reason and usage without the cache terms in input_tokens', () => {
    const answer = {
      id: 'chatcmpl-9',
      object: 'chat.completion',
      model: 'gpt-4o-2024-08-06',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking.',
            reasoning_content: 'think',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
              { id: 'call_2', type: 'function', function: { name: 'noop', arguments: '' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    };
    const message = messageFromCanonical(answer, usage, 'openai/gpt-4o');
    expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect({ ...message, id: 'MSG' }).toEqual({
      id: 'MSG',
      type: 'message',
      role: 'assistant',
      model: 'openai/gpt-4o',
      content: [
        { type: 'thinking', thinking: 'think', signature: '' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'call_2', name: 'noop', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 20, cache_creation_input_tokens: 10, cache_read_input_tokens: 100 },
    });
  });

  it("an Anthropic answer's id, thinking_blocks (signature, redacted) and stop sequence are kept", () => {
    const answer = {
      id: 'msg_01abc',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'done',
            reasoning_content: 'hmm',
            thinking_blocks: [
              { type: 'thinking', thinking: 'hmm', signature: SIGNATURE },
              { type: 'redacted_thinking', data: REDACTED },
            ],
          },
          finish_reason: 'stop',
          stop_sequence: 'END',
        },
      ],
    };
    expect(messageFromCanonical(answer, undefined, 'anthropic/claude-sonnet-4-5')).toEqual({
      id: 'msg_01abc',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'text', text: 'done' },
      ],
      stop_reason: 'stop_sequence',
      stop_sequence: 'END',
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_use'],
    ['content_filter', 'refusal'],
  ])('finish_reason %s → stop_reason %s', (finish, stop) => {
    const answer = { choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: finish }] };
    expect(messageFromCanonical(answer, undefined, 'openai/gpt-4o').stop_reason).toBe(stop);
  });
});

describe('anthropic format: canonical chunks → Messages events', () => {
  const usage: Usage = {
    prompt_tokens: 60,
    completion_tokens: 12,
    total_tokens: 72,
    prompt_tokens_details: { cached_read_tokens: 40 },
  };

  it('thinking (with signature), text and two tool calls become numbered blocks; usage in message_delta', () => {
    const encoder = new AnthropicStreamEncoder('openai/gpt-4o');
    const frames = [
      ...encoder.push(chunk({ role: 'assistant', content: '' }), undefined),
      ...encoder.push(chunk({ reasoning_content: 'Let me ' }), undefined),
      ...encoder.push(chunk({ reasoning_content: 'think.' }), undefined),
      ...encoder.push(
        chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: SIGNATURE }] }),
        undefined,
      ),
      ...encoder.push(chunk({ thinking_blocks: [{ type: 'redacted_thinking', data: REDACTED }] }), undefined),
      ...encoder.push(chunk({ content: 'Two ' }), undefined),
      ...encoder.push(chunk({ content: 'calls.' }), undefined),
      ...encoder.push(
        chunk({
          tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        }),
        undefined,
      ),
      ...encoder.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }), undefined),
      ...encoder.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }), undefined),
      ...encoder.push(
        chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'get_time', arguments: '{}' } }] }),
        undefined,
      ),
      ...encoder.push(chunk({}, 'tool_calls'), undefined),
      ...encoder.push({ id: 'chatcmpl-1', choices: [], usage: {} }, usage),
      ...encoder.finish(usage),
    ];
    const parsed = events(frames);
    expect(parsed[0]!.message).toMatchObject({ id: expect.stringMatching(/^msg_/) });
    (parsed[0]!.message as Json).id = 'MSG';
    expect(parsed).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'MSG',
          type: 'message',
          role: 'assistant',
          model: 'openai/gpt-4o',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      },
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'think.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: REDACTED } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Two ' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'calls.' } },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'call_a', name: 'get_weather', input: {} },
      },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '"Oslo"}' } },
      { type: 'content_block_stop', index: 3 },
      {
        type: 'content_block_start',
        index: 4,
        content_block: { type: 'tool_use', id: 'call_b', name: 'get_time', input: {} },
      },
      { type: 'content_block_delta', index: 4, delta: { type: 'input_json_delta', partial_json: '{}' } },
      { type: 'content_block_stop', index: 4 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 20, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 40 },
      },
      { type: 'message_stop' },
    ]);
  });

  it('a stream that ends without output still opens and closes the message; a stop sequence is named', () => {
    const encoder = new AnthropicStreamEncoder('anthropic/claude-sonnet-4-5');
    const parsed = events([
      ...encoder.push(chunk({}, 'stop', { stop_sequence: 'END' }), undefined),
      ...encoder.finish(undefined),
    ]);
    expect(parsed.map((e) => e.type)).toEqual(['message_start', 'ping', 'message_delta', 'message_stop']);
    expect((parsed[0]!.message as Json).model).toBe('claude-sonnet-4-5');
    expect(parsed[2]!.delta).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
  });

  it('an Anthropic stream decoded then re-encoded keeps its blocks, signature and usage', () => {
    const sse = [
      [
        'message_start',
        {
          message: {
            id: 'msg_1',
            model: 'claude-sonnet-4-5',
            usage: { input_tokens: 9, cache_read_input_tokens: 5, output_tokens: 1 },
          },
        },
      ],
      ['content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
      ['content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }],
      ['content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } }],
      ['content_block_stop', { index: 0 }],
      ['content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }],
      ['content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } }],
      ['content_block_stop', { index: 1 }],
      ['message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 7 } }],
      ['message_stop', {}],
    ]
      .map(([type, data]) => `event: ${type as string}\ndata: ${JSON.stringify({ type, ...(data as Json) })}\n\n`)
      .join('');
    const decoder = new AnthropicStreamDecoder({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      extraHeaders: {},
      key: { id: 'k', name: 'k', value: 'v' },
      model: 'claude-sonnet-4-5',
    });
    const outputs: StreamOutput[] = [...decoder.push(sse), ...decoder.end()];
    const encoder = new AnthropicStreamEncoder('anthropic/claude-sonnet-4-5');
    const frames: Array<string | Uint8Array> = [];
    let final: Usage | undefined;
    for (const output of outputs) {
      if (output.kind !== 'chunk') throw new Error(`unexpected ${output.kind}`);
      if (output.usage) final = output.usage;
      frames.push(...encoder.push(output.chunk, output.usage));
    }
    frames.push(...encoder.finish(final));
    const parsed = events(frames);
    expect((parsed[0]!.message as Json).id).toBe('msg_1');
    expect(parsed.slice(2)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 9, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 5 },
      },
      { type: 'message_stop' },
    ]);
  });
});

describe('anthropic format: errors', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [502, 'api_error'],
    [503, 'overloaded_error'],
    [529, 'overloaded_error'],
  ])('status %i is %s, the gateway members kept', (status, type) => {
    const err = new GatewayException(status, 'request_limited', 'nope', { param: 'x' }).withHeaders({
      'retry-after': '2',
    });
    const response = toErrorResponse(err, { routing_info: { provider: 'anthropic' } });
    const rendered = renderAnthropicError(response);
    expect(rendered.status).toBe(status);
    expect(rendered.headers).toEqual({ 'retry-after': '2' });
    expect(rendered.body).toEqual({
      type: 'error',
      error: { type, message: 'nope', param: 'x', code: 'request_limited', event_id: response.body.event_id },
      event_id: response.body.event_id,
      is_gateway_error: true,
      extra_fields: expect.objectContaining({ routing_info: { provider: 'anthropic' } }),
    });
  });

  it('a mid-stream failure is one event: error', () => {
    const response = toErrorResponse(new GatewayException(529, 'upstream_error', 'Overloaded'));
    const [frame] = new AnthropicStreamEncoder('anthropic/claude-sonnet-4-5').error(response);
    const [data] = events([frame!]);
    expect(data).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });
});
