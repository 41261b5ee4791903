import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { toErrorResponse } from '../../src/core/errors/error-response.js';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { converseToChat } from '../../src/modules/inference/providers/bedrock/format/bedrock-converse-request.js';
import { chatToConverse } from '../../src/modules/inference/providers/bedrock/format/bedrock-converse-response.js';
import { ConverseStreamEncoder } from '../../src/modules/inference/providers/bedrock/format/bedrock-converse-stream.js';
import { renderBedrockError } from '../../src/modules/inference/providers/bedrock/format/bedrock-errors.js';
import { modelOfPath } from '../../src/modules/inference/providers/bedrock/format/bedrock-format.js';
import {
  claudeAsMessages,
  invokeBodyOf,
} from '../../src/modules/inference/providers/bedrock/format/bedrock-invoke-request.js';
import { messageFromCanonical } from '../../src/modules/inference/providers/anthropic/format/anthropic-answer.js';
import { messagesToCanonical } from '../../src/modules/inference/providers/anthropic/format/anthropic-request.js';
import type { NativeFrame } from '../../src/modules/inference/formats/native-format.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function decoded(frames: NativeFrame[]) {
  return frames.map((frame) => {
    const message = codec.decode(frame as Uint8Array);
    const headers = Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [k, v.value]));
    return { headers, payload: JSON.parse(toUtf8(message.body)) as unknown };
  });
}

const chunk = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const usage = {
  prompt_tokens: 30,
  completion_tokens: 7,
  total_tokens: 37,
  prompt_tokens_details: { cached_read_tokens: 10, cached_write_tokens: 5 },
};

describe('bedrock format conversions (pure)', () => {
  it('model ids from the path: bare ids are Bedrock, URL-encoded prefixed ids keep their provider', () => {
    expect(modelOfPath({ modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0' })).toBe(
      'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0',
    );
    expect(modelOfPath({ modelId: 'openai%2Fgpt-4o' })).toBe('openai/gpt-4o');
    expect(modelOfPath({ modelId: 'openai/gpt-4o' })).toBe('openai/gpt-4o');
  });

  it('a full Converse request → the canonical chat body', () => {
    const body = converseToChat(
      {
        system: [{ text: 'rule one' }, { cachePoint: { type: 'default' } }, { text: 'rule two' }],
        messages: [
          {
            role: 'user',
            content: [
              { text: 'look' },
              { image: { format: 'png', source: { bytes: 'iVBO' } } },
              { document: { format: 'pdf', name: 'spec', source: { bytes: 'JVBE' } } },
              { document: { format: 'txt', name: 'notes', source: { bytes: Buffer.from('hi').toString('base64') } } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'hmm', signature: 's' } } },
              { text: 'calling' },
              { toolUse: { toolUseId: 't1', name: 'f', input: { a: 1 } } },
            ],
          },
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 't1', content: [{ json: { ok: true } }, { text: 'more' }] } },
              { toolResult: { toolUseId: 't2', content: [{ text: 'boom' }], status: 'error' } },
              { text: 'and now?' },
            ],
          },
        ],
        inferenceConfig: { maxTokens: 10, temperature: 0, topP: 1, stopSequences: ['x'] },
        toolConfig: {
          tools: [{ toolSpec: { name: 'f', description: 'F', inputSchema: { json: { type: 'object' } } } }],
          toolChoice: { tool: { name: 'f' } },
        },
        additionalModelRequestFields: { top_k: 5, max_tokens: 999 },
      },
      'openai/gpt-4o',
      true,
    );
    expect(body).toEqual({
      model: 'openai/gpt-4o',
      messages: [
        { role: 'system', content: 'rule one\nrule two' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
            { type: 'file', file: { filename: 'spec', file_data: 'data:application/pdf;base64,JVBE' } },
            { type: 'text', text: 'notes:\nhi' },
          ],
        },
        {
          role: 'assistant',
          content: 'calling',
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        { role: 'tool', tool_call_id: 't1', content: '{"ok":true}\nmore' },
        { role: 'tool', tool_call_id: 't2', content: 'Error: boom' },
        { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
      ],
      max_tokens: 10,
      temperature: 0,
      top_p: 1,
      stop: ['x'],
      tools: [{ type: 'function', function: { name: 'f', description: 'F', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      stream: true,
      top_k: 5,
    });
  });

  it('bad Converse shapes are 400s naming the field', () => {
    const param = (raw: unknown) => {
      try {
        converseToChat(raw, 'openai/gpt-4o', false);
      } catch (err) {
        return (err as GatewayException).param;
      }
      return undefined;
    };
    expect(param({})).toBe('messages');
    expect(param({ messages: [{ role: 'user', content: [{ audio: {} }] }] })).toBe('messages[0].content[0]');
    expect(param({ messages: [{ role: 'system', content: [] }] })).toBe('messages[0].role');
    expect(param({ messages: [{ role: 'user', content: [{ image: { format: 'png', source: {} } }] }] })).toBe(
      'messages[0].content[0].image.source.bytes',
    );
    expect(param({ messages: [{ role: 'user', content: [{ text: 'x' }] }], toolConfig: { tools: [{}] } })).toBe(
      'toolConfig.tools[0].toolSpec',
    );
    expect(param({ messages: [{ role: 'user', content: [{ text: 'x' }] }], inferenceConfig: { maxTokens: '1' } })).toBe(
      'inferenceConfig.maxTokens',
    );
  });

  it('the canonical answer → the Converse answer (reasoning, text, tool use, cache usage)', () => {
    const answer = {
      id: 'chatcmpl-1',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            reasoning_content: 'thinking',
            content: 'sure',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
        },
      ],
    };
    expect(chatToConverse(answer, usage, 12.6)).toEqual({
      output: {
        message: {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'thinking' } } },
            { text: 'sure' },
            { toolUse: { toolUseId: 'call_1', name: 'f', input: { a: 1 } } },
          ],
        },
      },
      stopReason: 'tool_use',
      usage: { inputTokens: 15, outputTokens: 7, totalTokens: 37, cacheReadInputTokens: 10, cacheWriteInputTokens: 5 },
      metrics: { latencyMs: 13 },
    });
  });

  it('the canonical stream → ConverseStream frames', () => {
    const encoder = new ConverseStreamEncoder();
    expect(encoder.contentType).toBe('application/vnd.amazon.eventstream');
    const frames = [
      ...encoder.push(chunk({ role: 'assistant', reasoning_content: 'hm' })),
      ...encoder.push(chunk({ content: 'Hi' })),
      ...encoder.push(
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
      ),
      ...encoder.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] })),
      ...encoder.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }, 'tool_calls')),
      ...encoder.finish(usage),
    ];
    const events = decoded(frames);
    for (const e of events)
      expect(e.headers).toMatchObject({ ':message-type': 'event', ':content-type': 'application/json' });
    const metadata = events.at(-1)!.payload as { metrics: { latencyMs: number } };
    expect(metadata.metrics.latencyMs).toBeGreaterThanOrEqual(0);
    expect(events.map((e) => [e.headers[':event-type'], e.payload])).toEqual([
      ['messageStart', { role: 'assistant' }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'hm' } } }],
      ['contentBlockStop', { contentBlockIndex: 0 }],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Hi' } }],
      ['contentBlockStop', { contentBlockIndex: 1 }],
      ['contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'call_1', name: 'f' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"a":' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '1}' } } }],
      ['contentBlockStop', { contentBlockIndex: 2 }],
      ['messageStop', { stopReason: 'tool_use' }],
      [
        'metadata',
        {
          usage: {
            inputTokens: 15,
            outputTokens: 7,
            totalTokens: 37,
            cacheReadInputTokens: 10,
            cacheWriteInputTokens: 5,
          },
          metrics: { latencyMs: metadata.metrics.latencyMs },
        },
      ],
    ]);
  });

  it('a mid-stream failure → an exception frame by status, our fields kept', () => {
    const encoder = new ConverseStreamEncoder();
    const response = toErrorResponse(new GatewayException(429, 'request_limited', 'slow down'));
    const [frame] = decoded(encoder.error(response));
    expect(frame!.headers).toEqual({
      ':message-type': 'exception',
      ':exception-type': 'throttlingException',
      ':content-type': 'application/json',
    });
    expect(frame!.payload).toMatchObject({ message: 'slow down', event_id: response.body.event_id });
  });

  it('errors render as Bedrock exceptions by status', () => {
    const render = (status: number) =>
      renderBedrockError(toErrorResponse(new GatewayException(status, 'bad_request', `status ${status}`)));
    const names = [400, 401, 403, 404, 408, 429, 500, 502, 503, 504].map(
      (status) => render(status).headers['x-amzn-ErrorType'],
    );
    expect(names).toEqual([
      'ValidationException',
      'UnrecognizedClientException',
      'AccessDeniedException',
      'ResourceNotFoundException',
      'ModelTimeoutException',
      'ThrottlingException',
      'InternalServerException',
      'InternalServerException',
      'ServiceUnavailableException',
      'ModelTimeoutException',
    ]);
    const validation = renderBedrockError(toErrorResponse(GatewayException.validation('messages', 'messages needed')));
    expect(validation.status).toBe(400);
    expect(validation.body).toMatchObject({ message: 'messages needed', error: { param: 'messages' } });
  });

  it('a Claude InvokeModel body → the /anthropic conversion of the same Messages body; others refused naming the body', () => {
    const messages = claudeAsMessages(
      Buffer.from(
        JSON.stringify({
          anthropic_version: 'bedrock-2023-05-31',
          max_tokens: 20,
          system: [{ type: 'text', text: 'sys' }],
          messages: [
            { role: 'user', content: 'q' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'tu1', name: 'f', input: { a: 1 } }] },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: 'r' }] },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
              ],
            },
          ],
          tools: [{ name: 'f', input_schema: { type: 'object' } }],
          tool_choice: { type: 'any' },
          stop_sequences: ['s'],
          top_k: 3,
        }),
      ),
      'anthropic/claude-sonnet-4',
      false,
    );
    expect(messages.anthropic_version).toBeUndefined();
    expect(messagesToCanonical(messages).body).toMatchObject({
      model: 'anthropic/claude-sonnet-4',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'sys' }] },
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'tu1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        { role: 'tool', tool_call_id: 'tu1', content: [{ type: 'text', text: 'r' }] },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } }] },
      ],
      max_tokens: 20,
      top_k: 3,
      stop: ['s'],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: 'required',
    });
    expect(() => invokeBodyOf({ inputText: 'titan' })).toThrow(expect.objectContaining({ param: 'body' }));
    expect(() => invokeBodyOf({ prompt: 'llama' })).toThrow(expect.objectContaining({ param: 'body' }));
  });

  it('the canonical answer → the Anthropic answer of InvokeModel (the /anthropic conversion)', () => {
    const answer = {
      id: 'chatcmpl-9',
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          finish_reason: 'length',
          message: { role: 'assistant', content: 'cut', reasoning_content: 'why' },
        },
      ],
    };
    expect(messageFromCanonical(answer, usage, 'openai/gpt-4o-mini')).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'openai/gpt-4o-mini',
      content: [
        { type: 'thinking', thinking: 'why', signature: '' },
        { type: 'text', text: 'cut' },
      ],
      stop_reason: 'max_tokens',
      stop_sequence: null,
      usage: { input_tokens: 15, cache_creation_input_tokens: 5, cache_read_input_tokens: 10, output_tokens: 7 },
    });
  });
});
