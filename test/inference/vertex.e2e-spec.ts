import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { vertexServiceAccount } from '../simulator/families/vertex.js';
import {
  created,
  expectInferenceError,
  FAST_NETWORK,
  seen,
  startInferenceStack,
  type InferenceStack,
} from './inference-kit.js';

const LOCATION = '/vertex/v1/projects/sim-project/locations/us-central1';
const GOOGLE_MODELS = `${LOCATION}/publishers/google/models`;
const ANTHROPIC_MODELS = `${LOCATION}/publishers/anthropic/models`;
const MAAS_CHAT = '/vertex/v1beta1/projects/sim-project/locations/us-central1/endpoints/openapi/chat/completions';
/** Models served only by the broken keys (the good key blocks them). */
const BAD_JSON_MODEL = 'gemini-bad-json';
const NO_KEY_MODEL = 'gemini-no-private-key';
const WRONG_KEY_MODEL = 'gemini-wrong-key';
const BAD_JSON_ENV = 'VERTEX_E2E_TRUNCATED_SERVICE_ACCOUNT';

/**
 * The vertex provider end to end: the official openai SDK on /v1, the gateway, and the simulator's vertex family as
 * Vertex AI (Gemini, Claude rawPredict and the MaaS endpoint) and as Google's OAuth token endpoint, which verifies
 * the RS256 assertion the gateway signs with the key's service-account JSON.
 */
describe('vertex provider', () => {
  let s: InferenceStack;
  let serviceAccount: string;

  beforeAll(async () => {
    s = await startInferenceStack();
    serviceAccount = vertexServiceAccount(s.sim.url);
    await created(
      s.admin.post('/api/providers', {
        provider: 'vertex',
        base_url: `${s.sim.url}/vertex`,
        network_config: FAST_NETWORK,
      }),
    );
    const key = (name: string, credentials: string, models: string[], blacklisted: string[] = []) =>
      created(
        s.admin.post('/api/providers/vertex/keys', {
          name,
          models,
          blacklisted_models: blacklisted,
          vertex_key_config: { project_id: 'sim-project', region: 'us-central1', auth_credentials: credentials },
        }),
      );
    await key('vx-1', serviceAccount, ['*'], [BAD_JSON_MODEL, NO_KEY_MODEL, WRONG_KEY_MODEL]);
    // The management API refuses plain text that is not a JSON object; a reference resolves only at call time.
    process.env[BAD_JSON_ENV] = '{"type": "service_account", "private_key": "-----BEGIN';
    await key('vx-bad-json', `env.${BAD_JSON_ENV}`, [BAD_JSON_MODEL]);
    const withoutKey = JSON.parse(serviceAccount) as Record<string, unknown>;
    delete withoutKey.private_key;
    await key('vx-no-key', JSON.stringify(withoutKey), [NO_KEY_MODEL]);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    await key('vx-wrong-key', vertexServiceAccount(s.sim.url, { private_key: other }), [WRONG_KEY_MODEL]);
  });
  afterAll(async () => {
    delete process.env[BAD_JSON_ENV];
    await s?.close();
  });
  beforeEach(() => s.sim.reset());

  const apiCalls = () => seen(s.sim, { family: 'vertex' }).filter((r) => r.path !== '/vertex/token');
  const exchanges = () => seen(s.sim).filter((r) => r.path === '/vertex/token');
  const chat = (model: string, content = 'hello vertex') =>
    s.openai.chat.completions.create({ model, messages: [{ role: 'user', content }] });

  it('Gemini unary: generateContent on the key project and region, Gemini body, Bearer token, usage', async () => {
    const { data, response } = await s.openai.chat.completions
      .create({
        model: 'vertex/gemini-2.5-flash',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hello gemini on vertex' },
        ],
        max_tokens: 50,
      })
      .withResponse();
    expect(data.choices[0]!.message.content).toBe('echo: hello gemini on vertex');
    expect(data.usage!.completion_tokens).toBe(5);
    expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-gateway-routing-info-provider')).toBe('vertex');
    expect(response.headers.get('x-gateway-routing-info-key')).toBe('vx-1');
    const [call] = apiCalls();
    expect(call.path).toBe(`${GOOGLE_MODELS}/gemini-2.5-flash:generateContent`);
    expect(call.body.model).toBeUndefined();
    expect(call.body.contents).toEqual([{ role: 'user', parts: [{ text: 'hello gemini on vertex' }] }]);
    expect(call.body.systemInstruction).toEqual({ parts: [{ text: 'be brief' }] });
    expect(call.body.generationConfig.maxOutputTokens).toBe(50);
    expect(call.headers.authorization).toMatch(/^Bearer ya29\.sim-/);
    expect(call.headers['x-goog-api-key']).toBeUndefined();
  });

  it('Gemini stream: streamGenerateContent?alt=sse, text and one usage chunk', async () => {
    const stream = await s.openai.chat.completions.create({
      model: 'vertex/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'stream from gemini please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const usages: unknown[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect(text).toBe('echo: stream from gemini please');
    expect(usages).toHaveLength(1);
    const [call] = apiCalls();
    expect(call.path).toBe(`${GOOGLE_MODELS}/gemini-2.5-flash:streamGenerateContent`);
    expect(call.query).toEqual({ alt: 'sse' });
  });

  it('Claude unary: rawPredict with anthropic_version in the body and no model', async () => {
    const data = await s.openai.chat.completions.create({
      model: 'vertex/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'hello claude on vertex' }],
      max_tokens: 64,
    });
    expect(data.choices[0]!.message.content).toBe('echo: hello claude on vertex');
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage!.prompt_tokens).toBe(4);
    expect(data.usage!.completion_tokens).toBe(5);
    const [call] = apiCalls();
    expect(call.path).toBe(`${ANTHROPIC_MODELS}/claude-sonnet-4-5:rawPredict`);
    expect(call.body.anthropic_version).toBe('vertex-2023-10-16');
    expect(call.body.model).toBeUndefined();
    expect(call.body.max_tokens).toBe(64);
    expect(call.body.messages).toEqual([{ role: 'user', content: 'hello claude on vertex' }]);
    expect(call.headers['anthropic-version']).toBeUndefined();
    expect(call.headers.authorization).toMatch(/^Bearer ya29\.sim-/);
  });

  it('Claude stream: streamRawPredict, Anthropic events relayed as chunks', async () => {
    const stream = await s.openai.chat.completions.create({
      model: 'vertex/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'stream from claude' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: any;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      usage ??= chunk.usage;
    }
    expect(text).toBe('echo: stream from claude');
    expect(usage.completion_tokens).toBe(4);
    const [call] = apiCalls();
    expect(call.path).toBe(`${ANTHROPIC_MODELS}/claude-sonnet-4-5:streamRawPredict`);
    expect(call.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
    expect(call.body.model).toBeUndefined();
  });

  it('MaaS models (publisher/model) go to the OpenAI-compatible endpoint with the OpenAI body', async () => {
    const data = await chat('vertex/meta/llama-3.1-8b-instruct-maas', 'hello llama');
    expect(data.choices[0]!.message.content).toBe('echo: hello llama');
    expect(data.usage!.total_tokens).toBeGreaterThan(0);
    const [call] = apiCalls();
    expect(call.path).toBe(MAAS_CHAT);
    expect(call.body.model).toBe('meta/llama-3.1-8b-instruct-maas');
    expect(call.body.messages).toEqual([{ role: 'user', content: 'hello llama' }]);
  });

  it('embeddings go through :predict; count_tokens through :countTokens (Gemini) and count-tokens:rawPredict (Claude)', async () => {
    const embeddings = await s.openai.embeddings.create({
      model: 'vertex/text-embedding-005',
      input: ['one two', 'three'],
      dimensions: 8,
      encoding_format: 'float',
    });
    expect(embeddings.data.map((d) => d.embedding.length)).toEqual([8, 8]);
    expect(embeddings.usage.prompt_tokens).toBe(3);
    const counted = await s.inference.post('/v1/count_tokens', {
      model: 'vertex/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'count these four words' }],
    });
    expect(counted.status, counted.text).toBe(200);
    expect(counted.body).toMatchObject({ object: 'response.input_tokens', input_tokens: 4 });
    const [predict, count] = apiCalls();
    expect(predict.path).toBe(`${GOOGLE_MODELS}/text-embedding-005:predict`);
    expect(predict.body).toEqual({
      instances: [{ content: 'one two' }, { content: 'three' }],
      parameters: { outputDimensionality: 8 },
    });
    expect(count.path).toBe(`${GOOGLE_MODELS}/gemini-2.5-flash:countTokens`);
    expect(count.body.contents).toHaveLength(1);

    const claude = await s.inference.post('/v1/count_tokens', {
      model: 'vertex/claude-haiku-4-5',
      messages: [{ role: 'user', content: 'count these four words' }],
    });
    expect(claude.status, claude.text).toBe(200);
    expect(claude.body).toMatchObject({ object: 'response.input_tokens', input_tokens: 4 });
    const claudeCount = apiCalls()[2];
    expect(claudeCount.path).toBe(`${ANTHROPIC_MODELS}/count-tokens:rawPredict`);
    expect(claudeCount.body).toMatchObject({ model: 'claude-haiku-4-5', anthropic_version: 'vertex-2023-10-16' });
  });

  it('exchanges a token once for many requests, shares an exchange in flight, and again after a 401', async () => {
    // A 401 from Vertex drops the cached token: the gateway relays the refusal; the next request exchanges again.
    s.sim.scenario({
      match: { family: 'vertex', path: ':generateContent' },
      responses: [{ fault: 'error', status: 401 }],
    });
    const refused = await s.inference.post('/v1/chat/completions', {
      model: 'vertex/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'refused' }],
    });
    expectInferenceError(refused, 502, 'provider_credentials_exhausted');
    const before = apiCalls()[0].headers.authorization as string;
    s.sim.reset();

    await Promise.all([1, 2, 3].map((i) => chat('vertex/gemini-2.5-flash', `concurrent ${i}`)));
    await chat('vertex/claude-sonnet-4-5');
    await chat('vertex/meta/llama-3.1-8b-instruct-maas');
    expect(exchanges()).toHaveLength(1);
    const tokens = new Set(apiCalls().map((r) => r.headers.authorization as string));
    expect(tokens.size).toBe(1);
    expect(tokens.has(before)).toBe(false);
    const form = new URLSearchParams(exchanges()[0].body as string);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(exchanges()[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('a service-account JSON that is not JSON or misses a member: 502 provider_auth_failed naming the problem', async () => {
    const badJson = await s.inference.post('/v1/chat/completions', {
      model: `vertex/${BAD_JSON_MODEL}`,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expectInferenceError(badJson, 502, 'provider_auth_failed');
    expect(badJson.body.error.message).toBe(
      'Vertex key vx-bad-json: vertex_key_config.auth_credentials is not a service-account JSON object',
    );
    expect(badJson.text).not.toContain('BEGIN');

    const noKey = await s.inference.post('/v1/chat/completions', {
      model: `vertex/${NO_KEY_MODEL}`,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expectInferenceError(noKey, 502, 'provider_auth_failed');
    expect(noKey.body.error.message).toBe('Vertex key vx-no-key: the service-account JSON has no private_key');
    expect(exchanges()).toHaveLength(0);
    expect(apiCalls()).toHaveLength(0);
  });

  it('an assertion signed with another key is refused by the token endpoint: a clear 502, no API call', async () => {
    const res = await s.inference.post('/v1/chat/completions', {
      model: `vertex/${WRONG_KEY_MODEL}`,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expectInferenceError(res, 502, 'provider_auth_failed');
    expect(res.body.error.message).toContain('Vertex key vx-wrong-key: the token exchange at');
    expect(res.body.error.message).toContain('answered 400: invalid_grant (Invalid JWT Signature.)');
    expect(res.text).not.toContain('PRIVATE KEY');
    expect(exchanges().length).toBeGreaterThan(0);
    expect(exchanges().every((r) => r.status === 400)).toBe(true);
    expect(apiCalls()).toHaveLength(0);
  });

  it('a 429 with RetryInfo is retried after the hinted delay', async () => {
    s.sim.scenario({
      match: { family: 'vertex', path: ':generateContent' },
      responses: [{ fault: 'rate_limit', hint: 'gemini-retry-info', hint_ms: 120 }],
    });
    const data = await chat('vertex/gemini-2.5-flash', 'after the quota');
    expect(data.choices[0]!.message.content).toBe('echo: after the quota');
    const calls = apiCalls();
    expect(calls.map((r) => r.status)).toEqual([429, 200]);
    expect(calls[1].time - calls[0].time).toBeGreaterThanOrEqual(110);
  });

  it('a Claude overload answers in Anthropic shape and is relayed as 529 after retries', async () => {
    s.sim.scenario({
      match: { family: 'vertex', path: ':rawPredict' },
      responses: [{ fault: 'overloaded', hint: 'none' }],
      repeat: true,
    });
    const res = await s.inference.post('/v1/chat/completions', {
      model: 'vertex/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status, res.text).toBe(529);
    expect(res.body.error.type).toBe('overloaded_error');
    expect(apiCalls()).toHaveLength(3);
  });

  it('GET /api/models lists the Google publisher models per vertex key; a broken key fails alone', async () => {
    const res = await s.admin.get('/api/models?provider=vertex');
    expect(res.status, res.text).toBe(200);
    const models = res.body.models as Array<{ id: string; catalogue_price?: { input_cost_per_token?: number } }>;
    expect(models.map(({ catalogue_price: _price, ...listed }) => listed)).toEqual(
      ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-embedding-001', 'text-embedding-005'].map((m) => ({
        id: `vertex/${m}`,
        provider: 'vertex',
        owned_by: 'google',
      })),
    );
    // Priced from the price table's Google entries, as a request through the key is.
    expect(
      models.find((m) => m.id === 'vertex/gemini-2.5-flash')!.catalogue_price!.input_cost_per_token,
    ).toBeGreaterThan(0);
    const keys = (await s.admin.get('/api/providers/vertex/keys')).body.keys as Array<{ id: string; name: string }>;
    const statusOf = (name: string) =>
      res.body.key_statuses.find((k: any) => k.key_id === keys.find((key) => key.name === name)!.id);
    expect(statusOf('vx-1').status).toBe('success');
    const broken = statusOf('vx-wrong-key');
    expect(broken.status).toBe('list_models_failed');
    expect(broken.error.extra_fields.error_type).toBe('provider_auth_failed');
    expect(broken.error.error.message).toContain('invalid_grant (Invalid JWT Signature.)');
    const list = seen(s.sim).filter((r) => r.path === '/vertex/v1beta1/publishers/google/models');
    expect(list).toHaveLength(1);
    expect(list[0].headers.authorization).toMatch(/^Bearer ya29\.sim-/);
  });
});
