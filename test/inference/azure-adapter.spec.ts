import { describe, expect, it } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import type { ProviderAdapter, ProviderTarget } from '../../src/modules/inference/providers/shared/provider-adapter.js';
import { decode, sse, target } from './openai-wire-fixtures.js';

function azure(): ProviderAdapter {
  const a = adapterFor('azure');
  if (!a) throw new Error('azure adapter missing');
  return a;
}

function azureTarget(overrides: Partial<ProviderTarget> = {}): ProviderTarget {
  return target('azure', {
    baseUrl: '',
    model: 'gpt-4o',
    key: {
      id: 'k1',
      name: 'eastus',
      value: 'azure-key-1',
      azure: {
        endpoint: 'https://my-resource.openai.azure.com/',
        deployments: { 'gpt-4o': 'prod-gpt4o', 'text-embedding-3-large': 'emb large' },
      },
    },
    ...overrides,
  });
}

describe('azure URLs', () => {
  it('chat goes to the mapped deployment with the default api-version', () => {
    const call = azure().buildRequest('chat', { model: 'gpt-4o', messages: [] }, azureTarget(), false);
    expect(call.method).toBe('POST');
    expect(call.url).toBe(
      'https://my-resource.openai.azure.com/openai/deployments/prod-gpt4o/chat/completions?api-version=2024-10-21',
    );
  });

  it('completions and embeddings use their deployment paths; deployment names are URL-encoded', () => {
    const completions = azure().buildRequest('completions', { model: 'x', prompt: 'a' }, azureTarget(), false);
    expect(completions.url).toBe(
      'https://my-resource.openai.azure.com/openai/deployments/prod-gpt4o/completions?api-version=2024-10-21',
    );
    const embeddings = azure().buildRequest(
      'embeddings',
      { model: 'x', input: 'a' },
      azureTarget({ model: 'text-embedding-3-large' }),
      false,
    );
    expect(embeddings.url).toBe(
      'https://my-resource.openai.azure.com/openai/deployments/emb%20large/embeddings?api-version=2024-10-21',
    );
  });

  it('a model without a deployment entry is its own deployment; the key’s api_version wins', () => {
    const t = azureTarget({ model: 'gpt-4.1-mini' });
    t.key.azure = { ...t.key.azure!, api_version: '2025-04-01-preview' };
    const call = azure().buildRequest('chat', { model: 'x', messages: [] }, t, false);
    expect(call.url).toBe(
      'https://my-resource.openai.azure.com/openai/deployments/gpt-4.1-mini/chat/completions?api-version=2025-04-01-preview',
    );
  });

  it('responses use the v1 surface with the deployment as model', () => {
    const call = azure().buildRequest('responses', { model: 'gpt-4o', input: 'hi' }, azureTarget(), true);
    expect(call.url).toBe('https://my-resource.openai.azure.com/openai/v1/responses?api-version=preview');
    expect(JSON.parse(call.body!)).toEqual({ model: 'prod-gpt4o', input: 'hi', stream: true });
  });

  it('has no default base; a key without settings falls back to the provider base_url', () => {
    expect(azure().defaultBaseUrl('azure')).toBeUndefined();
    const t = target('azure', { baseUrl: 'https://other.openai.azure.com', model: 'gpt-4o' });
    const call = azure().buildRequest('chat', { model: 'x', messages: [] }, t, false);
    expect(call.url).toBe(
      'https://other.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
    );
  });

  it('lists the resource’s models', () => {
    const call = azure().buildListModels(azureTarget());
    expect(call).toEqual({
      method: 'GET',
      url: 'https://my-resource.openai.azure.com/openai/models?api-version=2024-10-21',
      headers: { accept: 'application/json', 'api-key': 'azure-key-1' },
    });
    const listing = {
      data: [
        {
          id: 'gpt-4o-2024-08-06',
          object: 'model',
          created_at: 1723075200,
          status: 'succeeded',
          capabilities: { chat_completion: true },
        },
      ],
      object: 'list',
    };
    expect(azure().parseListModels(listing)).toEqual([{ id: 'gpt-4o-2024-08-06', created: 1723075200 }]);
  });
});

describe('azure headers and bodies', () => {
  it('sends api-key (never Authorization) plus extra headers', () => {
    const call = azure().buildRequest(
      'chat',
      { model: 'gpt-4o', messages: [] },
      azureTarget({ extraHeaders: { 'x-ms-client-request-id': 'abc' } }),
      false,
    );
    expect(call.headers).toEqual({
      'x-ms-client-request-id': 'abc',
      'api-key': 'azure-key-1',
      'content-type': 'application/json',
      accept: 'application/json',
    });
  });

  it('streams ask for usage', () => {
    const call = azure().buildRequest('chat', { model: 'gpt-4o', messages: [], stream: true }, azureTarget(), true);
    expect(JSON.parse(call.body!)).toEqual({
      model: 'gpt-4o',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(call.headers.accept).toBe('text/event-stream');
  });

  it('speaks chat, completions, embeddings, responses, speech, transcription and images; refuses the rest', () => {
    expect([...azure().kinds].sort()).toEqual([
      'chat',
      'completions',
      'embeddings',
      'image_edit',
      'image_generation',
      'responses',
      'speech',
      'transcription',
    ]);
    expect(() => azure().buildRequest('rerank', { query: 'q', documents: [] }, azureTarget(), false)).toThrow(
      GatewayException,
    );
  });
});

describe('azure streams and errors', () => {
  it('decodes an Azure chat stream (prompt filter chunk first, usage last)', () => {
    const filter = {
      choices: [],
      created: 0,
      id: '',
      model: '',
      object: '',
      prompt_filter_results: [
        { prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } },
      ],
    };
    const text = {
      choices: [
        {
          content_filter_results: {},
          delta: { content: 'Hi', role: 'assistant' },
          finish_reason: null,
          index: 0,
          logprobs: null,
        },
      ],
      created: 1733000000,
      id: 'chatcmpl-AZ1',
      model: 'gpt-4o-2024-08-06',
      object: 'chat.completion.chunk',
      system_fingerprint: 'fp_04751d0b65',
    };
    const usage = {
      ...text,
      choices: [],
      usage: { completion_tokens: 1, prompt_tokens: 9, total_tokens: 10, prompt_tokens_details: { cached_tokens: 0 } },
    };
    const wire = sse(filter, text, usage, '[DONE]').replace(/\n/g, '\r\n');
    const out = decode(azure().streamDecoder('chat', azureTarget()), [wire.slice(0, 101), wire.slice(101)]);
    expect(out).toEqual([
      { kind: 'chunk', chunk: filter, raw: JSON.stringify(filter) },
      { kind: 'chunk', chunk: text, raw: JSON.stringify(text) },
      {
        kind: 'chunk',
        chunk: usage,
        usage: {
          prompt_tokens: 9,
          completion_tokens: 1,
          total_tokens: 10,
          prompt_tokens_details: { cached_read_tokens: 0 },
        },
      },
    ]);
  });

  it('a cut Azure stream is an error output', () => {
    const out = decode(azure().streamDecoder('chat', azureTarget()), ['data: {"choices":[],"id":"x"}\n\n']);
    expect(out.at(-1)).toMatchObject({ kind: 'error', error: { status: 502, reason: 'provider_server_error' } });
  });

  it('429 with retry-after-ms', () => {
    const text = JSON.stringify({
      error: {
        code: '429',
        message:
          'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.',
      },
    });
    expect(azure().parseError(429, { 'retry-after-ms': '6000', 'retry-after': '6' }, text)).toEqual({
      status: 429,
      reason: 'provider_rate_limited',
      message: expect.stringContaining('exceeded token rate limit'),
      code: '429',
      retryAfterMs: 6000,
    });
  });

  it('a content filter refusal is the caller’s 400 with Azure’s code', () => {
    const text = JSON.stringify({
      error: {
        message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
        type: null,
        param: 'prompt',
        code: 'content_filter',
        status: 400,
        innererror: {
          code: 'ResponsibleAIPolicyViolation',
          content_filter_result: { violence: { filtered: true, severity: 'medium' } },
        },
      },
    });
    expect(azure().parseError(400, {}, text)).toEqual({
      status: 400,
      reason: 'caller_invalid_request',
      message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
      code: 'content_filter',
      param: 'prompt',
    });
  });

  it('401 from a wrong key', () => {
    const text =
      '{"error":{"code":"401","message":"Access denied due to invalid subscription key or wrong API endpoint."}}';
    expect(azure().parseError(401, {}, text)).toMatchObject({ reason: 'provider_auth_failed', code: '401' });
  });
});
