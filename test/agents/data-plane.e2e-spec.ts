import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startA2aAgent, type A2aAgent, STREAM_001_EVENT_KINDS } from '../helpers/a2a-agent.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  a2aClient,
  cardUrl,
  createVirtualKey,
  eventually,
  kindOf,
  MGMT,
  rawRequest,
  registerAgent,
  rpc,
  SETUP_TOKEN,
  sql,
  sseData,
  userMessage,
  wireMessage,
  type VirtualKey,
} from './data-plane-kit.js';

const EXT_A = 'https://ext.example.com/a/v1';
const EXT_B = 'https://ext.example.com/b/v1';
const RUNTIME = { type: 'headers', headers: { Authorization: 'Bearer upstream-secret', 'X-Upstream-Key': 'k1' } };

describe(`agents data plane (${RUN_MODE})`, () => {
  let gw: TestApp;
  let upstream: A2aAgent;
  let noPush: A2aAgent;
  let granted: VirtualKey;
  let other: VirtualKey;

  const jsonrpc = (name: string, body: unknown, headers: Record<string, string> = {}) =>
    gw.http.post(`/agents/a2a/${name}/jsonrpc`, body, { headers });
  const bearer = (vk: VirtualKey) => ({ Authorization: `Bearer ${vk.value}` });

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    upstream = await startA2aAgent({
      extensions: [{ uri: EXT_A }, { uri: EXT_B }],
      // A signed upstream card: the gateway must drop the signature (it would not verify after the rewrite).
      transformCard: (card) => ({ ...card, signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln' }] }),
    });
    noPush = await startA2aAgent({ pushNotifications: false, interfaces: ['HTTP+JSON'] });
    granted = await createVirtualKey(gw, 'granted-key');
    other = await createVirtualKey(gw, 'other-key');
    const common = { agent_card_url: upstream.cardUrl, runtime_auth: RUNTIME };
    await registerAgent(gw, { name: 'echo', ...common, virtual_key_ids: [granted.id], extension_uris: [EXT_A] });
    await registerAgent(gw, { name: 'open', ...common, allow_by_default: true });
    await registerAgent(gw, { name: 'off', ...common, allow_by_default: true, enabled: false });
    await registerAgent(gw, {
      name: 'fwd',
      agent_card_url: upstream.cardUrl,
      allow_by_default: true,
      forward_accepted_credential: true,
      runtime_auth: { type: 'headers', headers: { 'X-Upstream-Key': 'k1' } },
    });
    await registerAgent(gw, {
      name: 'fwd-wins',
      ...common,
      allow_by_default: true,
      forward_accepted_credential: true,
      forward_accepted_credential_overrides_auth: true,
    });
    await registerAgent(gw, { name: 'rest-only', agent_card_url: noPush.cardUrl, allow_by_default: true });
  });
  afterAll(async () => {
    await upstream?.close();
    await noPush?.close();
    await gw?.close();
  });

  describe('served card', () => {
    it('points the interfaces at the gateway, drops signatures, filters extensions, keeps capabilities', async () => {
      const res = await gw.http.get('/agents/a2a/echo/.well-known/agent-card.json', { headers: bearer(granted) });
      expect(res.status, res.text).toBe(200);
      const card = res.body;
      expect(card.supportedInterfaces).toEqual([
        { url: `${gw.baseUrl}/agents/a2a/echo/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${gw.baseUrl}/agents/a2a/echo/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ]);
      expect(card.signatures).toBeUndefined();
      expect(card.capabilities.extensions.map((e: any) => e.uri)).toEqual([EXT_A]);
      expect(card.capabilities.streaming).toBe(true);
      expect(card.capabilities.pushNotifications).toBe(true);
      expect(card.name).toBe('Test Agent');
      expect(Object.keys(card.securitySchemes)).toEqual(['gatewayVirtualKey']);
      expect(JSON.stringify(card)).not.toContain(upstream.url);
    });

    it('advertises push only when the upstream supports it, and only the bindings the upstream has', async () => {
      const res = await gw.http.get('/agents/a2a/rest-only/.well-known/agent-card.json', { headers: bearer(other) });
      expect(res.status).toBe(200);
      expect(res.body.capabilities.pushNotifications).toBeUndefined();
      expect(res.body.supportedInterfaces).toEqual([
        { url: `${gw.baseUrl}/agents/a2a/rest-only/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ]);
    });

    it('uses public_base_url when configured', async () => {
      const other = await startTestApp({
        config: { setup_token: SETUP_TOKEN, public_base_url: 'https://gw.example.com/' },
      });
      try {
        const vk = await createVirtualKey(other, 'k');
        await registerAgent(other, { name: 'echo', agent_card_url: upstream.cardUrl, allow_by_default: true });
        const res = await other.http.get('/agents/a2a/echo/.well-known/agent-card.json', { headers: bearer(vk) });
        expect(res.body.supportedInterfaces[0].url).toBe('https://gw.example.com/agents/a2a/echo/jsonrpc');
      } finally {
        await other.close();
      }
    });
  });

  describe('access', () => {
    const send = rpc('SendMessage', { message: wireMessage('tck-complete-task-access') });

    it('401 without a virtual key (plain GatewayError)', async () => {
      for (const res of [
        await jsonrpc('echo', send),
        await gw.http.get('/agents/a2a/echo/.well-known/agent-card.json'),
        await gw.http.get('/agents/a2a/echo/rest/tasks'),
      ]) {
        expect(res.status, res.text).toBe(401);
        expect(res.body.error.code).toMatch(/missing_credentials|invalid_credentials/);
        expect(res.body.jsonrpc).toBeUndefined();
      }
    });

    it('403 for a key that is not granted', async () => {
      const res = await jsonrpc('echo', send, bearer(other));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('permission_denied');
      expect(res.body.extra_fields).toMatchObject({
        error_type: 'policy_access_denied',
        a2a_request_type: 'SendMessage',
        a2a_agent_name: 'echo',
      });
      const rest = await gw.http.get('/agents/a2a/echo/rest/tasks', { headers: bearer(other) });
      expect(rest.status).toBe(403);
    });

    it('granted key and allow_by_default pass', async () => {
      const a = await jsonrpc('echo', send, bearer(granted));
      expect(a.status, a.text).toBe(200);
      expect(a.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      const b = await jsonrpc('open', send, bearer(other));
      expect(b.status, b.text).toBe(200);
    });

    it('404 for a disabled or unknown agent', async () => {
      for (const name of ['off', 'nope']) {
        const res = await jsonrpc(name, send, bearer(other));
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('agent_not_found');
      }
    });
  });

  for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
    describe(`@a2a-js/sdk client over ${transport}`, () => {
      it('discovers, sends, gets, lists', async () => {
        const client = await a2aClient(gw, 'echo', granted.value, transport);
        expect(client.protocolVersion).toBe('1.0');
        const task = (await client.sendMessage(userMessage(`tck-complete-task-${transport}`, 'hi there'))) as any;
        expect(task.status.state).toBe(3); // TASK_STATE_COMPLETED
        expect(task.artifacts[0].parts[0].content.value).toBe('echo: hi there');
        const fetched = await client.getTask({ id: task.id, historyLength: undefined, tenant: '' });
        expect(fetched.id).toBe(task.id);
        expect(fetched.status?.state).toBe(3);
        const listed = await client.listTasks({
          tenant: '',
          contextId: '',
          status: 0,
          pageToken: '',
          statusTimestampAfter: undefined,
        });
        expect(listed.tasks.map((t) => t.id)).toContain(task.id);
        const message = (await client.sendMessage(userMessage(`tck-message-response-${transport}`, 'yo'))) as any;
        expect(message.parts[0].content.value).toBe('echo: yo');
      });

      it('streams events in the order the upstream emitted them', async () => {
        const client = await a2aClient(gw, 'echo', granted.value, transport);
        const kinds: string[] = [];
        let taskId = '';
        for await (const event of client.sendMessageStream(userMessage(`tck-stream-001-${transport}`, 'stream'))) {
          kinds.push(event.payload!.$case);
          if (event.payload?.$case === 'task') taskId = event.payload.value.id;
        }
        const emitted = (upstream.received.events.get(taskId) ?? []).map((e) => kindOf(e as Record<string, unknown>));
        expect(kinds).toEqual([...STREAM_001_EVENT_KINDS]);
        expect(kinds).toEqual(emitted);
      });

      it('cancels an interrupted task', async () => {
        const client = await a2aClient(gw, 'echo', granted.value, transport);
        const task = (await client.sendMessage(userMessage(`tck-input-required-${transport}`))) as any;
        expect(task.status.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
        const canceled = await client.cancelTask({ id: task.id, tenant: '', metadata: undefined });
        expect(canceled.status?.state).toBe(5); // TASK_STATE_CANCELED
      });
    });
  }

  describe('upstream requests', () => {
    it('carry the runtime auth and A2A-Version, never the caller credential, cookies or hop-by-hop headers', async () => {
      upstream.reset();
      const res = await rawRequest(`${gw.baseUrl}/agents/a2a/echo/jsonrpc`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${granted.value}`,
          cookie: 'session=abc',
          'proxy-authorization': 'Basic cHJveHk6cHc=',
          connection: 'keep-alive, X-Hop-Custom',
          'x-hop-custom': 'drop-me',
          'keep-alive': 'timeout=5',
          'x-passthrough': 'kept',
          'a2a-version': '0.3',
          'a2a-extensions': `${EXT_A}, ${EXT_B}, https://unknown.example.com/x`,
        },
        body: JSON.stringify(rpc('SendMessage', { message: wireMessage('tck-complete-task-headers') })),
      });
      expect(res.status, res.text).toBe(200);
      const seen = upstream.protocolRequests();
      expect(seen).toHaveLength(1);
      const h = seen[0]!.headers;
      expect(h.authorization).toBe('Bearer upstream-secret');
      expect(h['x-upstream-key']).toBe('k1');
      expect(h['a2a-version']).toBe('1.0');
      expect(h['a2a-extensions']).toBe(EXT_A);
      expect(h['x-passthrough']).toBe('kept');
      for (const name of ['cookie', 'proxy-authorization', 'x-hop-custom', 'keep-alive', 'x-api-key', 'x-gateway-vk']) {
        expect(h[name], name).toBeUndefined();
      }
      expect(JSON.stringify(h)).not.toContain(granted.value);
    });

    it('forward the caller credential when configured; runtime auth wins unless overrides_auth', async () => {
      upstream.reset();
      expect((await jsonrpc('fwd', rpc('GetTask', { id: 'missing' }), bearer(other))).status).toBe(200);
      let h = upstream.protocolRequests()[0]!.headers;
      expect(h.authorization).toBe(`Bearer ${other.value}`);
      expect(h['x-upstream-key']).toBe('k1');

      upstream.reset();
      // open: runtime Authorization configured and no forwarding → the caller's key never goes upstream.
      await jsonrpc('open', rpc('GetTask', { id: 'missing' }), bearer(other));
      h = upstream.protocolRequests()[0]!.headers;
      expect(h.authorization).toBe('Bearer upstream-secret');

      upstream.reset();
      await jsonrpc('fwd-wins', rpc('GetTask', { id: 'missing' }), bearer(other));
      h = upstream.protocolRequests()[0]!.headers;
      expect(h.authorization).toBe(`Bearer ${other.value}`);
      expect(h['x-upstream-key']).toBeUndefined();
    });
  });

  it("echoes the upstream interface's tenant (JSON-RPC params.tenant, REST path prefix)", async () => {
    const tenanted = await startA2aAgent({ tenant: 'acme' });
    try {
      await registerAgent(gw, { name: 'tenanted', agent_card_url: tenanted.cardUrl, allow_by_default: true });
      const card = await gw.http.get('/agents/a2a/tenanted/.well-known/agent-card.json', { headers: bearer(other) });
      expect(card.body.supportedInterfaces.every((i: any) => i.tenant === undefined)).toBe(true);
      const sent = await jsonrpc(
        'tenanted',
        rpc('SendMessage', { message: wireMessage('tck-complete-task-t') }),
        bearer(other),
      );
      expect(sent.status, sent.text).toBe(200);
      const rest = await gw.http.get(`/agents/a2a/tenanted/rest/tasks/${sent.body.result.task.id}`, {
        headers: bearer(other),
      });
      expect(rest.status, rest.text).toBe(200);
      expect(rest.body.id).toBe(sent.body.result.task.id);
      const [viaRpc, viaRest] = tenanted.protocolRequests();
      expect((viaRpc!.body as any).params.tenant).toBe('acme');
      expect(viaRest!.path).toBe(`/rest/acme/tasks/${sent.body.result.task.id}`);
    } finally {
      await tenanted.close();
    }
  });

  it('serves the extended card rewritten like the public card, on both bindings', async () => {
    const extended = await startA2aAgent({ extendedAgentCard: true });
    try {
      await registerAgent(gw, { name: 'extended', agent_card_url: extended.cardUrl, allow_by_default: true });
      const card = await gw.http.get('/agents/a2a/extended/.well-known/agent-card.json', { headers: bearer(other) });
      expect(card.body.capabilities.extendedAgentCard).toBe(true);
      const viaRpc = await jsonrpc('extended', rpc('GetExtendedAgentCard', {}), bearer(other));
      expect(viaRpc.status, viaRpc.text).toBe(200);
      const viaRest = await gw.http.get('/agents/a2a/extended/rest/extendedAgentCard', { headers: bearer(other) });
      expect(viaRest.status, viaRest.text).toBe(200);
      for (const c of [viaRpc.body.result, viaRest.body]) {
        expect(c.supportedInterfaces[0].url).toBe(`${gw.baseUrl}/agents/a2a/extended/jsonrpc`);
        expect(JSON.stringify(c)).not.toContain(extended.url);
      }
    } finally {
      await extended.close();
    }
  });

  describe('JSON-RPC errors', () => {
    it('relays upstream JSON-RPC errors as they are', async () => {
      const res = await jsonrpc('echo', rpc('GetTask', { id: 'no-such-task' }, 'abc'), bearer(granted));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 'abc', error: { code: -32001 } });
      expect(res.body.error.data?.is_gateway_error).not.toBe(true);
    });

    it('answers -32600 for an invalid request and -32601 for an unknown method, GatewayError in data', async () => {
      const bad = await jsonrpc('echo', { jsonrpc: '1.0', id: 7, method: 'SendMessage' }, bearer(granted));
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
      expect(bad.body.error.data).toMatchObject({
        is_gateway_error: true,
        status_code: 400,
        extra_fields: { a2a_request_type: 'SendMessage', a2a_agent_name: 'echo' },
      });
      const unknown = await jsonrpc('echo', rpc('tasks/get', { id: 'x' }, 8), bearer(granted));
      expect(unknown.body).toMatchObject({ jsonrpc: '2.0', id: 8, error: { code: -32601 } });
      expect(unknown.body.error.data.error.param).toBe('method');
      const batch = await jsonrpc('echo', [rpc('GetTask', { id: 'x' })], bearer(granted));
      expect(batch.body.error.code).toBe(-32600);
    });

    it('answers 502 with a -32603 JSON-RPC error when the upstream is unreachable (REST: GatewayError 502)', async () => {
      const doomed = await startA2aAgent();
      await registerAgent(gw, { name: 'dead', agent_card_url: doomed.cardUrl, allow_by_default: true });
      await doomed.close();
      const res = await jsonrpc(
        'dead',
        rpc('SendMessage', { message: wireMessage('tck-complete-task-dead') }, 5),
        bearer(other),
      );
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: 5,
        error: {
          code: -32603,
          data: {
            status_code: 502,
            error: { code: 'upstream_error' },
            extra_fields: { a2a_request_type: 'SendMessage', a2a_agent_name: 'dead' },
          },
        },
      });
      const rest = await gw.http.post(
        '/agents/a2a/dead/rest/message:send',
        { message: wireMessage('tck-x') },
        {
          headers: bearer(other),
        },
      );
      expect(rest.status).toBe(502);
      expect(rest.body).toMatchObject({ status_code: 502, error: { code: 'upstream_error' } });
      expect(rest.body.extra_fields).toMatchObject({ a2a_request_type: 'SendMessage', a2a_agent_name: 'dead' });
    });
  });

  describe('streaming relay', () => {
    it('sets SSE headers itself and relays each JSON-RPC event', async () => {
      const res = await rawRequest(`${gw.baseUrl}/agents/a2a/echo/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${granted.value}` },
        body: JSON.stringify(rpc('SendStreamingMessage', { message: wireMessage('tck-stream-001-raw') }, 'sid')),
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/event-stream');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-accel-buffering']).toBe('no');
      expect(res.headers['x-request-id']).toBeTruthy();
      const events = sseData(res.text);
      expect(events).toHaveLength(6);
      for (const e of events) expect(e).toMatchObject({ jsonrpc: '2.0', id: 'sid' });
      expect(events.map((e) => kindOf(e.result))).toEqual([...STREAM_001_EVENT_KINDS]);
    });

    it('relays REST message:stream and resubscribe as SSE', async () => {
      const res = await rawRequest(`${gw.baseUrl}/agents/a2a/echo/rest/message:stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/a2a+json', authorization: `Bearer ${granted.value}` },
        body: JSON.stringify({ message: wireMessage('tck-stream-001-rest-raw') }),
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/event-stream');
      const events = sseData(res.text);
      expect(events.map((e) => kindOf(e))).toEqual([...STREAM_001_EVENT_KINDS]);
    });

    it('aborts the upstream call when the client disconnects', async () => {
      const controller = new AbortController();
      const res = await fetch(`${gw.baseUrl}/agents/a2a/echo/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${granted.value}` },
        body: JSON.stringify(rpc('SendStreamingMessage', { message: wireMessage('tck-slow-abort') }, 'slow')),
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      await reader.read(); // the first event arrived
      controller.abort();
      const rows = await eventually(
        () =>
          sql(
            gw,
            `SELECT response_payload FROM agent_operations WHERE agent_name = 'echo' AND operation = 'SendStreamingMessage' AND request_payload::text LIKE '%tck-slow-abort%'`,
          ),
        (r) => r.length > 0,
      );
      expect(rows[0].response_payload.client_closed).toBe(true);
    });
  });

  it('never logs virtual keys or upstream secrets', () => {
    const logs = gw.logs.text();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [granted.value, other.value, 'upstream-secret']) expect(logs).not.toContain(secret);
  });

  it('serves the rewritten card to the SDK resolver at the gateway URL', async () => {
    const res = await fetch(cardUrl(gw, 'open'), { headers: bearer(other) });
    expect(res.status).toBe(200);
    expect(MGMT.headers['X-Gateway-Setup-Token']).toBe(SETUP_TOKEN);
  });
});
