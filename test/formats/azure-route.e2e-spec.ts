import { AzureOpenAI, NotFoundError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

const API_VERSION = '2024-10-21';

/**
 * The Azure-style OpenAI route (`/openai/openai/deployments/{deployment}/…`): the official `AzureOpenAI` client with
 * `endpoint: <gateway>/openai` and a virtual key as `apiKey` (sent as `api-key`), the deployment naming the model.
 */
describe('provider format: Azure-style /openai/openai/deployments', () => {
  let s: InferenceStack;
  const azure = (deployment: string, prefix = '') =>
    new AzureOpenAI({
      endpoint: `${s.gw.baseUrl}${prefix}/openai`,
      apiKey: s.vk,
      apiVersion: API_VERSION,
      deployment,
      maxRetries: 0,
      timeout: 20_000,
    });
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('a bare deployment is the azure provider: chat unary reaches the Azure deployment of the key', async () => {
    const { data, response } = await azure('gpt-4o')
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'azure route unary' }] })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toBe('echo: azure route unary');
    expect(response.headers.get('x-gateway-routing-info-provider')).toBe('azure');
    const upstream = seen(s.sim);
    expect(upstream).toHaveLength(1);
    expect(upstream[0].path).toBe('/azure/openai/deployments/dep-4o/chat/completions');
    expect(upstream[0].query['api-version']).toBe(API_VERSION);
    expect(upstream[0].headers['api-key']).toBe('az-key-1');
    // The virtual key went no further than the gateway.
    expect(JSON.stringify(upstream[0].headers)).not.toContain(s.vk);
  });

  it('a <provider>/<model> deployment (URL-encoded by the SDK) goes to that provider, streamed with usage', async () => {
    const stream = await azure('openai/gpt-4o-mini').chat.completions.create({
      model: 'ignored-by-the-route',
      messages: [{ role: 'user', content: 'azure route stream' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: { total_tokens: number } | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('echo: azure route stream');
    expect(usage?.total_tokens).toBeGreaterThan(0);
    const upstream = seen(s.sim).at(-1);
    expect(upstream.path).toBe('/openai/v1/chat/completions');
    expect(upstream.body.model).toBe('gpt-4o-mini');
    expect(upstream.body.stream).toBe(true);
    expect(upstream.headers.authorization).toMatch(/^Bearer sk-oa-/);
  });

  it('an unencoded <provider>/<model> deployment (two path segments, as SDKs before 7 sent it) is the same model', async () => {
    const answer = await s.gw.http
      .withHeaders({ 'api-key': s.vk })
      .post(`/openai/openai/deployments/openai/gpt-4o-mini/chat/completions?api-version=${API_VERSION}`, {
        messages: [{ role: 'user', content: 'two segments' }],
      });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.choices[0].message.content).toBe('echo: two segments');
    expect(seen(s.sim).at(-1).body.model).toBe('gpt-4o-mini');
  });

  it('the raw path carries the encoded deployment and api-version', async () => {
    const res = await s.gw.http
      .withHeaders({ 'api-key': s.vk })
      .post(
        `/openai/openai/deployments/${encodeURIComponent('anthropic/claude-sonnet-4')}/chat/completions?api-version=${API_VERSION}`,
        {
          messages: [{ role: 'user', content: 'raw azure path' }],
          max_tokens: 50,
        },
      );
    expect(res.status, res.text).toBe(200);
    expect(res.body.choices[0].message.content).toBe('echo: raw azure path');
    expect(seen(s.sim).at(-1).path).toBe('/anthropic/v1/messages');
  });

  it('embeddings through the deployment route (the SDK default base64 encoding decoded)', async () => {
    const embedded = await azure('openai/text-embedding-3-small').embeddings.create({
      model: 'text-embedding-3-small',
      input: ['one text', 'another text'],
    });
    expect(embedded.data).toHaveLength(2);
    expect(embedded.data[0]!.embedding).toHaveLength(16);
    const upstream = seen(s.sim).at(-1);
    expect(upstream.path).toBe('/openai/v1/embeddings');
    expect(upstream.body.input).toEqual(['one text', 'another text']);
  });

  it('completions and a framework prefix (/litellm/openai/openai/deployments)', async () => {
    const completion = await azure('gpt-4o', '/litellm').completions.create({ model: 'x', prompt: 'complete me' });
    expect(completion.choices[0]!.text).toContain('complete me');
    expect(seen(s.sim).at(-1).path).toBe('/azure/openai/deployments/dep-4o/completions');
  });

  it('an unknown deployment is a 404 deployment_not_found GatewayError; no upstream call', async () => {
    const failure = await azure('groq/llama-3.3-70b')
      .chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NotFoundError);
    const raw = await s.gw.http
      .withHeaders({ 'api-key': s.vk })
      .post(`/openai/openai/deployments/${encodeURIComponent('groq/llama')}/chat/completions`, {
        messages: [{ role: 'user', content: 'x' }],
      });
    expect(raw.status, raw.text).toBe(404);
    expect(raw.body.error.code).toBe('deployment_not_found');
    expect(raw.body.error.param).toBe('deployment');
    expect(raw.body.status_code).toBe(404);
    expect(raw.body.is_gateway_error).toBe(true);
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('a bad body is a 400 naming the field; no key is a 401', async () => {
    const bad = await s.gw.http
      .withHeaders({ 'api-key': s.vk })
      .post('/openai/openai/deployments/gpt-4o/chat/completions', { messages: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('messages');
    const anonymous = await s.gw.http.post('/openai/openai/deployments/gpt-4o/chat/completions', {
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(anonymous.status).toBe(401);
  });
});
