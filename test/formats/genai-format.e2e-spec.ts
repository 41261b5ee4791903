import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seen, sseMessages, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * The `/genai` provider format: `@google/genai`, unchanged but for base URL and key, against the gateway, served by
 * Gemini and by other providers (converted both ways); golden upstream bodies and answers; Google's error shape.
 */
describe('provider format: /genai (Gemini API)', () => {
  let s: InferenceStack;
  const client = (base = '/genai') =>
    new GoogleGenAI({ apiKey: s.vk, httpOptions: { baseUrl: `${s.gw.baseUrl}${base}` } });
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  const headersOf = (r: GenerateContentResponse) => r.sdkHttpResponse?.headers ?? {};
  const TARGETS = [
    {
      model: 'gemini-2.5-flash',
      provider: 'gemini',
      upstream: '/gemini/v1beta/models/gemini-2.5-flash:generateContent',
    },
    { model: 'openai/gpt-4o-mini', provider: 'openai', upstream: '/openai/v1/chat/completions' },
    { model: 'anthropic/claude-sonnet-4', provider: 'anthropic', upstream: '/anthropic/v1/messages' },
  ];

  for (const base of ['/genai', '/langchain/genai']) {
    for (const t of TARGETS) {
      it(`${base}: generateContent and generateContentStream served by ${t.provider}`, async () => {
        const ai = client(base);
        const answer = await ai.models.generateContent({ model: t.model, contents: 'hello gateway' });
        expect(answer.text).toBe('echo: hello gateway');
        expect(answer.candidates![0]!.finishReason).toBe('STOP');
        expect(answer.usageMetadata).toMatchObject({
          promptTokenCount: 2,
          candidatesTokenCount: 3,
          totalTokenCount: 5,
        });
        const headers = headersOf(answer);
        expect(headers['x-gateway-routing-info-provider']).toBe(t.provider);
        expect(Number(headers['x-gateway-cost-usd'])).toBeGreaterThan(0);
        expect(seen(s.sim).at(-1).path).toBe(t.upstream);

        const stream = await ai.models.generateContentStream({ model: t.model, contents: 'stream me please' });
        const events: GenerateContentResponse[] = [];
        for await (const event of stream) events.push(event);
        expect(events.map((e) => e.text ?? '').join('')).toBe('echo: stream me please');
        const last = events.at(-1)!;
        expect(last.candidates![0]!.finishReason).toBe('STOP');
        expect(last.usageMetadata).toMatchObject({ promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 7 });
        for (const e of events.slice(0, -1)) {
          expect(e.usageMetadata).toBeUndefined();
          expect(e.candidates![0]!.finishReason).toBeUndefined();
        }
        expect(headersOf(last)['x-gateway-routing-info-provider']).toBe(t.provider);
        expect(seen(s.sim).at(-1).stream).toBe(true);
      });
    }
  }

  for (const t of TARGETS) {
    it(`function calling served by ${t.provider}: a functionCall answer, then the functionResponse follow-up`, async () => {
      const ai = client();
      const tools = [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
            },
          ],
        },
      ] as never;
      const ask = { role: 'user', parts: [{ text: 'call get_weather {"city":"Paris"}' }] };
      const first = await ai.models.generateContent({ model: t.model, contents: [ask], config: { tools } });
      expect(first.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
      expect(first.candidates![0]!.finishReason).toBe('STOP');

      const second = await ai.models.generateContent({
        model: t.model,
        contents: [
          ask,
          first.candidates![0]!.content!,
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'clear' } } }] },
        ],
        config: { tools },
      });
      expect(second.text).toBe('echo: {"sky":"clear"}');
      const upstream = seen(s.sim).at(-1).body;
      if (t.provider === 'gemini') {
        expect(upstream.contents.slice(1)).toEqual([
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'clear' } } }] },
        ]);
      } else if (t.provider === 'openai') {
        expect(upstream.messages.slice(1)).toEqual([
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_0', content: '{"sky":"clear"}' },
        ]);
      } else {
        expect(upstream.messages.slice(1)).toEqual([
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'call_0', name: 'get_weather', input: { city: 'Paris' } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_0', content: '{"sky":"clear"}' }] },
        ]);
      }
    });
  }

  it('streamed function calls arrive whole, finishReason and usage on the last event', async () => {
    const stream = await client().models.generateContentStream({
      model: 'openai/gpt-4o-mini',
      contents: 'call get_weather {"city":"Paris"} and call get_time',
      config: {
        tools: [{ functionDeclarations: [{ name: 'get_weather' }, { name: 'get_time' }] }],
      },
    });
    const events: GenerateContentResponse[] = [];
    for await (const event of stream) events.push(event);
    const calls = events.flatMap((e) => e.functionCalls ?? []);
    expect(calls).toEqual([
      { name: 'get_weather', args: { city: 'Paris' } },
      { name: 'get_time', args: {} },
    ]);
    expect(events.at(-1)!.candidates![0]!.finishReason).toBe('STOP');
    expect(events.at(-1)!.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
  });

  describe('golden conversions: the exact upstream body and the exact answer', () => {
    const request = {
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
      generationConfig: { temperature: 0.5, topP: 0.9, maxOutputTokens: 64, stopSequences: ['END'] },
    };
    const answerOf = (model: string, responseId: string) => ({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'echo: golden words' }] }, finishReason: 'STOP', index: 0 },
      ],
      // The simulator counts the system instruction's words as prompt tokens too.
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 3, totalTokenCount: 7 },
      modelVersion: model,
      responseId,
    });
    const post = (model: string, body: unknown = request, query = '') =>
      s.gw.http.post(`/genai/v1beta/models/${model}:generateContent${query}`, body, {
        headers: { 'x-goog-api-key': s.vk },
      });

    it('genai → gemini', async () => {
      const res = await post('gemini-2.5-flash');
      expect(res.status, res.text).toBe(200);
      expect(seen(s.sim).at(-1).body).toEqual({
        contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        generationConfig: { maxOutputTokens: 64, temperature: 0.5, topP: 0.9, stopSequences: ['END'] },
      });
      expect(res.body).toEqual(answerOf('gemini-2.5-flash', res.body.responseId));
      expect(res.body.responseId).toMatch(/\w+/);
    });

    it('genai → openai (the model URL-encoded in the path)', async () => {
      const res = await post('openai%2Fgpt-4o-mini');
      expect(res.status, res.text).toBe(200);
      expect(seen(s.sim).at(-1).body).toEqual({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'golden words' },
        ],
        temperature: 0.5,
        top_p: 0.9,
        max_tokens: 64,
        stop: ['END'],
      });
      expect(res.body).toEqual(answerOf('gpt-4o-mini', res.body.responseId));
      expect(res.body.responseId).toMatch(/^chatcmpl-/);
    });

    it('genai → anthropic, with thinking: thought parts in the answer', async () => {
      const thinking = {
        ...request,
        generationConfig: {
          ...request.generationConfig,
          maxOutputTokens: 2048,
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        },
      };
      const res = await post('anthropic/claude-sonnet-4', thinking);
      expect(res.status, res.text).toBe(200);
      expect(seen(s.sim).at(-1).body).toEqual({
        model: 'claude-sonnet-4',
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'golden words' }],
        max_tokens: 2048,
        top_p: 0.9,
        temperature: 0.5,
        stop_sequences: ['END'],
        thinking: { type: 'enabled', budget_tokens: 1024 },
      });
      expect(res.body).toEqual({
        ...answerOf('claude-sonnet-4', res.body.responseId),
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ text: 'Let me think about this request.', thought: true }, { text: 'echo: golden words' }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
      });
    });

    it('streams event by event: SSE with alt=sse, a JSON array without', async () => {
      const sse = await s.gw.http.post(
        `/genai/v1beta/models/anthropic%2Fclaude-sonnet-4:streamGenerateContent?alt=sse&key=${s.vk}`,
        { ...request, generationConfig: { thinkingConfig: { thinkingBudget: 1024 } } },
      );
      expect(sse.status, sse.text).toBe(200);
      expect(sse.headers.get('content-type')).toContain('text/event-stream');
      const events = sseMessages(sse.text).map((m) => {
        expect(m.event).toBeUndefined();
        return JSON.parse(m.data);
      });
      expect(sse.text).not.toContain('[DONE]');
      const meta = { modelVersion: 'claude-sonnet-4', responseId: events[0].responseId };
      const part = (p: object) => ({ candidates: [{ content: { role: 'model', parts: [p] }, index: 0 }], ...meta });
      expect(events).toEqual([
        part({ text: 'Let me think about this request.', thought: true }),
        part({ text: 'echo:' }),
        part({ text: ' golden' }),
        part({ text: ' words' }),
        {
          candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 3, totalTokenCount: 7 },
          ...meta,
        },
      ]);

      const array = await s.gw.http.post(
        `/genai/v1beta/models/gemini-2.5-flash:streamGenerateContent?key=${s.vk}`,
        request,
      );
      expect(array.status, array.text).toBe(200);
      expect(array.headers.get('content-type')).toContain('application/json');
      const elements = JSON.parse(array.text) as any[];
      expect(elements.map((e) => e.candidates[0].content.parts[0].text).join('')).toBe('echo: golden words');
      expect(elements.at(-1).usageMetadata).toEqual({
        promptTokenCount: 4,
        candidatesTokenCount: 3,
        totalTokenCount: 7,
      });
      expect(seen(s.sim).at(-1).query).toEqual({ alt: 'sse' });
    });
  });

  it('embedContent and countTokens through the SDK, served by Gemini and by others', async () => {
    const ai = client('/langchain/genai');
    const gemini = await ai.models.embedContent({ model: 'text-embedding-004', contents: ['one', 'two'] });
    expect(gemini.embeddings).toHaveLength(2);
    expect(gemini.embeddings![0]!.values).toHaveLength(16);
    expect(seen(s.sim).at(-1).path).toBe('/gemini/v1beta/models/text-embedding-004:batchEmbedContents');
    const openai = await ai.models.embedContent({
      model: 'openai/text-embedding-3-small',
      contents: 'one',
      config: { outputDimensionality: 8 },
    });
    expect(openai.embeddings![0]!.values).toHaveLength(8);
    expect(seen(s.sim).at(-1).body).toMatchObject({ model: 'text-embedding-3-small', input: ['one'], dimensions: 8 });

    const single = await s.gw.http.post(`/genai/v1beta/models/text-embedding-004:embedContent?key=${s.vk}`, {
      content: { parts: [{ text: 'single' }] },
    });
    expect(single.status, single.text).toBe(200);
    expect(single.body.embedding.values).toHaveLength(16);

    for (const model of ['gemini-2.5-flash', 'anthropic/claude-sonnet-4']) {
      const counted = await ai.models.countTokens({ model, contents: 'count these four words' });
      expect(counted.totalTokens).toBe(4);
    }
    expect(seen(s.sim).at(-1).path).toBe('/anthropic/v1/messages/count_tokens');
  });

  describe('errors in Google’s shape', () => {
    it('no contents: 400 INVALID_ARGUMENT naming the field; a bad part names its index', async () => {
      const res = await s.gw.http.post(
        '/genai/v1beta/models/gemini-2.5-flash:generateContent',
        {},
        {
          headers: { 'x-goog-api-key': s.vk },
        },
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      const details = res.body.error.details;
      expect(details).toContainEqual({
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: 'contents', description: res.body.error.message }],
      });
      const info = details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
      expect(info.reason).toBe('validation_failed');
      expect(info.metadata.event_id).toMatch(/[0-9a-f-]{36}/);
      expect(info.metadata.error_type).toBe('caller_invalid_request');
      const part = await s.gw.http.post(`/genai/v1beta/models/gemini-2.5-flash:generateContent?key=${s.vk}`, {
        contents: [{ role: 'user', parts: [{ text: 'ok' }, { bogus: true }] }],
      });
      expect(part.status).toBe(400);
      expect(part.body.error.details[1].fieldViolations[0].field).toBe('contents[0].parts[1]');
      expect(seen(s.sim)).toHaveLength(0);
    });

    it('no key: 401 UNAUTHENTICATED, through the SDK too', async () => {
      const res = await s.gw.http.post('/genai/v1beta/models/gemini-2.5-flash:generateContent', {
        contents: [{ parts: [{ text: 'x' }] }],
      });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
      expect(res.body.error.details[0].reason).toBe('missing_credentials');
      const wrong = new GoogleGenAI({ apiKey: 'sk-gw-not-a-key', httpOptions: { baseUrl: `${s.gw.baseUrl}/genai` } });
      await expect(wrong.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' })).rejects.toMatchObject({
        status: 401,
      });
      const unknown = await s.gw.http.post(`/genai/v1beta/models/gemini-2.5-flash:predictLongRunning?key=${s.vk}`, {});
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.status).toBe('NOT_FOUND');
    });

    it('a provider 429 is relayed as RESOURCE_EXHAUSTED with its RetryInfo', async () => {
      s.sim.scenario({
        match: { family: 'gemini' },
        responses: [{ fault: 'rate_limit', hint_ms: 2000 }],
        repeat: true,
      });
      const res = await s.gw.http.post(`/genai/v1beta/models/gemini-2.5-flash:generateContent?key=${s.vk}`, {
        contents: [{ parts: [{ text: 'x' }] }],
      });
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
      expect(res.body.error.details).toContainEqual({
        '@type': 'type.googleapis.com/google.rpc.RetryInfo',
        retryDelay: '2s',
      });
      expect(res.headers.get('x-gateway-routing-info-provider')).toBe('gemini');
      s.sim.reset();
      s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'rate_limit' }], repeat: true });
      await expect(
        client().models.generateContent({ model: 'openai/gpt-4o-mini', contents: 'x' }),
      ).rejects.toMatchObject({ status: 429 });
    });

    it('a mid-stream failure ends the stream with a Google error event', async () => {
      s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'stream_error', after_events: 2 }] });
      const res = await s.gw.http.post(
        `/genai/v1beta/models/openai%2Fgpt-4o-mini:streamGenerateContent?alt=sse&key=${s.vk}`,
        { contents: [{ parts: [{ text: 'one two three four' }] }] },
      );
      expect(res.status).toBe(200);
      const events = sseMessages(res.text).map((m) => JSON.parse(m.data));
      expect(events.at(-1).error).toMatchObject({ code: expect.any(Number), status: expect.any(String) });
      expect(events.slice(0, -1).every((e: any) => e.candidates)).toBe(true);
    });
  });

  it('the ?key= value never reaches a log line nor the upstream', async () => {
    const res = await s.gw.http.post(`/pydanticai/genai/v1beta/models/gemini-2.5-flash:generateContent?key=${s.vk}`, {
      contents: [{ parts: [{ text: 'quiet' }] }],
    });
    expect(res.status, res.text).toBe(200);
    const failed = await s.gw.http.post(`/genai/v1beta/models/gemini-2.5-flash:generateContent?key=${s.vk}`, {});
    expect(failed.status).toBe(400);
    const upstream = seen(s.sim).at(-1);
    expect(upstream.key).toBe('gem-key-1');
    expect(upstream.query).toEqual({});
    await new Promise((r) => setTimeout(r, 50));
    const logs = s.gw.logs.text();
    expect(logs).toContain('/pydanticai/genai/v1beta/models/gemini-2.5-flash:generateContent');
    expect(logs).not.toContain(s.vk);
    expect(logs).not.toContain('key=');
  });
});
