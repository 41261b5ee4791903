import { createPublicKey, createVerify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import type { AdapterIo, Json, ProviderTarget } from '../../src/modules/inference/providers/shared/provider-adapter.js';
import {
  parseServiceAccount,
  signedAssertion,
} from '../../src/modules/inference/providers/google/vertex-service-account.js';
import { vertexFamily, vertexHost } from '../../src/modules/inference/providers/google/vertex-routes.js';
import { VertexTokenCache } from '../../src/modules/inference/providers/google/vertex-token-cache.js';
import { VertexAdapter } from '../../src/modules/inference/providers/google/vertex.adapter.js';
import { vertexServiceAccount } from '../simulator/families/vertex.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

const SA = vertexServiceAccount('http://sim.test');

function targetFor(model: string, options: { baseUrl?: string; region?: string; json?: string } = {}): ProviderTarget {
  return {
    provider: 'vertex',
    baseUrl: options.baseUrl ?? '',
    extraHeaders: { 'X-Goog-User-Project': 'billing-project' },
    key: {
      id: 'key-1',
      name: 'vx',
      value: '',
      vertex: { projectId: 'acme', region: options.region ?? 'europe-west4', serviceAccountJson: options.json ?? SA },
    },
    model,
  };
}

function built(
  adapter: VertexAdapter,
  kind: 'chat' | 'embeddings' | 'count_tokens',
  model: string,
  body: Json,
  stream = false,
) {
  const call = adapter.buildRequest(kind, { model, ...body }, targetFor(model), stream);
  return { url: call.url, headers: call.headers, body: JSON.parse(call.body!) as Json };
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

const HI = { messages: [{ role: 'user', content: 'hi' }] };

describe('vertex adapter: routes and bodies', () => {
  const adapter = new VertexAdapter();

  it('is registered for vertex and picks the family from the model name', () => {
    expect(adapterFor('vertex')).toBeInstanceOf(VertexAdapter);
    expect(vertexFamily('gemini-2.5-flash')).toBe('gemini');
    expect(vertexFamily('text-embedding-005')).toBe('gemini');
    expect(vertexFamily('claude-sonnet-4-5@20250929')).toBe('anthropic');
    expect(vertexFamily('meta/llama-3.1-8b-instruct-maas')).toBe('openapi');
  });

  it('uses the regional host, the global host for global, and the provider base_url when set', () => {
    expect(vertexHost('us-east5')).toBe('https://us-east5-aiplatform.googleapis.com');
    expect(vertexHost('global')).toBe('https://aiplatform.googleapis.com');
    const regional = adapter.buildRequest('chat', HI, targetFor('gemini-2.5-flash'), false);
    expect(regional.url).toBe(
      'https://europe-west4-aiplatform.googleapis.com/v1/projects/acme/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    const global = adapter.buildRequest('chat', HI, targetFor('gemini-2.5-flash', { region: 'global' }), true);
    expect(global.url).toBe(
      'https://aiplatform.googleapis.com/v1/projects/acme/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    const proxied = adapter.buildRequest(
      'chat',
      HI,
      targetFor('gemini-2.5-flash', { baseUrl: 'http://proxy:8080/vx' }),
      false,
    );
    expect(proxied.url.startsWith('http://proxy:8080/vx/v1/projects/acme/locations/europe-west4/')).toBe(true);
    // The token is added by authorize(); extra headers are kept, lower-cased.
    expect(regional.headers).toEqual({ 'content-type': 'application/json', 'x-goog-user-project': 'billing-project' });
  });

  it('Claude: rawPredict / streamRawPredict, Anthropic body without model plus anthropic_version', () => {
    const unary = built(adapter, 'chat', 'claude-sonnet-4-5@20250929', { ...HI, max_tokens: 10 });
    expect(unary.url).toMatch(/\/publishers\/anthropic\/models\/claude-sonnet-4-5%4020250929:rawPredict$/);
    expect(unary.body).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 10,
    });
    const stream = built(adapter, 'chat', 'claude-haiku-4-5', HI, true);
    expect(stream.url).toMatch(/claude-haiku-4-5:streamRawPredict$/);
    expect(stream.body.stream).toBe(true);
    expect(stream.body.model).toBeUndefined();
    const count = built(adapter, 'count_tokens', 'claude-haiku-4-5', HI);
    expect(count.url).toMatch(/\/publishers\/anthropic\/models\/count-tokens:rawPredict$/);
    expect(count.body).toMatchObject({ model: 'claude-haiku-4-5', anthropic_version: 'vertex-2023-10-16' });
    expect(thrown(() => built(adapter, 'embeddings', 'claude-haiku-4-5', { input: 'x' })).status).toBe(400);
  });

  it('MaaS: the openapi chat endpoint with the OpenAI body; stream asks for usage', () => {
    const call = built(adapter, 'chat', 'meta/llama-3.1-8b-instruct-maas', HI, true);
    expect(call.url).toBe(
      'https://europe-west4-aiplatform.googleapis.com/v1beta1/projects/acme/locations/europe-west4/endpoints/openapi/chat/completions',
    );
    expect(call.body).toMatchObject({
      model: 'meta/llama-3.1-8b-instruct-maas',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('Gemini count_tokens puts the prompt at the top level; embeddings are :predict instances', () => {
    const count = built(adapter, 'count_tokens', 'gemini-2.5-flash', {
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(count.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'sys' }] },
    });
    const embed = built(adapter, 'embeddings', 'text-embedding-005', { input: 'a b' });
    expect(embed.url).toMatch(/text-embedding-005:predict$/);
    expect(embed.body).toEqual({ instances: [{ content: 'a b' }] });
    const parsed = adapter.parseResponse(
      'embeddings',
      { predictions: [{ embeddings: { values: [0.5, 0.5], statistics: { token_count: 2 } } }] },
      targetFor('text-embedding-005'),
    );
    expect(parsed.body.data).toEqual([{ object: 'embedding', index: 0, embedding: [0.5, 0.5] }]);
    expect(parsed.usage).toEqual({ prompt_tokens: 2, completion_tokens: 0, total_tokens: 2 });
    expect(thrown(() => built(adapter, 'embeddings', 'text-embedding-005', { input: [1] })).param).toBe('input');
  });

  it('errors: Google shape with RetryInfo, Anthropic shape, non-JSON text', () => {
    const quota = adapter.parseError(
      429,
      {},
      JSON.stringify({
        error: {
          code: 429,
          message: 'Quota exceeded',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }],
        },
      }),
    );
    expect(quota).toMatchObject({ status: 429, type: 'RESOURCE_EXHAUSTED', retryAfterMs: 7000 });
    const overloaded = adapter.parseError(
      529,
      {},
      JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    );
    expect(overloaded).toMatchObject({ status: 529, type: 'overloaded_error', reason: 'provider_overloaded' });
    expect(adapter.parseError(502, {}, '').message).toBe('vertex answered HTTP 502');
  });

  it('lists the publisher models by their short names', () => {
    expect(
      adapter.parseListModels({
        publisherModels: [{ name: 'publishers/google/models/gemini-2.5-pro' }, { versionId: '1' }],
      }),
    ).toEqual([{ id: 'gemini-2.5-pro', owned_by: 'google' }]);
  });
});

describe('vertex service account and JWT', () => {
  it('signs an RS256 assertion that verifies with the key pair, with the grant claims', () => {
    const account = parseServiceAccount(SA, 'vx');
    const jwt = signedAssertion(account, 1_700_000_000_123, 'vx');
    const [header, claims, signature] = jwt.split('.') as [string, string, string];
    const decode = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Json;
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT', kid: account.privateKeyId });
    expect(decode(claims)).toEqual({
      iss: account.clientEmail,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: 'http://sim.test/vertex/token',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    const publicKey = createPublicKey(account.privateKey);
    const ok = createVerify('RSA-SHA256')
      .update(`${header}.${claims}`)
      .verify(publicKey, Buffer.from(signature, 'base64url'));
    expect(ok).toBe(true);
  });

  it('names the problem of a bad service-account JSON, never its content', () => {
    const cases: Array<[string, string]> = [
      ['[1, 2]', 'Vertex key vx: vertex_key_config.auth_credentials is not a service-account JSON object'],
      [
        JSON.stringify({ ...JSON.parse(SA), client_email: '' }),
        'Vertex key vx: the service-account JSON has no client_email',
      ],
      [
        JSON.stringify({ ...JSON.parse(SA), token_uri: 'file:///etc/passwd' }),
        'Vertex key vx: the service-account token_uri is not an http(s) URL',
      ],
    ];
    for (const [json, message] of cases) {
      const err = thrown(() => parseServiceAccount(json, 'vx'));
      expect(err).toMatchObject({ status: 502, reason: 'provider_auth_failed', message });
    }
    const badPem = parseServiceAccount(JSON.stringify({ ...JSON.parse(SA), private_key: 'secret-not-a-pem' }), 'vx');
    const err = thrown(() => signedAssertion(badPem, Date.now(), 'vx'));
    expect(err.message).toBe('Vertex key vx: the service-account private_key is not a usable RSA PEM key');
    expect(err.message).not.toContain('secret-not-a-pem');
  });
});

describe('vertex token cache against the simulator token endpoint', () => {
  let sim: Simulator;
  // The test clock starts 3310 s in the past, so that moving it past the renewal point (3300 s later) keeps every
  // assertion's iat within the simulator's real-time check.
  let clock = Date.now() - 3_310_000;
  const io: AdapterIo = {
    async post(url, headers, body) {
      const res = await fetch(url, { method: 'POST', headers, body });
      return { status: res.status, body: await res.text() };
    },
    get: () => Promise.reject(new Error('no GET in a Vertex token exchange')),
    now: () => clock,
  };
  const exchanges = () => sim.requests({ path: '/vertex/token' }).length;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim?.close());

  it('exchanges once per key for concurrent calls, renews 5 minutes before expiry, and after a 401/403', async () => {
    const adapter = new VertexAdapter(new VertexTokenCache());
    const target = targetFor('gemini-2.5-flash', { baseUrl: `${sim.url}/vertex`, json: vertexServiceAccount(sim.url) });
    const call = adapter.buildRequest('chat', HI, target, false);
    const authorized = await Promise.all([1, 2, 3].map(() => adapter.authorize(call, target, io)));
    expect(exchanges()).toBe(1);
    const token = authorized[0]!.headers.authorization!;
    expect(token).toMatch(/^Bearer ya29\.sim-/);
    expect(new Set(authorized.map((c) => c.headers.authorization))).toEqual(new Set([token]));
    expect(authorized[0]!.headers['x-goog-user-project']).toBe('billing-project');

    clock += (3600 - 300) * 1000 - 1;
    expect((await adapter.authorize(call, target, io)).headers.authorization).toBe(token);
    clock += 1;
    const renewed = (await adapter.authorize(call, target, io)).headers.authorization;
    expect(exchanges()).toBe(2);
    expect(renewed).not.toBe(token);

    adapter.parseError(429, {}, '');
    await adapter.authorize(call, target, io);
    expect(exchanges()).toBe(2);
    adapter.parseError(403, {}, '');
    expect(adapter.tokens.size).toBe(0);
    await adapter.authorize(call, target, io);
    expect(exchanges()).toBe(3);

    // A rotated service-account JSON (same key id) is another cache entry.
    const rotated = {
      ...target,
      key: {
        ...target.key,
        vertex: { ...target.key.vertex!, serviceAccountJson: vertexServiceAccount(sim.url, { client_id: '2' }) },
      },
    };
    await adapter.authorize(call, rotated, io);
    expect(exchanges()).toBe(4);
  });

  it('a refused or failed exchange is a 502 naming the endpoint, and is not cached', async () => {
    const adapter = new VertexAdapter(new VertexTokenCache());
    const target = targetFor('gemini-2.5-flash', {
      json: vertexServiceAccount(sim.url, { client_email: 'someone-else@example.iam.gserviceaccount.com' }),
    });
    const call = adapter.buildRequest('chat', HI, target, false);
    await expect(adapter.authorize(call, target, io)).rejects.toMatchObject({
      status: 502,
      reason: 'provider_auth_failed',
      message: `Vertex key vx: the token exchange at ${new URL(sim.url).host} answered 400: invalid_grant (Invalid JWT: unknown issuer.)`,
    });
    const down = targetFor('gemini-2.5-flash', { json: vertexServiceAccount('http://127.0.0.1:1') });
    await expect(adapter.authorize(call, down, io)).rejects.toMatchObject({
      status: 502,
      reason: 'provider_auth_failed',
    });
    expect(adapter.tokens.size).toBe(0);
  });
});
