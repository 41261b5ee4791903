import { randomUUID } from 'node:crypto';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSONRPC_METHODS } from '../../src/modules/agents/data-plane/a2a-wire.js';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  a2aClient,
  cardUrl,
  createVirtualKey,
  eventually,
  MGMT,
  rawRequest,
  registerAgent,
  rpc,
  SETUP_TOKEN,
  sseEvents,
  userMessage,
  vkFetch,
  wireMessage,
  type VirtualKey,
} from './data-plane-kit.js';

/**
 * Failures of the Agent Gateway as the official @a2a-js/sdk client sees them, against @a2a-js/sdk agents: every
 * refusal carries the A2A extra fields, a dying agent and an agent refusing the gateway are upstream errors (502),
 * never a gateway 500 or a relayed 401.
 */
describe(`agent gateway failures (${RUN_MODE})`, () => {
  let gw: TestApp;
  let agent: A2aAgent;
  let picky: A2aAgent;
  let key: VirtualKey;
  let inactive: VirtualKey;

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    agent = await startA2aAgent();
    // Accepts only its own credential: the gateway is registered with a different one.
    picky = await startA2aAgent({ authorize: (h) => h.authorization === 'Bearer the-right-one' });
    key = await createVirtualKey(gw, 'failures-key');
    inactive = await createVirtualKey(gw, 'failures-inactive');
    const off = await gw.http.put(`/api/governance/virtual-keys/${inactive.id}`, { is_active: false }, MGMT);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await registerAgent(gw, { name: 'echo', agent_card_url: agent.cardUrl, allow_by_default: true });
    await registerAgent(gw, { name: 'private', agent_card_url: agent.cardUrl });
    await registerAgent(gw, { name: 'off', agent_card_url: agent.cardUrl, allow_by_default: true, enabled: false });
    await registerAgent(gw, {
      name: 'picky',
      agent_card_url: picky.cardUrl,
      allow_by_default: true,
      runtime_auth: { type: 'headers', headers: { Authorization: 'Bearer the-wrong-one' } },
    });
  });

  afterAll(async () => {
    await gw?.close();
    await agent?.close();
    await picky?.close();
  });

  describe('refusals decided before the agent module carry the A2A fields', () => {
    const cases: Array<[string, () => Record<string, string>, number, string]> = [
      ['no virtual key', () => ({}), 401, 'missing_credentials'],
      [
        'an unknown virtual key',
        () => ({ authorization: 'Bearer sk-gw-not-a-real-key-000000000000000' }),
        401,
        'invalid_credentials',
      ],
      ['an inactive virtual key', () => ({ authorization: `Bearer ${inactive.value}` }), 403, 'virtual_key_blocked'],
    ];
    for (const [label, headers, status, code] of cases) {
      it(`${label}: JSON-RPC, HTTP+JSON and the card`, async () => {
        const jsonrpc = await gw.http.post(
          '/agents/a2a/echo/jsonrpc',
          rpc('SendMessage', { message: wireMessage('m1') }),
          {
            headers: headers(),
          },
        );
        expect(jsonrpc.status).toBe(status);
        expect(jsonrpc.body.error.code).toBe(code);
        // The credential is refused before the body is read: the JSON-RPC method is not known yet.
        expect(jsonrpc.body.extra_fields.a2a_agent_name).toBe('echo');
        expect(jsonrpc.body.extra_fields).not.toHaveProperty('a2a_request_type');

        const rest = await gw.http.post(
          '/agents/a2a/echo/rest/message:stream',
          { message: wireMessage('m2') },
          {
            headers: headers(),
          },
        );
        expect(rest.status).toBe(status);
        expect(rest.body.error.code).toBe(code);
        expect(rest.body.extra_fields).toMatchObject({
          a2a_request_type: 'SendStreamingMessage',
          a2a_agent_name: 'echo',
        });

        const card = await gw.http.get('/agents/a2a/echo/.well-known/agent-card.json', { headers: headers() });
        expect(card.status).toBe(status);
        expect(card.body.extra_fields).toMatchObject({ a2a_request_type: 'GetAgentCard', a2a_agent_name: 'echo' });
      });
    }

    it('a refused card fetch by the official client carries GetAgentCard: no key, inactive key, key not granted, unknown or disabled agent', async () => {
      const answers: Array<{ status: number; body: any }> = [];
      /** The SDK's own card fetch, with what the gateway answered kept aside. */
      const recording =
        (vk: string | undefined): typeof fetch =>
        async (input, init) => {
          const res = await (vk ? vkFetch(vk) : fetch)(input, init);
          answers.push({ status: res.status, body: await res.clone().json() });
          return res;
        };
      const cases: Array<[string, string | undefined, number, string]> = [
        ['echo', undefined, 401, 'missing_credentials'],
        ['echo', inactive.value, 403, 'virtual_key_blocked'],
        ['private', key.value, 403, 'permission_denied'],
        ['nobody', key.value, 404, 'agent_not_found'],
        ['off', key.value, 404, 'agent_not_found'],
      ];
      for (const [name, vk, status, code] of cases) {
        answers.length = 0;
        const factory = new ClientFactory({
          transports: [new JsonRpcTransportFactory({ fetchImpl: recording(vk) })],
          cardResolver: new DefaultAgentCardResolver({ fetchImpl: recording(vk) }),
        });
        await expect(factory.createFromUrl(cardUrl(gw, name), '')).rejects.toThrow(String(status));
        expect(answers).toHaveLength(1);
        expect(answers[0]).toMatchObject({
          status,
          body: { error: { code }, extra_fields: { a2a_request_type: 'GetAgentCard', a2a_agent_name: name } },
        });
      }
      // Refusals of a known key are history rows of GetAgentCard.
      const rows = await gw.http.get('/api/agents/history?agent_names=private&operations=GetAgentCard', MGMT);
      expect(rows.body.history[0]).toMatchObject({ operation: 'GetAgentCard', status: 'error', status_code: 403 });
    });

    it('the official client is refused with the status, not a parse failure', async () => {
      const factory = new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl: vkFetch(inactive.value) })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: vkFetch(inactive.value) }),
      });
      await expect(factory.createFromUrl(cardUrl(gw, 'echo'), '')).rejects.toThrow(/403/);
    });
  });

  describe('a2a_request_type is an A2A v1 operation name, or absent', () => {
    it('is absent for a 0.3 method name, a body without a method and a path that names no operation', async () => {
      const auth = { authorization: `Bearer ${key.value}` };
      const legacy = await gw.http.post('/agents/a2a/echo/jsonrpc', rpc('message/send', {}), { headers: auth });
      expect(legacy.status).toBe(404);
      expect(legacy.body.error.code).toBe(-32601);
      expect(legacy.body.error.data.extra_fields.a2a_agent_name).toBe('echo');
      expect(legacy.body.error.data.extra_fields).not.toHaveProperty('a2a_request_type');

      const methodless = await gw.http.post('/agents/a2a/echo/jsonrpc', { jsonrpc: '2.0', id: 1 }, { headers: auth });
      expect(methodless.status).toBe(400);
      expect(methodless.body.error.data.extra_fields).not.toHaveProperty('a2a_request_type');

      const noOperation = await gw.http.post('/agents/a2a/echo/rest/message:explode', {}, { headers: auth });
      expect(noOperation.status).toBe(404);
      expect(noOperation.body.error.code).toBe('route_not_found');
      expect(noOperation.body.extra_fields).toEqual(expect.objectContaining({ a2a_agent_name: 'echo' }));
      expect(noOperation.body.extra_fields).not.toHaveProperty('a2a_request_type');

      // A refused caller on such a body: still no made-up operation name.
      const refused = await gw.http.post('/agents/a2a/echo/jsonrpc', rpc('message/send', {}));
      expect(refused.status).toBe(401);
      expect(refused.body.extra_fields).not.toHaveProperty('a2a_request_type');
    });

    it('history rows of JSON-RPC calls carry A2A v1 operation names: a 0.3 method is its v1 operation, a call naming none leaves no row', async () => {
      const auth = { authorization: `Bearer ${key.value}` };
      const history = async () =>
        (await gw.http.get('/api/agents/history?agent_names=legacy&limit=100', MGMT)).body.history as any[];
      await registerAgent(gw, { name: 'legacy', agent_card_url: agent.cardUrl, allow_by_default: true });
      for (const [method, id] of [
        ['message/send', 'v03-send'],
        ['tasks/get', 'v03-get'],
        ['nonsense/method', 'unknown'],
      ]) {
        const res = await gw.http.post('/agents/a2a/legacy/jsonrpc', rpc(method!, {}, id), { headers: auth });
        expect(res.status).toBe(404);
      }
      const methodless = await gw.http.post(
        '/agents/a2a/legacy/jsonrpc',
        { jsonrpc: '2.0', id: 'x' },
        { headers: auth },
      );
      expect(methodless.status).toBe(400);
      const client = await a2aClient(gw, 'legacy', key.value, 'JSONRPC');
      await client.sendMessage(userMessage('a v1 call'));
      const rows = await eventually(history, (r) => r.length >= 4);
      const operations = rows.map((r) => r.operation).sort();
      // GetAgentCard: the client's discovery; SendMessage twice: the v1 call and the refused 0.3 `message/send`.
      expect(operations).toEqual(['GetAgentCard', 'GetTask', 'SendMessage', 'SendMessage']);
      const legacy = rows.find((r) => r.request_payload?.method === 'message/send');
      expect(legacy).toMatchObject({ operation: 'SendMessage', status: 'error', status_code: 404 });
      const known = new Set(['GetAgentCard', 'PushNotification', 'PushDelivery', ...JSONRPC_METHODS]);
      expect(rows.filter((r) => !known.has(r.operation))).toEqual([]);
    });
  });

  describe('an agent stalling mid-stream (agents.stream_stall_timeout)', () => {
    it('JSON-RPC and HTTP+JSON: the last event is a 504 upstream_timeout, provider_timeout, as on the inference plane', async () => {
      const stalling = await startA2aAgent();
      await registerAgent(gw, { name: 'stalling', agent_card_url: stalling.cardUrl, allow_by_default: true });
      // Read per call: a `tck-slow` task reports `working`, then stays silent for 20 s.
      gw.config.agents.stream_stall_timeout = '400ms';
      try {
        const headers = { 'content-type': 'application/json', authorization: `Bearer ${key.value}` };
        const message = () => wireMessage(`tck-slow-${randomUUID()}`);
        const started = Date.now();
        const jsonrpc = await rawRequest(`${gw.baseUrl}/agents/a2a/stalling/jsonrpc`, {
          method: 'POST',
          headers,
          body: JSON.stringify(rpc('SendStreamingMessage', { message: message() }, 's1')),
        });
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(jsonrpc.status).toBe(200);
        const rpcEvents = sseEvents(jsonrpc.text);
        expect(rpcEvents.length).toBeGreaterThanOrEqual(2);
        expect(rpcEvents[rpcEvents.length - 1]!.data).toMatchObject({
          id: 's1',
          error: {
            code: -32603,
            data: {
              status_code: 504,
              error: { code: 'upstream_timeout', type: 'upstream_timeout' },
              extra_fields: { error_type: 'provider_timeout', a2a_agent_name: 'stalling' },
            },
          },
        });

        const rest = await rawRequest(`${gw.baseUrl}/agents/a2a/stalling/rest/message:stream`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ message: message() }),
        });
        const restEvents = sseEvents(rest.text);
        const last = restEvents[restEvents.length - 1]!;
        expect(last.event).toBe('error');
        expect(last.data).toMatchObject({
          status_code: 504,
          error: { code: 'upstream_timeout' },
          extra_fields: { error_type: 'provider_timeout', a2a_request_type: 'SendStreamingMessage' },
        });
        const logged = await eventually(
          async () => gw.logs.records().find((l) => l.event_id === last.data.event_id),
          (l) => l !== undefined,
        );
        expect(logged).toMatchObject({ req_id: rest.headers['x-request-id'], status: 504, code: 'upstream_timeout' });
      } finally {
        gw.config.agents.stream_stall_timeout = '0s';
        await stalling.close();
      }
    });
  });

  describe('an agent dying mid-stream', () => {
    it('JSON-RPC: the last event is a JSON-RPC error whose data is a 502 provider_connection_failed', async () => {
      const dying = await startA2aAgent();
      await registerAgent(gw, { name: 'dying-rpc', agent_card_url: dying.cardUrl, allow_by_default: true });
      const pending = rawRequest(`${gw.baseUrl}/agents/a2a/dying-rpc/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.value}` },
        body: JSON.stringify(rpc('SendStreamingMessage', { message: wireMessage(`tck-slow-${randomUUID()}`) }, 'd1')),
      });
      await waitForEvents(dying);
      await dying.close();
      const res = await pending;
      expect(res.status).toBe(200);
      const events = sseEvents(res.text);
      expect(events.length).toBeGreaterThanOrEqual(2);
      const last = events[events.length - 1]!;
      // The failure's log line carries the event's event_id, so an operator can match the two.
      const eventId = last.data.error.data.event_id as string;
      const logged = await eventually(
        async () => gw.logs.records().find((l) => l.event_id === eventId),
        (l) => l !== undefined,
      );
      expect(logged).toMatchObject({ req_id: res.headers['x-request-id'], status: 502, code: 'upstream_error' });
      expect(last.data).toMatchObject({
        jsonrpc: '2.0',
        id: 'd1',
        error: {
          code: -32603,
          data: {
            status_code: 502,
            error: { code: 'upstream_error' },
            extra_fields: {
              error_type: 'provider_connection_failed',
              a2a_request_type: 'SendStreamingMessage',
              a2a_agent_name: 'dying-rpc',
            },
          },
        },
      });
    });

    it('HTTP+JSON: an SSE `error` event, so the official REST client fails instead of seeing a normal end', async () => {
      const dying = await startA2aAgent();
      await registerAgent(gw, { name: 'dying-rest', agent_card_url: dying.cardUrl, allow_by_default: true });
      const client = await a2aClient(gw, 'dying-rest', key.value, 'HTTP+JSON');
      const seen: unknown[] = [];
      const consumed = (async () => {
        for await (const event of client.sendMessageStream(userMessage(`tck-slow-${randomUUID()}`))) seen.push(event);
      })();
      await waitForEvents(dying);
      await dying.close();
      const failure = await consumed.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(seen.length).toBeGreaterThanOrEqual(1);
      expect(failure).toBeInstanceOf(Error);

      // The raw bytes: an `event: error` block carrying the GatewayError.
      const again = await startA2aAgent();
      await registerAgent(gw, { name: 'dying-raw', agent_card_url: again.cardUrl, allow_by_default: true });
      const pending = rawRequest(`${gw.baseUrl}/agents/a2a/dying-raw/rest/message:stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.value}` },
        body: JSON.stringify({ message: wireMessage(`tck-slow-${randomUUID()}`) }),
      });
      await waitForEvents(again);
      await again.close();
      const raw = await pending;
      const events = sseEvents(raw.text);
      const last = events[events.length - 1]!;
      expect(last.event).toBe('error');
      const logged = await eventually(
        async () => gw.logs.records().find((l) => l.event_id === last.data.event_id),
        (l) => l !== undefined,
      );
      expect(logged).toMatchObject({ req_id: raw.headers['x-request-id'], status: 502, code: 'upstream_error' });
      expect(last.data).toMatchObject({
        status_code: 502,
        is_gateway_error: true,
        error: { code: 'upstream_error' },
        extra_fields: {
          error_type: 'provider_connection_failed',
          a2a_request_type: 'SendStreamingMessage',
          a2a_agent_name: 'dying-raw',
        },
      });
    });
  });

  describe("an agent refusing the gateway's upstream credential", () => {
    it('HTTP+JSON: a 502 provider_auth_failed GatewayError, not the agent’s 401', async () => {
      const res = await gw.http.post(
        '/agents/a2a/picky/rest/message:send',
        { message: wireMessage('p1') },
        {
          headers: { authorization: `Bearer ${key.value}` },
        },
      );
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        status_code: 502,
        is_gateway_error: true,
        error: { code: 'upstream_error' },
        extra_fields: { error_type: 'provider_auth_failed', a2a_request_type: 'SendMessage', a2a_agent_name: 'picky' },
      });
      // The agent did see the call (with the gateway's wrong credential).
      expect(picky.protocolRequests().at(-1)?.headers.authorization).toBe('Bearer the-wrong-one');
    });

    it('JSON-RPC: a -32603 error whose data is a 502 provider_auth_failed', async () => {
      const res = await gw.http.post(
        '/agents/a2a/picky/jsonrpc',
        rpc('SendMessage', { message: wireMessage('p2') }, 7),
        {
          headers: { authorization: `Bearer ${key.value}` },
        },
      );
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32603,
          data: { status_code: 502, extra_fields: { error_type: 'provider_auth_failed', a2a_agent_name: 'picky' } },
        },
      });
    });

    it('the official client sees a failure on both bindings', async () => {
      for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
        const client = await a2aClient(gw, 'picky', key.value, transport);
        await expect(client.sendMessage(userMessage(`p-${transport}`))).rejects.toThrow();
      }
    });
  });

  describe('the served card', () => {
    it('has its own ETag and the agent’s Cache-Control made private, and answers 304 to If-None-Match', async () => {
      const auth = { authorization: `Bearer ${key.value}` };
      const first = await gw.http.get('/agents/a2a/echo/.well-known/agent-card.json', { headers: auth });
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^W\/".+"$/);
      // The test agent sends `public, max-age=60`: the card is served to authenticated callers only.
      expect(first.headers.get('cache-control')).toBe('private, max-age=60');
      const again = await rawRequest(`${gw.baseUrl}/agents/a2a/echo/.well-known/agent-card.json`, {
        headers: { ...auth, 'if-none-match': etag },
      });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    });
  });

  it('the official client finds the card from the agent base URL with its trailing slash', async () => {
    const fetchImpl = vkFetch(key.value);
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    });
    const client = await factory.createFromUrl(`${gw.baseUrl}/agents/a2a/echo/`);
    const result = await client.sendMessage(userMessage('tck-message-response-slash'));
    expect(JSON.stringify(result)).toContain('echo: hello');
    // Without the slash, URL resolution drops the agent's name: the SDK asks for /agents/a2a/.well-known/…
    await expect(factory.createFromUrl(`${gw.baseUrl}/agents/a2a/echo`)).rejects.toThrow(/404/);
  });

  it('GET /api/agents/history refuses an unknown operation, naming `operations`', async () => {
    const bad = await gw.http.get('/api/agents/history?operations=SendMessage,Bogus', MGMT);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_failed', param: 'operations' });
    expect(bad.body.error.message).toContain('Bogus');
    const good = await gw.http.get('/api/agents/history?operations=SendMessage,GetAgentCard', MGMT);
    expect(good.status).toBe(200);
  });

  it('writes one access-log line per relayed stream, with its event count', async () => {
    const res = await rawRequest(`${gw.baseUrl}/agents/a2a/echo/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.value}` },
      body: JSON.stringify(rpc('SendStreamingMessage', { message: wireMessage('tck-stream-001-log') }, 's1')),
    });
    expect(res.status).toBe(200);
    const requestId = res.headers['x-request-id'] as string;
    const events = sseEvents(res.text).length;
    expect(events).toBeGreaterThan(1);
    let lines: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 40 && lines.length === 0; i++) {
      lines = gw.logs.records().filter((r) => r.req_id === requestId && typeof r.status === 'number');
      if (lines.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, 100));
    lines = gw.logs.records().filter((r) => r.req_id === requestId && typeof r.status === 'number');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ status: 200, stream: { sse_events: events, client_closed: false } });
  });
});

/** Waits until the agent has published at least one stream event (the stream is under way). */
async function waitForEvents(agent: A2aAgent): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ([...agent.received.events.values()].every((events) => events.length === 0)) {
    if (Date.now() > deadline) throw new Error('the agent published no stream event');
    await new Promise((r) => setTimeout(r, 20));
  }
  // Let the first event cross the gateway.
  await new Promise((r) => setTimeout(r, 100));
}
