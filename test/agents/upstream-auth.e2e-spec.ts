import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { OutboundHttpService, readBodyCapped } from '../../src/core/outbound/outbound-http.service.js';
import { AgentCardService } from '../../src/modules/agents/a2a/agent-card.service.js';
import { AgentUpstreamAuth } from '../../src/modules/agents/a2a/agent-upstream-auth.js';
import { AgentsService } from '../../src/modules/agents/agents.service.js';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import { startOAuthServer, type OAuthServer } from '../helpers/oauth-server.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { generateTestPki, type TestPki } from '../helpers/tls-certs.js';
import { MGMT, SETUP_TOKEN, respond, startCardServer, v1Card, type CardServer } from './agents-test-kit.js';

const bearerOf = (h: Record<string, unknown>) =>
  typeof h.authorization === 'string' && h.authorization.startsWith('Bearer ') ? h.authorization.slice(7) : '';

describe(`agent upstream auth, TLS and outbound policy (${RUN_MODE})`, () => {
  let gw: TestApp;
  let pki: TestPki;
  const closers: Array<() => Promise<void>> = [];
  const post = (body: unknown) => gw.http.post('/api/agents', body, MGMT);

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    pki = generateTestPki();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await gw?.close();
  });

  async function agentWith(options: Parameters<typeof startA2aAgent>[0]): Promise<A2aAgent> {
    const a = await startA2aAgent(options);
    closers.push(() => a.close());
    return a;
  }
  async function oauthServer(options: Parameters<typeof startOAuthServer>[0] = {}): Promise<OAuthServer> {
    const s = await startOAuthServer({ clientId: 'cid', clientSecret: 'csecret', ...options });
    closers.push(() => s.close());
    return s;
  }
  async function cardServer(...args: Parameters<typeof startCardServer>): Promise<CardServer> {
    const s = await startCardServer(...args);
    closers.push(() => s.close());
    return s;
  }

  describe('headers auth', () => {
    it('sends the discovery headers to the card server, resolving references at call time', async () => {
      process.env.GW_TEST_CARD_KEY = 'key-from-env-1';
      const agent = await agentWith({ authorizeCard: (h) => h['x-api-key'] === process.env.GW_TEST_CARD_KEY });
      const without = await post({ name: 'hdr', agent_card_url: agent.cardUrl });
      expect(without.status).toBe(400);
      expect(without.body.error.param).toBe('agent_card_url');
      expect(without.body.error.message).toMatch(/status 401/);

      const res = await post({
        name: 'hdr',
        agent_card_url: agent.cardUrl,
        discovery_auth: { type: 'headers', headers: { 'X-Api-Key': 'env.GW_TEST_CARD_KEY' } },
        runtime_auth: { type: 'headers', headers: { Authorization: 'Bearer runtime-plain' } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(agent.received.requests.at(-1)?.headers['x-api-key']).toBe('key-from-env-1');

      const auth = gw.app.get(AgentUpstreamAuth);
      const entity = await gw.app.get(AgentsService).getForDataPlane('hdr');
      expect(await auth.headersFor(entity, 'runtime')).toEqual({ authorization: 'Bearer runtime-plain' });
      process.env.GW_TEST_CARD_KEY = 'key-from-env-2';
      expect(await auth.headersFor(entity, 'discovery')).toEqual({ 'x-api-key': 'key-from-env-2' });
      expect(await auth.tlsFor(entity, 'runtime')).toBeNull();
    });
  });

  describe('OAuth client credentials', () => {
    it('token_url: posts the form, sends the bearer token to the card server, and caches the token', async () => {
      const oauth = await oauthServer();
      const agent = await agentWith({ authorizeCard: (h) => oauth.issued.includes(bearerOf(h)) });
      const registration = {
        name: 'oauth-token-url',
        agent_card_url: agent.cardUrl,
        discovery_auth: {
          type: 'oauth',
          oauth: {
            token_url: oauth.tokenUrl,
            client_id: 'cid',
            client_secret: 'csecret',
            scopes: ['agent.read', 'agent.write'],
            resource: 'https://agent.example.com',
          },
        },
      };
      const res = await post(registration);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(oauth.tokenRequests).toHaveLength(1);
      const [first] = oauth.tokenRequests;
      expect(first!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(first!.form).toEqual({
        grant_type: 'client_credentials',
        client_id: 'cid',
        client_secret: 'csecret',
        scope: 'agent.read agent.write',
        resource: 'https://agent.example.com',
      });
      expect(agent.received.requests.at(-1)?.headers.authorization).toBe(`Bearer ${oauth.issued[0]}`);

      // Same configuration (secrets sent back redacted): the cached token is reused for the PUT's card fetch.
      const view = (await gw.http.get('/api/agents/oauth-token-url', MGMT)).body;
      const put = await gw.http.put(
        '/api/agents/oauth-token-url',
        { agent_card_url: view.agent_card_url, discovery_auth: view.discovery_auth },
        MGMT,
      );
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(oauth.tokenRequests).toHaveLength(1);
      expect(agent.received.requests.at(-1)?.headers.authorization).toBe(`Bearer ${oauth.issued[0]}`);

      // The data plane's discovery of the same agent reuses it too.
      const entity = await gw.app.get(AgentsService).getForDataPlane('oauth-token-url');
      expect(await gw.app.get(AgentUpstreamAuth).headersFor(entity, 'discovery')).toEqual({
        authorization: `Bearer ${oauth.issued[0]}`,
      });
      expect(oauth.tokenRequests).toHaveLength(1);
    });

    it('runtime tokens: concurrent callers share one token request; tokens near expiry are not reused', async () => {
      const slow = await oauthServer({ delayMs: 150 });
      const agent = await agentWith({});
      const res = await post({
        name: 'oauth-runtime',
        agent_card_url: agent.cardUrl,
        runtime_auth: {
          type: 'oauth',
          oauth: { token_url: slow.tokenUrl, client_id: 'cid', client_secret: 'csecret' },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(slow.tokenRequests).toHaveLength(0);
      const auth = gw.app.get(AgentUpstreamAuth);
      const entity = await gw.app.get(AgentsService).getForDataPlane('oauth-runtime');
      const [a, b] = await Promise.all([auth.headersFor(entity, 'runtime'), auth.headersFor(entity, 'runtime')]);
      expect(a).toEqual({ authorization: `Bearer ${slow.issued[0]}` });
      expect(b).toEqual(a);
      expect(await auth.headersFor(entity, 'runtime')).toEqual(a);
      expect(slow.tokenRequests).toHaveLength(1);

      // expires_in 20 s is inside the 30 s safety margin: every call needs a fresh token.
      const short = await oauthServer({ expiresIn: 20 });
      const put = await gw.http.put(
        '/api/agents/oauth-runtime',
        {
          agent_card_url: agent.cardUrl,
          runtime_auth: {
            type: 'oauth',
            oauth: { token_url: short.tokenUrl, client_id: 'cid', client_secret: 'csecret' },
          },
        },
        MGMT,
      );
      expect(put.status).toBe(200);
      const updated = await gw.app.get(AgentsService).getForDataPlane('oauth-runtime');
      const first = await auth.headersFor(updated, 'runtime');
      const second = await auth.headersFor(updated, 'runtime');
      expect(short.tokenRequests).toHaveLength(2);
      expect(first).toEqual({ authorization: `Bearer ${short.issued[0]}` });
      expect(second).toEqual({ authorization: `Bearer ${short.issued[1]}` });
    });

    it('discovery_url: the token endpoint comes from the metadata document', async () => {
      const oauth = await oauthServer();
      const agent = await agentWith({ authorizeCard: (h) => oauth.issued.includes(bearerOf(h)) });
      const res = await post({
        name: 'oauth-discovery',
        agent_card_url: agent.cardUrl,
        discovery_auth: {
          type: 'oauth',
          oauth: { discovery_url: `${oauth.url}/openid-configuration`, client_id: 'cid', client_secret: 'csecret' },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(oauth.paths).toEqual(['/openid-configuration', '/oidc-token']);
    });

    it('provider_url: RFC 8414 metadata at /.well-known/oauth-authorization-server', async () => {
      const oauth = await oauthServer();
      const agent = await agentWith({ authorizeCard: (h) => oauth.issued.includes(bearerOf(h)) });
      const res = await post({
        name: 'oauth-provider',
        agent_card_url: agent.cardUrl,
        discovery_auth: {
          type: 'oauth',
          oauth: { provider_url: oauth.url, client_id: 'cid', client_secret: 'csecret' },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(oauth.paths).toEqual(['/.well-known/oauth-authorization-server', '/token']);
    });

    it('a refused token request fails the registration with 400 agent_card_url', async () => {
      const oauth = await oauthServer();
      const agent = await agentWith({});
      const res = await post({
        name: 'oauth-wrong',
        agent_card_url: agent.cardUrl,
        discovery_auth: {
          type: 'oauth',
          oauth: { token_url: oauth.tokenUrl, client_id: 'cid', client_secret: 'nope' },
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('agent_card_url');
      expect(res.body.error.message).toMatch(/OAuth token request .* status 401 \(invalid_client\)/);
      expect(agent.received.requests).toHaveLength(0);
      expect(gw.logs.text()).not.toContain('csecret');
    });
  });

  describe('TLS', () => {
    let https: CardServer;
    let mtls: CardServer;
    const peers: string[] = [];

    beforeAll(async () => {
      https = await cardServer(respond(200, v1Card()), { key: pki.serverKey, cert: pki.serverCert });
      mtls = await cardServer(
        (req, res) => {
          peers.push(String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? ''));
          respond(200, v1Card())(req, res);
        },
        { key: pki.serverKey, cert: pki.serverCert, ca: pki.caCert, requestCert: true, rejectUnauthorized: true },
      );
    });

    it('an https card signed by an unknown CA is refused', async () => {
      const res = await post({ name: 'tls-plain', agent_card_url: https.cardUrl });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('agent_card_url');
      expect(res.body.error.message).toMatch(/TLS certificate verification failed/);
    });

    it('ca_cert_pem (plain or an env reference) makes it work', async () => {
      let res = await post({
        name: 'tls-ca',
        agent_card_url: https.cardUrl,
        discovery_auth: { type: 'none', tls: { ca_cert_pem: pki.caCert } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      process.env.GW_TEST_CA_PEM = pki.caCert;
      res = await post({
        name: 'tls-ca-env',
        agent_card_url: https.cardUrl,
        discovery_auth: { type: 'none', tls: { ca_cert_pem: 'env.GW_TEST_CA_PEM' } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.discovery_auth.tls.ca_cert_pem).toEqual({
        value: '<REDACTED>',
        ref: 'env.GW_TEST_CA_PEM',
        type: 'env',
      });
    });

    it('insecure_skip_verify makes it work', async () => {
      const res = await post({
        name: 'tls-insecure',
        agent_card_url: https.cardUrl,
        discovery_auth: { type: 'none', tls: { insecure_skip_verify: true } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.discovery_auth.tls).toEqual({ insecure_skip_verify: true });
    });

    it('mutual TLS: the client certificate is presented when configured', async () => {
      let res = await post({
        name: 'tls-mutual',
        agent_card_url: mtls.cardUrl,
        discovery_auth: { type: 'none', tls: { ca_cert_pem: pki.caCert } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('agent_card_url');
      res = await post({
        name: 'tls-mutual',
        agent_card_url: mtls.cardUrl,
        discovery_auth: {
          type: 'none',
          tls: { ca_cert_pem: pki.caCert, client_cert_pem: pki.clientCert, client_key_pem: pki.clientKey },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(peers).toContain('gateway-client');
      expect(res.text).not.toContain('PRIVATE KEY');
      const entity = await gw.app.get(AgentsService).getForDataPlane('tls-mutual');
      const tls = await gw.app.get(AgentUpstreamAuth).tlsFor(entity, 'discovery');
      expect(tls?.client_key_pem).toBe(pki.clientKey);
    });
  });

  describe('upstream card for the data plane', () => {
    it('returns the first interface of each binding, caches it, refreshes on demand and after a PUT', async () => {
      const agent = await agentWith({ tenant: 'acme' });
      expect((await post({ name: 'card-cache', agent_card_url: agent.cardUrl })).status).toBe(201);
      const cards = gw.app.get(AgentCardService);
      const agents = gw.app.get(AgentsService);
      const cardFetches = () => agent.received.requests.filter((r) => r.path === '/.well-known/agent-card.json').length;
      const before = cardFetches();
      const card = await cards.getUpstreamCard(await agents.getForDataPlane('card-cache'));
      expect(card.jsonrpc).toEqual({
        url: agent.jsonrpcUrl,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
        tenant: 'acme',
      });
      expect(card.rest).toEqual({
        url: agent.restUrl,
        protocolBinding: 'HTTP+JSON',
        protocolVersion: '1.0',
        tenant: 'acme',
      });
      expect(card.card.name).toBe('Test Agent');
      expect(Date.parse(card.fetched_at)).not.toBeNaN();
      await cards.getUpstreamCard(await agents.getForDataPlane('card-cache'));
      expect(cardFetches()).toBe(before);
      await cards.getUpstreamCard(await agents.getForDataPlane('card-cache'), { refresh: true });
      expect(cardFetches()).toBe(before + 1);
      expect((await gw.http.put('/api/agents/card-cache', { agent_card_url: agent.cardUrl }, MGMT)).status).toBe(200);
      const afterPut = cardFetches();
      await cards.getUpstreamCard(await agents.getForDataPlane('card-cache'));
      expect(cardFetches()).toBe(afterPut);
    });

    it('a card that breaks later is a 502 upstream_error; disabled agents are 404 for the data plane', async () => {
      let broken = false;
      const s = await cardServer((req, res) => (broken ? respond(500, 'down') : respond(200, v1Card()))(req, res));
      expect((await post({ name: 'flaky', agent_card_url: s.cardUrl })).status).toBe(201);
      broken = true;
      const agents = gw.app.get(AgentsService);
      const err = await gw.app
        .get(AgentCardService)
        .getUpstreamCard(await agents.getForDataPlane('flaky'), { refresh: true })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayException);
      expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
      expect((err as Error).message).toMatch(/status 500/);

      expect((await post({ name: 'off', agent_card_url: s.cardUrl, enabled: false })).status).toBe(201);
      const missing = await agents.getForDataPlane('off').catch((e: unknown) => e);
      expect(missing).toMatchObject({ status: 404, code: 'agent_not_found' });
    });
  });

  describe('outbound client', () => {
    it('times out with 504 upstream_timeout and never follows redirects', async () => {
      const silent = await cardServer(() => undefined);
      const outbound = gw.app.get(OutboundHttpService);
      const err = await outbound.request(silent.cardUrl, { timeoutMs: 200 }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 504, code: 'upstream_timeout', reason: 'provider_timeout' });

      const redirect = await cardServer(respond(301, '', { location: 'http://127.0.0.1:1/' }));
      const res = await outbound.request(redirect.cardUrl);
      expect(res.status).toBe(301);
      await res.body.dump();
    });

    it('readBodyCapped stops at the cap', async () => {
      const big = await cardServer((_req, res) => {
        res.writeHead(200);
        res.end(Buffer.alloc(4096, 1));
      });
      const outbound = gw.app.get(OutboundHttpService);
      const res = await outbound.request(big.url);
      await expect(readBodyCapped(res.body, 1000)).rejects.toMatchObject({ status: 502, code: 'upstream_error' });
      const ok = await outbound.request(big.url);
      expect((await readBodyCapped(ok.body, 10_000)).length).toBe(4096);
    });

    it('metadata addresses are refused even with loopback and private networks allowed', async () => {
      const outbound = gw.app.get(OutboundHttpService);
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://[::ffff:169.254.169.254]/',
        'http://[fd00:ec2::254]/',
      ]) {
        const err = await outbound.request(url).catch((e: unknown) => e);
        expect(err, url).toMatchObject({ status: 502, code: 'upstream_error', reason: 'provider_connection_failed' });
        expect((err as Error).message).toMatch(/refused: cloud metadata/);
      }
    });
  });

  describe('address policy from config', () => {
    let strict: TestApp;
    let target: CardServer;
    beforeAll(async () => {
      strict = await startTestApp({
        config: { setup_token: SETUP_TOKEN, outbound: { allow_loopback: false, allow_private_networks: false } },
      });
      target = await cardServer(respond(200, v1Card()));
    });
    afterAll(() => strict?.close());

    it.each([
      ['loopback IP literal', () => target.cardUrl, /refused: loopback addresses are not allowed/],
      [
        'a name resolving to loopback (checked at DNS lookup)',
        () => target.cardUrl.replace('127.0.0.1', 'localhost'),
        /refused: loopback/,
      ],
      ['IPv6 loopback', () => 'http://[::1]:9/card.json', /refused: loopback/],
      ['private network', () => 'http://10.1.2.3/card.json', /refused: private network/],
      ['IPv4-mapped private address', () => 'http://[::ffff:192.168.1.1]/card.json', /refused: private network/],
    ])('%s → 400 agent_card_url', async (_label, url, message) => {
      const res = await strict.http.post('/api/agents', { name: 'blocked', agent_card_url: url() }, MGMT);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.param).toBe('agent_card_url');
      expect(res.body.error.message).toMatch(message);
      expect(target.requests).toHaveLength(0);
    });
  });
});
