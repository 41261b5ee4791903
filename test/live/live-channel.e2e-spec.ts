import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock/clock.js';
import { LiveEvents } from '../../src/core/live/live-events.js';
import { LiveHub } from '../../src/core/live/live-hub.js';
import { LiveRelay } from '../../src/core/live/live-relay.js';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  authEnabledConfig,
  bearer,
  eventually,
  expectError,
  SETUP_HEADER,
  SETUP_TOKEN,
} from '../auth/auth-helpers.js';
import { MAIN_JS } from '../helpers/gateway-process.js';
import type { HttpClient } from '../helpers/http.js';
import { runModeEnv, startSpawned } from '../helpers/spawned-gateway.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { addSimulatedProvider, created, FAST_NETWORK } from '../inference/inference-kit.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { startHttpPeer, type McpPeer } from '../mcp/mcp-peers.js';
import { connectGatewayMcp, createMcpClient, createVirtualKey, startMcpGateway } from '../mcp/mcp-server-kit.js';
import { openLive, refusedUpgrade, settle, type LiveClient } from './live-kit.js';

const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'live please' }], max_tokens: 8 };

/**
 * Issue 17 §4 with dashboard auth in the enterprise edition: who may open `/ws` (credentials, tickets) and what each
 * subscriber receives (log rows, changes, circuits), filtered by its permissions. Real WebSocket clients (`ws`), the
 * provider simulator upstream.
 */
describe(`live channel: auth and permissions (${RUN_MODE})`, () => {
  let sim: Simulator;
  let gw: TestApp;
  let admin: HttpClient;
  let vk: string;
  const clock = new ManualClock();
  /** Management keys by what they hold. */
  const keys: Record<string, string> = {};
  const open: LiveClient[] = [];
  const track = (client: LiveClient) => {
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }), clock });
    admin = gw.http.withHeaders(ADMIN_BASIC);
    await addSimulatedProvider(admin, sim, 'openai', { 'oa-1': 'sk-oa-1' });
    await addSimulatedProvider(admin, sim, 'anthropic', { 'an-1': 'sk-ant-1' });
    vk = (await created(admin.post('/api/governance/virtual-keys', { name: 'live-vk' }))).virtual_key.value;
    const scoped: Record<string, string[]> = {
      logs: ['Dashboard:View', 'Logs:View'],
      keysOnly: ['Dashboard:View', 'VirtualKeys:View'],
      noDashboard: ['Logs:View', 'VirtualKeys:View'],
    };
    for (const [name, scopes] of Object.entries(scoped)) {
      keys[name] = (await created(admin.post('/api/management-keys', { name, scopes }))).value;
    }
  }, 60_000);

  afterAll(async () => {
    for (const client of open) client.close();
    await gw?.close();
    await sim?.close();
  });

  it('refuses an upgrade without credentials with a 401 GatewayError, before upgrading', async () => {
    const res = await refusedUpgrade(gw);
    expectError(res, 401, 'missing_credentials');
    expect(res.body.error.message).toContain('Management credentials');
    const wrong = await refusedUpgrade(gw, { headers: bearer('gwm_not-a-real-key') });
    expectError(wrong, 401, 'invalid_credentials');
    const virtualKey = await refusedUpgrade(gw, { headers: bearer(vk) });
    expectError(virtualKey, 401, 'virtual_key_not_accepted');
    expect(gw.app.get(LiveHub).size).toBe(0);
  });

  it('refuses a caller without Dashboard:View with 403 naming the permission', async () => {
    const res = await refusedUpgrade(gw, { headers: bearer(keys.noDashboard!) });
    expectError(res, 403, 'permission_denied');
    expect(res.body.error.message).toContain('Dashboard:View');
  });

  it('answers a plain GET (no upgrade) with 426 upgrade_required', async () => {
    const res = await admin.get('/ws');
    expectError(res, 426, 'upgrade_required');
    expect(res.headers.get('upgrade')).toBe('websocket');
  });

  it('opens with Basic, a management bearer and a session cookie; ready names the permissions', async () => {
    const basic = track(await openLive(gw, { headers: ADMIN_BASIC }));
    expect(basic.of('ready')[0]!.data).toEqual({ permissions: 'all' });
    const scoped = track(await openLive(gw, { headers: bearer(keys.logs!) }));
    expect(scoped.of('ready')[0]!.data).toEqual({ permissions: ['Dashboard:View', 'Logs:View'] });
    const login = await gw.http.post('/api/session/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(login.status, login.text).toBe(200);
    const cookie = track(await openLive(gw, { headers: { cookie: `gateway_session=${login.body.token}` } }));
    expect(cookie.of('ready')).toHaveLength(1);
    for (const client of [basic, scoped, cookie]) client.close();
  });

  it('a ticket opens one connection as its issuer, once, within 30 s', async () => {
    expectError(await gw.http.post('/api/session/ws-ticket', {}), 401, 'missing_credentials');
    expectError(
      await gw.http.post('/api/session/ws-ticket', {}, { headers: bearer(keys.noDashboard!) }),
      403,
      'permission_denied',
    );
    const issued = await gw.http.post('/api/session/ws-ticket', {}, { headers: bearer(keys.logs!) });
    expect(issued.status, issued.text).toBe(200);
    expect(Object.keys(issued.body).sort()).toEqual(['expires_at', 'ticket']);
    expect(Date.parse(issued.body.expires_at) - clock.now()).toBe(30_000);
    const client = track(await openLive(gw, { ticket: issued.body.ticket }));
    expect(client.of('ready')[0]!.data).toEqual({ permissions: ['Dashboard:View', 'Logs:View'] });
    expectError(await refusedUpgrade(gw, { ticket: issued.body.ticket }), 401, 'invalid_credentials');
    expectError(await refusedUpgrade(gw, { ticket: 'made-up' }), 401, 'invalid_credentials');

    const late = await gw.http.post('/api/session/ws-ticket', {}, { headers: ADMIN_BASIC });
    clock.advance(30_001);
    expectError(await refusedUpgrade(gw, { ticket: late.body.ticket }), 401, 'invalid_credentials');
    client.close();
  });

  it('pushes a request-log row to Logs:View only, and a virtual key change to VirtualKeys:View only', async () => {
    const logs = track(await openLive(gw, { headers: bearer(keys.logs!) }));
    const keysOnly = track(await openLive(gw, { headers: bearer(keys.keysOnly!) }));
    const res = await gw.http.post('/v1/chat/completions', chat, { headers: bearer(vk) });
    expect(res.status, res.text).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const row = await logs.next((m) => m.type === 'log' && m.id === requestId);
    expect(row).toMatchObject({ action: 'created', data: { id: requestId, provider: 'openai', status: 'success' } });
    expect(row.data.model).toBe('gpt-4o-mini');
    expect(row.data.virtual_key_name).toBe('live-vk');
    expect(Date.parse(row.at)).not.toBeNaN();
    // Never a secret: neither the virtual key's value nor the provider key's.
    expect(JSON.stringify(row)).not.toContain(vk);
    expect(JSON.stringify(row)).not.toContain('sk-oa-1');

    const made = await created(admin.post('/api/governance/virtual-keys', { name: 'made-live' }));
    const change = await keysOnly.next((m) => m.type === 'change' && m.id === made.virtual_key.id);
    expect(change).toMatchObject({
      resource: 'VirtualKeys',
      action: 'created',
      data: { method: 'POST', route: '/api/governance/virtual-keys' },
    });
    expect(JSON.stringify(change)).not.toContain(made.virtual_key.value);
    const updated = await admin.put(`/api/governance/virtual-keys/${made.virtual_key.id}`, { description: 'now' });
    expect(updated.status, updated.text).toBe(200);
    await keysOnly.next((m) => m.type === 'change' && m.action === 'updated' && m.id === made.virtual_key.id);

    await settle();
    expect(keysOnly.of('log')).toEqual([]);
    expect(logs.of('change')).toEqual([]);
    // A provider change is for ModelProvider:View, which neither holds.
    await created(admin.post('/api/providers/openai/keys', { name: 'oa-2', value: 'sk-oa-2' }));
    await settle();
    expect([...logs.of('change'), ...keysOnly.of('change')].filter((m) => m.resource === 'ModelProvider')).toEqual([]);
    logs.close();
    keysOnly.close();
  });

  it('pushes circuit openings and closings to CircuitBreaker:View', async () => {
    const watcher = track(await openLive(gw, { headers: ADMIN_BASIC }));
    const logsOnly = track(await openLive(gw, { headers: bearer(keys.logs!) }));
    await created(
      admin.post('/api/circuit-breaker/policies', {
        name: 'live-overload',
        primary_provider: 'openai',
        primary_model: 'gpt-4o-mini',
        fallback_provider: 'anthropic',
        fallback_model: 'claude-3-5-haiku-latest',
        condition: { signals: [{ source: 'response_header', header_name: 'x-overloaded', header_value: 'true' }] },
        default_cooldown: '5m',
      }),
    );
    sim.scenario({
      match: { family: 'openai' },
      responses: [{ ok: true, headers: { 'x-overloaded': 'true' } } as never],
    });
    const res = await gw.http.post('/v1/chat/completions', chat, { headers: bearer(vk) });
    expect(res.status, res.text).toBe(200);
    const opened = await watcher.next((m) => m.type === 'circuit' && m.action === 'opened');
    expect(opened).toMatchObject({
      resource: 'circuit',
      id: 'live-overload',
      data: { status: 'open', signal: { header_name: 'x-overloaded', header_value: 'true' } },
    });
    const closedByHand = await admin.delete('/api/circuit-breaker/state/live-overload');
    expect(closedByHand.status, closedByHand.text).toBe(200);
    const closed = await watcher.next((m) => m.type === 'circuit' && m.action === 'closed');
    expect(closed).toMatchObject({ id: 'live-overload', data: { reason: 'closed_by_hand' } });
    await settle();
    expect(logsOnly.of('circuit')).toEqual([]);
    watcher.close();
    logsOnly.close();
  });
});

/** One figure of the gateway's /metrics (under the setup lock), or undefined when it has no line yet. */
async function metricOf(gw: TestApp, name: string): Promise<number | undefined> {
  const res = await gw.http.get('/metrics', { headers: SETUP_HEADER });
  expect(res.status).toBe(200);
  const line = res.text.split('\n').find((l) => l.startsWith(name));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

/**
 * The channel's own bounds, in the open-source edition under the setup lock: a subscriber that does not read is
 * dropped (close 1013) while one that reads keeps its connection, a peer that stops answering pings is cut, the
 * connection limit answers 503 before upgrading, the count is in /metrics, and shutdown closes the sockets first.
 */
describe(`live channel: setup lock, slow consumers, keep-alive and limits (${RUN_MODE})`, () => {
  let gw: TestApp;
  const open: LiveClient[] = [];
  const track = (client: LiveClient) => {
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    gw = await startTestApp({
      config: {
        setup_token: SETUP_TOKEN,
        live: { max_buffered_bytes: 65_536, ping_interval: '250ms', max_connections: 3 },
      },
    });
  });

  afterAll(async () => {
    for (const client of open) client.close();
    await gw?.close();
  });

  const metric = (name: string) => metricOf(gw, name);

  it('needs the setup token or the setup session cookie: missing 401, wrong 403', async () => {
    expectError(await refusedUpgrade(gw), 401, 'setup_token_required');
    expectError(
      await refusedUpgrade(gw, { headers: { 'x-gateway-setup-token': 'wrong-token-000000' } }),
      403,
      'setup_token_invalid',
    );
    const header = track(await openLive(gw, { headers: SETUP_HEADER }));
    expect(header.of('ready')[0]!.data).toEqual({ permissions: 'all' });
    const setup = await gw.http.post('/api/session/setup', {}, { headers: SETUP_HEADER });
    expect(setup.status, setup.text).toBe(200);
    const cookie = setup.headers
      .getSetCookie()
      .find((c) => c.startsWith('gateway_setup_session='))!
      .split(';')[0]!;
    const viaCookie = track(await openLive(gw, { headers: { cookie } }));
    // A ticket asked for under the setup lock opens the channel without the token.
    const issued = await gw.http.post('/api/session/ws-ticket', {}, { headers: { cookie } });
    expect(issued.status, issued.text).toBe(200);
    const viaTicket = track(await openLive(gw, { ticket: issued.body.ticket }));
    for (const client of [header, viaCookie, viaTicket]) client.close();
  });

  it('pings every ping_interval and cuts a peer that misses a pong', async () => {
    const answering = track(await openLive(gw, { headers: SETUP_HEADER }));
    const silent = track(await openLive(gw, { headers: SETUP_HEADER, client: { autoPong: false } }));
    expect((await silent.closed).code).toBe(1006);
    expect(silent.pings.length).toBeGreaterThanOrEqual(1);
    await settle(600);
    expect(answering.socket.readyState).toBe(answering.socket.OPEN);
    expect(answering.pings.length).toBeGreaterThanOrEqual(2);
    expect(await metric('gateway_live_dropped_total{reason="missed_pong"}')).toBeGreaterThanOrEqual(1);
    answering.close();
  });

  it('counts connections in /metrics and refuses one past live.max_connections with 503 before upgrading', async () => {
    await eventually(async () => expect(gw.app.get(LiveHub).size).toBe(0));
    const clients = [];
    for (let i = 0; i < 3; i++) clients.push(track(await openLive(gw, { headers: SETUP_HEADER })));
    expect(await metric('gateway_live_connections')).toBe(3);
    const refused = await refusedUpgrade(gw, { headers: SETUP_HEADER });
    expectError(refused, 503, 'service_unavailable');
    expect(refused.headers['retry-after']).toBe('5');
    clients[0]!.close();
    await eventually(async () => expect(await metric('gateway_live_connections')).toBe(2));
    track(await openLive(gw, { headers: SETUP_HEADER }));
  });

  it('closes the connections (1001) before the HTTP server closes, so app.close() does not wait for clients', async () => {
    const client =
      open.find((c) => c.socket.readyState === c.socket.OPEN) ?? track(await openLive(gw, { headers: SETUP_HEADER }));
    const started = Date.now();
    await gw.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await client.closed).code).toBe(1001);
  });
});

/**
 * A subscriber that does not read is dropped (close 1013) while one that reads keeps its connection. Pings are an
 * hour apart here: with the keep-alive suite's 250 ms, a loaded machine let the missed-pong cut (another reason) take
 * the stalled peer first, or the reader too.
 */
describe(`live channel: slow consumers (${RUN_MODE})`, () => {
  let gw: TestApp;
  const open: LiveClient[] = [];
  const track = (client: LiveClient) => {
    open.push(client);
    return client;
  };
  const metric = (name: string) => metricOf(gw, name);

  beforeAll(async () => {
    gw = await startTestApp({
      config: { setup_token: SETUP_TOKEN, live: { max_buffered_bytes: 65_536, ping_interval: '1h' } },
    });
  });

  afterAll(async () => {
    for (const client of open) client.close();
    await gw?.close();
  });

  it('drops a subscriber that stops reading with close 1013; one that reads keeps up', async () => {
    const hub = gw.app.get(LiveHub);
    const events = gw.app.get(LiveEvents);
    const reader = track(await openLive(gw, { headers: SETUP_HEADER }));
    const stalled = track(await openLive(gw, { headers: SETUP_HEADER }));
    const droppedBefore = (await metric('gateway_live_dropped_total{reason="slow_consumer"}')) ?? 0;
    (stalled.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    // Large events fill the loopback socket's kernel buffers in a few sends, so the bound is reached quickly.
    const chunk = 'x'.repeat(256 * 1024);
    let sent = 0;
    // Spaced out, as real events are: the reader has each one before the next is sent (on a busy machine a fixed
    // pause let the reader fall behind too, and both were dropped), while the stalled one's backlog only grows.
    while (hub.size === 2 && sent < 2000) {
      events.publish({
        type: 'change',
        resource: 'Settings',
        action: 'updated',
        data: { chunk },
        requires: 'Settings',
      });
      sent++;
      if (hub.size === 2) await reader.next(() => reader.of('change').length >= sent, 10_000);
    }
    expect(hub.size).toBe(1);
    expect(sent).toBeLessThan(2000);
    expect(await metric('gateway_live_dropped_total{reason="slow_consumer"}')).toBe(droppedBefore + 1);
    (stalled.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await stalled.closed).toEqual({ code: 1013, reason: 'slow consumer' });
    // Never more than the bound (plus the message in flight) was queued for it: it received fewer than were sent.
    expect(stalled.of('change').length).toBeLessThan(sent);
    await reader.next(() => reader.of('change').length === sent, 10_000);
    expect(reader.socket.readyState).toBe(reader.socket.OPEN);
    reader.close();
  }, 60_000);
});

/** MCP tool calls: their log rows are pushed when the call starts and when it ends; other upgrades are not taken. */
describe(`live channel: MCP tool logs (${RUN_MODE})`, () => {
  let gw: TestApp;
  let peer: McpPeer;
  let mcp: Client | undefined;

  beforeAll(async () => {
    ({ gw } = await startMcpGateway());
    peer = await startHttpPeer();
  });

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    await gw?.close();
    await peer?.close();
  });

  it('pushes mcp_log created (processing) and updated (success) for a tool call through /mcp', async () => {
    const admin = gw.http.withHeaders(SETUP_HEADER);
    const key = await createVirtualKey(admin, 'mcp-live');
    await createMcpClient(admin, {
      name: 'alpha',
      connection_string: peer.url,
      vk_configs: [{ virtual_key_id: key.id }],
    });
    const live = await openLive(gw, { headers: SETUP_HEADER });
    try {
      mcp = await connectGatewayMcp(gw.baseUrl, '/mcp', key.value);
      expect(await mcp.callTool({ name: 'alpha-echo', arguments: { text: 'hello live' } })).toEqual({
        content: [{ type: 'text', text: 'hello live' }],
      });
      const started = await live.next((m) => m.type === 'mcp_log' && m.action === 'created');
      expect(started.data).toMatchObject({
        id: started.id,
        status: 'processing',
        server_label: 'alpha',
        virtual_key_id: key.id,
        arguments: { text: 'hello live' },
      });
      const ended = await live.next((m) => m.type === 'mcp_log' && m.action === 'updated' && m.id === started.id);
      expect(ended.data).toMatchObject({ id: started.id, status: 'success' });
      expect(JSON.stringify(live.messages)).not.toContain(key.value);
    } finally {
      live.close();
    }
  });

  it("an upgrade request to another route gets that route's ordinary answer and no WebSocket", async () => {
    const res = await refusedUpgrade(gw, { path: '/api/version' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ api_version: '1.0.0' });
    const unknown = await refusedUpgrade(gw, { path: '/nowhere' });
    expectError(unknown, 404, 'route_not_found');
  });
});

/** The process: SIGTERM's drain closes open live connections (1001) instead of waiting for them, and exits 0. */
describe.skipIf(!existsSync(MAIN_JS))(`live channel and SIGTERM (${RUN_MODE})`, () => {
  it('closes the sockets at the start of the drain; the process exits 0 well before the drain timeout', async () => {
    const { env, cleanUp } = await runModeEnv();
    const spawned = await startSpawned({ ...env, GATEWAY_SETUP_TOKEN: SETUP_TOKEN });
    try {
      const client = await openLive({ baseUrl: `http://127.0.0.1:${spawned.port}` } as TestApp, {
        headers: SETUP_HEADER,
      });
      const started = Date.now();
      spawned.gw.child.kill('SIGTERM');
      expect((await client.closed).code).toBe(1001);
      expect(await spawned.gw.exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      if (spawned.gw.child.exitCode === null) spawned.gw.child.kill('SIGKILL');
      await cleanUp();
    }
  }, 60_000);
});

/** Scale-out: a subscriber on replica B hears of what happens through replica A (Redis pub/sub). */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('live channel across replicas', () => {
  let sim: Simulator;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    sim = await startSimulator();
    const config = { setup_token: SETUP_TOKEN };
    a = await startTestApp({ config, keepDatabase: true });
    b = await startTestApp({ config, databaseUrl: a.databaseUrl, redisPrefix: a.config.redis_prefix });
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sim?.close();
  });

  it('publishes nothing across replicas while no replica has subscribers, until one announces some', async () => {
    const relayA = a.app.get(LiveRelay);
    expect(relayA.remoteListeners).toBe(true);
    // The first event finds out (PUBLISH reaches nobody); from then on A sends nothing.
    a.app.get(LiveEvents).publish({ type: 'change', data: {}, requires: 'Settings' });
    await eventually(async () => expect(relayA.remoteListeners).toBe(false));
    const onB = await openLive(b, { headers: SETUP_HEADER });
    try {
      await eventually(async () => expect(relayA.remoteListeners).toBe(true));
    } finally {
      onB.close();
    }
  });

  it('a log row written through A and a change made on A reach a subscriber on B', async () => {
    const adminA = a.http.withHeaders(SETUP_HEADER);
    await created(
      adminA.post('/api/providers', {
        provider: 'openai',
        base_url: `${sim.url}/openai/v1`,
        network_config: FAST_NETWORK,
      }),
    );
    await created(adminA.post('/api/providers/openai/keys', { name: 'oa-1', value: 'sk-oa-1' }));
    const onB = await openLive(b, { headers: SETUP_HEADER });
    try {
      const made = await created(adminA.post('/api/governance/virtual-keys', { name: 'across' }));
      const change = await onB.next((m) => m.type === 'change' && m.id === made.virtual_key.id);
      expect(change).toMatchObject({ resource: 'VirtualKeys', action: 'created' });
      const res = await a.http.post('/v1/chat/completions', chat, { headers: bearer(made.virtual_key.value) });
      expect(res.status, res.text).toBe(200);
      const row = await onB.next((m) => m.type === 'log' && m.id === res.headers.get('x-request-id'));
      expect(row.data).toMatchObject({ provider: 'openai', virtual_key_name: 'across', status: 'success' });
      // Each event once: B does not hear its own relay back, nor A's twice.
      await settle();
      expect(onB.messages.filter((m) => m.id === made.virtual_key.id && m.action === 'created')).toHaveLength(1);
    } finally {
      onB.close();
    }
  });
});
