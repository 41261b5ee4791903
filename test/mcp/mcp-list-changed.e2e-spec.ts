import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpStreams } from '../../src/modules/mcp/server/mcp-streams.js';
import { expectError, SETUP_TOKEN } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { startHttpPeer, type McpPeer } from './mcp-peers.js';
import { connectGatewayMcp, createMcpClient, createVirtualKey, startMcpGateway } from './mcp-server-kit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(20);
  return check();
}

/** An SDK client on `/mcp…` counting the list_changed notifications it receives on its standalone stream. */
interface Listener {
  client: Client;
  received: () => number;
}

async function listen(gw: TestApp, path: string, key: string): Promise<Listener> {
  const streams = gw.app.get(McpStreams);
  const before = streams.size;
  const client = await connectGatewayMcp(gw.baseUrl, path, key);
  let count = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
  });
  // The SDK opens the GET stream on its own after `notifications/initialized`.
  expect(await until(() => streams.size > before)).toBe(true);
  return { client, received: () => count };
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

describe('/mcp relays notifications/tools/list_changed on its standalone stream', () => {
  let gw: TestApp;
  let admin: HttpClient;
  let peer: McpPeer;
  let key: { id: string; value: string };
  let other: { id: string; value: string };
  let clientId: string;
  const listeners: Listener[] = [];

  beforeAll(async () => {
    peer = await startHttpPeer();
    ({ gw, admin } = await startMcpGateway());
    [key, other] = await Promise.all([createVirtualKey(admin, 'key-watch'), createVirtualKey(admin, 'key-other')]);
    clientId = await createMcpClient(admin, {
      name: 'up',
      connection_string: peer.url,
      vk_configs: [{ virtual_key_id: key.id }],
    });
  });

  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.client.close().catch(() => undefined)));
    await gw?.close();
    await peer?.close();
  });

  it('declares listChanged and notifies when the upstream server adds a tool', async () => {
    const all = await listen(gw, '/mcp', key.value);
    const one = await listen(gw, '/mcp/up', key.value);
    listeners.push(all, one);
    expect(all.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(await names(all.client)).toEqual(['up-add', 'up-echo', 'up-fail', 'up-slow']);

    // The SDK peer sends list_changed; the gateway lists again and tells its own sessions.
    peer.addTool('late');
    expect(await until(() => all.received() === 1 && one.received() === 1)).toBe(true);
    expect(await names(all.client)).toContain('up-late');
    expect(await names(one.client)).toContain('late');
  });

  it('notifies after a management update that changes the tools, not after one that does not', async () => {
    const [all, one] = listeners as [Listener, Listener];
    const res = await admin.put(`/api/mcp/client/${clientId}`, { tools_to_execute: ['echo', 'add'] });
    expect(res.status, res.text).toBe(200);
    expect(await until(() => all.received() === 2 && one.received() === 2)).toBe(true);
    expect(await names(all.client)).toEqual(['up-add', 'up-echo']);

    // Pricing is not part of a tool list: no notification.
    expect((await admin.put(`/api/mcp/client/${clientId}`, { tool_pricing: { echo: 0.5 } })).status).toBe(200);
    await sleep(300);
    expect([all.received(), one.received()]).toEqual([2, 2]);

    expect((await admin.post(`/api/mcp/client/${clientId}/refresh-tools`)).status).toBe(200);
    await sleep(300);
    expect(all.received()).toBe(2);
  });

  it("notifies only the sessions whose key's grants changed, and those of a new client", async () => {
    const [all] = listeners as [Listener, Listener];
    const stranger = await listen(gw, '/mcp', other.value);
    listeners.push(stranger);
    expect(await names(stranger.client)).toEqual([]);

    // The other key is granted the client through its own mcp_configs.
    const granted = await admin.put(`/api/governance/virtual-keys/${other.id}`, {
      mcp_configs: [{ mcp_client_id: clientId, tools_to_execute: ['echo'] }],
    });
    expect(granted.status, granted.text).toBe(200);
    expect(await until(() => stranger.received() === 1)).toBe(true);
    expect(await names(stranger.client)).toEqual(['up-echo']);
    expect(all.received()).toBe(2);

    // A client visible to every key: both sessions hear of it; its removal too.
    const peer2 = await startHttpPeer();
    try {
      const id = await createMcpClient(admin, {
        name: 'open',
        connection_string: peer2.url,
        tools_to_execute: ['echo'],
        allow_on_all_virtual_keys: true,
      });
      expect(await until(() => all.received() === 3 && stranger.received() === 2)).toBe(true);
      expect(await names(stranger.client)).toEqual(['open-echo', 'up-echo']);
      expect((await admin.delete(`/api/mcp/client/${id}`)).status).toBe(200);
      expect(await until(() => all.received() === 4 && stranger.received() === 3)).toBe(true);
    } finally {
      await peer2.close();
    }
  });

  it('closes the stream of a key that is deactivated', async () => {
    const streams = gw.app.get(McpStreams);
    const before = streams.size;
    const res = await admin.put(`/api/governance/virtual-keys/${other.id}`, { is_active: false });
    expect(res.status, res.text).toBe(200);
    expect(await until(() => streams.size === before - 1)).toBe(true);
  });

  it('answers a GET that does not accept SSE with 400 (param accept), one with a bad session id with 404', async () => {
    const bad = { authorization: `Bearer ${key.value}`, accept: 'text/event-stream', 'mcp-session-id': 'x.y' };
    expectError(await gw.http.get('/mcp', { headers: bad }), 404, 'mcp_session_not_found');
    for (const accept of [undefined, 'application/json', '*/*']) {
      const headers: Record<string, string> = { authorization: `Bearer ${key.value}` };
      if (accept) headers.accept = accept;
      expectError(await gw.http.get('/mcp', { headers }), 400, 'validation_failed', 'accept');
    }
    expectError(await gw.http.get('/mcp', { headers: { accept: 'text/event-stream' } }), 401, 'missing_credentials');
    const denied = await gw.http.get('/mcp/nope', {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${key.value}` },
    });
    expectError(denied, 403, 'permission_denied');
  });
});

/** The standalone streams never end by themselves: closing the app must end them first, or Fastify waits forever. */
describe('/mcp standalone streams and shutdown', () => {
  it('app.close() ends the open streams instead of waiting for their clients', async () => {
    const { gw, admin } = await startMcpGateway();
    const key = await createVirtualKey(admin, 'key-shutdown');
    const listener = await listen(gw, '/mcp', key.value);
    try {
      expect(gw.app.get(McpStreams).size).toBe(1);
      const started = Date.now();
      await gw.close();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(gw.app.get(McpStreams).size).toBe(0);
    } finally {
      await listener.client.close().catch(() => undefined);
      await gw.close();
    }
  });
});

/** A session on replica B hears of a change made through replica A (invalidation bus over Redis). */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('list_changed across replicas', () => {
  let a: TestApp;
  let b: TestApp;
  let peer: McpPeer;

  beforeAll(async () => {
    peer = await startHttpPeer();
    const config = { setup_token: SETUP_TOKEN, outbound: { allow_loopback: true } };
    a = await startTestApp({ config, keepDatabase: true });
    b = await startTestApp({ config, databaseUrl: a.databaseUrl, redisPrefix: a.config.redis_prefix });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await peer?.close();
  });

  it('notifies a session of replica B after an update on replica A', async () => {
    const adminA = a.http.withHeaders({ 'X-Gateway-Setup-Token': SETUP_TOKEN });
    const key = await createVirtualKey(adminA, 'key-replicas');
    const id = await createMcpClient(adminA, {
      name: 'shared',
      connection_string: peer.url,
      vk_configs: [{ virtual_key_id: key.id }],
    });
    const listener = await listen(b, '/mcp', key.value);
    try {
      // B connects to the client in the background once A's write reaches it.
      let tools: string[] = [];
      const deadline = Date.now() + 10_000;
      while (!tools.includes('shared-echo') && Date.now() < deadline) tools = await names(listener.client);
      expect(tools).toContain('shared-echo');
      await sleep(200);
      const before = listener.received();
      expect((await adminA.put(`/api/mcp/client/${id}`, { tools_to_execute: ['add'] })).status).toBe(200);
      expect(await until(() => listener.received() === before + 1)).toBe(true);
      expect(await names(listener.client)).toEqual(['shared-add']);
    } finally {
      await listener.client.close();
    }
  });
});
