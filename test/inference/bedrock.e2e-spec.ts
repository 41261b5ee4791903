import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIM_AWS } from '../simulator/families/bedrock.js';
import {
  created,
  expectInferenceError,
  type InferenceStack,
  seen,
  sseMessages,
  startInferenceStack,
} from './inference-kit.js';

/**
 * The bedrock provider end to end: the openai SDK on /v1, the gateway signing with SigV4 (verified by the simulator,
 * which answers 403 InvalidSignatureException on a mismatch) or sending a Bedrock API key, Converse and ConverseStream
 * with their binary event stream, Claude on InvokeModel, embeddings, retries and model listing.
 */

const CLAUDE = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const HAIKU = 'anthropic.claude-3-haiku-20240307-v1:0';
const ARN = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-sonnet-20240620-v1:0';
const TITAN = 'amazon.titan-embed-text-v2:0';
/** Served by the bearer key only. */
const NOVA = 'amazon.nova-lite-v1:0';
/** Served by the key with the wrong secret only. */
const MISTRAL = 'mistral.mistral-large-2402-v1:0';

const SIGV4_MODELS = [CLAUDE, HAIKU, ARN, TITAN];

describe('bedrock provider', () => {
  let s: InferenceStack;
  const bedrockSeen = () => seen(s.sim, { family: 'bedrock' });
  const user = (content: string) => [{ role: 'user' as const, content }];

  beforeAll(async () => {
    s = await startInferenceStack();
    await created(
      s.admin.post('/api/providers', {
        provider: 'bedrock',
        base_url: `${s.sim.url}/bedrock`,
        network_config: { max_retries: 2, retry_backoff_initial: '20ms', retry_backoff_max: '200ms' },
      }),
    );
    await created(
      s.admin.post('/api/providers/bedrock/keys', {
        name: 'br-sigv4',
        models: SIGV4_MODELS,
        bedrock_key_config: {
          region: 'us-east-1',
          access_key: SIM_AWS.accessKeyId,
          secret_key: SIM_AWS.secretAccessKey,
        },
      }),
    );
    await created(
      s.admin.post('/api/providers/bedrock/keys', {
        name: 'br-bearer',
        value: 'bedrock-api-key-1',
        models: [NOVA],
        bedrock_key_config: { region: 'us-east-1' },
      }),
    );
    await created(
      s.admin.post('/api/providers/bedrock/keys', {
        name: 'br-wrong',
        models: [MISTRAL],
        bedrock_key_config: { region: 'us-east-1', access_key: SIM_AWS.accessKeyId, secret_key: 'not-the-secret' },
      }),
    );
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('unary chat: SigV4-signed Converse with the ":" of the model id encoded, answer and cost translated', async () => {
    const { data, response } = await s.openai.chat.completions
      .create({
        model: `bedrock/${CLAUDE}`,
        messages: [{ role: 'system', content: 'be brief' }, ...user('hello bedrock')],
        max_tokens: 64,
        temperature: 0.5,
      })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toBe('echo: hello bedrock');
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
    expect(response.headers.get('x-gateway-routing-info-provider')).toBe('bedrock');
    expect(Number(response.headers.get('x-gateway-cost-usd'))).toBeGreaterThan(0);

    const [upstream] = bedrockSeen();
    expect(upstream.status).toBe(200);
    expect(upstream.path).toBe('/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse');
    expect(upstream.key).toBe(SIM_AWS.accessKeyId);
    expect(upstream.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDSIMULATOR\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(upstream.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(upstream.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(upstream.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'hello bedrock' }] }],
      system: [{ text: 'be brief' }],
      inferenceConfig: { maxTokens: 64, temperature: 0.5 },
    });
  });

  it('streamed chat: event-stream frames become chunks, tool-call fragments merge, usage ends the stream', async () => {
    const stream = await s.openai.chat.completions.create({
      model: `bedrock/${CLAUDE}`,
      messages: user('call get_weather {"city":"Paris","unit":"celsius"}'),
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(calls[0]!.id).toMatch(/^tooluse_/);
    expect(calls.length).toBeGreaterThan(2);
    expect(JSON.parse(calls.map((c) => c.function?.arguments ?? '').join(''))).toEqual({
      city: 'Paris',
      unit: 'celsius',
    });
    expect(chunks.find((c) => c.choices[0]?.finish_reason)!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });

    const [upstream] = bedrockSeen();
    expect(upstream.path).toBe('/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream');
    expect(upstream.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(upstream.body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }],
    });
  });

  it('streamed chat over raw HTTP: priced usage on the last chunk, then [DONE]', async () => {
    const res = await s.inference.post('/v1/chat/completions', {
      model: `bedrock/${CLAUDE}`,
      messages: user('one two three'),
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(res.status).toBe(200);
    const messages = sseMessages(res.text);
    expect(messages.at(-1)!.data).toBe('[DONE]');
    const usage = JSON.parse(messages.at(-2)!.data).usage;
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(usage.cost.total_cost).toBeGreaterThan(0);
    const text = messages
      .slice(0, -2)
      .map((m) => JSON.parse(m.data).choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe('echo: one two three');
  });

  it('reasoning_effort on Claude: thinking requested, reasoning_content and cache usage back, unary and streamed', async () => {
    s.sim.scenario({
      match: { family: 'bedrock' },
      responses: [{ ok: true, usage: { cached_read_tokens: 5, cached_write_tokens: 2 } }],
      repeat: true,
    });
    const unary = await s.openai.chat.completions.create({
      model: `bedrock/${CLAUDE}`,
      messages: user('think'),
      reasoning_effort: 'low',
    });
    const message = unary.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
    expect(message.reasoning_content).toBe('Let me think about this request.');
    expect(message.content).toBe('echo: think');
    expect(unary.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 });
    expect((unary.usage as any).prompt_tokens_details).toMatchObject({ cached_read_tokens: 5, cached_write_tokens: 2 });
    expect(bedrockSeen()[0].body.additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });

    const stream = await s.openai.chat.completions.create({
      model: `bedrock/${CLAUDE}`,
      messages: user('think'),
      reasoning_effort: 'low',
      stream: true,
      stream_options: { include_usage: true },
    });
    let reasoning = '';
    let usage: unknown;
    for await (const chunk of stream) {
      reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(reasoning).toBe('Let me think about this request.');
    expect(usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 2 });
  });

  it('an inference-profile ARN is one encoded path segment, signed and served', async () => {
    const data = await s.openai.chat.completions.create({ model: `bedrock/${ARN}`, messages: user('arn model') });
    expect(data.choices[0]!.message.content).toBe('echo: arn model');
    const [upstream] = bedrockSeen();
    expect(upstream.path).toBe(
      '/bedrock/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
    );
    expect(upstream.model).toBe(ARN);
    expect(upstream.status).toBe(200);
  });

  it('a Bedrock API key goes as Authorization: Bearer, unsigned', async () => {
    const data = await s.openai.chat.completions.create({ model: `bedrock/${NOVA}`, messages: user('bearer key') });
    expect(data.choices[0]!.message.content).toBe('echo: bearer key');
    const [upstream] = bedrockSeen();
    expect(upstream.headers.authorization).toBe('Bearer bedrock-api-key-1');
    expect(upstream.key).toBe('bedrock-api-key-1');
    expect(upstream.headers['x-amz-date']).toBeUndefined();
  });

  it('a wrong secret: the simulator refuses the signature, the key is classified dead (auth), not retried', async () => {
    const res = await s.inference.post('/v1/chat/completions', { model: `bedrock/${MISTRAL}`, messages: user('x') });
    // An auth failure kills the key for the request; its only key dead, the model is out of credentials (a 4xx the
    // caller caused would have been relayed as it came).
    expectInferenceError(res, 502, 'provider_credentials_exhausted');
    expect(res.body.error.message).toContain('The request signature we calculated does not match');
    expect(res.text).not.toContain('not-the-secret');
    expect(bedrockSeen()).toHaveLength(1);
    const [upstream] = bedrockSeen();
    expect(upstream.status).toBe(403);
    expect(upstream.key).toBe(SIM_AWS.accessKeyId);
  });

  it('an HTTP 429 ThrottlingException is retried, then served', async () => {
    s.sim.scenario({ match: { family: 'bedrock', model: CLAUDE }, responses: [{ fault: 'rate_limit' }, { ok: true }] });
    const data = await s.openai.chat.completions.create({ model: `bedrock/${CLAUDE}`, messages: user('retry me') });
    expect(data.choices[0]!.message.content).toBe('echo: retry me');
    const attempts = bedrockSeen();
    expect(attempts.map((r) => r.status)).toEqual([429, 200]);
  });

  it('a ThrottlingException that outlives the retries is a 429 provider_rate_limited with the native message', async () => {
    s.sim.scenario({ match: { family: 'bedrock' }, responses: [{ fault: 'rate_limit' }], repeat: true });
    const res = await s.inference.post('/v1/chat/completions', { model: `bedrock/${CLAUDE}`, messages: user('x') });
    expectInferenceError(res, 429, 'provider_rate_limited', { isGatewayError: false });
    expect(res.body.error.message).toBe('Too many requests, please wait before trying again.');
    expect(res.body.error.type).toBe('ThrottlingException');
    expect(bedrockSeen()).toHaveLength(3);
  });

  it("an in-stream throttlingException frame becomes the stream's error event with status 429", async () => {
    s.sim.scenario({ match: { family: 'bedrock' }, responses: [{ fault: 'stream_error', after_events: 3 }] });
    const res = await s.inference.post('/v1/chat/completions', {
      model: `bedrock/${CLAUDE}`,
      messages: user('a b c d e f'),
      stream: true,
    });
    expect(res.status).toBe(200);
    const messages = sseMessages(res.text);
    expect(JSON.parse(messages[0]!.data).choices[0].delta.role).toBe('assistant');
    const last = JSON.parse(messages.at(-1)!.data);
    expect(last.status_code).toBe(429);
    expect(last.is_gateway_error).toBe(false);
    expect(last.extra_fields.error_type).toBe('provider_rate_limited');
    expect(last.error.message).toBe('Too many requests, please wait before trying again.');
    expect(res.text).not.toContain('[DONE]');
  });

  it('bedrock_api "invoke": Claude through InvokeModel with the Anthropic body, unary and streamed', async () => {
    const unary = await s.openai.chat.completions.create({
      model: `bedrock/${HAIKU}`,
      messages: user('invoke me'),
      max_tokens: 30,
      bedrock_api: 'invoke',
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(unary.choices[0]!.message.content).toBe('echo: invoke me');
    expect(unary.model).toBe(HAIKU);
    const [call] = bedrockSeen();
    expect(call.path).toBe('/bedrock/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke');
    expect(call.body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      messages: [{ role: 'user', content: 'invoke me' }],
      max_tokens: 30,
    });

    const stream = await s.openai.chat.completions.create({
      model: `bedrock/${HAIKU}`,
      messages: user('stream invoke'),
      stream: true,
      stream_options: { include_usage: true },
      bedrock_api: 'invoke',
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('echo: stream invoke');
    expect(usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3 });
    expect(bedrockSeen()[1].path).toBe(
      '/bedrock/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke-with-response-stream',
    );
  });

  it('the Responses API is bridged through Converse', async () => {
    const response = await s.openai.responses.create({ model: `bedrock/${CLAUDE}`, input: 'respond please' });
    expect(response.output_text).toBe('echo: respond please');
    expect(bedrockSeen()[0].path.endsWith('/converse')).toBe(true);
  });

  it('embeddings: Titan through InvokeModel; count_tokens is a 400 naming the type', async () => {
    const embedded = await s.openai.embeddings.create({
      model: `bedrock/${TITAN}`,
      input: 'embed this text',
      dimensions: 8,
      encoding_format: 'float',
    });
    expect(embedded.data[0]!.embedding).toHaveLength(8);
    expect(embedded.usage.prompt_tokens).toBe(3);
    const [call] = bedrockSeen();
    expect(call.path).toBe('/bedrock/model/amazon.titan-embed-text-v2%3A0/invoke');
    expect(call.body).toEqual({ inputText: 'embed this text', dimensions: 8 });

    const count = await s.inference.post('/v1/count_tokens', { model: `bedrock/${CLAUDE}`, messages: user('x') });
    expectInferenceError(count, 400, 'caller_invalid_request');
    expect(count.body.error.message).toContain('count_tokens');
    expect(bedrockSeen()).toHaveLength(1);
  });

  it('a caller mistake Converse cannot express is a 400 naming the field, with no upstream call', async () => {
    const res = await s.inference.post('/v1/chat/completions', {
      model: `bedrock/${CLAUDE}`,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }],
    });
    expectInferenceError(res, 400, 'caller_invalid_request', { param: 'messages[0].content[0].image_url.url' });
    expect(bedrockSeen()).toHaveLength(0);
  });

  it('lists foundation models through the control-plane path, signed', async () => {
    const api = await s.admin.get('/api/models', { query: { provider: 'bedrock' } });
    expect(api.status, api.text).toBe(200);
    const ids = api.body.models.map((m: any) => m.id ?? m.model);
    expect(ids.some((id: string) => id.includes(CLAUDE))).toBe(true);
    const statuses = api.body.key_statuses as Array<{ key_id: string; status: string; error?: any }>;
    expect(statuses.filter((k) => k.status === 'success')).toHaveLength(2);
    // The wrong secret: Bedrock's 403 InvalidSignatureException, classified as the provider refusing the key.
    const failed = statuses.filter((k) => k.status === 'list_models_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toMatchObject({
      status_code: 403,
      is_gateway_error: false,
      extra_fields: { error_type: 'provider_auth_failed' },
      error: { type: 'InvalidSignatureException' },
    });
    expect(JSON.stringify(api.body)).not.toContain('not-the-secret');
    const listing = bedrockSeen().filter((r) => r.path === '/bedrock/foundation-models');
    expect(listing.length).toBe(3);
    expect(
      listing.some((r) => String(r.headers.authorization).startsWith('AWS4-HMAC-SHA256 ') && r.status === 200),
    ).toBe(true);
  });
});
