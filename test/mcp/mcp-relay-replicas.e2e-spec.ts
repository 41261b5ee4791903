import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_TOKEN } from '../governance/governance-test-kit.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { createMcpClient, createVirtualKey, sleep, until } from './mcp-server-kit.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

/**
 * The MCP server's sessions and relays across two replicas on one database and one Redis: a caller connected to
 * replica A whose answers, cancellations and GET stream land on replica B (its fetch sends them there), as a load
 * balancer may. The session A issued is valid on B, the answer to a sampling request A relayed reaches A's waiting
 * call, a cancellation sent to B stops the call on A, and a subscription made through A brings updates on B's stream.
 */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('MCP relay across two replicas', () => {
  let a: TestApp;
  let b: TestApp;
  let reference: ReferenceServer;
  let key: string;
  const clients: Client[] = [];

  /** A client of A's `/mcp/ref` whose POSTs without a request, and whose GETs, go to B. */
  async function splitClient(): Promise<Client> {
    const toB = (url: string) => url.replace(a.baseUrl, b.baseUrl);
    const transport = new StreamableHTTPClientTransport(new URL('/mcp/ref', a.baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: (input, init) => {
        const url = String(input);
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
        const noRequest = body !== undefined && (body.id === undefined || body.method === undefined);
        const initialized = body?.method === 'notifications/initialized';
        return fetch(init?.method === 'GET' || (noRequest && !initialized) ? toB(url) : url, init);
      },
    });
    const client = new Client({ name: 'split', version: '1' }, { capabilities: { sampling: {} } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    reference = await startReferenceServer();
    const config = {
      setup_token: SETUP_TOKEN,
      outbound: { allow_loopback: true },
      encryption_key: randomBytes(32).toString('base64'),
    };
    a = await startTestApp({ config, keepDatabase: true });
    b = await startTestApp({ config, databaseUrl: a.databaseUrl, redisPrefix: a.config.redis_prefix });
    const admin = a.http.withHeaders({ 'X-Gateway-Setup-Token': SETUP_TOKEN });
    key = (await createVirtualKey(admin, 'split-key')).value;
    await createMcpClient(admin, { name: 'ref', connection_string: reference.url, allow_on_all_virtual_keys: true });
    const onB = b.http.withHeaders({ 'X-Gateway-Setup-Token': SETUP_TOKEN });
    for (let i = 0; i < 200; i++) {
      const res = await onB.get('/api/mcp/clients', { query: { state: 'connected' } });
      if (res.body.count === 1) break;
      await sleep(50);
    }
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await a?.close();
    await b?.close();
    await reference?.close();
  });

  it("takes the caller's answer to a relayed sampling request on the other replica", async () => {
    const client = await splitClient();
    let asked = 0;
    client.setRequestHandler(CreateMessageRequestSchema, () => {
      asked++;
      return { role: 'assistant', model: 'm', content: { type: 'text', text: 'from the caller' } };
    });
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hello' } });
    expect(asked).toBe(1);
    expect(result.content).toEqual([{ type: 'text', text: 'LLM response: from the caller' }]);
  });

  it('stops the call on A when the cancellation reaches B', async () => {
    const client = await splitClient();
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { ms: 20_000 } }, undefined, { signal: controller.signal });
    await sleep(300);
    controller.abort('stop');
    await expect(call).rejects.toThrow();
    expect(await until(() => reference.events.includes('cancelled:slow'))).toBe(true);
  });

  it("delivers the updates of a subscription made through A on the session's stream held by B", async () => {
    const client = await splitClient();
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: 'test://watched-resource' });
    // Both replicas' connections are subscribed (B's through the bus), so the replica with the stream hears it.
    expect(
      await until(() => reference.events.filter((e) => e === 'subscribe:test://watched-resource').length === 2),
    ).toBe(true);
    await reference.notifyUpdated('test://watched-resource');
    expect(await until(() => updates.length === 1)).toBe(true);
  });

  it('accepts a session issued by A on B, and ends it everywhere', async () => {
    const init = await a.http.post(
      '/mcp/ref',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { headers: { accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` } },
    );
    const headers = {
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-session-id': init.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': '2025-11-25',
    };
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    expect((await b.http.post('/mcp/ref', ping, { headers })).status).toBe(200);
    expect((await a.http.request('DELETE', '/mcp/ref', { headers })).status).toBe(200);
    expect(await until(() => false, 300)).toBe(false);
    expect((await b.http.post('/mcp/ref', ping, { headers })).status).toBe(404);
  });
});
