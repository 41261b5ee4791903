import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../simulator/server.js';

// The provider simulator proven against the official clients pointed straight at it: if the SDKs parse its bytes,
// its wire formats are the real ones.

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterEach(() => sim.reset());
afterAll(() => sim.close());

const openai = (opts: { apiKey?: string; maxRetries?: number; base?: string } = {}) =>
  new OpenAI({
    apiKey: opts.apiKey ?? 'sk-test-1',
    baseURL: `${sim.url}${opts.base ?? '/openai/v1'}`,
    maxRetries: opts.maxRetries ?? 0,
  });
const anthropic = (maxRetries = 0) =>
  new Anthropic({ apiKey: 'sk-ant-1', baseURL: `${sim.url}/anthropic`, maxRetries });
const gemini = () =>
  new GoogleGenAI({ apiKey: 'g-key-1', httpOptions: { baseUrl: `${sim.url}/gemini`, apiVersion: 'v1beta' } });

async function raw(path: string, init: RequestInit = {}) {
  const res = await fetch(`${sim.url}${path}`, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const chatBody = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  messages: [{ role: 'user' as const, content }],
  ...extra,
});
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
async function drain(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const x of stream) out.push(x);
  return out;
}

describe('openai', () => {
  it('chat: echo text, usage one token per word, headers, captured key and body', async () => {
    const { data, response } = await openai()
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello there world' }] })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.id).toMatch(/^chatcmpl-/);
    expect(data.choices[0]!.message.content).toBe('echo: hello there world');
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('9999');
    const [captured] = sim.requests();
    expect(captured).toMatchObject({
      method: 'POST',
      path: '/openai/v1/chat/completions',
      family: 'openai',
      key: 'sk-test-1',
      model: 'gpt-4o',
      stream: false,
      status: 200,
      body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello there world' }] },
    });
    expect(captured!.headers.authorization).toBe('Bearer sk-test-1');
  });

  it('chat stream: chunks, a final usage chunk with include_usage, then [DONE]', async () => {
    const stream = await openai().chat.completions.create({
      ...chatBody('one two three'),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = (await drain(stream)) as OpenAI.ChatCompletionChunk[];
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('echo: one two three');
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(chunks[chunks.length - 2]!.choices[0]!.finish_reason).toBe('stop');

    const { headers, text } = await post('/openai/v1/chat/completions', chatBody('hi', { stream: true }), {
      authorization: 'Bearer k',
    });
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = text.split('\n\n');
    expect(events.pop()).toBe('');
    expect(events.pop()).toBe('data: [DONE]');
    expect(events.every((e) => e.startsWith('data: {') && !e.includes('"usage"'))).toBe(true);
  });

  it('tool calls, unary and streamed (the SDK assembles the argument fragments)', async () => {
    const ask = 'please call get_weather {"city": "Paris"}';
    const unary = await openai().chat.completions.create({ ...chatBody(ask), tools: [weatherTool] });
    const call = unary.choices[0]!.message.tool_calls![0]!;
    expect(unary.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(call.id).toMatch(/^call_/);

    const final = await openai()
      .chat.completions.stream({ ...chatBody(ask), tools: [weatherTool], stream_options: { include_usage: true } })
      .finalChatCompletion();
    const streamed = final.choices[0]!.message.tool_calls![0]!;
    expect(streamed.type === 'function' && JSON.parse(streamed.function.arguments)).toEqual({ city: 'Paris' });
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');

    // A tool result as the last message is answered with text, not another call.
    const after = await openai().chat.completions.create({
      model: 'gpt-4o',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: ask },
        {
          role: 'assistant',
          tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: call.id, content: 'sunny' },
      ],
    });
    expect(after.choices[0]!.message.content).toBe('echo: sunny');
  });

  it('usage knobs: cache, reasoning, Perplexity and OpenRouter extras; max_tokens truncates', async () => {
    sim.scenario([
      {
        match: { model: 'pplx' },
        responses: [
          {
            ok: true,
            text: 'a b',
            usage: {
              input_tokens: 10,
              cached_read_tokens: 5,
              cached_write_tokens: 3,
              reasoning_tokens: 7,
              citation_tokens: 4,
              web_search_requests: 2,
              cost: { total_cost: 0.01, request_cost: 0.005 },
            },
          },
        ],
      },
      { match: { model: 'openrouter' }, responses: [{ ok: true, usage: { cost: 0.0042 } }] },
    ]);
    const client = openai();
    const pplx = await client.chat.completions.create({ ...chatBody('x'), model: 'pplx' });
    expect(pplx.usage).toMatchObject({
      prompt_tokens: 18,
      completion_tokens: 9,
      total_tokens: 27,
      prompt_tokens_details: { cached_tokens: 5, cache_write_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: 7 },
      citation_tokens: 4,
      num_search_queries: 2,
      cost: { total_cost: 0.01, request_cost: 0.005 },
    });
    const or = await client.chat.completions.create({ ...chatBody('x'), model: 'openrouter' });
    expect((or.usage as any).cost).toBe(0.0042);

    const cut = await client.chat.completions.create({ ...chatBody('one two three four'), max_tokens: 2 });
    expect(cut.choices[0]!.message.content).toBe('echo: one');
    expect(cut.choices[0]!.finish_reason).toBe('length');
  });

  it('responses: unary and typed-event stream (no [DONE]), function calls, cached tokens', async () => {
    sim.scenario({ match: { path: '/responses' }, responses: [{ ok: true, usage: { cached_read_tokens: 2 } }] });
    const unary = await openai().responses.create({ model: 'gpt-4o', input: 'hello world', instructions: 'be brief' });
    expect(unary.id).toMatch(/^resp_/);
    expect(unary.output_text).toBe('echo: hello world');
    expect(unary.usage).toMatchObject({
      input_tokens: 6,
      input_tokens_details: { cached_tokens: 2 },
      output_tokens: 3,
    });

    const stream = openai().responses.stream({ model: 'gpt-4o', input: 'stream me' });
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'response.output_text.delta') deltas.push(event.delta);
    expect(deltas).toEqual(['echo:', ' stream', ' me']);
    const final = await stream.finalResponse();
    expect(final.output[0]).toMatchObject({
      type: 'message',
      content: [{ type: 'output_text', text: 'echo: stream me' }],
    });
    expect(final.status).toBe('completed');
    expect(final.usage?.total_tokens).toBe(2 + 3);

    const tool = { type: 'function' as const, name: 'lookup', parameters: {}, strict: false };
    const calls = await openai()
      .responses.stream({ model: 'gpt-4o', input: 'call lookup {"q":1}', tools: [tool] })
      .finalResponse();
    expect(calls.output[0]).toMatchObject({ type: 'function_call', name: 'lookup', arguments: '{"q":1}' });

    const { text } = await post(
      '/openai/v1/responses',
      { model: 'gpt-4o', input: 'x', stream: true },
      {
        authorization: 'Bearer k',
      },
    );
    const events = text.trim().split('\n\n');
    expect(events[0]).toMatch(/^event: response\.created\ndata: \{"type":"response\.created","sequence_number":0,/);
    expect(events[events.length - 1]).toMatch(/^event: response\.completed\n/);
    expect(text).not.toContain('[DONE]');
  });

  it('embeddings: base64 by SDK default, floats and dimensions on request; legacy completions stream', async () => {
    const client = openai();
    const b64 = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a b', 'c'] });
    expect(b64.data).toHaveLength(2);
    expect(b64.data[0]!.embedding).toHaveLength(16);
    expect(b64.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    const floats = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'a b',
      dimensions: 8,
      encoding_format: 'float',
    });
    expect(floats.data[0]!.embedding).toHaveLength(8);
    // Deterministic: the same text gives the same vector, whatever the encoding.
    expect(floats.data[0]!.embedding[0]).toBeCloseTo(
      (await client.embeddings.create({ model: 'm', input: 'a b', dimensions: 8 })).data[0]!.embedding[0]!,
      5,
    );
    expect(sim.requests()[0]!.body).toMatchObject({ encoding_format: 'base64' });

    const completion = await drain(
      await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'say this', stream: true }),
    );
    expect((completion as OpenAI.Completion[]).map((c) => c.choices[0]!.text).join('')).toBe('echo: say this');
  });

  it('errors are the SDK error classes with their status; missing auth is OpenAI-shaped', async () => {
    sim.scenario([
      { match: { key: 'sk-dead' }, responses: [{ fault: 'error', status: 401 }], repeat: true },
      { match: { model: 'nope' }, responses: [{ fault: 'error', status: 404 }] },
      { match: { model: 'boom' }, responses: [{ fault: 'error', status: 500 }] },
      { match: { model: 'quota' }, responses: [{ fault: 'rate_limit', code: 'insufficient_quota' }] },
    ]);
    const dead = await rejection(openai({ apiKey: 'sk-dead' }).chat.completions.create(chatBody('x')));
    expect(dead).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(dead.status).toBe(401);
    expect(dead.code).toBe('invalid_api_key');
    const missing = await rejection(openai().chat.completions.create({ ...chatBody('x'), model: 'nope' }));
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    const boom = await rejection(openai().chat.completions.create({ ...chatBody('x'), model: 'boom' }));
    expect(boom).toBeInstanceOf(OpenAI.InternalServerError);
    expect(boom.error).toMatchObject({ type: 'server_error' });
    const quota = await rejection(openai().chat.completions.create({ ...chatBody('x'), model: 'quota' }));
    expect(quota).toBeInstanceOf(OpenAI.RateLimitError);
    expect(quota.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });

    const noAuth = await post('/openai/v1/chat/completions', chatBody('x'));
    expect(noAuth.status).toBe(401);
    expect(JSON.parse(noAuth.text).error).toMatchObject({ type: 'invalid_request_error', code: null });
    const badJson = await raw('/openai/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: '{nope',
    });
    expect(badJson.status).toBe(400);
    const noMessages = await post('/openai/v1/chat/completions', { model: 'm' }, { authorization: 'Bearer k' });
    expect(JSON.parse(noMessages.text).error).toMatchObject({ param: 'messages', code: 'missing_required_parameter' });
  });

  it('retry hints: the SDK waits retry-after-ms before its retry; every flavour is on the wire', async () => {
    sim.scenario({ responses: [{ fault: 'rate_limit', hint: 'retry-after-ms', hint_ms: 300 }, { ok: true }] });
    const ok = await openai({ maxRetries: 1 }).chat.completions.create(chatBody('retry me'));
    expect(ok.choices[0]!.message.content).toBe('echo: retry me');
    const [first, second] = sim.requests();
    expect([first!.status, second!.status]).toEqual([429, 200]);
    expect(second!.time - first!.time).toBeGreaterThanOrEqual(290);
    expect(second!.headers['x-stainless-retry-count']).toBe('1');

    sim.scenario({
      match: { path: '/hints' },
      responses: [
        { fault: 'rate_limit', hint: 'retry-after-seconds', hint_ms: 2500 },
        { fault: 'rate_limit', hint: 'retry-after-date', hint_ms: 5000 },
        { fault: 'rate_limit', hint: 'none' },
      ],
    });
    const auth = { authorization: 'Bearer k' };
    const seconds = await post('/openai/hints/chat/completions', chatBody('x'), auth);
    expect(seconds.status).toBe(429);
    expect(seconds.headers.get('retry-after')).toBe('3');
    expect(JSON.parse(seconds.text).error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    const date = Date.parse(
      (await post('/openai/hints/chat/completions', chatBody('x'), auth)).headers.get('retry-after')!,
    );
    expect(date - Date.now()).toBeGreaterThan(3500);
    expect(date - Date.now()).toBeLessThanOrEqual(6000);
    const none = await post('/openai/hints/chat/completions', chatBody('x'), auth);
    expect(none.headers.get('retry-after')).toBeNull();
    expect(none.headers.get('retry-after-ms')).toBeNull();
  });

  it('scenario sequences: 429, 429, then 200, then the default; repeat cycles; key matching', async () => {
    const [id] = sim.scenario({
      match: { family: 'openai', model: 'seq' },
      responses: [{ fault: 'rate_limit' }, { fault: 'rate_limit' }, { ok: true, text: 'third time' }],
    });
    const client = openai();
    const statuses: Array<number | string> = [];
    for (let i = 0; i < 4; i++) {
      try {
        statuses.push(
          (await client.chat.completions.create({ ...chatBody('x'), model: 'seq' })).choices[0]!.message.content!,
        );
      } catch (e) {
        statuses.push((e as InstanceType<typeof OpenAI.APIError>).status ?? 0);
      }
    }
    expect(statuses).toEqual([429, 429, 'third time', 'echo: x']);
    expect(sim.requests().map((r) => r.scenario)).toEqual([id, id, id, undefined]);

    sim.reset();
    sim.scenario({ match: { key: 'k1' }, responses: [{ fault: 'error', status: 503 }, { ok: true }], repeat: true });
    const k1 = openai({ apiKey: 'k1' });
    const results = [];
    for (let i = 0; i < 4; i++)
      results.push(
        await k1.chat.completions.create(chatBody('x')).then(
          () => 200,
          (e) => e.status,
        ),
      );
    expect(results).toEqual([503, 200, 503, 200]);
    expect((await openai({ apiKey: 'k2' }).chat.completions.create(chatBody('x'))).choices[0]!.message.content).toBe(
      'echo: x',
    );
  });

  it('drop: before any byte is an APIConnectionError; mid-stream it breaks the iteration', async () => {
    sim.scenario({
      responses: [
        { fault: 'drop', after_events: 0 },
        { fault: 'drop', after_events: 2 },
      ],
    });
    const early = await rejection(openai().chat.completions.create(chatBody('x')));
    expect(early).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(sim.requests()[0]!.status).toBe(0);

    const seen: string[] = [];
    const midway = await rejection(
      (async () => {
        for await (const c of await openai().chat.completions.create({ ...chatBody('a b c d e f'), stream: true })) {
          seen.push(c.choices[0]?.delta.content ?? '');
        }
      })(),
    );
    expect(midway).toBeInstanceOf(Error);
    expect(seen).toEqual(['', 'echo:']);
    expect(sim.requests()[1]).toMatchObject({ status: 200, stream: true });
    expect(sim.requests()[1]!.client_aborted).toBeUndefined();
  });

  it('stream_error and malformed_chunk fail the SDK stream; empty_200 and raw steps are sent as written', async () => {
    sim.scenario({
      responses: [
        { fault: 'stream_error', after_events: 2 },
        { fault: 'malformed_chunk', after_events: 1 },
        { fault: 'empty_200' },
        { status: 418, headers: { 'x-teapot': 'yes' }, body: { short: 'stout' } },
      ],
    });
    const streamError = await rejection(
      drain(await openai().chat.completions.create({ ...chatBody('x y z'), stream: true })),
    );
    expect(streamError).toBeInstanceOf(OpenAI.APIError);
    expect(streamError.error).toMatchObject({ type: 'server_error' });
    const malformed = await rejection(
      drain(await openai().chat.completions.create({ ...chatBody('x y z'), stream: true })),
    );
    expect(malformed).toBeInstanceOf(SyntaxError);
    const empty = await post('/openai/v1/chat/completions', chatBody('x'), { authorization: 'Bearer k' });
    expect([empty.status, empty.text, empty.headers.get('content-length')]).toEqual([200, '', '0']);
    const teapot = await post('/openai/v1/chat/completions', chatBody('x'), { authorization: 'Bearer k' });
    expect([teapot.status, teapot.headers.get('x-teapot'), JSON.parse(teapot.text)]).toEqual([
      418,
      'yes',
      { short: 'stout' },
    ]);
  });

  it('delay, chunk_delay and stall; a client abort is recorded', async () => {
    sim.scenario({
      responses: [
        { fault: 'delay', delay_ms: 150 },
        { fault: 'chunk_delay', chunk_delay_ms: 40 },
        { fault: 'stall', after_events: 2 },
      ],
    });
    let t = performance.now();
    await openai().chat.completions.create(chatBody('x'));
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
    t = performance.now();
    const chunks = await drain(await openai().chat.completions.create({ ...chatBody('a b'), stream: true }));
    expect(chunks).toHaveLength(5); // role, 3 words, finish
    expect(performance.now() - t).toBeGreaterThanOrEqual(4 * 40 - 10);

    const abort = new AbortController();
    const res = await fetch(`${sim.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify(chatBody('a b c', { stream: true })),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    let got = '';
    while (got.split('\n\n').length < 3) got += new TextDecoder().decode((await reader.read()).value);
    const more = await Promise.race([
      reader.read().then(() => 'data'),
      new Promise((r) => setTimeout(() => r('stalled'), 150)),
    ]);
    expect(more).toBe('stalled');
    abort.abort();
    await expect.poll(() => sim.requests()[2]!.client_aborted).toBe(true);
  });

  it('OpenAI-compatible bases: no /v1, keyless self-hosted, rerank, models, built-in sim-* models', async () => {
    const deepseek = await openai({ base: '/openai' }).chat.completions.create(chatBody('x'));
    expect(deepseek.choices[0]!.message.content).toBe('echo: x');
    const vllm = await post('/openai/noauth/v1/chat/completions', chatBody('no key'));
    expect([vllm.status, sim.requests()[1]!.key]).toEqual([200, undefined]);
    const rerank = await post(
      '/openai/v1/rerank',
      { model: 'rr', query: 'red apple', documents: ['green pear', 'red apple pie', 'red car'], top_n: 2 },
      { authorization: 'Bearer k' },
    );
    expect(JSON.parse(rerank.text).results.map((r: { index: number }) => r.index)).toEqual([1, 2]);
    const models = await openai().models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4o');
    const unknown = await post('/openai/v1/nothing', {}, { authorization: 'Bearer k' });
    expect([unknown.status, JSON.parse(unknown.text).error.message]).toEqual([
      404,
      'Invalid URL (POST /openai/v1/nothing)',
    ]);

    const limited = await rejection(openai().chat.completions.create({ ...chatBody('x'), model: 'sim-rate-limit' }));
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    const unavailable = await rejection(openai().chat.completions.create({ ...chatBody('x'), model: 'sim-error-503' }));
    expect(unavailable.status).toBe(503);
  });
});

describe('azure', () => {
  const azure = (maxRetries = 0) =>
    new AzureOpenAI({
      endpoint: `${sim.url}/azure`,
      apiKey: 'az-key-1',
      apiVersion: '2024-10-21',
      deployment: 'my-gpt4o',
      maxRetries,
    });

  it('deployments path, api-version and api-key; content filter annotations; stream with the empty first chunk', async () => {
    const chat = await azure().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi az' }],
    });
    expect(chat.choices[0]!.message.content).toBe('echo: hi az');
    expect((chat as any).prompt_filter_results[0].prompt_index).toBe(0);
    expect(sim.requests()[0]).toMatchObject({
      path: '/azure/openai/deployments/my-gpt4o/chat/completions',
      query: { 'api-version': '2024-10-21' },
      key: 'az-key-1',
      family: 'azure',
    });
    expect(sim.requests()[0]!.headers['api-key']).toBe('az-key-1');

    const chunks = (await drain(
      await azure().chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'streamed' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    )) as OpenAI.ChatCompletionChunk[];
    expect(chunks[0]!.choices).toEqual([]);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('echo: streamed');
    expect(chunks[chunks.length - 1]!.usage?.total_tokens).toBe(1 + 2);

    const emb = await azure().embeddings.create({ model: 'text-embedding-3-small', input: 'x' });
    expect(emb.data[0]!.embedding).toHaveLength(16);
  });

  it('v1 responses; api-version and key required on deployments; native error bodies and retry-after-ms', async () => {
    const v1 = new OpenAI({ apiKey: 'az-bearer', baseURL: `${sim.url}/azure/openai/v1`, maxRetries: 0 });
    expect((await v1.responses.create({ model: 'gpt-4o', input: 'v one' })).output_text).toBe('echo: v one');
    expect(sim.requests()[0]).toMatchObject({ path: '/azure/openai/v1/responses', key: 'az-bearer' });

    const noVersion = await post('/azure/openai/deployments/d/chat/completions', chatBody('x'), { 'api-key': 'k' });
    expect([noVersion.status, JSON.parse(noVersion.text).error.code]).toEqual([400, 'MissingApiVersionParameter']);
    const noKey = await post('/azure/openai/deployments/d/chat/completions?api-version=2024-10-21', chatBody('x'));
    expect([noKey.status, JSON.parse(noKey.text).error.code]).toEqual([401, '401']);

    sim.scenario({ match: { family: 'azure' }, responses: [{ fault: 'rate_limit', hint_ms: 1500 }] });
    const limited = await rejection(azure().chat.completions.create(chatBody('x')));
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(limited.headers.get('retry-after-ms')).toBe('1500');
    expect(limited.error).toMatchObject({ code: '429' });
  });
});

describe('anthropic', () => {
  it('messages: text, cache usage, request-id; auth and version headers captured', async () => {
    sim.scenario({ responses: [{ ok: true, usage: { cached_read_tokens: 5, cached_write_tokens: 2 } }] });
    const { data, response } = await anthropic()
      .messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        system: 'be nice',
        messages: [{ role: 'user', content: 'hello claude' }],
      })
      .withResponse();
    expect(data.id).toMatch(/^msg_/);
    expect(data.content).toEqual([{ type: 'text', text: 'echo: hello claude' }]);
    expect(data.stop_reason).toBe('end_turn');
    expect(data.usage).toMatchObject({
      input_tokens: 4,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 2,
      output_tokens: 3,
    });
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const [captured] = sim.requests();
    expect(captured).toMatchObject({ key: 'sk-ant-1', family: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(captured!.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('stream: message_start (cache usage), ping, blocks, message_delta, message_stop; no [DONE]', async () => {
    sim.scenario({ responses: [{ ok: true, usage: { cached_read_tokens: 7, web_search_requests: 2 } }] });
    const final = await anthropic()
      .messages.stream({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'tell me' }],
      })
      .finalMessage();
    expect(final.content).toEqual(
      [{ type: 'text', text: 'echo: tell me', citations: null }].map(({ type, text }) =>
        expect.objectContaining({ type, text }),
      ),
    );
    expect(final.usage).toMatchObject({
      input_tokens: 2,
      cache_read_input_tokens: 7,
      output_tokens: 3,
      server_tool_use: { web_search_requests: 2 },
    });
    expect(final.stop_reason).toBe('end_turn');

    const { text, headers } = await post(
      '/anthropic/v1/messages',
      { model: 'c', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] },
      { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
    );
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const names = text
      .trim()
      .split('\n\n')
      .map((e) => e.split('\n')[0]);
    expect(names).toEqual([
      'event: message_start',
      'event: ping',
      'event: content_block_start',
      'event: content_block_delta',
      'event: content_block_delta',
      'event: content_block_stop',
      'event: message_delta',
      'event: message_stop',
    ]);
    expect(text).not.toContain('[DONE]');
  });

  it('tool_use and thinking blocks, unary and streamed; count_tokens and models', async () => {
    const params = {
      model: 'claude-sonnet-4-5',
      max_tokens: 2000,
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      tools: [{ name: 'get_weather', input_schema: { type: 'object' as const } }],
      messages: [{ role: 'user' as const, content: 'call get_weather {"city":"Oslo"}' }],
    };
    const unary = await anthropic().messages.create(params);
    expect(unary.stop_reason).toBe('tool_use');
    expect(unary.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(unary.content[1]).toMatchObject({ name: 'get_weather', input: { city: 'Oslo' } });
    const streamed = await anthropic().messages.stream(params).finalMessage();
    expect(streamed.content[0]).toMatchObject({ type: 'thinking', signature: expect.any(String) });
    expect(streamed.content[1]).toMatchObject({
      type: 'tool_use',
      input: { city: 'Oslo' },
      id: expect.stringMatching(/^toolu_/),
    });

    const count = await anthropic().messages.countTokens({
      model: 'c',
      messages: [{ role: 'user', content: 'a b c' }],
    });
    expect(count.input_tokens).toBe(3);
    const models = await anthropic().models.list();
    expect(models.data.map((m) => m.id)).toContain('claude-sonnet-4-5');
  });

  it('errors: missing key 401, missing version 400, 529 overloaded with retry-after, in-stream error event', async () => {
    const noKey = await post('/anthropic/v1/messages', {}, { 'anthropic-version': '2023-06-01' });
    expect([noKey.status, JSON.parse(noKey.text).error.type]).toEqual([401, 'authentication_error']);
    const noVersion = await post('/anthropic/v1/messages', {}, { 'x-api-key': 'k' });
    expect(noVersion.status).toBe(400);
    expect(JSON.parse(noVersion.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
    });

    sim.scenario({
      responses: [
        { fault: 'overloaded', hint_ms: 2000 },
        { fault: 'rate_limit' },
        { fault: 'stream_error', after_events: 3 },
      ],
    });
    const body = { model: 'c', max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
    const overloaded = await rejection(anthropic().messages.create(body));
    expect(overloaded).toBeInstanceOf(Anthropic.InternalServerError);
    expect(overloaded.status).toBe(529);
    expect(overloaded.error.error.type).toBe('overloaded_error');
    expect(overloaded.headers.get('retry-after')).toBe('2');
    const limited = await rejection(anthropic().messages.create(body));
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect(limited.headers.get('retry-after')).toBe('1');
    const inStream = await rejection(anthropic().messages.stream(body).finalMessage());
    expect(inStream).toBeInstanceOf(Anthropic.APIError);
    expect(inStream.error.error.type).toBe('overloaded_error');
  });
});

describe('gemini', () => {
  const contents = 'hello gemini';

  it('generateContent: text, usageMetadata, key from x-goog-api-key or ?key=', async () => {
    sim.scenario({ responses: [{ ok: true, usage: { cached_read_tokens: 4, reasoning_tokens: 3 } }] });
    const res = await gemini().models.generateContent({ model: 'gemini-2.5-flash', contents });
    expect(res.text).toBe('echo: hello gemini');
    expect(res.candidates![0]!.finishReason).toBe('STOP');
    expect(res.usageMetadata).toMatchObject({
      promptTokenCount: 6,
      cachedContentTokenCount: 4,
      candidatesTokenCount: 3,
      thoughtsTokenCount: 3,
      totalTokenCount: 12,
    });
    expect(sim.requests()[0]).toMatchObject({
      path: '/gemini/v1beta/models/gemini-2.5-flash:generateContent',
      key: 'g-key-1',
      model: 'gemini-2.5-flash',
    });
    const byQuery = await post('/gemini/v1beta/models/m:generateContent?key=q-key', {
      contents: [{ parts: [{ text: 'x' }] }],
    });
    expect([byQuery.status, sim.requests()[1]!.key]).toEqual([200, 'q-key']);
    const noKey = await post('/gemini/v1beta/models/m:generateContent', { contents: [] });
    expect([noKey.status, JSON.parse(noKey.text).error.status]).toEqual([403, 'PERMISSION_DENIED']);
  });

  it('streams: SSE with CRLF (usage and finishReason on the last chunk), LF on request, and the JSON array', async () => {
    const chunks = await drain(await gemini().models.generateContentStream({ model: 'gemini-2.5-flash', contents }));
    const typed = chunks as Awaited<ReturnType<GoogleGenAI['models']['generateContent']>>[];
    expect(typed.map((c) => c.text).join('')).toBe('echo: hello gemini');
    expect(typed.slice(0, -1).every((c) => c.usageMetadata === undefined && !c.candidates![0]!.finishReason)).toBe(
      true,
    );
    expect(typed[typed.length - 1]!.usageMetadata?.totalTokenCount).toBe(2 + 3);
    expect(sim.requests()[0]).toMatchObject({ query: { alt: 'sse' }, stream: true });

    const sse = await post('/gemini/v1beta/models/m:streamGenerateContent?alt=sse&key=k', {
      contents: [{ parts: [{ text: 'x' }] }],
    });
    expect(sse.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(sse.text.split('\r\n\r\n')).toHaveLength(3); // 2 events and the empty tail
    sim.scenario({ responses: [{ ok: true, framing: 'lf' }] });
    const lf = await post('/gemini/v1beta/models/m:streamGenerateContent?alt=sse&key=k', {
      contents: [{ parts: [{ text: 'x' }] }],
    });
    expect(lf.text).not.toContain('\r');
    expect(lf.text.split('\n\n')).toHaveLength(3);

    const array = await post('/gemini/v1beta/models/m:streamGenerateContent?key=k', {
      contents: [{ parts: [{ text: 'x y' }] }],
    });
    expect(array.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const parsed = JSON.parse(array.text);
    expect(parsed).toHaveLength(3);
    expect(parsed[2].usageMetadata.promptTokenCount).toBe(2);
  });

  it('function calls, embeddings (single and batch), countTokens, models', async () => {
    const res = await gemini().models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'call get_weather {"city":"Rome"}',
      config: { tools: [{ functionDeclarations: [{ name: 'get_weather' }] }] },
    });
    expect(res.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Rome' } }]);

    const emb = await gemini().models.embedContent({
      model: 'gemini-embedding-001',
      contents: ['a', 'b'],
      config: { outputDimensionality: 4 },
    });
    expect(emb.embeddings!.map((e) => e.values!.length)).toEqual([4, 4]);
    expect(sim.requests()[1]!.path).toBe('/gemini/v1beta/models/gemini-embedding-001:batchEmbedContents');
    const single = await post('/gemini/v1beta/models/e:embedContent?key=k', { content: { parts: [{ text: 'a' }] } });
    expect(JSON.parse(single.text).embedding.values).toHaveLength(16);

    const count = await gemini().models.countTokens({ model: 'gemini-2.5-flash', contents: 'one two three' });
    expect(count.totalTokens).toBe(3);
    const models = await raw('/gemini/v1beta/models', { headers: { 'x-goog-api-key': 'k' } });
    expect(JSON.parse(models.text).models.map((m: { name: string }) => m.name)).toContain('models/gemini-2.5-flash');
  });

  it('errors: 429 with RetryInfo in the body, native status strings, in-stream error', async () => {
    sim.scenario({
      responses: [
        { fault: 'rate_limit', hint_ms: 37000 },
        { fault: 'error', status: 500 },
        { fault: 'stream_error', after_events: 1 },
      ],
    });
    const limited = await rejection(gemini().models.generateContent({ model: 'gemini-2.5-flash', contents }));
    expect(limited).toBeInstanceOf(ApiError);
    expect(limited.status).toBe(429);
    const body = JSON.parse(limited.message);
    expect(body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(body.error.details).toContainEqual({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: '37s',
    });
    const internal = await rejection(gemini().models.generateContent({ model: 'gemini-2.5-flash', contents }));
    expect([internal.status, JSON.parse(internal.message).error.status]).toEqual([500, 'INTERNAL']);
    const inStream = await rejection(
      drain(await gemini().models.generateContentStream({ model: 'gemini-2.5-flash', contents })),
    );
    expect(inStream).toBeInstanceOf(ApiError);
    expect(inStream.status).toBe(500);
  });
});

describe('control plane', () => {
  it('scenarios, requests and reset over HTTP; a bad scenario is a 400 naming the field', async () => {
    const bad = await post('/_sim/scenarios', { responses: [{ fault: 'explode' }] });
    expect([bad.status, JSON.parse(bad.text).error]).toEqual([
      400,
      'responses[0].fault "explode" is not a known fault',
    ]);
    const badUsage = await post('/_sim/scenarios', { responses: [{ ok: true, usage: { tokens: 1 } }] });
    expect(JSON.parse(badUsage.text).error).toBe('responses[0].usage.tokens is not a usage knob');
    expect(() => sim.scenario({ responses: [] })).toThrow('responses must be a non-empty array');

    const created = await post('/_sim/scenarios', [
      { match: { family: 'gemini' }, responses: [{ fault: 'error', status: 503 }] },
      { match: { path: 'chat' }, responses: [{ ok: true, text: 'scripted' }] },
    ]);
    expect([created.status, JSON.parse(created.text)]).toEqual([201, { ids: ['scn_1', 'scn_2'] }]);
    expect((await openai().chat.completions.create(chatBody('x'))).choices[0]!.message.content).toBe('scripted');
    const listed = JSON.parse((await raw('/_sim/scenarios')).text).scenarios;
    expect(listed.map((s: { used: number }) => s.used)).toEqual([0, 1]);

    const captured = JSON.parse((await raw('/_sim/requests?family=openai')).text).requests;
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({
      method: 'POST',
      path: '/openai/v1/chat/completions',
      key: 'sk-test-1',
      scenario: 'scn_2',
    });
    expect(captured[0].headers.authorization).toBe('Bearer sk-test-1');
    expect(typeof captured[0].time).toBe('number');

    expect((await raw('/_sim/reset', { method: 'POST' })).status).toBe(204);
    expect(JSON.parse((await raw('/_sim/requests')).text).requests).toEqual([]);
    expect(JSON.parse((await raw('/_sim/scenarios')).text).scenarios).toEqual([]);
    expect((await raw('/nowhere/v1/x')).status).toBe(404);
  });
});
