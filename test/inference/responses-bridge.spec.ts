import OpenAI from 'openai';
import type {
  Response as SdkResponse,
  ResponseStreamEvent as SdkStreamEvent,
  ResponseUsage as SdkResponseUsage,
} from 'openai/resources/responses/responses';
import type { CompletionUsage as SdkCompletionUsage } from 'openai/resources/completions';
import { describe, expect, it } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import { toOpenAiWireUsage, toResponsesWireUsage } from '../../src/modules/inference/providers/openai/openai-usage.js';
import type { Json, Usage } from '../../src/modules/inference/providers/shared/provider-adapter.js';
import {
  ChatToResponsesStream,
  chatToResponsesResponse,
  responsesToChatRequest,
  type ResponsesObject,
  type ResponsesStreamEvent,
} from '../../src/modules/inference/translation/responses-bridge.js';
import type { ResponsesEventData } from '../../src/modules/inference/translation/responses-wire.types.js';
import { CHAT_TEXT_STREAM, CHAT_TOOL_STREAM, decode, sse, target } from './openai-wire-fixtures.js';

// Compile-time proof (tsc --noEmit covers test/) that what the bridge emits is what the openai SDK declares.
// `output_text` is added by the SDK itself; the echoed request settings are the caller's own values.
type SdkResponseCore = Omit<SdkResponse, 'output_text' | 'tools' | 'tool_choice' | 'text' | 'reasoning' | 'error'>;
export const responseFitsSdk = (r: ResponsesObject): SdkResponseCore => r;
export const eventFitsSdk = (e: Exclude<ResponsesEventData, { response: unknown }>): SdkStreamEvent => e;
export const usageFitsSdk = (u: Usage): SdkResponseUsage => toResponsesWireUsage(u);
export const chatUsageFitsSdk = (u: Usage): SdkCompletionUsage => toOpenAiWireUsage(u);

function thrown(fn: () => unknown): GatewayException {
  try {
    fn();
  } catch (e) {
    if (e instanceof GatewayException) return e;
    throw e;
  }
  throw new Error('expected a GatewayException');
}

/** An SDK client whose every request is answered with `body` (no network). */
function sdkAnswering(body: string, contentType: string): OpenAI {
  return new OpenAI({
    apiKey: 'sk-gw-test',
    baseURL: 'http://gateway.invalid/v1',
    maxRetries: 0,
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': contentType } }),
  });
}

function toSse(events: ResponsesStreamEvent[]): string {
  return events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
}

/** The chat stream through the OpenAI adapter's decoder, then through the bridge. */
function bridgeStream(chatSse: string, request: Json, usage?: Usage): ResponsesStreamEvent[] {
  const bridge = new ChatToResponsesStream(request, { createdAt: 1741570283 });
  const events: ResponsesStreamEvent[] = [];
  for (const output of decode(adapterFor('groq')!.streamDecoder('chat', target('groq')), [chatSse])) {
    if (output.kind !== 'chunk') throw new Error('unexpected stream error');
    events.push(...bridge.push(output.chunk));
  }
  events.push(...bridge.finish(usage));
  return events;
}

describe('responsesToChatRequest', () => {
  it('maps a string input with instructions and the sampling, length, reasoning and format settings', () => {
    const chat = responsesToChatRequest({
      model: 'groq/openai/gpt-oss-120b',
      instructions: 'Answer in JSON.',
      input: 'Weather in Paris?',
      max_output_tokens: 256,
      reasoning: { effort: 'low', summary: 'auto' },
      temperature: 0.3,
      top_p: 0.9,
      user: 'u-1',
      store: true,
      metadata: { a: 'b' },
      text: {
        format: {
          type: 'json_schema',
          name: 'weather',
          strict: true,
          schema: {
            type: 'object',
            properties: { c: { type: 'number' } },
            required: ['c'],
            additionalProperties: false,
          },
        },
        verbosity: 'low',
      },
      stream: true,
    });
    expect(chat).toEqual({
      model: 'groq/openai/gpt-oss-120b',
      messages: [
        { role: 'system', content: 'Answer in JSON.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      max_tokens: 256,
      reasoning_effort: 'low',
      temperature: 0.3,
      top_p: 0.9,
      user: 'u-1',
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'weather',
          strict: true,
          schema: {
            type: 'object',
            properties: { c: { type: 'number' } },
            required: ['c'],
            additionalProperties: false,
          },
        },
      },
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('maps message, function_call and function_call_output items', () => {
    const chat = responsesToChatRequest({
      model: 'm',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this image, and the weather in Paris and Rome?' },
            { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'A cat. ', annotations: [] },
            { type: 'output_text', text: 'Checking.' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"c":21}' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '{"c":25}' }] },
        { type: 'function_call', call_id: 'call_3', name: 'get_time', arguments: '{}' },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image, and the weather in Paris and Rome?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
        ],
      },
      {
        role: 'assistant',
        content: 'A cat. Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"c":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"c":25}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'get_time', arguments: '{}' } }],
      },
    ]);
  });

  it('flattens function tools and maps tool_choice', () => {
    const tool = {
      type: 'function',
      name: 'get_weather',
      description: 'Current weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      strict: false,
    };
    const chat = responsesToChatRequest({
      model: 'm',
      input: 'hi',
      tools: [tool],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
    });
    expect(chat.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          strict: false,
        },
      },
    ]);
    expect(chat.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(chat.parallel_tool_calls).toBe(false);
    expect(responsesToChatRequest({ model: 'm', input: 'x', tool_choice: 'required' }).tool_choice).toBe('required');
    expect(
      responsesToChatRequest({
        model: 'm',
        input: 'x',
        tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'a' }] },
      }).tool_choice,
    ).toEqual({
      type: 'allowed_tools',
      allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'a' } }] },
    });
  });

  it('json_object format; no stream flags on a unary request', () => {
    const chat = responsesToChatRequest({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } });
    expect(chat).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_object' },
    });
  });

  it.each([
    [{ previous_response_id: 'resp_1' }, 'previous_response_id', 'unsupported_operation'],
    [{ conversation: 'conv_1' }, 'conversation', 'unsupported_operation'],
    [{ background: true }, 'background', 'unsupported_operation'],
    [
      { tools: [{ type: 'function', name: 'f' }, { type: 'web_search_preview' }] },
      'tools[1].type',
      'unsupported_operation',
    ],
    [{ tool_choice: { type: 'file_search' } }, 'tool_choice', 'unsupported_operation'],
    [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type', 'unsupported_operation'],
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] },
      'input[0].content[0].file_id',
      'unsupported_operation',
    ],
    [{ input: 42 }, 'input', 'validation_failed'],
    [{ input: [{ role: 'robot', content: 'x' }] }, 'input[0].role', 'validation_failed'],
    [{ input: [{ type: 'function_call_output', output: 'x' }] }, 'input[0].call_id', 'validation_failed'],
  ] as Array<[Json, string, string]>)('refuses %j with 400 naming %s', (extra, param, code) => {
    const error = thrown(() => responsesToChatRequest({ model: 'm', input: 'x', ...extra }));
    expect(error).toMatchObject({ status: 400, code, param, reason: 'caller_invalid_request' });
  });
});

const CHAT_ANSWER = {
  id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
  object: 'chat.completion',
  created: 1741569952,
  model: 'llama-3.3-70b-versatile',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Paris is sunny.',
        annotations: [
          {
            type: 'url_citation',
            url_citation: { start_index: 0, end_index: 5, title: 'Paris', url: 'https://example.com/paris' },
          },
        ],
      },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: {
    prompt_tokens: 120,
    completion_tokens: 8,
    total_tokens: 128,
    prompt_tokens_details: { cached_tokens: 64 },
    completion_tokens_details: { reasoning_tokens: 3 },
  },
};

const REQUEST = {
  model: 'groq/llama-3.3-70b-versatile',
  input: 'Weather in Paris?',
  instructions: 'Be brief.',
  temperature: 0.5,
};

describe('chatToResponsesResponse', () => {
  it('builds the Responses object with a message item and Responses usage', () => {
    const resp = chatToResponsesResponse(CHAT_ANSWER, REQUEST);
    expect(resp).toEqual({
      id: 'resp_B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      object: 'response',
      created_at: 1741569952,
      status: 'completed',
      background: false,
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      max_output_tokens: null,
      model: 'llama-3.3-70b-versatile',
      output: [
        {
          id: 'msg_B9MBs8CjcvOU2jLn4n570S5qMJKcT_0',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [
            {
              type: 'output_text',
              text: 'Paris is sunny.',
              annotations: [
                {
                  type: 'url_citation',
                  start_index: 0,
                  end_index: 5,
                  title: 'Paris',
                  url: 'https://example.com/paris',
                },
              ],
              logprobs: [],
            },
          ],
        },
      ],
      parallel_tool_calls: true,
      previous_response_id: null,
      access_programs: null,
      reasoning: { effort: null, summary: null },
      store: false,
      temperature: 0.5,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: 1,
      truncation: 'disabled',
      metadata: {},
      usage: {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 64, cache_write_tokens: 0 },
        output_tokens: 8,
        output_tokens_details: { reasoning_tokens: 3 },
        total_tokens: 128,
      },
    });
  });

  it('tool calls become function_call items; reasoning_content a reasoning item', () => {
    const chat = {
      id: 'chatcmpl-2',
      created: 1,
      model: 'deepseek-reasoner',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'Need the weather tool.',
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
            ],
          },
        },
      ],
    };
    const resp = chatToResponsesResponse(chat, { model: 'deepseek/deepseek-reasoner', input: 'x' });
    expect(resp.status).toBe('completed');
    expect(resp.output).toEqual([
      {
        id: 'rs_2_0',
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'Need the weather tool.' }],
        status: 'completed',
      },
      {
        id: 'fc_2_1',
        type: 'function_call',
        call_id: 'call_a',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
      {
        id: 'fc_2_2',
        type: 'function_call',
        call_id: 'call_b',
        name: 'get_weather',
        arguments: '{"city":"Rome"}',
        status: 'completed',
      },
    ]);
    expect(resp.usage).toBeUndefined();
  });

  it('a length cut is incomplete (max_output_tokens)', () => {
    const chat = { ...CHAT_ANSWER, choices: [{ ...CHAT_ANSWER.choices[0]!, finish_reason: 'length' }] };
    const resp = chatToResponsesResponse(chat, { ...REQUEST, max_output_tokens: 8 });
    expect(resp).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      max_output_tokens: 8,
      output: [{ status: 'incomplete' }],
    });
  });

  it('the gateway’s usage (with cost) replaces the chat body’s', () => {
    const usage: Usage = {
      prompt_tokens: 120,
      completion_tokens: 8,
      total_tokens: 128,
      cost: { input_tokens_cost: 0.0001, total_cost: 0.00012 },
    };
    expect(chatToResponsesResponse(CHAT_ANSWER, REQUEST, usage).usage).toEqual({
      input_tokens: 120,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 8,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 128,
      cost: { input_tokens_cost: 0.0001, total_cost: 0.00012 },
    });
  });

  it('the openai SDK reads it as a Response', async () => {
    const sdk = sdkAnswering(JSON.stringify(chatToResponsesResponse(CHAT_ANSWER, REQUEST)), 'application/json');
    const resp = await sdk.responses.create({ model: REQUEST.model, input: REQUEST.input });
    expect(resp.output_text).toBe('Paris is sunny.');
    expect(resp.usage?.input_tokens_details.cached_tokens).toBe(64);
  });
});

describe('ChatToResponsesStream', () => {
  it('turns a text chat stream into the Responses events, in order, with sequence numbers', () => {
    const events = bridgeStream(CHAT_TEXT_STREAM, REQUEST);
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.every((e) => e.data.type === e.event)).toBe(true);
    const deltas = events.flatMap((e) => (e.data.type === 'response.output_text.delta' ? [e.data.delta] : []));
    expect(deltas).toEqual(['Hello', ' there, «naïve» 👋\nbye']);
    const done = events.find((e) => e.data.type === 'response.output_text.done')!.data;
    expect(done).toMatchObject({ text: 'Hello there, «naïve» 👋\nbye', output_index: 0, content_index: 0 });
    // The item as announced stays as it was announced: later deltas do not rewrite an event already handed out.
    expect(events[2]!.data).toMatchObject({ item: { type: 'message', status: 'in_progress', content: [] } });

    const completed = events.at(-1)!.data;
    if (completed.type !== 'response.completed') throw new Error('expected response.completed');
    expect(completed.response).toMatchObject({
      id: 'resp_B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
      status: 'completed',
      created_at: 1741570283,
      model: 'gpt-4o-2024-08-06',
      instructions: 'Be brief.',
      output: [
        {
          id: 'msg_B9MHDbslfkBeAs8l4bebGdFOJ6PeG_0',
          type: 'message',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello there, «naïve» 👋\nbye', annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 1200,
        input_tokens_details: { cached_tokens: 1024 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 1210,
      },
    });
  });

  it('turns streamed tool calls into function_call items with argument deltas', () => {
    const events = bridgeStream(CHAT_TOOL_STREAM, REQUEST);
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const dones = events.flatMap((e) => (e.data.type === 'response.function_call_arguments.done' ? [e.data] : []));
    expect(dones.map((d) => [d.output_index, d.name, d.arguments])).toEqual([
      [0, 'get_weather', '{"location": "Paris"}'],
      [1, 'get_time', '{}'],
    ]);
    const completed = events.at(-1)!.data;
    if (completed.type !== 'response.completed') throw new Error('expected response.completed');
    expect(completed.response.output).toEqual([
      {
        id: 'fc_tool1_0',
        type: 'function_call',
        call_id: 'call_abc',
        name: 'get_weather',
        arguments: '{"location": "Paris"}',
        status: 'completed',
      },
      {
        id: 'fc_tool1_1',
        type: 'function_call',
        call_id: 'call_def',
        name: 'get_time',
        arguments: '{}',
        status: 'completed',
      },
    ]);
    expect(completed.response.usage).toMatchObject({ input_tokens: 82, output_tokens: 17, total_tokens: 99 });
  });

  it('streams reasoning text, then the answer', () => {
    const base = { id: 'chatcmpl-r', object: 'chat.completion.chunk', created: 5, model: 'deepseek-reasoner' };
    const chatSse = sse(
      {
        ...base,
        choices: [
          { index: 0, delta: { role: 'assistant', content: null, reasoning_content: 'Think' }, finish_reason: null },
        ],
      },
      { ...base, choices: [{ index: 0, delta: { reasoning_content: 'ing.' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: 'Done.', reasoning_content: null }, finish_reason: 'stop' }] },
      {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: 4,
          completion_tokens: 6,
          total_tokens: 10,
          completion_tokens_details: { reasoning_tokens: 4 },
        },
      },
      '[DONE]',
    );
    const events = bridgeStream(chatSse, { model: 'deepseek/deepseek-reasoner', input: 'x' });
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.reasoning_text.delta',
      'response.reasoning_text.delta',
      'response.reasoning_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const completed = events.at(-1)!.data;
    if (completed.type !== 'response.completed') throw new Error('expected response.completed');
    expect(completed.response.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    expect(completed.response.usage?.output_tokens_details.reasoning_tokens).toBe(4);
  });

  it('finish(usage) puts the gateway usage and cost on response.completed; length ends incomplete', () => {
    const base = { id: 'chatcmpl-l', object: 'chat.completion.chunk', created: 5, model: 'm' };
    const chatSse = sse(
      { ...base, choices: [{ index: 0, delta: { content: 'Once upon' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'length' }] },
      '[DONE]',
    );
    const usage: Usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, cost: { total_cost: 0.00001 } };
    const events = bridgeStream(chatSse, { model: 'm', input: 'x', max_output_tokens: 2 }, usage);
    const last = events.at(-1)!;
    expect(last.event).toBe('response.incomplete');
    expect(last.data).toMatchObject({
      response: {
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: [{ type: 'message', status: 'incomplete' }],
        usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5, cost: { total_cost: 0.00001 } },
      },
    });
    expect(events.find((e) => e.event === 'response.output_item.done')!.data).toMatchObject({
      item: { status: 'incomplete' },
    });
  });

  it('start() before the first chunk sends response.created at once, with one id throughout', () => {
    const bridge = new ChatToResponsesStream({ model: 'groq/m', input: 'x' }, { createdAt: 7 });
    const started = bridge.start();
    expect(started.map((e) => [e.event, e.data.sequence_number])).toEqual([
      ['response.created', 0],
      ['response.in_progress', 1],
    ]);
    expect(started[0]!.data).toMatchObject({
      response: { status: 'in_progress', output: [], model: 'groq/m', created_at: 7 },
    });
    const id = (started[0]!.data as { response: { id: string } }).response.id;
    expect(id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(bridge.start()).toEqual([]);
    const pushed = bridge.push({ id: 'chatcmpl-x', model: 'm-1', choices: [{ index: 0, delta: { content: 'a' } }] });
    expect(pushed[0]!.data).toMatchObject({ item: { id: `msg_${id.slice(5)}_0` } });
    const done = bridge.finish();
    expect(done.at(-1)!.data).toMatchObject({ response: { id, model: 'm-1' } });
  });

  it('fail() ends with response.failed; nothing after it', () => {
    const bridge = new ChatToResponsesStream({ model: 'm', input: 'x' }, { id: 'resp_fixed', createdAt: 1 });
    const first = bridge.push({ id: 'chatcmpl-f', choices: [{ index: 0, delta: { content: 'Hi' } }] });
    const failed = bridge.fail({ message: 'upstream dropped', code: 'server_error' });
    expect(first.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
    ]);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      event: 'response.failed',
      data: {
        sequence_number: 5,
        response: { id: 'resp_fixed', status: 'failed', error: { code: 'server_error', message: 'upstream dropped' } },
      },
    });
    expect(bridge.finish()).toEqual([]);
    expect(bridge.push({ choices: [{ index: 0, delta: { content: 'late' } }] })).toEqual([]);
  });

  it('the openai SDK’s ResponseStream accepts the events and accumulates the same response', async () => {
    const events = bridgeStream(CHAT_TEXT_STREAM, REQUEST);
    const stream = sdkAnswering(toSse(events), 'text/event-stream').responses.stream({
      model: REQUEST.model,
      input: 'x',
    });
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.type);
    expect(seen).toEqual(events.map((e) => e.event));
    const final = await stream.finalResponse();
    // The SDK adds output_text to unary answers only; read the accumulated message instead.
    const message = final.output[0];
    expect(message?.type === 'message' && message.content[0]).toMatchObject({
      type: 'output_text',
      text: 'Hello there, «naïve» 👋\nbye',
    });
    expect(final.usage?.total_tokens).toBe(1210);
  });

  it('the openai SDK accumulates streamed function calls', async () => {
    const events = bridgeStream(CHAT_TOOL_STREAM, REQUEST);
    const stream = sdkAnswering(toSse(events), 'text/event-stream').responses.stream({
      model: REQUEST.model,
      input: 'x',
    });
    const final = await stream.finalResponse();
    expect(final.output.map((o) => (o.type === 'function_call' ? [o.name, o.arguments] : o.type))).toEqual([
      ['get_weather', '{"location": "Paris"}'],
      ['get_time', '{}'],
    ]);
  });
});
