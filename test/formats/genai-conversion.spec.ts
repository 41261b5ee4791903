import { describe, expect, it } from 'vitest';
import { toErrorResponse } from '../../src/core/errors/error-response.js';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { genaiOperation, parseModelAction } from '../../src/modules/inference/providers/google/format/genai-format.js';
import type { Json, Usage } from '../../src/modules/inference/providers/shared/provider-adapter.js';

/** The /genai conversions as data in, data out: Gemini request → canonical chat, canonical answer → Gemini. */
const REQUEST = {
  systemInstruction: { parts: [{ text: 'Be brief.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'Weather in Paris?' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }] },
    {
      role: 'model',
      parts: [
        { text: 'thinking…', thought: true },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
        { functionCall: { name: 'get_time', args: {} } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_time', response: { time: '12:00' } } },
        { functionResponse: { name: 'get_weather', response: { sky: 'clear' } } },
        { text: 'Thanks' },
      ],
    },
  ],
  tools: [
    {
      functionDeclarations: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'OBJECT', properties: { city: { type: 'STRING', nullable: true } }, required: ['city'] },
        },
        { name: 'get_time' },
      ],
    },
  ],
  toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
  generationConfig: {
    temperature: 0.2,
    topP: 0.9,
    topK: 40,
    maxOutputTokens: 256,
    stopSequences: ['END'],
    candidateCount: 1,
    responseMimeType: 'application/json',
    responseSchema: { type: 'OBJECT', properties: { answer: { type: 'STRING' } } },
    thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
  },
};

const USAGE: Usage = {
  prompt_tokens: 12,
  completion_tokens: 9,
  total_tokens: 21,
  prompt_tokens_details: { cached_read_tokens: 4 },
  completion_tokens_details: { reasoning_tokens: 5 },
};

describe('genai conversions', () => {
  it('parses <model>:<action>, the model holding a provider and a slash', () => {
    expect(parseModelAction('openai/gpt-4o:streamGenerateContent')).toEqual({
      model: 'openai/gpt-4o',
      action: 'streamGenerateContent',
    });
    expect(() => parseModelAction('gemini-2.5-flash:predictLongRunning')).toThrow(GatewayException);
    expect(() => parseModelAction('gemini-2.5-flash')).toThrow(GatewayException);
  });

  it('generateContent → the canonical chat body', () => {
    const { body, stream } = genaiOperation('gemini-2.5-flash', 'generateContent', false).toCanonical(REQUEST, {}, {});
    expect(stream).toBe(false);
    expect(body).toEqual({
      model: 'gemini/gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"time":"12:00"}' },
        { role: 'tool', tool_call_id: 'call_0', content: '{"sky":"clear"}' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: {
              type: 'object',
              properties: { city: { type: ['string', 'null'] } },
              required: ['city'],
            },
          },
        },
        { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      max_tokens: 256,
      n: 1,
      stop: ['END'],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object', properties: { answer: { type: 'string' } } } },
      },
      reasoning_effort: 'low',
    });
  });

  it('a streamed request asks for the usage chunk; a provider-prefixed model keeps its provider', () => {
    const { body, stream } = genaiOperation('anthropic/claude-sonnet-4', 'streamGenerateContent', true).toCanonical(
      { contents: [{ parts: [{ text: 'hi' }] }] },
      {},
      {},
    );
    expect(stream).toBe(true);
    expect(body).toEqual({
      model: 'anthropic/claude-sonnet-4',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('bad input is a 400 naming the Gemini field', () => {
    const op = genaiOperation('gemini-2.5-flash', 'generateContent', false);
    const paramOf = (body: unknown) => {
      try {
        op.toCanonical(body, {}, {});
      } catch (err) {
        return (err as GatewayException).param;
      }
      return undefined;
    };
    expect(paramOf({})).toBe('contents');
    expect(paramOf({ contents: [{ role: 'user', parts: [{ text: 'a' }, { nothing: 1 }] }] })).toBe(
      'contents[0].parts[1]',
    );
    expect(paramOf({ contents: [{ role: 'robot', parts: [{ text: 'a' }] }] })).toBe('contents[0].role');
    expect(paramOf({ contents: [{ parts: [{ text: 'a' }] }], generationConfig: { temperature: 'hot' } })).toBe(
      'generationConfig.temperature',
    );
    expect(paramOf({ contents: [{ parts: [{ text: 'a' }] }], tools: [{ googleSearch: {} }] })).toBe('tools[0]');
  });

  it('a canonical answer → GenerateContentResponse with thoughts, function calls and usageMetadata', () => {
    const op = genaiOperation('gemini-2.5-flash', 'generateContent', false);
    const answer: Json = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Checking.',
            reasoning_content: 'The user wants weather.',
            tool_calls: [
              { id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
        },
      ],
    };
    expect(op.fromCanonical(answer, USAGE, { body: {}, stream: false })).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'The user wants weather.', thought: true },
              { text: 'Checking.' },
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 12,
        candidatesTokenCount: 4,
        totalTokenCount: 21,
        cachedContentTokenCount: 4,
        thoughtsTokenCount: 5,
      },
      modelVersion: 'gpt-4o-mini',
      responseId: 'chatcmpl-1',
    });
    const truncated = { ...answer, choices: [{ index: 0, finish_reason: 'length', message: { content: 'a' } }] };
    expect((op.fromCanonical(truncated, undefined, { body: {}, stream: false }).candidates as Json[])[0]).toEqual({
      content: { role: 'model', parts: [{ text: 'a' }] },
      finishReason: 'MAX_TOKENS',
      index: 0,
    });
  });

  const chunk = (delta: Json, finish: string | null = null): Json => ({
    id: 'chatcmpl-9',
    object: 'chat.completion.chunk',
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

  it('a canonical stream → SSE events: thoughts and text as they come, calls whole, finish and usage last', () => {
    const encoder = genaiOperation('x', 'streamGenerateContent', true).streamEncoder!({ body: {}, stream: true });
    expect(encoder.contentType).toBe('text/event-stream');
    const frames = [
      ...encoder.push(chunk({ role: 'assistant' }), undefined),
      ...encoder.push(chunk({ reasoning_content: 'Hmm.' }), undefined),
      ...encoder.push(chunk({ content: 'Calling' }), undefined),
      ...encoder.push(
        chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"x"' } }] }),
        undefined,
      ),
      ...encoder.push(chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }), undefined),
      ...encoder.push(
        chunk({ tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
        undefined,
      ),
      ...encoder.push(chunk({}, 'tool_calls'), undefined),
      ...encoder.push({ id: 'chatcmpl-9', choices: [], usage: {} }, USAGE),
      ...encoder.finish(USAGE),
    ];
    const meta = { modelVersion: 'gpt-4o-mini', responseId: 'chatcmpl-9' };
    const events = frames.map((f) => {
      expect(f).toMatch(/^data: .*\r\n\r\n$/s);
      return JSON.parse((f as string).slice(6));
    });
    expect(events).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hmm.', thought: true }] }, index: 0 }], ...meta },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Calling' }] }, index: 0 }], ...meta },
      {
        candidates: [
          { content: { role: 'model', parts: [{ functionCall: { name: 'f', args: { x: 1 } } }] }, index: 0 },
        ],
        ...meta,
      },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'g', args: {} } }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: 12,
          candidatesTokenCount: 4,
          totalTokenCount: 21,
          cachedContentTokenCount: 4,
          thoughtsTokenCount: 5,
        },
        ...meta,
      },
    ]);
  });

  it('without alt=sse the events are one JSON array; a failure is a last element in Google’s error shape', () => {
    const encoder = genaiOperation('x', 'streamGenerateContent', false).streamEncoder!({ body: {}, stream: true });
    expect(encoder.contentType).toBe('application/json; charset=UTF-8');
    const failure = toErrorResponse(new GatewayException(503, 'provider_unavailable' as never, 'upstream down'));
    const text = [
      ...encoder.push(chunk({ content: 'a' }), undefined),
      ...encoder.push(chunk({ content: 'b' }), undefined),
      ...encoder.error(failure),
    ].join('');
    const parsed = JSON.parse(text) as Json[];
    expect(parsed.map((e) => (e.candidates as any)?.[0].content.parts[0].text)).toEqual(['a', 'b', undefined]);
    expect(parsed[2]!.error).toMatchObject({ code: 503, message: 'upstream down', status: 'UNAVAILABLE' });
  });

  it('embeddings and token counts', () => {
    const batch = genaiOperation('text-embedding-004', 'batchEmbedContents', false);
    const { body } = batch.toCanonical(
      {
        requests: [
          { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] }, outputDimensionality: 8 },
          { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }, { text: 'c' }] } },
        ],
      },
      {},
      {},
    );
    expect(body).toEqual({ model: 'gemini/text-embedding-004', input: ['a', 'b\nc'], dimensions: 8 });
    const list = {
      object: 'list',
      data: [
        { object: 'embedding', index: 1, embedding: [0, 1] },
        { object: 'embedding', index: 0, embedding: [1, 0] },
      ],
    };
    expect(batch.fromCanonical(list, undefined, { body, stream: false })).toEqual({
      embeddings: [{ values: [1, 0] }, { values: [0, 1] }],
    });
    const single = genaiOperation('text-embedding-004', 'embedContent', false);
    expect(single.toCanonical({ content: { parts: [{ text: 'x' }] } }, {}, {}).body).toEqual({
      model: 'gemini/text-embedding-004',
      input: 'x',
    });
    expect(single.fromCanonical(list, undefined, { body, stream: false })).toEqual({ embedding: { values: [1, 0] } });
    const count = genaiOperation('gemini-2.5-flash', 'countTokens', false);
    expect(count.toCanonical({ contents: [{ parts: [{ text: 'x' }] }] }, {}, {}).body).toEqual({
      model: 'gemini/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(
      count.fromCanonical({ object: 'response.input_tokens', input_tokens: 7 }, undefined, { body, stream: false }),
    ).toEqual({
      totalTokens: 7,
    });
  });
});
