import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { generateTestPki, type TestPki } from '../helpers/tls-certs.js';
import { MGMT, SETUP_TOKEN, respond, startCardServer, v1Card, type CardServer } from './agents-test-kit.js';

const EXT_OPTIONAL = 'https://ext.example.com/optional/v1';
const EXT_REQUIRED = 'https://ext.example.com/required/v1';

describe(`agent registration (${RUN_MODE})`, () => {
  let gw: TestApp;
  let agent: A2aAgent;
  let secured: A2aAgent;
  let pki: TestPki;
  const servers: CardServer[] = [];
  const vkIds: string[] = [];
  let db: DataSource;

  const post = (body: unknown) => gw.http.post('/api/agents', body, MGMT);
  const base = () => ({ name: 'echo', agent_card_url: agent.cardUrl });

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    db = gw.app.get<DataSource>(getDataSourceToken());
    pki = generateTestPki();
    agent = await startA2aAgent({ extensions: [{ uri: EXT_OPTIONAL }] });
    secured = await startA2aAgent({
      extensions: [{ uri: EXT_OPTIONAL }, { uri: EXT_REQUIRED, required: true }],
      securitySchemes: {
        bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
        apikey: { apiKeySecurityScheme: { location: 'header', name: 'X-Api-Key' } },
        tenant: { apiKeySecurityScheme: { location: 'header', name: 'X-Tenant' } },
      },
      securityRequirements: [
        { schemes: { bearer: { list: [] } } },
        { schemes: { apikey: { list: [] }, tenant: { list: [] } } },
      ],
    });
    for (const name of ['vk-one', 'vk-two']) {
      const res = await gw.http.post('/api/governance/virtual-keys', { name }, MGMT);
      if (res.status === 201) vkIds.push(res.body.virtual_key.id as string);
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await agent?.close();
    await secured?.close();
    await gw?.close();
  });

  async function server(...args: Parameters<typeof startCardServer>): Promise<CardServer> {
    const s = await startCardServer(...args);
    servers.push(s);
    return s;
  }

  it('registers an agent with defaults, after fetching its card with A2A-Version: 1.0', async () => {
    agent.reset();
    const res = await post(base());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'echo',
      agent_card_url: agent.cardUrl,
      enabled: true,
      allow_by_default: false,
      forward_accepted_credential: false,
      forward_accepted_credential_overrides_auth: false,
      extension_uris: [],
      virtual_key_ids: [],
    });
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
    expect(res.body.updated_at).toMatch(/Z$/);
    const cardRequests = agent.received.requests.filter((r) => r.path === '/.well-known/agent-card.json');
    expect(cardRequests).toHaveLength(1);
    expect(cardRequests[0]!.headers['a2a-version']).toBe('1.0');

    const got = await gw.http.get('/api/agents/echo', MGMT);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const list = await gw.http.get('/api/agents', MGMT);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ agents: [res.body], count: 1 });
    const rows = await db.query(`SELECT name, enabled, allow_by_default FROM agents`);
    expect(rows).toEqual([{ name: 'echo', enabled: true, allow_by_default: false }]);
  });

  it('refuses a duplicate name with 409 already_exists', async () => {
    const res = await post(base());
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('already_exists');
    expect(res.body.extra_fields).toMatchObject({ a2a_agent_name: 'echo' });
    // Registration and push-config management are no A2A v1 operations.
    expect(res.body.extra_fields.a2a_request_type).toBeUndefined();
  });

  it('answers 404 agent_not_found for unknown agents on get, put and delete', async () => {
    for (const res of [
      await gw.http.get('/api/agents/nobody', MGMT),
      await gw.http.put('/api/agents/nobody', { agent_card_url: agent.cardUrl }, MGMT),
      await gw.http.delete('/api/agents/nobody', MGMT),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('agent_not_found');
      expect(res.body.extra_fields.a2a_agent_name).toBe('nobody');
    }
    const res = await gw.http.get('/api/agents/nobody', MGMT);
    expect(res.body.extra_fields.a2a_request_type).toBeUndefined();
  });

  it('requires management credentials', async () => {
    expect((await gw.http.get('/api/agents')).status).toBe(401);
    expect((await gw.http.post('/api/agents', base())).status).toBe(401);
  });

  describe('validation: 400 naming the field', () => {
    const pem = () => pki;
    const cases: Array<[string, () => Record<string, unknown>, string]> = [
      ['missing name', () => ({ agent_card_url: agent.cardUrl }), 'name'],
      ['name pattern', () => ({ name: 'Bad_Name', agent_card_url: agent.cardUrl }), 'name'],
      ['name with trailing dash', () => ({ name: 'bad-', agent_card_url: agent.cardUrl }), 'name'],
      ['name too long', () => ({ name: 'a'.repeat(256), agent_card_url: agent.cardUrl }), 'name'],
      ['reserved name inspect', () => ({ name: 'inspect', agent_card_url: agent.cardUrl }), 'name'],
      ['reserved name history', () => ({ name: 'history', agent_card_url: agent.cardUrl }), 'name'],
      ['reserved name push-configs', () => ({ name: 'push-configs', agent_card_url: agent.cardUrl }), 'name'],
      ['card url not http', () => ({ name: 'x', agent_card_url: 'ftp://example.com/card.json' }), 'agent_card_url'],
      ['card url relative', () => ({ name: 'x', agent_card_url: '/card.json' }), 'agent_card_url'],
      ['card url with user info', () => ({ name: 'x', agent_card_url: 'http://u:p@example.com/c' }), 'agent_card_url'],
      ['unknown field', () => ({ ...base(), name: 'x', colour: 'red' }), 'colour'],
      ['enabled not boolean', () => ({ ...base(), name: 'x', enabled: 'yes' }), 'enabled'],
      ['auth type', () => ({ ...base(), name: 'x', discovery_auth: { type: 'basic' } }), 'discovery_auth.type'],
      [
        'headers auth without headers',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'headers' } }),
        'runtime_auth.headers',
      ],
      [
        'headers auth with an empty map',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'headers', headers: {} } }),
        'runtime_auth.headers',
      ],
      [
        'Host header',
        () => ({ ...base(), name: 'x', discovery_auth: { type: 'headers', headers: { Host: 'evil' } } }),
        'discovery_auth.headers.Host',
      ],
      [
        'hop-by-hop header',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'headers', headers: { 'Transfer-Encoding': 'x' } } }),
        'runtime_auth.headers.Transfer-Encoding',
      ],
      [
        'Cookie header',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'headers', headers: { cookie: 'a=b' } } }),
        'runtime_auth.headers.cookie',
      ],
      [
        'Proxy-Authorization header',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'headers', headers: { 'Proxy-Authorization': 'x' } } }),
        'runtime_auth.headers.Proxy-Authorization',
      ],
      [
        'header name that is not a token',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'headers', headers: { 'Bad Header': 'x' } } }),
        'runtime_auth.headers.Bad Header',
      ],
      [
        'bad SecretValue reference in a header',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'headers', headers: { 'X-Key': 'env.not valid' } } }),
        'runtime_auth.headers.X-Key',
      ],
      [
        'oauth without client_id',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'oauth', oauth: { client_secret: 's', token_url: 'https://a.example/t' } },
        }),
        'runtime_auth.oauth.client_id',
      ],
      [
        'oauth without client_secret',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'oauth', oauth: { client_id: 'c', token_url: 'https://a.example/t' } },
        }),
        'runtime_auth.oauth.client_secret',
      ],
      [
        'oauth client_secret env type without ref',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: {
            type: 'oauth',
            oauth: { client_id: 'c', client_secret: { type: 'env' }, token_url: 'https://a.example/t' },
          },
        }),
        'runtime_auth.oauth.client_secret',
      ],
      [
        'oauth without any URL',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'oauth', oauth: { client_id: 'c', client_secret: 's' } },
        }),
        'runtime_auth.oauth',
      ],
      [
        'oauth missing block',
        () => ({ ...base(), name: 'x', discovery_auth: { type: 'oauth' } }),
        'discovery_auth.oauth',
      ],
      [
        'oauth token_url not absolute',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'oauth', oauth: { client_id: 'c', client_secret: 's', token_url: 'token' } },
        }),
        'runtime_auth.oauth.token_url',
      ],
      [
        'oauth discovery_url not http',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'oauth', oauth: { client_id: 'c', client_secret: 's', discovery_url: 'ftp://a/b' } },
        }),
        'runtime_auth.oauth.discovery_url',
      ],
      [
        'oauth provider_url with user info',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: {
            type: 'oauth',
            oauth: { client_id: 'c', client_secret: 's', provider_url: 'https://u:p@auth.example' },
          },
        }),
        'runtime_auth.oauth.provider_url',
      ],
      [
        'client cert without key',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'none', tls: { client_cert_pem: pem().clientCert } },
        }),
        'runtime_auth.tls.client_key_pem',
      ],
      [
        'client key without cert',
        () => ({
          ...base(),
          name: 'x',
          discovery_auth: { type: 'none', tls: { client_key_pem: pem().clientKey } },
        }),
        'discovery_auth.tls.client_cert_pem',
      ],
      [
        'CA PEM that does not parse',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'none', tls: { ca_cert_pem: 'not a pem' } } }),
        'runtime_auth.tls.ca_cert_pem',
      ],
      [
        'client key PEM that does not parse',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'none', tls: { client_cert_pem: pem().clientCert, client_key_pem: 'garbage' } },
        }),
        'runtime_auth.tls.client_key_pem',
      ],
      [
        'client key that does not match the cert',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'none', tls: { client_cert_pem: pem().clientCert, client_key_pem: pem().serverKey } },
        }),
        'runtime_auth.tls.client_key_pem',
      ],
      [
        'PEM reference that cannot be resolved',
        () => ({
          ...base(),
          name: 'x',
          runtime_auth: { type: 'none', tls: { ca_cert_pem: 'env.GW_TEST_UNSET_CA_PEM_VARIABLE' } },
        }),
        'runtime_auth.tls.ca_cert_pem',
      ],
      [
        '<REDACTED> without a stored secret',
        () => ({ ...base(), name: 'x', runtime_auth: { type: 'headers', headers: { 'X-Key': '<REDACTED>' } } }),
        'runtime_auth.headers.X-Key',
      ],
      ['empty virtual key id', () => ({ ...base(), name: 'x', virtual_key_ids: [''] }), 'virtual_key_ids[0]'],
      [
        'virtual key ids not strings',
        () => ({ ...base(), name: 'x', virtual_key_ids: ['a', 1] }),
        'virtual_key_ids[1]',
      ],
      ['extension URI not a string', () => ({ ...base(), name: 'x', extension_uris: [{}] }), 'extension_uris[0]'],
      ['virtual_key_ids not an array', () => ({ ...base(), name: 'x', virtual_key_ids: 'abc' }), 'virtual_key_ids'],
      [
        'extension URI not absolute',
        () => ({ ...base(), name: 'x', extension_uris: ['not-absolute'] }),
        'extension_uris[0]',
      ],
      [
        'duplicate extension URI',
        () => ({ ...base(), name: 'x', extension_uris: [EXT_OPTIONAL, EXT_OPTIONAL] }),
        'extension_uris[1]',
      ],
      [
        'extension not declared by the card',
        () => ({ ...base(), name: 'x', extension_uris: [EXT_OPTIONAL, 'https://ext.example.com/other'] }),
        'extension_uris[1]',
      ],
      [
        'required extension not listed',
        () => ({ name: 'x', agent_card_url: secured.cardUrl, extension_uris: [EXT_OPTIONAL] }),
        'extension_uris',
      ],
      [
        'security scheme not in the card',
        () => ({
          name: 'x',
          agent_card_url: secured.cardUrl,
          extension_uris: [EXT_REQUIRED],
          runtime_auth: { type: 'headers', headers: { 'X-Api-Key': 'k' }, security_schemes: ['nope'] },
        }),
        'runtime_auth.security_schemes',
      ],
      [
        'security schemes that satisfy no requirement',
        () => ({
          name: 'x',
          agent_card_url: secured.cardUrl,
          extension_uris: [EXT_REQUIRED],
          runtime_auth: { type: 'headers', headers: { 'X-Api-Key': 'k' }, security_schemes: ['apikey'] },
        }),
        'runtime_auth.security_schemes',
      ],
    ];

    it.each(cases)('%s', async (_label, body, param) => {
      const res = await post(body());
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.param).toBe(param);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.extra_fields.a2a_request_type).toBeUndefined();
    });

    it('virtual key IDs: duplicates and unknown IDs name the index', async () => {
      expect(vkIds).toHaveLength(2);
      const [a, b] = vkIds as [string, string];
      let res = await post({ ...base(), name: 'x', virtual_key_ids: [a, a] });
      expect(res.body.error?.param).toBe('virtual_key_ids[1]');
      res = await post({ ...base(), name: 'x', virtual_key_ids: [a, '6b0f3d3e-0000-4000-8000-000000000000'] });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('virtual_key_ids[1]');
      res = await post({ ...base(), name: 'with-keys', virtual_key_ids: [a, b] });
      expect(res.status).toBe(201);
      expect(res.body.virtual_key_ids).toEqual([a, b]);
      expect((await gw.http.delete('/api/agents/with-keys', MGMT)).status).toBe(204);
    });

    it('a satisfying security scheme set and the required extension register fine', async () => {
      const res = await post({
        name: 'secured',
        agent_card_url: secured.cardUrl,
        extension_uris: [EXT_REQUIRED, EXT_OPTIONAL],
        runtime_auth: {
          type: 'headers',
          headers: { 'X-Api-Key': 'k', 'X-Tenant': 't' },
          security_schemes: ['apikey', 'tenant'],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.extension_uris).toEqual([EXT_REQUIRED, EXT_OPTIONAL]);
      expect(res.body.runtime_auth.security_schemes).toEqual(['apikey', 'tenant']);
      expect((await gw.http.delete('/api/agents/secured', MGMT)).status).toBe(204);
    });

    it('saved nothing for any refused request', async () => {
      const rows = await db.query(`SELECT name FROM agents ORDER BY name`);
      expect(rows).toEqual([{ name: 'echo' }]);
    });
  });

  describe('card fetch failures: 400 param agent_card_url saying what was wrong', () => {
    const bigCard = () => ({ ...v1Card(), padding: 'x'.repeat(1024 * 1024 + 10) });
    const failures: Array<[string, () => Promise<string>, RegExp]> = [
      [
        'unreachable',
        async () => {
          const s = await startCardServer(respond(200, v1Card()));
          await s.close();
          return s.cardUrl;
        },
        /could not be fetched.*connection refused/i,
      ],
      ['status 404', async () => (await server(respond(404, { error: 'nope' }))).cardUrl, /status 404/],
      ['status 500', async () => (await server(respond(500, 'oops'))).cardUrl, /status 500/],
      [
        'redirect',
        async () => (await server(respond(302, '', { location: 'http://127.0.0.1:1/elsewhere' }))).cardUrl,
        /redirect \(status 302/,
      ],
      ['oversize', async () => (await server(respond(200, bigCard()))).cardUrl, /too large/],
      [
        'oversize without content-length',
        async () =>
          (
            await server((_req, res) => {
              res.writeHead(200, { 'content-type': 'application/json' });
              const chunk = 'x'.repeat(64 * 1024);
              res.write('{"pad":"');
              for (let i = 0; i < 20; i++) res.write(chunk);
              res.end('"}');
            })
          ).cardUrl,
        /too large/,
      ],
      ['not JSON', async () => (await server(respond(200, '<html>hi</html>'))).cardUrl, /not valid JSON/],
      ['not an object', async () => (await server(respond(200, [v1Card()]))).cardUrl, /not a JSON object/],
      [
        '0.3-shaped card',
        async () =>
          (
            await server(
              respond(200, {
                name: 'old',
                description: 'old agent',
                url: 'http://127.0.0.1:9/a2a',
                protocolVersion: '0.3.0',
                version: '1',
                capabilities: {},
                defaultInputModes: ['text/plain'],
                defaultOutputModes: ['text/plain'],
                skills: [],
              }),
            )
          ).cardUrl,
        /A2A 0\.3 card/,
      ],
      [
        'no v1 interface',
        async () =>
          (
            await server(
              respond(200, {
                ...v1Card(),
                supportedInterfaces: [
                  { url: 'http://127.0.0.1:9/a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
                  { url: 'http://127.0.0.1:9/g', protocolBinding: 'GRPC', protocolVersion: '1.0' },
                  { url: 'http://u:p@127.0.0.1:9/r', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
                ],
              }),
            )
          ).cardUrl,
        /no supportedInterfaces entry/,
      ],
      [
        'missing skills',
        async () => {
          const card = v1Card();
          delete card.skills;
          return (await server(respond(200, card))).cardUrl;
        },
        /missing required field skills/,
      ],
      [
        'skill without tags',
        async () =>
          (await server(respond(200, { ...v1Card(), skills: [{ id: 'a', name: 'b', description: 'c' }] }))).cardUrl,
        /skills\[0\]\.tags/,
      ],
      [
        'empty skills',
        async () => (await server(respond(200, { ...v1Card(), skills: [] }))).cardUrl,
        /skills must not be empty/,
      ],
      [
        'empty defaultOutputModes',
        async () => (await server(respond(200, { ...v1Card(), defaultOutputModes: [] }))).cardUrl,
        /defaultOutputModes must not be empty/,
      ],
      [
        'wrong type of a required field',
        async () => (await server(respond(200, { ...v1Card(), version: 2 }))).cardUrl,
        /version must be a string/,
      ],
      [
        'unknown security scheme shape',
        async () =>
          (await server(respond(200, { ...v1Card(), securitySchemes: { weird: { kind: 'magic' } } }))).cardUrl,
        /securitySchemes\.weird/,
      ],
      ['cloud metadata address', async () => 'http://169.254.169.254/latest/meta-data', /refused.*metadata/],
      ['IPv6 metadata address', async () => 'http://[fd00:ec2::254]/card.json', /refused.*metadata/],
    ];

    it.each(failures)('%s', async (_label, url, message) => {
      const res = await post({ name: 'broken', agent_card_url: await url() });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.param).toBe('agent_card_url');
      expect(res.body.error.message).toMatch(message);
      expect(res.body.extra_fields).toMatchObject({ a2a_agent_name: 'broken' });
      // Registration and push-config management are no A2A v1 operations.
      expect(res.body.extra_fields.a2a_request_type).toBeUndefined();
      expect((await gw.http.get('/api/agents/broken', MGMT)).status).toBe(404);
    });

    it('a disabled registration is saved without fetching the card', async () => {
      const s = await server(respond(500, 'down'));
      const res = await post({ name: 'sleeping', agent_card_url: s.cardUrl, enabled: false });
      expect(res.status).toBe(201);
      expect(res.body.enabled).toBe(false);
      expect(s.requests).toHaveLength(0);
      expect((await gw.http.delete('/api/agents/sleeping', MGMT)).status).toBe(204);
    });

    it('accepts the three security scheme shapes (spec wrapper, OpenAPI type, @a2a-js leaked $case)', async () => {
      const openapi = await server(
        respond(200, {
          ...v1Card(),
          securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
          securityRequirements: [{ schemes: { key: { list: [] } } }],
        }),
      );
      let res = await post({
        name: 'openapi-shape',
        agent_card_url: openapi.cardUrl,
        runtime_auth: { type: 'headers', headers: { 'X-Key': 'k' }, security_schemes: ['key'] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      // The SDK's own card handler serialises ts-proto oneofs as { scheme: { $case, value } }.
      const sdk = await startA2aAgent({
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      });
      try {
        res = await gw.http.post('/api/agents/inspect', { agent_card_url: `${sdk.url}/sdk-card.json` }, MGMT);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(JSON.stringify(res.body.card)).toContain('$case');
        expect(res.body.security_schemes).toEqual([{ name: 'bearer', type: 'http' }]);
        res = await post({
          name: 'sdk-shape',
          agent_card_url: `${sdk.url}/sdk-card.json`,
          runtime_auth: { type: 'headers', headers: { Authorization: 'Bearer x' }, security_schemes: ['bearer'] },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      } finally {
        await sdk.close();
      }
      for (const name of ['openapi-shape', 'sdk-shape']) {
        expect((await gw.http.delete(`/api/agents/${name}`, MGMT)).status).toBe(204);
      }
    });
  });

  describe('inspect', () => {
    it('returns the card, its proxyable interfaces, schemes, requirements and extensions without saving', async () => {
      const res = await gw.http.post('/api/agents/inspect', { agent_card_url: secured.cardUrl }, MGMT);
      expect(res.status).toBe(200);
      expect(res.body.card.name).toBe('Test Agent');
      expect(res.body.interfaces).toEqual([
        { url: secured.jsonrpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: secured.restUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ]);
      expect(res.body.security_schemes).toEqual([
        { name: 'bearer', type: 'http' },
        { name: 'apikey', type: 'apiKey' },
        { name: 'tenant', type: 'apiKey' },
      ]);
      expect(res.body.security_requirements).toEqual([['bearer'], ['apikey', 'tenant']]);
      expect(res.body.extensions).toEqual([
        { uri: EXT_OPTIONAL, required: false },
        { uri: EXT_REQUIRED, required: true },
      ]);
      expect((await gw.http.get('/api/agents', MGMT)).body.count).toBe(1);
    });

    it('reports card failures as 400 agent_card_url, without an a2a_request_type (inspect is no A2A operation)', async () => {
      const s = await server(respond(404, {}));
      const res = await gw.http.post('/api/agents/inspect', { agent_card_url: s.cardUrl }, MGMT);
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('agent_card_url');
      expect(res.body.extra_fields.a2a_request_type).toBeUndefined();
      const bad = await gw.http.post('/api/agents/inspect', { agent_card_url: 'nope' }, MGMT);
      expect(bad.body.error.param).toBe('agent_card_url');
    });
  });

  describe('enterprise permissions', () => {
    let ent: TestApp;
    const admin = { Authorization: `Basic ${Buffer.from('admin:admin-pass-123').toString('base64')}` };
    beforeAll(async () => {
      ent = await startTestApp({
        config: {
          edition: 'enterprise',
          auth_config: { is_enabled: true, admin_username: 'admin', admin_password: 'admin-pass-123' },
        },
      });
    });
    afterAll(() => ent?.close());

    it('AgentGateway:View may list but not register (403 naming AgentGateway:Create)', async () => {
      const key = await ent.http.post(
        '/api/management-keys',
        { name: 'viewer', scopes: ['AgentGateway:View'] },
        { headers: admin },
      );
      expect(key.status, JSON.stringify(key.body)).toBe(201);
      const viewer = { headers: { Authorization: `Bearer ${key.body.value}` } };
      expect((await ent.http.get('/api/agents', viewer)).status).toBe(200);
      const denied = await ent.http.post('/api/agents', { name: 'x', agent_card_url: agent.cardUrl }, viewer);
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('permission_denied');
      expect(denied.body.error.message).toContain('AgentGateway:Create');
      const created = await ent.http.post(
        '/api/agents',
        { name: 'x', agent_card_url: agent.cardUrl },
        { headers: admin },
      );
      expect(created.status).toBe(201);
    });
  });

  describe('secrets: redacted in every response, <REDACTED> keeps them on PUT', () => {
    const SECRET_HEADER = 'card-secret-value-91817';
    const RUNTIME_SECRET = 'runtime-secret-value-55120';
    let guarded: A2aAgent;

    beforeAll(async () => {
      process.env.GW_TEST_AGENT_CLIENT_ID = 'client-from-env';
      guarded = await startA2aAgent({ authorizeCard: (h) => h['x-card-key'] === SECRET_HEADER });
    });
    afterAll(() => guarded?.close());

    const registration = () => ({
      name: 'guarded',
      agent_card_url: guarded.cardUrl,
      discovery_auth: { type: 'headers', headers: { 'X-Card-Key': SECRET_HEADER }, tls: { ca_cert_pem: pki.caCert } },
      runtime_auth: {
        type: 'oauth',
        oauth: {
          client_id: 'env.GW_TEST_AGENT_CLIENT_ID',
          client_secret: RUNTIME_SECRET,
          token_url: 'https://auth.example.com/token',
          scopes: ['a2a.read', 'a2a.write'],
        },
      },
    });

    it('redacts on create, get and list', async () => {
      const created = await post(registration());
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const expected = {
        discovery_auth: {
          type: 'headers',
          headers: { 'X-Card-Key': { value: '<REDACTED>', ref: '', type: 'plain_text' } },
          tls: { ca_cert_pem: { value: '<REDACTED>', ref: '', type: 'plain_text' } },
        },
        runtime_auth: {
          type: 'oauth',
          oauth: {
            client_id: { value: '<REDACTED>', ref: 'env.GW_TEST_AGENT_CLIENT_ID', type: 'env' },
            client_secret: { value: '<REDACTED>', ref: '', type: 'plain_text' },
            token_url: 'https://auth.example.com/token',
            scopes: ['a2a.read', 'a2a.write'],
          },
        },
      };
      expect(created.body).toMatchObject(expected);
      const got = await gw.http.get('/api/agents/guarded', MGMT);
      expect(got.body).toMatchObject(expected);
      const list = await gw.http.get('/api/agents', MGMT);
      expect(list.body.agents.find((a: any) => a.name === 'guarded')).toMatchObject(expected);
      for (const text of [created.text, got.text, list.text]) {
        expect(text).not.toContain(SECRET_HEADER);
        expect(text).not.toContain(RUNTIME_SECRET);
        expect(text).not.toContain('BEGIN CERTIFICATE');
      }
    });

    it('stores ciphertext, and a PUT of the redacted view keeps every secret', async () => {
      const before = (await db.query(`SELECT discovery_auth, runtime_auth FROM agents WHERE name = 'guarded'`))[0];
      expect(JSON.stringify(before)).not.toContain(SECRET_HEADER);
      expect(JSON.stringify(before)).not.toContain(RUNTIME_SECRET);
      expect(before.discovery_auth.headers['X-Card-Key'].ciphertext).toMatch(/^v1:/);
      expect(before.runtime_auth.oauth.client_id).toEqual({ type: 'env', ref: 'env.GW_TEST_AGENT_CLIENT_ID' });

      const view = (await gw.http.get('/api/agents/guarded', MGMT)).body;
      const { created_at: _c, updated_at: _u, ...body } = view;
      guarded.reset();
      const put = await gw.http.put('/api/agents/guarded', { ...body, allow_by_default: true }, MGMT);
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.allow_by_default).toBe(true);
      expect(put.body.created_at).toBe(view.created_at);
      // The card fetch of the PUT only passes the card server's check if the kept secret still resolves.
      expect(guarded.received.requests.at(-1)?.headers['x-card-key']).toBe(SECRET_HEADER);
      const after = (await db.query(`SELECT discovery_auth, runtime_auth FROM agents WHERE name = 'guarded'`))[0];
      expect(after.discovery_auth.headers['X-Card-Key'].ciphertext).toBe(
        before.discovery_auth.headers['X-Card-Key'].ciphertext,
      );
      expect(after.discovery_auth.tls.ca_cert_pem.ciphertext).toBe(before.discovery_auth.tls.ca_cert_pem.ciphertext);
      expect(after.runtime_auth.oauth.client_secret.ciphertext).toBe(
        before.runtime_auth.oauth.client_secret.ciphertext,
      );

      // Bare `<REDACTED>` strings work too.
      const bare = await gw.http.put(
        '/api/agents/guarded',
        {
          agent_card_url: guarded.cardUrl,
          discovery_auth: { type: 'headers', headers: { 'x-card-key': '<REDACTED>' } },
        },
        MGMT,
      );
      expect(bare.status, JSON.stringify(bare.body)).toBe(200);
      // PUT replaces the whole registration: runtime auth and allow_by_default are gone.
      expect(bare.body.runtime_auth).toBeUndefined();
      expect(bare.body.allow_by_default).toBe(false);
    });

    it('a PUT with a wrong secret is refused by the card check and changes nothing', async () => {
      const res = await gw.http.put(
        '/api/agents/guarded',
        { agent_card_url: guarded.cardUrl, discovery_auth: { type: 'headers', headers: { 'X-Card-Key': 'wrong' } } },
        MGMT,
      );
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('agent_card_url');
      expect(res.body.error.message).toMatch(/status 401/);
      expect(res.body.extra_fields).toMatchObject({ a2a_agent_name: 'guarded' });
      // Registration and push-config management are no A2A v1 operations.
      expect(res.body.extra_fields.a2a_request_type).toBeUndefined();
      const row = (await db.query(`SELECT discovery_auth FROM agents WHERE name = 'guarded'`))[0];
      expect(row.discovery_auth.headers['x-card-key'].ciphertext).toMatch(/^v1:/);
    });

    it('PUT: the body name must match the path', async () => {
      const res = await gw.http.put('/api/agents/guarded', { name: 'other', agent_card_url: guarded.cardUrl }, MGMT);
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('name');
    });

    it('never logs the secrets', () => {
      const text = gw.logs.text();
      expect(text).not.toContain(SECRET_HEADER);
      expect(text).not.toContain(RUNTIME_SECRET);
    });

    it('DELETE answers 204, then 404', async () => {
      const del = await gw.http.delete('/api/agents/guarded', MGMT);
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      const again = await gw.http.delete('/api/agents/guarded', MGMT);
      expect(again.status).toBe(404);
      expect(again.body.extra_fields).toMatchObject({ a2a_agent_name: 'guarded' });
      // Registration and push-config management are no A2A v1 operations.
      expect(again.body.extra_fields.a2a_request_type).toBeUndefined();
      expect(await db.query(`SELECT name FROM agents WHERE name = 'guarded'`)).toEqual([]);
    });
  });
});
