import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { CohereClientV2, CohereError } from 'cohere-ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addCohere } from '../inference/cohere-kit.js';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * The model listings of the provider-format endpoints: the models of every configured provider (openai, anthropic,
 * gemini, azure and cohere against the simulator), in each format's own list shape and paging, read by each
 * provider's official SDK; the format's own provider's models bare, the others `<provider>/<model>`.
 */
describe('provider formats: model listings', () => {
  let s: InferenceStack;
  /** The ids /v1/models lists, which every format lists too. */
  let unified: string[];

  beforeAll(async () => {
    s = await startInferenceStack();
    await addCohere(s);
    const listed = await s.inference.get('/v1/models');
    expect(listed.status, listed.text).toBe(200);
    unified = (listed.body.data as Array<{ id: string }>).map((m) => m.id);
    expect(unified).toEqual(
      expect.arrayContaining([
        'openai/gpt-4o',
        'anthropic/claude-sonnet-4-5',
        'gemini/gemini-2.5-flash',
        'cohere/command-r',
      ]),
    );
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  /** What the gateway asked the simulator: one model list per provider. */
  const askedUpstream = () =>
    seen(s.sim)
      .filter((r: { method: string }) => r.method === 'GET')
      .map((r: { path: string }) => r.path);

  it('a key restricted to some models lists what /v1/models lists for it (which does not filter by policy)', async () => {
    const key = await s.admin.post('/api/governance/virtual-keys', {
      name: 'listing-restricted',
      provider_configs: [{ provider: 'anthropic', allowed_models: ['claude-sonnet-4-5'] }],
    });
    expect(key.status, key.text).toBe(201);
    const restricted = s.gw.http.withHeaders({ authorization: `Bearer ${key.body.virtual_key.value as string}` });
    const v1 = await restricted.get('/v1/models');
    const openai = await restricted.get('/openai/v1/models');
    expect(openai.body).toEqual(v1.body);
    const anthropic = await restricted.get('/anthropic/v1/models?limit=1000');
    expect(anthropic.body.data).toHaveLength(v1.body.data.length);
  });

  describe('/openai', () => {
    for (const base of ['/openai/v1', '/openai', '/litellm/v1', '/pydanticai/v1']) {
      it(`${base}/models: the openai SDK lists what /v1/models lists`, async () => {
        const client = new OpenAI({ baseURL: `${s.gw.baseUrl}${base}`, apiKey: s.vk, maxRetries: 0 });
        const ids: string[] = [];
        for await (const model of client.models.list()) {
          expect(model.object).toBe('model');
          ids.push(model.id);
        }
        expect(ids).toEqual(unified);
        expect(askedUpstream()).toEqual(
          expect.arrayContaining(['/openai/v1/models', '/anthropic/v1/models', '/cohere/v1/models']),
        );
      });
    }

    it('no virtual key: a 401 GatewayError', async () => {
      const res = await s.gw.http.get('/openai/v1/models');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ is_gateway_error: true, error: { code: 'missing_credentials' } });
    });
  });

  describe('/anthropic', () => {
    const client = (base = '/anthropic', apiKey = s.vk) =>
      new Anthropic({ baseURL: `${s.gw.baseUrl}${base}`, apiKey, maxRetries: 0 });

    for (const base of ['/anthropic', '/langchain/anthropic']) {
      it(`${base}: models.list() pages through every model, Anthropic's bare`, async () => {
        const ids: string[] = [];
        for await (const model of client(base).models.list({ limit: 4 })) {
          expect(model.type).toBe('model');
          ids.push(model.id);
        }
        expect(ids).toEqual(unified.map((id) => id.replace(/^anthropic\//, '')));
        expect(ids).toEqual(expect.arrayContaining(['claude-sonnet-4-5', 'claude-haiku-4-5', 'openai/gpt-4o']));
      });
    }

    it('models.retrieve(): one model, with what Anthropic said of it; others by <provider>/<model>', async () => {
      expect(await client().models.retrieve('claude-sonnet-4-5')).toEqual({
        type: 'model',
        id: 'claude-sonnet-4-5',
        display_name: 'Claude Sonnet 4.5',
        created_at: '2025-09-29T00:00:00.000Z',
      });
      const other = await client('/litellm/anthropic').models.retrieve('openai/gpt-4o');
      expect(other).toMatchObject({ type: 'model', id: 'openai/gpt-4o', display_name: 'openai/gpt-4o' });
      expect(Date.parse(other.created_at)).toBe(1715367049 * 1000);
    });

    it('an unknown model: 404 not_found_error, through the SDK too', async () => {
      const err = await client()
        .models.retrieve('claude-none')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.NotFoundError);
      const res = await s.inference.get('/anthropic/v1/models/claude-none');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ type: 'error', error: { type: 'not_found_error', code: 'model_not_found' } });
      // A blank model names the path parameter it came in (the documented `path`).
      const blank = await s.inference.get('/anthropic/v1/models/%20');
      expect(blank.status).toBe(400);
      expect(blank.body.error).toMatchObject({ code: 'validation_failed', param: 'path' });
    });

    it('raw paging: limit, after_id, before_id, has_more, first_id, last_id; bad paging is a 400', async () => {
      const first = await s.inference.get('/anthropic/v1/models?limit=2');
      expect(first.status).toBe(200);
      const ids = unified.map((id) => id.replace(/^anthropic\//, ''));
      expect(first.body).toEqual({
        data: [expect.objectContaining({ id: ids[0] }), expect.objectContaining({ id: ids[1] })],
        has_more: true,
        first_id: ids[0],
        last_id: ids[1],
      });
      const next = await s.inference.get(`/anthropic/v1/models?limit=2&after_id=${encodeURIComponent(ids[1]!)}`);
      expect(next.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(2, 4));
      const back = await s.inference.get(`/anthropic/v1/models?limit=5&before_id=${encodeURIComponent(ids[3]!)}`);
      expect(back.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 3));
      expect(back.body.has_more).toBe(false);
      const last = await s.inference.get(`/anthropic/v1/models?limit=1000&after_id=${encodeURIComponent(ids.at(-1)!)}`);
      expect(last.body).toEqual({ data: [], has_more: false, first_id: null, last_id: null });

      const zero = await s.inference.get('/anthropic/v1/models?limit=0');
      expect(zero.status).toBe(400);
      expect(zero.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', param: 'limit' } });
      const unknown = await s.inference.get('/anthropic/v1/models?after_id=nope');
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.param).toBe('after_id');
    });

    it('no virtual key or a wrong one: 401 authentication_error', async () => {
      const res = await s.gw.http.get('/anthropic/v1/models');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
      const err = await client('/anthropic', 'sk-gw-not-a-key')
        .models.list()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    });
  });

  describe('/genai', () => {
    const client = (base = '/genai', apiKey = s.vk) =>
      new GoogleGenAI({ apiKey, httpOptions: { baseUrl: `${s.gw.baseUrl}${base}` } });

    for (const base of ['/genai', '/pydanticai/genai']) {
      it(`${base}: models.list() pages through every model, Gemini's bare`, async () => {
        const pager = await client(base).models.list({ config: { pageSize: 5 } });
        const names: string[] = [];
        for await (const model of pager) names.push(model.name!);
        expect(names).toEqual(unified.map((id) => `models/${id.replace(/^gemini\//, '')}`));
        expect(names).toEqual(expect.arrayContaining(['models/gemini-2.5-flash', 'models/openai/gpt-4o']));
      });
    }

    it("models.get(): Gemini's model as Google listed it; another provider's with guessed methods", async () => {
      const flash = await client().models.get({ model: 'gemini-2.5-flash' });
      expect(flash).toMatchObject({
        name: 'models/gemini-2.5-flash',
        displayName: 'gemini-2.5-flash',
        inputTokenLimit: 1048576,
        outputTokenLimit: 65536,
        supportedActions: ['generateContent', 'countTokens'],
      });
      const raw = await s.inference.get('/genai/v1beta/models/openai%2Ftext-embedding-3-small', {
        headers: { 'x-goog-api-key': s.vk },
      });
      expect(raw.status, raw.text).toBe(200);
      expect(raw.body).toEqual({
        name: 'models/openai/text-embedding-3-small',
        displayName: 'openai/text-embedding-3-small',
        supportedGenerationMethods: ['embedContent', 'batchEmbedContents'],
      });
      const other = await client().models.get({ model: 'openai/gpt-4o' });
      expect(other.supportedActions).toEqual(['generateContent', 'streamGenerateContent', 'countTokens']);
    });

    it('GET beside the POST wildcard: generateContent still runs, /v1 and ?key= list too', async () => {
      const answer = await client().models.generateContent({ model: 'gemini-2.5-flash', contents: 'after listing' });
      expect(answer.text).toContain('after listing');
      const v1 = await s.gw.http.get(`/genai/v1/models?pageSize=2&key=${s.vk}`);
      expect(v1.status, v1.text).toBe(200);
      expect(v1.body.models).toHaveLength(2);
      const next = await s.gw.http.get(`/genai/v1/models?pageSize=1000&pageToken=${v1.body.nextPageToken}&key=${s.vk}`);
      expect(next.body.models).toHaveLength(unified.length - 2);
      expect(next.body.nextPageToken).toBeUndefined();
    });

    it("unknown model: Google's 404 NOT_FOUND; bad paging: 400 INVALID_ARGUMENT; no key: 401", async () => {
      const missing = await s.gw.http.get(`/genai/v1beta/models/gemini-none?key=${s.vk}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
      const err = await client()
        .models.get({ model: 'gemini-none' })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 404 });
      const bad = await s.gw.http.get(`/genai/v1beta/models?pageToken=forged&key=${s.vk}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.status).toBe('INVALID_ARGUMENT');
      expect(JSON.stringify(bad.body.error.details)).toContain('pageToken');
      // A blank model names the path parameter it came in (the documented `path`).
      const blank = await s.gw.http.get(`/genai/v1/models/%20?key=${s.vk}`);
      expect(blank.status).toBe(400);
      expect(JSON.stringify(blank.body.error.details)).toContain('"field":"path"');
      const anonymous = await s.gw.http.get('/genai/v1beta/models');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    });
  });

  describe('/cohere', () => {
    const client = (base = '/cohere', token = s.vk) =>
      new CohereClientV2({ token, environment: `${s.gw.baseUrl}${base}`, maxRetries: 0 });

    it("models.list(): Cohere's bare with their endpoints, others prefixed; endpoint filter and pages", async () => {
      const listed = await client().models.list({ pageSize: 1000 });
      expect(listed.models.map((m) => m.name)).toEqual(unified.map((id) => id.replace(/^cohere\//, '')));
      expect(listed.models.find((m) => m.name === 'command-r')).toMatchObject({
        endpoints: ['chat'],
        contextLength: 128000,
      });
      expect(listed.nextPageToken).toBeUndefined();

      const embedders = await client('/litellm/cohere').models.list({ endpoint: 'embed' });
      expect(embedders.models.map((m) => m.name).sort()).toEqual([
        'azure/text-embedding-3-small',
        'gemini/gemini-embedding-001',
        'openai/text-embedding-3-small',
      ]);

      const page = await client().models.list({ pageSize: 3 });
      expect(page.models).toHaveLength(3);
      const rest = await client().models.list({ pageSize: 1000, pageToken: page.nextPageToken! });
      expect([...page.models, ...rest.models].map((m) => m.name)).toEqual(listed.models.map((m) => m.name));
    });

    it('bad paging: a 400 naming the field; no key: 401 { message }', async () => {
      const bad = await s.inference.get('/cohere/v1/models?page_size=-1');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ message: expect.any(String), error: { param: 'page_size' } });
      const err = await client('/cohere', 'sk-gw-not-a-key')
        .models.list()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CohereError);
      expect((err as CohereError).statusCode).toBe(401);
      expect((err as any).body.message).toEqual(expect.any(String));
    });
  });
});
