import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/modules/inference/providers/shared/provider-adapter.js';
import {
  chatToResponsesRequest,
  responsesToChatResponse,
  ResponsesToChatStream,
} from '../../src/modules/inference/translation/responses-bridge.js';

/**
 * The chat → Responses direction's pieces on what the simulator does not produce (reasoning text, refusals, URL
 * citations, arguments sent whole, content filters); the HTTP path is proven in opencode-bridges.e2e-spec.ts.
 */
describe('chat ↔ Responses: a chat caller of a /responses-only model', () => {
  it('a Responses answer with reasoning, citations and a refusal becomes one chat message', () => {
    const chat = responsesToChatResponse({
      id: 'resp_abc',
      created_at: 1700000000,
      model: 'gpt-5.1',
      status: 'completed',
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'short' }], content: [] },
        {
          type: 'message',
          content: [
            {
              type: 'output_text',
              text: 'See it.',
              annotations: [{ type: 'url_citation', url: 'https://e.x', title: 'E', start_index: 0, end_index: 3 }],
            },
            { type: 'refusal', refusal: 'not that part' },
          ],
        },
      ],
    });
    expect(chat).toEqual({
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      created: 1700000000,
      model: 'gpt-5.1',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          logprobs: null,
          message: {
            role: 'assistant',
            content: 'See it.',
            refusal: 'not that part',
            reasoning_content: 'short',
            annotations: [
              { type: 'url_citation', url_citation: { url: 'https://e.x', title: 'E', start_index: 0, end_index: 3 } },
            ],
          },
        },
      ],
    });
  });

  it('an incomplete answer: max_output_tokens is length, content_filter stays content_filter', () => {
    const cut = (reason: string) =>
      (responsesToChatResponse({ id: 'resp_1', incomplete_details: { reason }, output: [] }).choices as Json[])[0]!
        .finish_reason;
    expect(cut('max_output_tokens')).toBe('length');
    expect(cut('content_filter')).toBe('content_filter');
  });

  it('stream: reasoning and refusal deltas, whole arguments on .done, and the finish reason of the end event', () => {
    const stream = new ResponsesToChatStream('gpt-5.1');
    const response = { id: 'resp_s', model: 'gpt-5.1', created_at: 5 };
    const chunks = [
      ...stream.push('response.created', { response }),
      ...stream.push('response.reasoning_text.delta', { delta: 'hmm' }),
      ...stream.push('response.refusal.delta', { delta: 'no' }),
      ...stream.push('response.output_item.added', {
        output_index: 2,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' },
      }),
      ...stream.push('response.function_call_arguments.done', { item_id: 'fc_1', arguments: '{"a":1}' }),
      ...stream.push('response.output_item.done', { output_index: 2, item: {} }),
      ...stream.push('response.completed', { response: { ...response, status: 'completed', output: [] } }),
    ];
    expect(chunks.every((c) => c.id === 'chatcmpl-s' && c.created === 5 && c.model === 'gpt-5.1')).toBe(true);
    expect(chunks.map((c) => (c.choices as Json[])[0])).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      { index: 0, delta: { reasoning_content: 'hmm' }, finish_reason: null },
      { index: 0, delta: { refusal: 'no' }, finish_reason: null },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] },
        finish_reason: null,
      },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
    ]);
  });

  it('a chat request: files and image detail as input parts, stop and seed dropped, store off', () => {
    const body = chatToResponsesRequest({
      model: 'gpt-5.1',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'https://e.x/a.png', detail: 'low' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,QQ==', filename: 'a.pdf' } },
          ],
        },
      ],
      stop: ['x'],
      seed: 1,
      temperature: 0.2,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(body).toEqual({
      model: 'gpt-5.1',
      temperature: 0.2,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'https://e.x/a.png', detail: 'low' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,QQ==', filename: 'a.pdf' },
          ],
        },
      ],
      store: false,
      stream: true,
    });
  });
});
