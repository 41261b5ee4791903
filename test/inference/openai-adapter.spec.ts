import { describe, expect, it } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import type { ProviderId } from '../../src/modules/inference/providers/provider-ids.js';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import {
  toOpenAiWireUsage,
  toResponsesWireUsage,
  usageFromOpenAi,
} from '../../src/modules/inference/providers/openai/openai-usage.js';
import type {
  InferenceKind,
  ProviderAdapter,
  UpstreamCall,
} from '../../src/modules/inference/providers/shared/provider-adapter.js';
import {
  CHAT_TEXT_CHUNKS,
  CHAT_TEXT_STREAM,
  CHAT_TOOL_STREAM,
  RESPONSES_EVENTS,
  RESPONSES_STREAM,
  decode,
  decodeAsIs,
  splits,
  sse,
  target,
  typedSse,
} from './openai-wire-fixtures.js';

function adapter(provider: ProviderId): ProviderAdapter {
  const a = adapterFor(provider);
  if (!a) throw new Error(`no adapter for ${provider}`);
  return a;
}

function body(call: UpstreamCall): Record<string, any> {
  return JSON.parse(call.body ?? 'null');
}

const OPENAI_COMPATIBLE: ProviderId[] = [
  'openai',
  'groq',
  'cerebras',
  'fireworks',
  'xai',
  'nebius',
  'parasail',
  'deepseek',
  'perplexity',
  'openrouter',
  'mistral',
  'huggingface',
  'ollama',
  'vllm',
  'sgl',
  'wafer',
  'zro',
  'sarvam',
  'databricks',
];

describe('registry', () => {
  it('registers every OpenAI-compatible id and azure', () => {
    for (const id of [...OPENAI_COMPATIBLE, 'azure'] as ProviderId[]) expect(adapterFor(id), id).toBeDefined();
  });

  it('serves the providers that are not plainly OpenAI-shaped with their own adapters, not the OpenAI-compatible one', () => {
    for (const id of ['github-copilot', 'opencode-go', 'opencode-zen', 'bedrock_mantle'] as ProviderId[]) {
      expect(adapterFor(id), id).toBeDefined();
      expect(adapterFor(id), id).not.toBe(adapterFor('openai'));
      expect(adapterFor(id)!.constructor, id).not.toBe(adapterFor('groq')!.constructor);
    }
  });
});

describe('default base URLs and upstream URLs per provider', () => {
  it.each([
    ['openai', 'https://api.openai.com/v1'],
    ['groq', 'https://api.groq.com/openai/v1'],
    ['cerebras', 'https://api.cerebras.ai/v1'],
    ['fireworks', 'https://api.fireworks.ai/inference/v1'],
    ['xai', 'https://api.x.ai/v1'],
    ['nebius', 'https://api.tokenfactory.nebius.com/v1'],
    ['parasail', 'https://api.parasail.io/v1'],
    ['deepseek', 'https://api.deepseek.com'],
    ['perplexity', 'https://api.perplexity.ai'],
    ['openrouter', 'https://openrouter.ai/api/v1'],
    ['mistral', 'https://api.mistral.ai/v1'],
    ['huggingface', 'https://router.huggingface.co/v1'],
    ['wafer', 'https://pass.wafer.ai/v1'],
    ['zro', 'https://zro.moonmath.ai/v1'],
    ['sarvam', 'https://api.sarvam.ai/v1'],
  ] as Array<[ProviderId, string]>)('%s chat goes to %s/chat/completions', (provider, base) => {
    const a = adapter(provider);
    expect(a.defaultBaseUrl(provider)).toBe(base);
    const call = a.buildRequest('chat', { model: 'x', messages: [] }, target(provider, { baseUrl: base }), false);
    expect(call.method).toBe('POST');
    expect(call.url).toBe(`${base}/chat/completions`);
  });

  it('self-hosted servers and Databricks have no default base', () => {
    for (const id of ['ollama', 'vllm', 'sgl', 'databricks'] as ProviderId[]) {
      expect(adapter(id).defaultBaseUrl(id), id).toBeUndefined();
    }
  });

  it.each([
    ['openai', 'responses', 'https://api.openai.com/v1', 'https://api.openai.com/v1/responses'],
    ['openai', 'count_tokens', 'https://api.openai.com/v1', 'https://api.openai.com/v1/responses/input_tokens'],
    ['openai', 'completions', 'https://api.openai.com/v1', 'https://api.openai.com/v1/completions'],
    ['openai', 'embeddings', 'https://proxy.internal/openai/v1/', 'https://proxy.internal/openai/v1/embeddings'],
    ['deepseek', 'completions', 'https://api.deepseek.com', 'https://api.deepseek.com/beta/completions'],
    ['mistral', 'embeddings', 'https://api.mistral.ai/v1', 'https://api.mistral.ai/v1/embeddings'],
    ['vllm', 'chat', 'http://gpu-1:8000', 'http://gpu-1:8000/v1/chat/completions'],
    ['vllm', 'chat', 'http://gpu-1:8000/v1/', 'http://gpu-1:8000/v1/chat/completions'],
    ['vllm', 'rerank', 'http://gpu-1:8000', 'http://gpu-1:8000/v1/rerank'],
    ['sgl', 'rerank', 'http://sgl:30000/v1', 'http://sgl:30000/v1/rerank'],
    ['ollama', 'embeddings', 'http://localhost:11434', 'http://localhost:11434/v1/embeddings'],
    [
      'databricks',
      'chat',
      'https://adb-1234.5.azuredatabricks.net',
      'https://adb-1234.5.azuredatabricks.net/serving-endpoints/chat/completions',
    ],
    [
      'databricks',
      'embeddings',
      'https://adb-1234.5.azuredatabricks.net/serving-endpoints',
      'https://adb-1234.5.azuredatabricks.net/serving-endpoints/embeddings',
    ],
  ] as Array<[ProviderId, InferenceKind, string, string]>)('%s %s on %s → %s', (provider, kind, base, url) => {
    const call = adapter(provider).buildRequest(
      kind,
      { model: 'm', input: 'x' },
      target(provider, { baseUrl: base }),
      false,
    );
    expect(call.url).toBe(url);
  });

  it('lists models at {base}/models, and Databricks at its serving-endpoints API', () => {
    const openai = adapter('openai').buildListModels(target('openai', { baseUrl: 'https://api.openai.com/v1' }));
    expect(openai).toMatchObject({ method: 'GET', url: 'https://api.openai.com/v1/models' });
    expect(openai.headers.authorization).toBe('Bearer sk-test-123');
    expect(openai.body).toBeUndefined();
    expect(openai.headers['content-type']).toBeUndefined();
    const vllm = adapter('vllm').buildListModels(target('vllm', { baseUrl: 'http://gpu-1:8000' }));
    expect(vllm.url).toBe('http://gpu-1:8000/v1/models');
    for (const base of ['https://adb-1.azuredatabricks.net', 'https://adb-1.azuredatabricks.net/serving-endpoints/']) {
      const call = adapter('databricks').buildListModels(target('databricks', { baseUrl: base }));
      expect(call.url).toBe('https://adb-1.azuredatabricks.net/api/2.0/serving-endpoints');
    }
  });
});

describe('kinds per provider', () => {
  it.each([
    [
      'openai',
      [
        'chat',
        'completions',
        'embeddings',
        'responses',
        'count_tokens',
        'speech',
        'transcription',
        'image_generation',
        'image_edit',
        'image_variation',
      ],
    ],
    ['groq', ['chat', 'transcription']],
    ['perplexity', ['chat']],
    ['huggingface', ['chat', 'embeddings', 'image_generation']],
    ['sarvam', ['chat', 'speech', 'transcription']],
    ['mistral', ['chat', 'embeddings', 'ocr', 'transcription']],
    ['deepseek', ['chat', 'completions']],
    ['vllm', ['chat', 'completions', 'embeddings', 'rerank']],
    ['sgl', ['chat', 'completions', 'embeddings', 'rerank']],
    ['databricks', ['chat', 'completions', 'embeddings']],
  ] as Array<[ProviderId, InferenceKind[]]>)('%s speaks %j', (provider, kinds) => {
    expect([...adapter(provider).kinds].sort()).toEqual([...kinds].sort());
  });

  it('only openai has native responses and count_tokens', () => {
    for (const id of OPENAI_COMPATIBLE.filter((p) => p !== 'openai')) {
      expect(adapter(id).kinds.has('responses'), id).toBe(false);
      expect(adapter(id).kinds.has('count_tokens'), id).toBe(false);
    }
  });

  it('refuses a kind the provider lacks with 400 unsupported_operation', () => {
    let thrown: unknown;
    try {
      adapter('groq').buildRequest('embeddings', { model: 'x', input: 'a' }, target('groq'), false);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(GatewayException);
    expect(thrown).toMatchObject({ status: 400, code: 'unsupported_operation', reason: 'caller_invalid_request' });
  });
});

describe('headers', () => {
  it('sends the key as Bearer, JSON content type, and the provider extra headers', () => {
    const call = adapter('groq').buildRequest(
      'chat',
      { model: 'x', messages: [] },
      target('groq', { extraHeaders: { 'X-Team': 'ml', Authorization: 'Bearer hijack' } }),
      false,
    );
    expect(call.headers).toEqual({
      'x-team': 'ml',
      authorization: 'Bearer sk-test-123',
      'content-type': 'application/json',
      accept: 'application/json',
    });
  });

  it('asks for an event stream when streaming', () => {
    const call = adapter('openai').buildRequest('chat', { model: 'x', messages: [] }, target('openai'), true);
    expect(call.headers.accept).toBe('text/event-stream');
  });

  it('sends no Authorization header for a self-hosted server without a key', () => {
    const t = target('vllm', { baseUrl: 'http://gpu-1:8000', key: { id: 'k', name: 'local', value: '' } });
    const call = adapter('vllm').buildRequest('chat', { model: 'x', messages: [] }, t, false);
    expect(call.headers.authorization).toBeUndefined();
    expect(Object.keys(call.headers).sort()).toEqual(['accept', 'content-type']);
    expect(adapter('vllm').buildListModels(t).headers.authorization).toBeUndefined();
  });
});

describe('request bodies', () => {
  const chatBody = {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Hi' }],
    stream: true,
    stream_options: { include_usage: false, include_obfuscation: false },
    temperature: 0.2,
  };

  it('streams ask for usage upstream whatever the caller said, keeping the caller’s other stream options', () => {
    const call = adapter('openai').buildRequest('chat', chatBody, target('openai', { model: 'gpt-4o-mini' }), true);
    expect(body(call)).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true, include_obfuscation: false },
      temperature: 0.2,
    });
  });

  it('completions streams ask for usage too', () => {
    const call = adapter('cerebras').buildRequest('completions', { model: 'x', prompt: 'a' }, target('cerebras'), true);
    expect(body(call)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('a unary call carries neither stream nor stream_options', () => {
    const call = adapter('openai').buildRequest('chat', chatBody, target('openai'), false);
    expect(body(call)).not.toHaveProperty('stream');
    expect(body(call)).not.toHaveProperty('stream_options');
  });

  it('embeddings never stream', () => {
    const call = adapter('openai').buildRequest(
      'embeddings',
      { model: 'e', input: ['a'], stream: true },
      target('openai'),
      true,
    );
    expect(body(call)).toEqual({ model: 'gpt-4o', input: ['a'] });
    expect(call.headers.accept).toBe('application/json');
  });

  it('native responses stream without stream_options injected', () => {
    const call = adapter('openai').buildRequest('responses', { model: 'x', input: 'hi' }, target('openai'), true);
    expect(body(call)).toEqual({ model: 'gpt-4o', input: 'hi', stream: true });
  });

  it('count_tokens posts the Responses input', () => {
    const req = { model: 'gpt-4o', input: [{ role: 'user', content: 'hi' }], instructions: 'be brief' };
    const call = adapter('openai').buildRequest('count_tokens', req, target('openai'), false);
    expect(call.url).toBe('https://api.example.test/v1/responses/input_tokens');
    expect(body(call)).toEqual(req);
  });

  it('rerank passes the Cohere/Jina shape through', () => {
    const req = {
      model: 'BAAI/bge-reranker-v2-m3',
      query: 'q',
      documents: ['a', 'b'],
      top_n: 1,
      return_documents: true,
    };
    const call = adapter('vllm').buildRequest(
      'rerank',
      req,
      target('vllm', { model: 'BAAI/bge-reranker-v2-m3' }),
      false,
    );
    expect(body(call)).toEqual(req);
  });

  it('mistral gets max_tokens instead of max_completion_tokens', () => {
    const call = adapter('mistral').buildRequest(
      'chat',
      { model: 'm', messages: [], max_completion_tokens: 64 },
      target('mistral'),
      false,
    );
    expect(body(call).max_tokens).toBe(64);
    expect(body(call)).not.toHaveProperty('max_completion_tokens');
  });

  it('databricks drops stream_options for Gemini models only', () => {
    const gemini = adapter('databricks').buildRequest(
      'chat',
      { model: 'x', messages: [] },
      target('databricks', { model: 'databricks-gemini-2-5-pro' }),
      true,
    );
    expect(body(gemini)).toEqual({ model: 'databricks-gemini-2-5-pro', messages: [], stream: true });
    const claude = adapter('databricks').buildRequest(
      'chat',
      { model: 'x', messages: [] },
      target('databricks', { model: 'databricks-claude-sonnet-4-5' }),
      true,
    );
    expect(body(claude).stream_options).toEqual({ include_usage: true });
  });
});

describe('unary responses and usage per provider', () => {
  const chatCompletion = {
    id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    object: 'chat.completion',
    created: 1741569952,
    model: 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Hello! How can I assist you today?', refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 128,
        audio_tokens: 0,
        accepted_prediction_tokens: 3,
        rejected_prediction_tokens: 1,
      },
    },
    service_tier: 'default',
  };

  it('openai chat: body untouched, cached and reasoning tokens mapped, a snapshot is not a fallback', () => {
    const parsed = adapter('openai').parseResponse('chat', chatCompletion, target('openai'));
    expect(parsed.body).toBe(chatCompletion);
    expect(parsed.answeredModel).toBeUndefined();
    expect(parsed.usage).toEqual({
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { audio_tokens: 0, cached_read_tokens: 1920 },
      completion_tokens_details: {
        accepted_prediction_tokens: 3,
        audio_tokens: 0,
        reasoning_tokens: 128,
        rejected_prediction_tokens: 1,
      },
    });
  });

  it('perplexity: citation, search, reasoning tokens and its cost object', () => {
    const pplx = {
      id: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
      model: 'sonar-deep-research',
      object: 'chat.completion',
      created: 1724369245,
      citations: ['https://example.com/a'],
      search_results: [{ title: 'A', url: 'https://example.com/a', date: '2025-01-01' }],
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Answer [1]' } }],
      usage: {
        prompt_tokens: 19,
        completion_tokens: 498,
        total_tokens: 517,
        search_context_size: 'low',
        citation_tokens: 6235,
        num_search_queries: 4,
        reasoning_tokens: 41223,
        cost: {
          input_tokens_cost: 0.00004,
          output_tokens_cost: 0.004,
          citation_tokens_cost: 0.01247,
          reasoning_tokens_cost: 0.12367,
          search_queries_cost: 0.02,
          total_cost: 0.16018,
        },
      },
    };
    const parsed = adapter('perplexity').parseResponse(
      'chat',
      pplx,
      target('perplexity', { model: 'sonar-deep-research' }),
    );
    expect(parsed.usage).toEqual({
      prompt_tokens: 19,
      completion_tokens: 498,
      total_tokens: 517,
      completion_tokens_details: { citation_tokens: 6235, num_search_queries: 4, reasoning_tokens: 41223 },
      tool_usage: { web_search: { num_requests: 4 } },
      cost: {
        input_tokens_cost: 0.00004,
        output_tokens_cost: 0.004,
        citation_tokens_cost: 0.01247,
        reasoning_tokens_cost: 0.12367,
        search_queries_cost: 0.02,
        total_cost: 0.16018,
      },
    });
    expect(parsed.body.citations).toEqual(['https://example.com/a']);
  });

  it('openrouter: usage.cost is the total, cache write read, and a server-side fallback is reported', () => {
    const orBody = {
      id: 'gen-1740000000-abc',
      provider: 'Anthropic',
      model: 'anthropic/claude-3.5-sonnet',
      object: 'chat.completion',
      created: 1740000000,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }],
      usage: {
        prompt_tokens: 194,
        completion_tokens: 2,
        total_tokens: 196,
        cost: 0.00095,
        is_byok: false,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 150, audio_tokens: 0 },
        cost_details: { upstream_inference_cost: null },
        completion_tokens_details: { reasoning_tokens: 0, image_tokens: 0 },
      },
    };
    const parsed = adapter('openrouter').parseResponse(
      'chat',
      orBody,
      target('openrouter', { model: 'openrouter/auto' }),
    );
    expect(parsed.usage?.cost).toEqual({ total_cost: 0.00095 });
    expect(parsed.usage?.prompt_tokens_details).toEqual({
      cached_read_tokens: 0,
      cached_write_tokens: 150,
      audio_tokens: 0,
    });
    expect(parsed.answeredModel).toBe('anthropic/claude-3.5-sonnet');
    const same = adapter('openrouter').parseResponse(
      'chat',
      orBody,
      target('openrouter', { model: 'anthropic/claude-3.5-sonnet' }),
    );
    expect(same.answeredModel).toBeUndefined();
  });

  it('deepseek: prompt_cache_hit_tokens is the cache read', () => {
    const usage = {
      prompt_tokens: 100,
      completion_tokens: 5,
      total_tokens: 105,
      prompt_cache_hit_tokens: 64,
      prompt_cache_miss_tokens: 36,
    };
    const parsed = adapter('deepseek').parseResponse('chat', { choices: [], usage }, target('deepseek'));
    expect(parsed.usage?.prompt_tokens_details).toEqual({ cached_read_tokens: 64 });
  });

  it('embeddings usage has no completion tokens', () => {
    const emb = {
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.0023064255, -0.009327292] }],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 8, total_tokens: 8 },
    };
    expect(adapter('openai').parseResponse('embeddings', emb, target('openai')).usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 0,
      total_tokens: 8,
    });
  });

  it('responses: input/output tokens, cached, reasoning, and web_search_call items counted', () => {
    const resp = {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      output: [
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        { type: 'web_search_call', id: 'ws_2', status: 'completed' },
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [] },
      ],
      usage: {
        input_tokens: 328,
        input_tokens_details: { cached_tokens: 256 },
        output_tokens: 52,
        output_tokens_details: { reasoning_tokens: 16 },
        total_tokens: 380,
      },
    };
    expect(adapter('openai').parseResponse('responses', resp, target('openai')).usage).toEqual({
      prompt_tokens: 328,
      completion_tokens: 52,
      total_tokens: 380,
      prompt_tokens_details: { cached_read_tokens: 256 },
      completion_tokens_details: { reasoning_tokens: 16, num_search_queries: 2 },
      tool_usage: { web_search: { num_requests: 2 } },
    });
  });

  it('count_tokens returns the body as is, without usage', () => {
    const counted = { object: 'response.input_tokens', input_tokens: 11 };
    expect(adapter('openai').parseResponse('count_tokens', counted, target('openai'))).toEqual({ body: counted });
  });

  it('rerank: the vLLM answer keeps its shape and its usage is input-only', () => {
    const vllm = {
      id: 'rerank-3c9f',
      model: 'BAAI/bge-reranker-v2-m3',
      usage: { total_tokens: 42 },
      results: [
        { index: 1, document: { text: 'Paris is the capital of France.' }, relevance_score: 0.998 },
        { index: 0, document: { text: 'Berlin' }, relevance_score: 0.01 },
      ],
    };
    const parsed = adapter('vllm').parseResponse('rerank', vllm, target('vllm'));
    expect(parsed.body).toEqual(vllm);
    expect(parsed.usage).toEqual({ prompt_tokens: 42, completion_tokens: 0, total_tokens: 42 });
  });

  it('rerank: the SGLang array answer becomes results with relevance_score', () => {
    const sgl = [
      { score: 0.91, document: 'Paris is the capital of France.', index: 1, meta_info: { id: 'x', prompt_tokens: 12 } },
      { score: 0.02, document: 'Berlin', index: 0, meta_info: { id: 'y', prompt_tokens: 5 } },
    ];
    const parsed = adapter('sgl').parseResponse('rerank', sgl as any, target('sgl'));
    expect(parsed.body).toEqual({
      results: [
        { index: 1, relevance_score: 0.91, document: { text: 'Paris is the capital of France.' } },
        { index: 0, relevance_score: 0.02, document: { text: 'Berlin' } },
      ],
    });
    expect(parsed.usage).toBeUndefined();
  });
});

describe('chat and completions streams', () => {
  const openai = () => adapter('openai').streamDecoder('chat', target('openai'));

  it('yields every chunk untouched, with contract usage on the usage-only chunk', () => {
    const out = decode(openai(), [CHAT_TEXT_STREAM]);
    expect(out).toHaveLength(CHAT_TEXT_CHUNKS.length);
    out.forEach((o, i) => expect(o).toMatchObject({ kind: 'chunk', chunk: CHAT_TEXT_CHUNKS[i] }));
    expect(out.slice(0, -1).every((o) => o.kind === 'chunk' && o.usage === undefined)).toBe(true);
    expect(out.at(-1)).toMatchObject({
      kind: 'chunk',
      usage: {
        prompt_tokens: 1200,
        completion_tokens: 10,
        total_tokens: 1210,
        prompt_tokens_details: { cached_read_tokens: 1024, audio_tokens: 0 },
      },
    });
  });

  it('gives the same outputs however the bytes are split', () => {
    const whole = decode(openai(), [CHAT_TEXT_STREAM]);
    for (const pieces of splits(CHAT_TEXT_STREAM)) expect(decode(openai(), pieces)).toEqual(whole);
  });

  it('reads CRLF and CR line ends, split anywhere', () => {
    const whole = decode(openai(), [CHAT_TEXT_STREAM]);
    for (const text of [CHAT_TEXT_STREAM.replace(/\n/g, '\r\n'), CHAT_TEXT_STREAM.replace(/\n/g, '\r')]) {
      for (const pieces of splits(text)) expect(decode(openai(), pieces)).toEqual(whole);
    }
  });

  it('ignores comments and keep-alives', () => {
    const text = `: OPENROUTER PROCESSING\n\n${sse(CHAT_TEXT_CHUNKS[1]!)}:\n\n${sse('[DONE]')}`;
    const out = decode(openai(), [text]);
    expect(out).toEqual([{ kind: 'chunk', chunk: CHAT_TEXT_CHUNKS[1], raw: JSON.stringify(CHAT_TEXT_CHUNKS[1]) }]);
  });

  it('a stream that ends without [DONE] ends with a provider_server_error output', () => {
    const cut = sse(...CHAT_TEXT_CHUNKS);
    const out = decode(openai(), [cut]);
    expect(out.slice(0, -1)).toHaveLength(CHAT_TEXT_CHUNKS.length);
    expect(out.at(-1)).toEqual({
      kind: 'error',
      error: {
        status: 502,
        reason: 'provider_server_error',
        message: "The provider's stream ended before data: [DONE]",
      },
    });
  });

  it('a connection dropped in the middle of an event is an error, not a half chunk', () => {
    const cut = CHAT_TEXT_STREAM.slice(0, CHAT_TEXT_STREAM.indexOf('Hello') + 3);
    const out = decode(openai(), [cut]);
    expect(out.map((o) => o.kind)).toEqual(['chunk', 'error']);
  });

  it('an in-stream error object is an error output and ends decoding', () => {
    const text =
      sse(CHAT_TEXT_CHUNKS[1]!) +
      sse({
        error: {
          message: 'The server had an error while processing your request.',
          type: 'server_error',
          param: null,
          code: null,
        },
      }) +
      sse(CHAT_TEXT_CHUNKS[2]!, '[DONE]');
    const out = decode(openai(), [text]);
    expect(out).toHaveLength(2);
    expect(out[1]).toEqual({
      kind: 'error',
      error: {
        status: 500,
        reason: 'provider_server_error',
        message: 'The server had an error while processing your request.',
        type: 'server_error',
      },
    });
  });

  it('an OpenRouter mid-stream error keeps its numeric code as the status', () => {
    const text = sse({
      id: 'gen-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'x',
      error: { code: 429, message: 'Rate limit exceeded upstream' },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    });
    const [out] = decode(adapter('openrouter').streamDecoder('chat', target('openrouter')), [text]);
    expect(out).toEqual({
      kind: 'error',
      error: { status: 429, reason: 'provider_rate_limited', message: 'Rate limit exceeded upstream', code: '429' },
    });
  });

  it('plain chunks are relayed as sent without being parsed; usage, errors and cut events are read', () => {
    const plain = JSON.stringify(CHAT_TEXT_CHUNKS[1]);
    const [relayed] = decodeAsIs(openai(), [sse(CHAT_TEXT_CHUNKS[1]!, '[DONE]')]);
    // Only the wire text is on the output; its parse exists once something reads `chunk`.
    expect(Object.keys(relayed!).sort()).toEqual(['kind', 'raw']);
    expect(relayed).toMatchObject({ kind: 'chunk', raw: plain });
    expect(relayed!.kind === 'chunk' && relayed!.chunk).toEqual(CHAT_TEXT_CHUNKS[1]);

    const withUsage = { ...CHAT_TEXT_CHUNKS[1], choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } };
    const [usage] = decodeAsIs(openai(), [sse(withUsage, '[DONE]')]);
    expect(usage).toMatchObject({ kind: 'chunk', usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } });
    const [groq] = decodeAsIs(openai(), [sse({ ...CHAT_TEXT_CHUNKS[1], x_groq: { usage: { prompt_tokens: 1 } } })]);
    expect(groq).toMatchObject({ kind: 'chunk', usage: { prompt_tokens: 1 } });
    const [error] = decodeAsIs(openai(), [sse({ error: { message: 'overloaded', type: 'server_error' } })]);
    expect(error).toMatchObject({ kind: 'error' });
    // Content that merely mentions a marker is escaped inside its string, so the chunk stays plain.
    const mention = { ...CHAT_TEXT_CHUNKS[1], choices: [{ index: 0, delta: { content: 'say "error" or "usage"' } }] };
    const [quoted] = decodeAsIs(openai(), [sse(mention, '[DONE]')]);
    expect(Object.keys(quoted!).sort()).toEqual(['kind', 'raw']);
    // A stream cut mid-event leaves an unterminated tail, which is always parsed (this one fails to).
    const [cut] = decodeAsIs(openai(), ['data: {"id": "chatcmpl-1", "choices": [{"delta": {"content": "x"}}']);
    expect(cut).toMatchObject({ kind: 'error', error: { status: 502, reason: 'provider_server_error' } });
  });

  it('an unreadable event is an error', () => {
    const out = decode(openai(), [sse('{"id": "chatcmpl-1", "choices": [')]);
    expect(out).toEqual([
      { kind: 'error', error: expect.objectContaining({ status: 502, reason: 'provider_server_error' }) },
    ]);
  });

  it('a last [DONE] without its blank line still ends the stream cleanly', () => {
    for (const tail of ['data: [DONE]\n', 'data: [DONE]', 'data:[DONE]\r\n']) {
      const out = decode(openai(), [sse(CHAT_TEXT_CHUNKS[1]!) + tail]);
      expect(out, JSON.stringify(tail)).toEqual([
        { kind: 'chunk', chunk: CHAT_TEXT_CHUNKS[1], raw: JSON.stringify(CHAT_TEXT_CHUNKS[1]) },
      ]);
    }
  });

  it('anything after [DONE] is ignored', () => {
    const out = decode(openai(), [sse(CHAT_TEXT_CHUNKS[1]!, '[DONE]', CHAT_TEXT_CHUNKS[2]!)]);
    expect(out).toEqual([{ kind: 'chunk', chunk: CHAT_TEXT_CHUNKS[1], raw: JSON.stringify(CHAT_TEXT_CHUNKS[1]) }]);
  });

  it('tool-call fragments pass through in order', () => {
    const out = decode(openai(), [CHAT_TOOL_STREAM]);
    const args = out
      .flatMap((o) => (o.kind === 'chunk' ? ((o.chunk.choices as any[])[0]?.delta?.tool_calls ?? []) : []))
      .filter((t: any) => t.index === 0)
      .map((t: any) => t.function.arguments)
      .join('');
    expect(args).toBe('{"location": "Paris"}');
    expect(out.at(-1)).toMatchObject({
      kind: 'chunk',
      usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 },
    });
  });

  it('text_completion chunks of /completions', () => {
    const chunks = [
      {
        id: 'cmpl-7',
        object: 'text_completion',
        created: 1,
        model: 'gpt-3.5-turbo-instruct',
        choices: [{ text: 'Hel', index: 0, logprobs: null, finish_reason: null }],
        usage: null,
      },
      {
        id: 'cmpl-7',
        object: 'text_completion',
        created: 1,
        model: 'gpt-3.5-turbo-instruct',
        choices: [{ text: 'lo', index: 0, logprobs: null, finish_reason: 'stop' }],
        usage: null,
      },
      {
        id: 'cmpl-7',
        object: 'text_completion',
        created: 1,
        model: 'gpt-3.5-turbo-instruct',
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      },
    ];
    const out = decode(adapter('openai').streamDecoder('completions', target('openai')), [sse(...chunks, '[DONE]')]);
    expect(out.map((o) => (o.kind === 'chunk' ? o.chunk : o))).toEqual(chunks);
    expect(out[2]).toMatchObject({ usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
  });

  it('Groq puts stream usage in x_groq', () => {
    const last = {
      id: 'chatcmpl-g',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'llama-3.3-70b-versatile',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      x_groq: {
        id: 'req_01',
        usage: {
          queue_time: 0.02,
          prompt_tokens: 24,
          prompt_time: 0.001,
          completion_tokens: 9,
          completion_time: 0.01,
          total_tokens: 33,
          total_time: 0.011,
        },
      },
    };
    const out = decode(adapter('groq').streamDecoder('chat', target('groq')), [sse(last, '[DONE]')]);
    expect(out).toEqual([
      { kind: 'chunk', chunk: last, usage: { prompt_tokens: 24, completion_tokens: 9, total_tokens: 33 } },
    ]);
  });

  it('perplexity may end after the finish chunk without [DONE]; a cut perplexity stream still fails', () => {
    const base = { id: 'p1', model: 'sonar', object: 'chat.completion.chunk', created: 1 };
    const usage = {
      prompt_tokens: 5,
      completion_tokens: 2,
      total_tokens: 7,
      num_search_queries: 1,
      cost: { total_cost: 0.005 },
    };
    const complete = sse(
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }], usage },
      { ...base, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }], usage },
    );
    const pplx = () => adapter('perplexity').streamDecoder('chat', target('perplexity'));
    const out = decode(pplx(), [complete]);
    expect(out.map((o) => o.kind)).toEqual(['chunk', 'chunk']);
    expect(out[1]).toMatchObject({
      usage: { cost: { total_cost: 0.005 }, tool_usage: { web_search: { num_requests: 1 } } },
    });
    const cut = complete.slice(0, complete.indexOf('\n\n') + 2);
    expect(decode(pplx(), [cut]).map((o) => o.kind)).toEqual(['chunk', 'error']);
  });
});

describe('native Responses streams (openai)', () => {
  const decoder = () => adapter('openai').streamDecoder('responses', target('openai'));

  it('yields typed events; usage comes with response.completed, which ends the stream', () => {
    const out = decode(decoder(), [RESPONSES_STREAM]);
    expect(out.map((o) => (o.kind === 'event' ? o.event : o.kind))).toEqual(RESPONSES_EVENTS.map((e) => e.event));
    out.forEach((o, i) => expect(o).toMatchObject({ kind: 'event', data: RESPONSES_EVENTS[i]!.data }));
    expect(out.slice(0, -1).every((o) => o.kind === 'event' && o.usage === undefined)).toBe(true);
    expect(out.at(-1)).toMatchObject({
      kind: 'event',
      event: 'response.completed',
      usage: {
        prompt_tokens: 2048,
        completion_tokens: 311,
        total_tokens: 2359,
        prompt_tokens_details: { cached_read_tokens: 1536 },
        completion_tokens_details: { reasoning_tokens: 256 },
      },
    });
  });

  it('gives the same events however split, LF or CRLF', () => {
    const whole = decode(decoder(), [RESPONSES_STREAM]);
    for (const text of [RESPONSES_STREAM, RESPONSES_STREAM.replace(/\n/g, '\r\n')]) {
      for (const pieces of splits(text)) expect(decode(decoder(), pieces)).toEqual(whole);
    }
  });

  it('a stream without response.completed ends with an error output', () => {
    const out = decode(decoder(), [typedSse(RESPONSES_EVENTS.slice(0, 6))]);
    expect(out).toHaveLength(7);
    expect(out.at(-1)).toEqual({
      kind: 'error',
      error: {
        status: 502,
        reason: 'provider_server_error',
        message: "The provider's stream ended before response.completed",
      },
    });
  });

  it('response.incomplete also ends the stream, with its usage', () => {
    const incomplete = {
      event: 'response.incomplete',
      data: {
        type: 'response.incomplete',
        sequence_number: 3,
        response: {
          id: 'resp_1',
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
          output: [],
          usage: { input_tokens: 5, output_tokens: 16, total_tokens: 21 },
        },
      },
    };
    const out = decode(decoder(), [typedSse([...RESPONSES_EVENTS.slice(0, 2), incomplete])]);
    expect(out.at(-1)).toMatchObject({
      kind: 'event',
      event: 'response.incomplete',
      usage: { prompt_tokens: 5, completion_tokens: 16 },
    });
  });

  it('response.failed is an error output carrying the billed usage', () => {
    const failed = {
      event: 'response.failed',
      data: {
        type: 'response.failed',
        sequence_number: 4,
        response: {
          id: 'resp_1',
          object: 'response',
          status: 'failed',
          error: { code: 'server_error', message: 'The model failed to generate a response.' },
          output: [],
          usage: { input_tokens: 120, output_tokens: 7, total_tokens: 127 },
        },
      },
    };
    const out = decode(decoder(), [typedSse([...RESPONSES_EVENTS.slice(0, 2), failed])]);
    expect(out.at(-1)).toEqual({
      kind: 'error',
      error: {
        status: 500,
        reason: 'provider_server_error',
        message: 'The model failed to generate a response.',
        code: 'server_error',
        billedUsage: { prompt_tokens: 120, completion_tokens: 7, total_tokens: 127 },
      },
    });
  });

  it('an error event is an error output classified by its code', () => {
    const text =
      typedSse(RESPONSES_EVENTS.slice(0, 1)) +
      'event: error\ndata: {"type":"error","sequence_number":1,"code":"rate_limit_exceeded","message":"Rate limit reached for gpt-4.1","param":null}\n\n' +
      typedSse(RESPONSES_EVENTS.slice(1));
    const out = decode(decoder(), [text]);
    expect(out).toHaveLength(2);
    expect(out[1]).toEqual({
      kind: 'error',
      error: {
        status: 429,
        reason: 'provider_rate_limited',
        message: 'Rate limit reached for gpt-4.1',
        code: 'rate_limit_exceeded',
      },
    });
  });
});

describe('errors', () => {
  const parse = (status: number, headers: Record<string, string>, text: string) =>
    adapter('openai').parseError(status, headers, text);

  it('429 rate_limit_exceeded: rate limited, with retry-after-ms preferred over retry-after', () => {
    const text = JSON.stringify({
      error: {
        message:
          'Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29900, Requested 500.',
        type: 'tokens',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
    expect(parse(429, { 'retry-after-ms': '1250', 'retry-after': '2', 'x-request-id': 'req_1' }, text)).toEqual({
      status: 429,
      reason: 'provider_rate_limited',
      message: expect.stringContaining('Rate limit reached for gpt-4o'),
      type: 'tokens',
      code: 'rate_limit_exceeded',
      retryAfterMs: 1250,
    });
    expect(parse(429, { 'retry-after': '7' }, text).retryAfterMs).toBe(7000);
    const date = new Date(Date.now() + 60_000).toUTCString();
    const hinted = parse(429, { 'retry-after': date }, text).retryAfterMs;
    expect(hinted).toBeGreaterThan(55_000);
    expect(hinted).toBeLessThanOrEqual(60_000);
    expect(parse(429, {}, text).retryAfterMs).toBeUndefined();
  });

  it('429 insufficient_quota is a billing failure', () => {
    const text = JSON.stringify({
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    });
    expect(parse(429, {}, text)).toMatchObject({ status: 429, reason: 'provider_billing', code: 'insufficient_quota' });
  });

  it('401 invalid_api_key keeps the provider’s type and code', () => {
    const text = JSON.stringify({
      error: {
        message: 'Incorrect API key provided: sk-test***123.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    expect(parse(401, {}, text)).toEqual({
      status: 401,
      reason: 'provider_auth_failed',
      message: 'Incorrect API key provided: sk-test***123.',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    });
  });

  it('400 with param, 404 model_not_found, 500 server_error', () => {
    const bad = JSON.stringify({
      error: {
        message: "Invalid type for 'temperature'",
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'invalid_type',
      },
    });
    expect(parse(400, {}, bad)).toMatchObject({ reason: 'caller_invalid_request', param: 'temperature' });
    const missing = JSON.stringify({
      error: {
        message: 'The model `gpt-9` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    });
    expect(parse(404, {}, missing)).toMatchObject({
      status: 404,
      reason: 'caller_model_unknown',
      code: 'model_not_found',
    });
    expect(parse(500, {}, '{"error":{"message":"oops","type":"server_error"}}')).toMatchObject({
      reason: 'provider_server_error',
    });
  });

  it('plain text, HTML and empty bodies', () => {
    expect(parse(503, {}, 'upstream connect error or disconnect/reset before headers')).toEqual({
      status: 503,
      reason: 'provider_overloaded',
      message: 'upstream connect error or disconnect/reset before headers',
    });
    expect(parse(502, {}, '<html><body><h1>502 Bad Gateway</h1></body></html>').message).toBe(
      'Provider returned HTTP 502 with a non-JSON body',
    );
    expect(parse(504, {}, '')).toEqual({
      status: 504,
      reason: 'provider_timeout',
      message: 'Provider returned HTTP 504',
    });
  });

  it('the family’s other error shapes', () => {
    // vLLM / Mistral: flat
    expect(
      parse(
        400,
        {},
        '{"object":"error","message":"max_tokens must be at least 1, got 0.","type":"BadRequestError","param":null,"code":400}',
      ),
    ).toMatchObject({ message: 'max_tokens must be at least 1, got 0.', type: 'BadRequestError', code: '400' });
    // Ollama
    expect(parse(404, {}, '{"error":"model \\"llama9\\" not found, try pulling it first"}')).toMatchObject({
      message: 'model "llama9" not found, try pulling it first',
      reason: 'caller_model_unknown',
    });
    // FastAPI validation
    expect(
      parse(422, {}, '{"detail":[{"loc":["body","messages"],"msg":"Field required","type":"missing"}]}').message,
    ).toBe('body.messages: Field required');
    // Databricks
    expect(parse(400, {}, '{"error_code":"BAD_REQUEST","message":"Invalid matryoshka_dimension 123"}')).toMatchObject({
      message: 'Invalid matryoshka_dimension 123',
      code: 'BAD_REQUEST',
    });
    // OpenRouter: numeric code
    expect(parse(402, {}, '{"error":{"code":402,"message":"Insufficient credits"}}')).toMatchObject({
      reason: 'provider_billing',
      code: '402',
      message: 'Insufficient credits',
    });
  });
});

describe('usage on the wire', () => {
  const usage = {
    prompt_tokens: 1500,
    completion_tokens: 40,
    total_tokens: 1540,
    prompt_tokens_details: { cached_read_tokens: 1024, cached_write_tokens: 300 },
    completion_tokens_details: { reasoning_tokens: 12, citation_tokens: 5, num_search_queries: 2 },
    tool_usage: { web_search: { num_requests: 2 } },
    cost: { input_tokens_cost: 0.001, output_tokens_cost: 0.0004, total_cost: 0.0014 },
  };

  it('chat usage carries the contract fields and the OpenAI SDK names of the cache terms', () => {
    expect(toOpenAiWireUsage(usage)).toEqual({
      ...usage,
      prompt_tokens_details: {
        cached_read_tokens: 1024,
        cached_write_tokens: 300,
        cached_tokens: 1024,
        cache_write_tokens: 300,
      },
    });
    expect(toOpenAiWireUsage({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })).toEqual({
      prompt_tokens: 1,
      completion_tokens: 2,
      total_tokens: 3,
    });
  });

  it('reading our own wire usage gives the contract usage back', () => {
    expect(usageFromOpenAi(JSON.parse(JSON.stringify(toOpenAiWireUsage(usage))))).toEqual(usage);
  });

  it('Responses usage has every member the SDK requires, the cache write and the cost', () => {
    expect(toResponsesWireUsage(usage)).toEqual({
      input_tokens: 1500,
      input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 300 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 1540,
      cost: { input_tokens_cost: 0.001, output_tokens_cost: 0.0004, total_cost: 0.0014 },
    });
    expect(toResponsesWireUsage({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })).toEqual({
      input_tokens: 1,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 3,
    });
  });

  it('a cost object without a total is summed; no token counts means no usage', () => {
    expect(
      usageFromOpenAi({ prompt_tokens: 1, completion_tokens: 1, cost: { input_tokens_cost: 0.25, request_cost: 0.5 } })
        ?.cost,
    ).toEqual({ input_tokens_cost: 0.25, request_cost: 0.5, total_cost: 0.75 });
    expect(usageFromOpenAi(null)).toBeUndefined();
    expect(usageFromOpenAi({ cost: 0.1 })).toBeUndefined();
  });
});

describe('model listing', () => {
  it('reads data[{ id, owned_by, created }]', () => {
    const listing = {
      object: 'list',
      data: [
        { id: 'gpt-4o', object: 'model', created: 1715367049, owned_by: 'system' },
        { id: 'text-embedding-3-small', object: 'model', created: 1705948997, owned_by: 'system' },
        { object: 'model' },
      ],
    };
    expect(adapter('openai').parseListModels(listing)).toEqual([
      { id: 'gpt-4o', owned_by: 'system', created: 1715367049 },
      { id: 'text-embedding-3-small', owned_by: 'system', created: 1705948997 },
    ]);
  });

  it('reads Databricks serving endpoints', () => {
    const listing = {
      endpoints: [
        {
          name: 'databricks-claude-sonnet-4-5',
          creator: 'x',
          creation_timestamp: 1730000000123,
          state: { ready: 'READY' },
        },
      ],
    };
    expect(adapter('databricks').parseListModels(listing)).toEqual([
      { id: 'databricks-claude-sonnet-4-5', created: 1730000000 },
    ]);
  });
});
