import { describe, expect, it } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import { geminiAdapter } from '../../src/modules/inference/providers/google/gemini.adapter.js';
import type {
  Json,
  ProviderTarget,
  StreamDecoder,
  StreamOutput,
} from '../../src/modules/inference/providers/shared/provider-adapter.js';

const target: ProviderTarget = {
  provider: 'gemini',
  baseUrl: 'https://generativelanguage.googleapis.com',
  extraHeaders: { 'X-Goog-User-Project': 'acme-prod' },
  key: { id: 'k1', name: 'main', value: 'AIzaSyTestKey' },
  model: 'gemini-2.5-flash',
};

const JPEG_B64 =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==';

function call(kind: 'chat' | 'embeddings' | 'count_tokens', body: Json, stream = false) {
  const c = geminiAdapter.buildRequest(kind, { model: target.model, ...body }, target, stream);
  expect(c.method).toBe('POST');
  return { url: c.url, headers: c.headers, body: JSON.parse(c.body!) as Json };
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

function decode(text: string, size: number): StreamOutput[] {
  const decoder: StreamDecoder = geminiAdapter.streamDecoder('chat', target);
  const out: StreamOutput[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...decoder.push(text.slice(i, i + size)));
  out.push(...decoder.end());
  return out;
}

function normalized(outputs: StreamOutput[]): unknown[] {
  return outputs.map((o) => (o.kind === 'chunk' ? { ...o, chunk: { ...o.chunk, created: 0 } } : o));
}

/** One SSE event as Gemini frames it with alt=sse: `data: <json>` and CRLF line ends, no event names. */
const event = (json: string) => `data: ${json}\r\n\r\n`;

/** A thinking, then text, stream (usage on every chunk, final figures and finishReason on the last). */
const TEXT_STREAM =
  event(
    '{"candidates": [{"content": {"parts": [{"text": "**Greeting the user**\\n\\nA short hello.","thought": true}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 9,"totalTokenCount": 40,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 9}],"thoughtsTokenCount": 31},"modelVersion": "gemini-2.5-flash","responseId": "mKh2aO-xFuyWz7IPqfLf-QM"}',
  ) +
  event(
    '{"candidates": [{"content": {"parts": [{"text": "Hello"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 9,"totalTokenCount": 41,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 9}],"thoughtsTokenCount": 31},"modelVersion": "gemini-2.5-flash","responseId": "mKh2aO-xFuyWz7IPqfLf-QM"}',
  ) +
  event(
    '{"candidates": [{"content": {"parts": [{"text": ", wörld! 👋"}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 1033,"candidatesTokenCount": 6,"totalTokenCount": 1070,"cachedContentTokenCount": 1024,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 1009},{"modality": "IMAGE","tokenCount": 24}],"thoughtsTokenCount": 31},"modelVersion": "gemini-2.5-flash","responseId": "mKh2aO-xFuyWz7IPqfLf-QM"}',
  );

describe('gemini: registry and request building', () => {
  it('is registered for gemini with chat, embeddings, count_tokens and image generation', () => {
    expect(adapterFor('gemini')).toBe(geminiAdapter);
    expect([...geminiAdapter.kinds].sort()).toEqual(['chat', 'count_tokens', 'embeddings', 'image_generation']);
    expect(geminiAdapter.defaultBaseUrl('gemini')).toBe('https://generativelanguage.googleapis.com');
  });

  it('builds generateContent with the key header and a translated body', () => {
    const { url, headers, body } = call('chat', {
      messages: [
        { role: 'system', content: 'You are a weather bot.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather where these were taken?' },
            { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG_B64}` } },
            { type: 'image_url', image_url: { url: 'https://example.com/photos/paris.png?size=large' } },
            { type: 'image_url', image_url: { url: 'https://example.com/render' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"temp_c":21,"sky":"clear"}' },
        { role: 'tool', tool_call_id: 'call_b', content: '14:05' },
        { role: 'assistant', content: 'Sunny, 21 °C.' },
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
        { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_completion_tokens: 800,
      temperature: 0.4,
      top_p: 0.95,
      stop: ['END'],
      n: 2,
      seed: 7,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'w', schema: { type: 'object', properties: { summary: { type: 'string' } } } },
      },
      reasoning_effort: 'low',
    });

    expect(url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect(headers).toEqual({
      'content-type': 'application/json',
      'x-goog-user-project': 'acme-prod',
      'x-goog-api-key': 'AIzaSyTestKey',
    });
    expect(body).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Weather where these were taken?' },
            { inlineData: { mimeType: 'image/jpeg', data: JPEG_B64 } },
            { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/photos/paris.png?size=large' } },
            { fileData: { fileUri: 'https://example.com/render' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'get_time', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { temp_c: 21, sky: 'clear' } } },
            { functionResponse: { name: 'get_time', response: { content: '14:05' } } },
          ],
        },
        { role: 'model', parts: [{ text: 'Sunny, 21 °C.' }] },
        { role: 'user', parts: [{ text: 'Thanks' }] },
      ],
      systemInstruction: { parts: [{ text: 'You are a weather bot.' }, { text: 'Use metric units.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Current weather',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
            { name: 'get_time' },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      generationConfig: {
        maxOutputTokens: 800,
        temperature: 0.4,
        topP: 0.95,
        candidateCount: 2,
        seed: 7,
        stopSequences: ['END'],
        responseMimeType: 'application/json',
        responseSchema: { type: 'object', properties: { summary: { type: 'string' } } },
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      },
    });
  });

  it('streams from streamGenerateContent?alt=sse and omits an empty generationConfig', () => {
    const { url, body } = call('chat', { messages: [{ role: 'user', content: 'Hi' }], stream: true }, true);
    expect(url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
  ])('maps tool_choice %s', (choice, expected) => {
    const { body } = call('chat', { messages: [{ role: 'user', content: 'x' }], tool_choice: choice });
    expect(body.toolConfig).toEqual({ functionCallingConfig: expected });
  });

  it('maps json_object and the other reasoning efforts', () => {
    const messages = [{ role: 'user', content: 'x' }];
    expect(call('chat', { messages, response_format: { type: 'json_object' } }).body.generationConfig).toEqual({
      responseMimeType: 'application/json',
    });
    expect(call('chat', { messages, reasoning_effort: 'high' }).body.generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 24576, includeThoughts: true },
    });
    expect(call('chat', { messages, reasoning_effort: 'none' }).body.generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 0 },
    });
  });

  it('refuses what Gemini could not read with a 400 naming the field', () => {
    const orphan = thrown(() =>
      call('chat', {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'call_unknown', content: 'result' },
        ],
      }),
    );
    expect(orphan.status).toBe(400);
    expect(orphan.param).toBe('messages[1].tool_call_id');
    const args = thrown(() =>
      call('chat', {
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1,2]' } }],
          },
        ],
      }),
    );
    expect(args.param).toBe('messages[0].tool_calls[0].function.arguments');
    expect(thrown(() => call('chat', { messages: 'hi' })).param).toBe('messages');
    expect(
      thrown(() => call('chat', { messages: [{ role: 'user', content: 'x' }], response_format: { type: 'xml' } }))
        .param,
    ).toBe('response_format.type');
    expect(thrown(() => call('embeddings', { input: [[1, 2, 3]] })).param).toBe('input');
    expect(thrown(() => geminiAdapter.buildRequest('rerank', {}, target, false)).code).toBe('unsupported_operation');
  });
});

describe('gemini: unary responses', () => {
  const RESPONSE = JSON.parse(`{
    "candidates": [
      {
        "content": {
          "parts": [
            {"text": "The user wants weather and time.", "thought": true},
            {"text": "Let me check."},
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "CiQB0e2Kb..."},
            {"functionCall": {"name": "get_time", "args": {}}}
          ],
          "role": "model"
        },
        "finishReason": "STOP",
        "index": 0,
        "groundingMetadata": {"webSearchQueries": ["weather paris", "paris time"]}
      }
    ],
    "usageMetadata": {
      "promptTokenCount": 1200,
      "candidatesTokenCount": 40,
      "totalTokenCount": 1290,
      "cachedContentTokenCount": 1000,
      "toolUsePromptTokenCount": 20,
      "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 1100}, {"modality": "AUDIO", "tokenCount": 100}],
      "cacheTokensDetails": [{"modality": "TEXT", "tokenCount": 1000}],
      "thoughtsTokenCount": 30
    },
    "modelVersion": "gemini-2.5-flash-preview-09-2025",
    "responseId": "7Kh2aMWOKfHPz7IP2ayQ8Ac"
  }`) as Json;

  it('becomes a chat.completion with generated tool-call ids, reasoning and contract usage', () => {
    const parsed = geminiAdapter.parseResponse('chat', RESPONSE, target);
    const usage = {
      prompt_tokens: 1220,
      completion_tokens: 70,
      total_tokens: 1290,
      prompt_tokens_details: { text_tokens: 1100, audio_tokens: 100, cached_read_tokens: 1000 },
      completion_tokens_details: { reasoning_tokens: 30, num_search_queries: 2 },
      tool_usage: { web_search: { num_requests: 2 } },
    };
    expect(parsed.usage).toEqual(usage);
    expect(parsed.answeredModel).toBe('gemini-2.5-flash-preview-09-2025');
    expect(parsed.body).toMatchObject({
      id: '7Kh2aMWOKfHPz7IP2ayQ8Ac',
      object: 'chat.completion',
      model: 'gemini-2.5-flash-preview-09-2025',
      usage,
    });
    expect(parsed.body.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Let me check.',
          reasoning_content: 'The user wants weather and time.',
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        finish_reason: 'tool_calls',
        logprobs: null,
      },
    ]);
  });

  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
  ])('maps finishReason %s to %s', (reason, finish) => {
    const parsed = geminiAdapter.parseResponse(
      'chat',
      {
        candidates: [{ content: { parts: [{ text: 'ok' }], role: 'model' }, finishReason: reason, index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'r1',
      },
      target,
    );
    expect((parsed.body.choices as any)[0]).toMatchObject({ message: { content: 'ok' }, finish_reason: finish });
    expect(parsed.usage).toEqual({ prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 });
    expect(parsed.answeredModel).toBeUndefined();
  });

  it('answers a blocked prompt with a content_filter finish', () => {
    const parsed = geminiAdapter.parseResponse(
      'chat',
      {
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 },
        modelVersion: 'gemini-2.5-flash',
      },
      target,
    );
    expect(parsed.body.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter', logprobs: null },
    ]);
  });
});

describe('gemini: streams', () => {
  it('turns each data event into one chunk, CRLF and any split alike, usage on the last', () => {
    const whole = decode(TEXT_STREAM, TEXT_STREAM.length);
    // Size 1 splits every CRLF between its CR and LF.
    for (const size of [1, 2, 5, 17, 100]) expect(normalized(decode(TEXT_STREAM, size))).toEqual(normalized(whole));
    expect(whole).toHaveLength(3);
    const chunks = whole.map((o) => (o as { chunk: Json }).chunk);
    expect(chunks.every((c) => c.id === 'mKh2aO-xFuyWz7IPqfLf-QM' && c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.every((c) => c.model === 'gemini-2.5-flash')).toBe(true);
    expect(chunks.map((c) => c.choices)).toEqual([
      [
        {
          index: 0,
          delta: { role: 'assistant', reasoning_content: '**Greeting the user**\n\nA short hello.' },
          finish_reason: null,
        },
      ],
      [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }],
      [{ index: 0, delta: { content: ', wörld! 👋' }, finish_reason: 'stop' }],
    ]);
    expect(whole.slice(0, 2).every((o) => o.kind === 'chunk' && o.usage === undefined)).toBe(true);
    const last = whole[2]!;
    expect(last.kind === 'chunk' && last.usage).toEqual({
      prompt_tokens: 1033,
      completion_tokens: 37,
      total_tokens: 1070,
      prompt_tokens_details: { text_tokens: 1009, image_tokens: 24, cached_read_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 31 },
    });
  });

  it('streams whole function calls as tool_calls with ids and a tool_calls finish', () => {
    const stream =
      event(
        '{"candidates": [{"content": {"parts": [{"functionCall": {"name": "get_weather","args": {"city": "Paris"}}}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 50,"totalTokenCount": 50},"modelVersion": "gemini-2.5-flash","responseId": "fc1"}',
      ) +
      event(
        '{"candidates": [{"content": {"parts": [{"functionCall": {"name": "get_time","args": {}}}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 50,"candidatesTokenCount": 12,"totalTokenCount": 62},"modelVersion": "gemini-2.5-flash","responseId": "fc1"}',
      );
    const out = decode(stream, 7);
    expect(out.map((o) => o.kind === 'chunk' && o.chunk.choices)).toEqual([
      [
        {
          index: 0,
          delta: {
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: 'call_0',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          finish_reason: null,
        },
      ],
      [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 1, id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    ]);
    expect(out[1]!.kind === 'chunk' && out[1]!.usage).toEqual({
      prompt_tokens: 50,
      completion_tokens: 12,
      total_tokens: 62,
    });
  });

  it('reports a stream that ends without a finishReason as a 502 provider_server_error', () => {
    const cut = TEXT_STREAM.slice(0, TEXT_STREAM.lastIndexOf('data:') + 40);
    const out = decode(cut, 3);
    expect(out.map((o) => o.kind)).toEqual(['chunk', 'chunk', 'error']);
    expect(out[2]).toEqual({
      kind: 'error',
      error: {
        status: 502,
        reason: 'provider_server_error',
        message: 'gemini stream ended without a finishReason',
        billedUsage: {
          prompt_tokens: 9,
          completion_tokens: 31,
          total_tokens: 41,
          prompt_tokens_details: { text_tokens: 9 },
          completion_tokens_details: { reasoning_tokens: 31 },
        },
      },
    });
    expect(decode('', 1)).toMatchObject([{ kind: 'error', error: { status: 502, reason: 'provider_server_error' } }]);
  });

  it('reports an error object in the stream, wrapped in an array, and stops there', () => {
    const stream =
      TEXT_STREAM.slice(0, TEXT_STREAM.indexOf('\r\n\r\n') + 4) +
      event(
        '[{"error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}}]',
      ) +
      TEXT_STREAM.slice(TEXT_STREAM.indexOf('\r\n\r\n') + 4);
    const out = decode(stream, 13);
    expect(out.map((o) => o.kind)).toEqual(['chunk', 'error']);
    expect(out[1]).toMatchObject({
      kind: 'error',
      error: {
        status: 503,
        message: 'The model is overloaded. Please try again later.',
        type: 'UNAVAILABLE',
        reason: 'provider_overloaded',
      },
    });
    const quota = decode(event('{"error": {"message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED"}}'), 4);
    expect(quota).toMatchObject([{ kind: 'error', error: { status: 429, reason: 'provider_rate_limited' } }]);
  });
});

describe('gemini: embeddings and count_tokens', () => {
  it('embeds one input with embedContent', () => {
    const { url, headers, body } = call('embeddings', {
      input: 'hello world',
      dimensions: 256,
      encoding_format: 'float',
    });
    expect(url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:embedContent');
    expect(headers['x-goog-api-key']).toBe('AIzaSyTestKey');
    expect(body).toEqual({ content: { parts: [{ text: 'hello world' }] }, outputDimensionality: 256 });
    const parsed = geminiAdapter.parseResponse('embeddings', { embedding: { values: [0.013, -0.008, 0.25] } }, target);
    expect(parsed.body).toEqual({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.013, -0.008, 0.25] }],
      model: 'gemini-2.5-flash',
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
    expect(parsed.usage).toBeUndefined();
  });

  it('embeds several inputs with batchEmbedContents', () => {
    const { url, body } = call('embeddings', { input: ['a', 'b'] });
    expect(url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:batchEmbedContents');
    expect(body).toEqual({
      requests: [
        { model: 'models/gemini-2.5-flash', content: { parts: [{ text: 'a' }] } },
        { model: 'models/gemini-2.5-flash', content: { parts: [{ text: 'b' }] } },
      ],
    });
    const parsed = geminiAdapter.parseResponse(
      'embeddings',
      { embeddings: [{ values: [1, 0] }, { values: [0, 1] }] },
      target,
    );
    expect((parsed.body.data as Json[]).map((d) => [d.index, d.embedding])).toEqual([
      [0, [1, 0]],
      [1, [0, 1]],
    ]);
  });

  it('counts tokens with countTokens, in the generateContentRequest form when a system prompt counts', () => {
    const plain = call('count_tokens', { messages: [{ role: 'user', content: 'Count me' }] });
    expect(plain.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens');
    expect(plain.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Count me' }] }] });
    const withSystem = call('count_tokens', {
      messages: [
        { role: 'system', content: 'Sys' },
        { role: 'user', content: 'Count me' },
      ],
    });
    expect(withSystem.body).toEqual({
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: 'Count me' }] }],
        systemInstruction: { parts: [{ text: 'Sys' }] },
      },
    });
    expect(
      geminiAdapter.parseResponse('count_tokens', { totalTokens: 31, promptTokensDetails: [] }, target).body,
    ).toEqual({ object: 'response.input_tokens', input_tokens: 31 });
  });
});

describe('gemini: errors', () => {
  it('reads RESOURCE_EXHAUSTED with a RetryInfo of 37s as a 429 with a 37000 ms hint', () => {
    const body = `{
  "error": {
    "code": 429,
    "message": "You exceeded your current quota, please check your plan and billing details.",
    "status": "RESOURCE_EXHAUSTED",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests", "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]
      },
      {"@type": "type.googleapis.com/google.rpc.Help", "links": [{"description": "Learn more", "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]},
      {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}
    ]
  }
}`;
    expect(geminiAdapter.parseError(429, { 'content-type': 'application/json; charset=UTF-8' }, body)).toEqual({
      status: 429,
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'RESOURCE_EXHAUSTED',
      reason: 'provider_rate_limited',
      retryAfterMs: 37000,
    });
  });

  it('treats an invalid API key as an auth failure although Gemini says 400', () => {
    const body = JSON.stringify([
      {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'API_KEY_INVALID',
              domain: 'googleapis.com',
              metadata: { service: 'generativelanguage.googleapis.com' },
            },
          ],
        },
      },
    ]);
    expect(geminiAdapter.parseError(400, {}, body)).toEqual({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
      type: 'INVALID_ARGUMENT',
      code: 'API_KEY_INVALID',
      reason: 'provider_auth_failed',
    });
  });

  it.each([
    [400, 'INVALID_ARGUMENT', 'caller_invalid_request'],
    [403, 'PERMISSION_DENIED', 'provider_auth_failed'],
    [404, 'NOT_FOUND', 'caller_model_unknown'],
    [500, 'INTERNAL', 'provider_server_error'],
    [503, 'UNAVAILABLE', 'provider_overloaded'],
    [504, 'DEADLINE_EXCEEDED', 'provider_timeout'],
  ])('classifies %i %s', (status, statusString, reason) => {
    const body = JSON.stringify({ error: { code: status, message: 'm', status: statusString } });
    expect(geminiAdapter.parseError(status, {}, body)).toEqual({ status, message: 'm', type: statusString, reason });
  });

  it('falls back to headers and the raw body', () => {
    const error = geminiAdapter.parseError(503, { 'retry-after': '5' }, 'Service Unavailable');
    expect(error).toEqual({
      status: 503,
      message: 'Service Unavailable',
      reason: 'provider_overloaded',
      retryAfterMs: 5000,
    });
  });
});

describe('gemini: models', () => {
  it('lists models without the models/ prefix', () => {
    expect(geminiAdapter.buildListModels(target)).toEqual({
      method: 'GET',
      url: 'https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000',
      headers: { 'x-goog-user-project': 'acme-prod', 'x-goog-api-key': 'AIzaSyTestKey' },
    });
    expect(
      geminiAdapter.parseListModels({
        models: [
          {
            name: 'models/gemini-2.5-flash',
            version: '001',
            displayName: 'Gemini 2.5 Flash',
            inputTokenLimit: 1048576,
            outputTokenLimit: 65536,
            supportedGenerationMethods: ['generateContent', 'countTokens'],
          },
          { name: 'models/gemini-embedding-001', displayName: 'Gemini Embedding 001' },
        ],
        nextPageToken: 'Ch9tb2RlbHMvZ2VtaW5p',
      }),
    ).toEqual([
      {
        id: 'gemini-2.5-flash',
        owned_by: 'google',
        display_name: 'Gemini 2.5 Flash',
        methods: ['generateContent', 'countTokens'],
        input_token_limit: 1048576,
        output_token_limit: 65536,
      },
      { id: 'gemini-embedding-001', owned_by: 'google', display_name: 'Gemini Embedding 001' },
    ]);
  });
});
