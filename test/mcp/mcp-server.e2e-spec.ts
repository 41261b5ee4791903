import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import type { TestApp } from '../helpers/test-app.js';
import { startHttpPeer, type McpPeer } from './mcp-peers.js';
import { connectGatewayMcp, createMcpClient, createVirtualKey, startMcpGateway, toolLogs } from './mcp-server-kit.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);

/**
 * The gateway's own MCP server through HTTP: real peers registered as clients `alpha` (granted to key A only, three
 * tools), `beta` (on all keys, `echo` priced 0.25) and `many` (104 tools, key C only), driven with the SDK client.
 */
describe("the gateway's MCP server (/mcp)", () => {
  let gw: TestApp;
  let admin: HttpClient;
  let peers: McpPeer[];
  let keyA: { id: string; value: string };
  let keyB: { id: string; value: string };
  let keyC: { id: string; value: string };
  const clients: Client[] = [];
  const connect = async (path: string, key?: string) => {
    const client = await connectGatewayMcp(gw.baseUrl, path, key);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    peers = await Promise.all([startHttpPeer(), startHttpPeer(), startHttpPeer()]);
    const [alpha, beta, many] = peers as [McpPeer, McpPeer, McpPeer];
    for (let i = 0; i < 100; i++) many.addTool(`t${String(i).padStart(3, '0')}`);
    ({ gw, admin } = await startMcpGateway());
    [keyA, keyB, keyC] = await Promise.all([
      createVirtualKey(admin, 'key-a'),
      createVirtualKey(admin, 'key-b'),
      createVirtualKey(admin, 'key-c'),
    ]);
    await createMcpClient(admin, {
      name: 'alpha',
      connection_string: alpha.url,
      vk_configs: [{ virtual_key_id: keyA.id, tools_to_execute: ['echo', 'add', 'fail'] }],
    });
    await createMcpClient(admin, {
      name: 'beta',
      connection_string: beta.url,
      tools_to_execute: ['echo'],
      allow_on_all_virtual_keys: true,
      tool_pricing: { echo: 0.25 },
    });
    await createMcpClient(admin, {
      name: 'many',
      connection_string: many.url,
      vk_configs: [{ virtual_key_id: keyC.id }],
    });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await gw?.close();
    await Promise.all((peers ?? []).map((p) => p.close()));
  });

  it('initializes with a session id (any request also works without one) and lists the tools of each key', async () => {
    const raw = await gw.http.post('/mcp', INIT, {
      headers: { ...MCP_HEADERS, authorization: `Bearer ${keyA.value}` },
    });
    expect(raw.status, raw.text).toBe(200);
    expect(raw.headers.get('mcp-session-id')).toMatch(/^[A-Za-z0-9_-]+\.[0-9a-f]{64}$/);
    const sessionless = await gw.http.post(
      '/mcp',
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { headers: { ...MCP_HEADERS, authorization: `Bearer ${keyA.value}`, 'mcp-protocol-version': '2025-06-18' } },
    );
    expect(sessionless.status, sessionless.text).toBe(200);
    expect(names(sessionless.body.result.tools)).toEqual(['alpha-add', 'alpha-echo', 'alpha-fail', 'beta-echo']);
    expect(raw.headers.get('x-request-id')).toBeTruthy();
    expect(raw.body.result.serverInfo.name).toBe('ai-gateway');
    expect(raw.body.result.capabilities.tools).toBeDefined();

    const a = await connect('/mcp', keyA.value);
    expect(names((await a.listTools()).tools)).toEqual(['alpha-add', 'alpha-echo', 'alpha-fail', 'beta-echo']);
    const echo = (await a.listTools()).tools.find((t) => t.name === 'alpha-echo');
    expect(echo?.description).toBe('Echoes text');
    expect(echo?.inputSchema.type).toBe('object');
    expect(echo?.inputSchema.properties).toHaveProperty('text');

    const b = await connect('/mcp', keyB.value);
    expect(names((await b.listTools()).tools)).toEqual(['beta-echo']);
    await expect(b.ping()).resolves.toEqual({});
  });

  it('calls a tool through the executor, and logs it with the key, the client and the price', async () => {
    const a = await connect('/mcp', keyA.value);
    expect(await a.callTool({ name: 'alpha-echo', arguments: { text: 'hello' } })).toEqual({
      content: [{ type: 'text', text: 'hello' }],
    });
    expect(await a.callTool({ name: 'beta-echo', arguments: { text: 'priced' } })).toEqual({
      content: [{ type: 'text', text: 'priced' }],
    });
    const rows = await toolLogs(admin, { virtual_key_ids: keyA.id, content_search: 'priced' }, 1);
    const priced = rows.find((r) => r.tool_name === 'beta-echo');
    expect(priced).toMatchObject({ server_label: 'beta', virtual_key_id: keyA.id, status: 'success', cost: 0.25 });
    const plain = (await toolLogs(admin, { virtual_key_ids: keyA.id, tool_names: 'alpha-echo' }, 1))[0];
    expect(plain).toMatchObject({ tool_name: 'alpha-echo', server_label: 'alpha', status: 'success' });
    expect(plain.virtual_key_id).toBe(keyA.id);
    expect(plain.arguments).toEqual({ text: 'hello' });
  });

  it('a tool that fails is an isError result (logged as an error); a blocked or unknown tool is -32602 saying which', async () => {
    const a = await connect('/mcp', keyA.value);
    const failed = await a.callTool({ name: 'alpha-fail', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(failed.content).toEqual([{ type: 'text', text: 'this tool failed' }]);
    const rows = await toolLogs(admin, { virtual_key_ids: keyA.id, tool_names: 'alpha-fail' }, 1);
    expect(rows[0]).toMatchObject({ server_label: 'alpha', status: 'error' });

    const b = await connect('/mcp', keyB.value);
    const said = {
      'alpha-echo': "Tool 'alpha-echo' is not available to virtual key 'key-b'",
      'alpha-slow': "Tool 'alpha-slow' is not available to virtual key 'key-b'",
      'nobody-echo': "Tool 'nobody-echo' does not exist",
      'alpha-nope': "Tool 'alpha-nope' does not exist",
      noprefix: "Tool 'noprefix' does not exist",
    };
    for (const [name, message] of Object.entries(said)) {
      const err = await b.callTool({ name, arguments: { text: 'x' } }).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
      // The SDK client puts `MCP error -32602: ` before the server's message once: the server's has no prefix.
      expect((err as McpError).message).toBe(`MCP error -32602: ${message}`);
      expect((err as McpError).data).toMatchObject({
        status_code: 403,
        error: { code: 'tool_blocked', message },
        extra_fields: { error_type: 'policy_tool_blocked', tool_name: name },
      });
    }
    // A tool outside the key's own grant on a client it may use is blocked alike.
    const slow = await a.callTool({ name: 'alpha-slow', arguments: { ms: 1 } }).catch((e: unknown) => e);
    expect((slow as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((await toolLogs(admin, { virtual_key_ids: keyB.id }, 0)).length).toBe(0);
  });

  it('/mcp/{client} narrows to one client under its own tool names; a client the key may not use is 403', async () => {
    const a = await connect('/mcp/alpha', keyA.value);
    expect(names((await a.listTools()).tools)).toEqual(['add', 'echo', 'fail']);
    expect(await a.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: 'text', text: '5' }],
    });
    const rows = await toolLogs(admin, { virtual_key_ids: keyA.id, tool_names: 'alpha-add' }, 1);
    expect(rows[0]).toMatchObject({ tool_name: 'alpha-add', server_label: 'alpha', status: 'success' });
    const other = await a.callTool({ name: 'beta-echo', arguments: { text: 'x' } }).catch((e: unknown) => e);
    expect((other as McpError).code).toBe(ErrorCode.InvalidParams);
    // The message and the GatewayError name the tool as the caller did, on its client.
    const nope = await a.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e);
    expect((nope as McpError).message).toBe("MCP error -32602: Tool 'nope' does not exist on MCP client 'alpha'");
    expect((nope as McpError).data).toMatchObject({
      error: { message: "Tool 'nope' does not exist on MCP client 'alpha'" },
      extra_fields: { tool_name: 'alpha-nope' },
    });
    const slow = await a.callTool({ name: 'slow', arguments: { ms: 1 } }).catch((e: unknown) => e);
    expect((slow as McpError).message).toBe(
      "MCP error -32602: Tool 'slow' on MCP client 'alpha' is not available to virtual key 'key-a'",
    );

    const b = await connect('/mcp/beta', keyB.value);
    expect(names((await b.listTools()).tools)).toEqual(['echo']);

    for (const [path, key] of [
      ['/mcp/alpha', keyB.value],
      ['/mcp/nobody', keyA.value],
    ] as const) {
      const res = await gw.http.post(path, INIT, { headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` } });
      expectError(res, 403, 'permission_denied');
      expect(res.body.extra_fields.error_type).toBe('policy_access_denied');
    }
    await expect(connectGatewayMcp(gw.baseUrl, '/mcp/alpha', keyB.value)).rejects.toThrow(/403/);
  });

  it('pages tools/list by 100 with an opaque cursor', async () => {
    const c = await connect('/mcp', keyC.value);
    const first = await c.listTools();
    expect(first.tools).toHaveLength(100);
    expect(first.nextCursor).toBeTruthy();
    const second = await c.listTools({ cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const all = [...names(first.tools), ...names(second.tools)];
    expect(all).toHaveLength(105); // 104 of `many` and beta-echo
    expect(all).toEqual([...all].sort());
    expect(all).toContain('beta-echo');
    const bad = await c.listTools({ cursor: '!!' }).catch((e: unknown) => e);
    expect((bad as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it('needs a virtual key (401), rejects a bad one; DELETE ends a session, whose id then gets 404', async () => {
    expectError(await gw.http.post('/mcp', INIT, { headers: MCP_HEADERS }), 401, 'missing_credentials');
    expectError(await gw.http.post('/mcp/alpha', INIT, { headers: MCP_HEADERS }), 401, 'missing_credentials');
    const bad = await gw.http.post('/mcp', INIT, { headers: { ...MCP_HEADERS, authorization: 'Bearer sk-gw-nope' } });
    expect(bad.status).toBe(401);
    const viaApiKey = await gw.http.post('/mcp', INIT, { headers: { ...MCP_HEADERS, 'x-api-key': keyB.value } });
    expect(viaApiKey.status, viaApiKey.text).toBe(200);
    for (const body of [[], 'text', 42, null]) {
      const res = await gw.http.post('/mcp', undefined, {
        headers: { ...MCP_HEADERS, authorization: `Bearer ${keyA.value}`, 'content-type': 'application/json' },
        rawBody: JSON.stringify(body),
      });
      expectError(res, 400, 'validation_failed', 'body');
    }
    for (const path of ['/mcp', '/mcp/alpha']) {
      const auth = { authorization: `Bearer ${keyA.value}` };
      expectError(await gw.http.request('DELETE', path, { headers: auth }), 400, 'validation_failed', 'mcp-session-id');
      const init = await gw.http.post(path, INIT, { headers: { ...MCP_HEADERS, ...auth } });
      const session = init.headers.get('mcp-session-id') ?? '';
      const ping = { jsonrpc: '2.0', id: 3, method: 'ping' };
      const withSession = { ...MCP_HEADERS, ...auth, 'mcp-session-id': session };
      expect((await gw.http.post(path, ping, { headers: withSession })).status).toBe(200);
      // Another key, another path, or an altered id: not this caller's session.
      const otherKey = { ...withSession, authorization: `Bearer ${keyB.value}` };
      expectError(await gw.http.post('/mcp', ping, { headers: otherKey }), 404, 'mcp_session_not_found');
      const otherPath = path === '/mcp' ? '/mcp/alpha' : '/mcp';
      expectError(await gw.http.post(otherPath, ping, { headers: withSession }), 404, 'mcp_session_not_found');
      // Change the last character (to one it is not), so the forged id never equals the real one.
      const last = session.slice(-1) === '0' ? '1' : '0';
      const forged = { ...withSession, 'mcp-session-id': `${session.slice(0, -1)}${last}` };
      expectError(await gw.http.post(path, ping, { headers: forged }), 404, 'mcp_session_not_found');

      expect((await gw.http.request('DELETE', path, { headers: withSession })).status).toBe(200);
      expectError(await gw.http.post(path, ping, { headers: withSession }), 404, 'mcp_session_not_found');
      expectError(await gw.http.request('DELETE', path, { headers: withSession }), 404, 'mcp_session_not_found');
    }
  });
});
