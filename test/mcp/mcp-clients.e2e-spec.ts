import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolCatalog, McpToolTransport, McpCallError } from '../../src/modules/mcp/mcp-contract.js';
import { McpConnectionRegistry } from '../../src/modules/mcp/clients/mcp-connection.registry.js';
import { expectError, OSS_CONFIG, ossClient, sql, UUID } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startHttpPeer, startSsePeer, stdioPeerCommand, type McpPeer } from './mcp-peers.js';

const CLIENTS = '/api/mcp/clients';
const CLIENT = '/api/mcp/client';
const MISSING_ID = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > deadline) return v;
    await sleep(50);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('MCP clients', () => {
  let gw: TestApp;
  let api: HttpClient;
  let http: McpPeer;
  let sse: McpPeer;
  let registry: McpConnectionRegistry;

  beforeAll(async () => {
    [http, sse] = await Promise.all([startHttpPeer(), startSsePeer()]);
    gw = await startTestApp({ config: { ...OSS_CONFIG, outbound: { allow_loopback: true } } });
    api = ossClient(gw);
    registry = gw.app.get(McpConnectionRegistry);
    registry.timings = {
      ...registry.timings,
      pingIntervalMs: 200,
      pingTimeoutMs: 500,
      reconnectBaseMs: 100,
      reconnectMaxMs: 400,
      connectTimeoutMs: 3_000,
    };
  });

  afterAll(async () => {
    await gw?.close();
    await Promise.all([http?.close(), sse?.close()]);
  });

  const create = async (body: Record<string, unknown>) => {
    const res = await api.post(CLIENT, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.client;
  };
  const view = async (id: string) => (await api.get(`${CLIENT}/${id}`)).body.client;

  it('creates an http client: connects, lists tools, redacts headers and sends them', async () => {
    const client = await create({
      name: 'http_peer',
      connection_type: 'http',
      connection_string: http.url,
      headers: { Authorization: 'Bearer peer-secret', 'X-Team': 'team-a' },
    });
    expect(client.id).toMatch(UUID);
    expect(client.state).toBe('connected');
    expect(client.last_error).toBeNull();
    expect(client.tools.map((t: any) => t.name)).toEqual(['add', 'echo', 'fail', 'slow']);
    expect(client.tools.find((t: any) => t.name === 'echo').input_schema.properties.text).toBeTruthy();
    expect(client.headers.Authorization).toEqual({ value: '<REDACTED>', ref: '', type: 'plain_text' });
    expect(client.tools_to_execute).toEqual(['*']);
    expect(client.tools_to_auto_execute).toEqual([]);
    expect(client.tool_execution_timeout).toBe(30);
    expect(client.allow_on_all_virtual_keys).toBe(false);
    expect(client.disabled).toBe(false);
    expect(http.requests.some((h) => h.authorization === 'Bearer peer-secret' && h['x-team'] === 'team-a')).toBe(true);
    for (const res of [await api.get(`${CLIENT}/${client.id}`), await api.get(CLIENTS)]) {
      expect(res.text).not.toContain('peer-secret');
    }
    const rows = await sql(gw, 'SELECT headers::text AS h FROM mcp_clients WHERE id = $1', [client.id]);
    expect(rows[0].h).not.toContain('peer-secret');
  });

  it('creates sse and stdio clients', async () => {
    const s = await create({ name: 'sse_peer', connection_type: 'sse', connection_string: sse.url });
    expect(s.state).toBe('connected');
    expect(s.tools.map((t: any) => t.name)).toEqual(['add', 'echo', 'fail', 'slow']);
    const st = await create({
      name: 'stdio_peer',
      connection_type: 'stdio',
      stdio_config: { ...stdioPeerCommand(), envs: { PEER_SECRET: 'stdio-secret' } },
    });
    expect(st.state).toBe('connected');
    expect(st.tools.map((t: any) => t.name)).toEqual(['add', 'echo', 'env', 'fail', 'pid', 'slow']);
    expect(st.stdio_config.envs.PEER_SECRET.value).toBe('<REDACTED>');
    const transport = gw.app.get(McpToolTransport);
    const env = await transport.callTool(st.id, 'env', { name: 'PEER_SECRET' }, { timeoutMs: 5000 });
    expect(env.content).toEqual([{ type: 'text', text: 'stdio-secret' }]);
    const sum = await transport.callTool(s.id, 'add', { a: 2, b: 3 }, { timeoutMs: 5000 });
    expect(sum.content).toEqual([{ type: 'text', text: '5' }]);
  });

  it('rejects bad fields with 400 naming them, and writes nothing', async () => {
    const before = (await sql(gw, 'SELECT count(*)::int AS n FROM mcp_clients'))[0].n;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ connection_type: 'http', connection_string: http.url }, 'name'],
      [{ name: 'bad-name', connection_type: 'http', connection_string: http.url }, 'name'],
      [{ name: '1abc', connection_type: 'http', connection_string: http.url }, 'name'],
      [{ name: 'x1', connection_type: 'ws', connection_string: http.url }, 'connection_type'],
      [{ name: 'x1', connection_type: 'http' }, 'connection_string'],
      [{ name: 'x1', connection_type: 'http', connection_string: 'ftp://x' }, 'connection_string'],
      [{ name: 'x1', connection_type: 'http', connection_string: 'http://169.254.169.254/mcp' }, 'connection_string'],
      [{ name: 'x1', connection_type: 'stdio' }, 'stdio_config'],
      [{ name: 'x1', connection_type: 'stdio', stdio_config: { command: '' } }, 'stdio_config.command'],
      [
        { name: 'x1', connection_type: 'http', connection_string: http.url, tool_execution_timeout: 0 },
        'tool_execution_timeout',
      ],
      [
        { name: 'x1', connection_type: 'http', connection_string: http.url, tool_execution_timeout: '30s' },
        'tool_execution_timeout',
      ],
      [
        { name: 'x1', connection_type: 'http', connection_string: http.url, tool_pricing: { echo: -1 } },
        'tool_pricing.echo',
      ],
      [
        {
          name: 'x1',
          connection_type: 'http',
          connection_string: http.url,
          tools_to_execute: ['echo'],
          tools_to_auto_execute: ['add'],
        },
        'tools_to_auto_execute[0]',
      ],
      [
        {
          name: 'x1',
          connection_type: 'http',
          connection_string: http.url,
          tools_to_execute: ['echo'],
          tools_to_auto_execute: ['*'],
        },
        'tools_to_auto_execute[0]',
      ],
      [
        {
          name: 'x1',
          connection_type: 'http',
          connection_string: http.url,
          vk_configs: [{ virtual_key_id: MISSING_ID }],
        },
        'vk_configs[0].virtual_key_id',
      ],
      [
        { name: 'x1', connection_type: 'http', connection_string: http.url, headers: { 'bad header': 'x' } },
        'headers.bad header',
      ],
      [{ name: 'x1', connection_type: 'http', connection_string: http.url, disabled: 'no' }, 'disabled'],
    ];
    for (const [body, param] of cases) expectError(await api.post(CLIENT, body), 400, 'validation_failed', param);
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM mcp_clients'))[0].n).toBe(before);
  });

  it('answers 400 naming the connection field when the server cannot be reached, saving nothing', async () => {
    const dead = await startHttpPeer();
    const url = dead.url;
    await dead.close();
    const res = await api.post(CLIENT, { name: 'dead', connection_type: 'http', connection_string: url });
    expectError(res, 400, 'validation_failed', 'connection_string');
    expect(res.body.error.message).toContain('could not be connected to');
    const bad = await api.post(CLIENT, {
      name: 'dead',
      connection_type: 'stdio',
      stdio_config: { command: '/nonexistent/cmd' },
    });
    expectError(bad, 400, 'validation_failed', 'stdio_config');
    expect(await sql(gw, `SELECT id FROM mcp_clients WHERE name = 'dead'`)).toEqual([]);
  });

  it('answers 409 for a duplicate name and 404 for unknown ids', async () => {
    expectError(
      await api.post(CLIENT, { name: 'http_peer', connection_type: 'http', connection_string: http.url }),
      409,
      'already_exists',
    );
    for (const res of [
      await api.get(`${CLIENT}/${MISSING_ID}`),
      await api.put(`${CLIENT}/${MISSING_ID}`, { disabled: true }),
      await api.delete(`${CLIENT}/${MISSING_ID}`),
      await api.post(`${CLIENT}/${MISSING_ID}/reconnect`),
      await api.post(`${CLIENT}/not-a-uuid/refresh-tools`),
    ]) {
      expectError(res, 404, 'mcp_client_not_found');
    }
  });

  it('lists with filters and paging', async () => {
    const all = await api.get(CLIENTS);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 3, total_count: 3, limit: 25, offset: 0 });
    expect(all.body.clients.map((c: any) => c.name)).toEqual(['http_peer', 'sse_peer', 'stdio_peer']);
    const page = await api.get(CLIENTS, { query: { limit: 1, offset: 1 } });
    expect(page.body).toMatchObject({ count: 1, total_count: 3, limit: 1, offset: 1 });
    expect(page.body.clients[0].name).toBe('sse_peer');
    expect((await api.get(CLIENTS, { query: { search: 'STDIO' } })).body.clients.map((c: any) => c.name)).toEqual([
      'stdio_peer',
    ]);
    expect((await api.get(CLIENTS, { query: { connection_type: 'sse' } })).body.total_count).toBe(1);
    expect((await api.get(CLIENTS, { query: { state: 'connected' } })).body.total_count).toBe(3);
    expect((await api.get(CLIENTS, { query: { state: 'disabled' } })).body.total_count).toBe(0);
    expectError(await api.get(CLIENTS, { query: { limit: 101 } }), 400, 'validation_failed', 'limit');
    expectError(await api.get(CLIENTS, { query: { limit: 0 } }), 400, 'validation_failed', 'limit');
    expectError(await api.get(CLIENTS, { query: { offset: -1 } }), 400, 'validation_failed', 'offset');
    expectError(await api.get(CLIENTS, { query: { state: 'weird' } }), 400, 'validation_failed', 'state');
  });

  it('updates the fields sent; connection_type is immutable; <REDACTED> keeps headers', async () => {
    const id = (await api.get(CLIENTS, { query: { search: 'http_peer' } })).body.clients[0].id;
    expectError(
      await api.put(`${CLIENT}/${id}`, { connection_type: 'sse' }),
      400,
      'validation_failed',
      'connection_type',
    );
    const res = await api.put(`${CLIENT}/${id}`, {
      tool_execution_timeout: 5,
      tool_pricing: { echo: 0.25 },
      headers: { Authorization: '<REDACTED>', 'X-Team': 'team-b' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.client).toMatchObject({
      tool_execution_timeout: 5,
      tool_pricing: { echo: 0.25 },
      state: 'connected',
    });
    http.requests.length = 0;
    await gw.app.get(McpToolTransport).callTool(id, 'echo', { text: 'hi' }, { timeoutMs: 5000 });
    expect(http.requests.some((h) => h.authorization === 'Bearer peer-secret' && h['x-team'] === 'team-b')).toBe(true);
    const disabled = await api.put(`${CLIENT}/${id}`, { disabled: true });
    expect(disabled.body.client.state).toBe('disabled');
    expectError(await api.post(`${CLIENT}/${id}/reconnect`), 400, 'validation_failed', 'disabled');
    const enabled = await api.put(`${CLIENT}/${id}`, { disabled: false });
    expect(enabled.body.client.state).toBe('connected');
  });

  it('refreshes tools on request and on list_changed', async () => {
    const id = (await api.get(CLIENTS, { query: { search: 'sse_peer' } })).body.clients[0].id;
    sse.addTool('added_one');
    const refreshed = await api.post(`${CLIENT}/${id}/refresh-tools`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ tool_count: 5 });
    expect((await view(id)).tools.map((t: any) => t.name)).toContain('added_one');

    const httpId = (await api.get(CLIENTS, { query: { search: 'http_peer' } })).body.clients[0].id;
    http.addTool('pushed_tool');
    const after = await until(
      () => view(httpId),
      (c) => c.tools.some((t: any) => t.name === 'pushed_tool'),
    );
    expect(after.tools.map((t: any) => t.name)).toContain('pushed_tool');
  });

  it('reports a crashed server and reconnects when it is back', async () => {
    const id = (await api.get(CLIENTS, { query: { search: 'http_peer' } })).body.clients[0].id;
    await http.stop();
    const down = await until(
      () => view(id),
      (c) => c.state === 'error' || c.state === 'disconnected',
    );
    expect(['error', 'disconnected']).toContain(down.state);
    expect(down.last_error).toBeTruthy();
    await expect(
      gw.app.get(McpToolTransport).callTool(id, 'echo', { text: 'x' }, { timeoutMs: 1000 }),
    ).rejects.toBeInstanceOf(McpCallError);
    await http.restart();
    const up = await until(
      () => view(id),
      (c) => c.state === 'connected',
    );
    expect(up.state).toBe('connected');
    expect(up.last_error).toBeNull();
    const reconnected = await api.post(`${CLIENT}/${id}/reconnect`);
    expect(reconnected.status).toBe(200);
    expect(reconnected.body.client.state).toBe('connected');
  });

  it('maps call failures to McpCallError kinds; isError results are returned', async () => {
    const id = (await api.get(CLIENTS, { query: { search: 'stdio_peer' } })).body.clients[0].id;
    const transport = gw.app.get(McpToolTransport);
    const failed = await transport.callTool(id, 'fail', {}, { timeoutMs: 5000 });
    expect(failed.isError).toBe(true);
    const timeout = await transport.callTool(id, 'slow', { ms: 2000 }, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(McpCallError);
    expect((timeout as McpCallError).kind).toBe('timeout');
    const unknown = await transport.callTool(id, 'nope', {}, { timeoutMs: 5000 }).then(
      (r) => r,
      (e: unknown) => e,
    );
    // The SDK server answers an unknown tool either as a JSON-RPC error or as an isError result.
    if (unknown instanceof McpCallError) expect(unknown.kind).toBe('jsonrpc');
    else expect((unknown as { isError?: boolean }).isError).toBe(true);
    const missing = await transport.callTool(MISSING_ID, 'echo', {}, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect((missing as McpCallError).kind).toBe('disconnected');
  });

  it('serves the catalog by the rule per virtual key', async () => {
    const vk = async (name: string) => {
      const res = await api.post('/api/governance/virtual-keys', { name });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.virtual_key as { id: string; name: string };
    };
    const [a, b] = [await vk('vk-a'), await vk('vk-b')];
    const ids = Object.fromEntries((await api.get(CLIENTS)).body.clients.map((c: any) => [c.name, c.id]));
    const catalog = gw.app.get(McpToolCatalog);
    const names = async (vkId?: string) =>
      (await catalog.toolsFor(vkId ? { virtualKey: { id: vkId, name: 'x' } } : {})).map((t) => t.name);
    expect(await names()).toEqual([]);
    expect(await names(a.id)).toEqual([]);

    await api.put(`${CLIENT}/${ids.sse_peer}`, { allow_on_all_virtual_keys: true, tools_to_execute: ['echo', 'add'] });
    await api.put(`${CLIENT}/${ids.stdio_peer}`, {
      tools_to_auto_execute: ['echo'],
      tool_pricing: { echo: 0.5 },
      vk_configs: [{ virtual_key_id: a.id, tools_to_execute: ['echo', 'pid'] }, { virtual_key_id: b.id }],
    });
    expect(await names()).toEqual(['sse_peer-add', 'sse_peer-echo']);
    expect(await names(a.id)).toEqual(['sse_peer-add', 'sse_peer-echo', 'stdio_peer-echo', 'stdio_peer-pid']);
    expect(await names(b.id)).toEqual([
      'sse_peer-add',
      'sse_peer-echo',
      'stdio_peer-add',
      'stdio_peer-echo',
      'stdio_peer-env',
      'stdio_peer-fail',
      'stdio_peer-pid',
      'stdio_peer-slow',
    ]);
    const echo = (await catalog.toolsFor({ virtualKey: { id: a.id, name: a.name } })).find(
      (t) => t.name === 'stdio_peer-echo',
    )!;
    expect(echo).toMatchObject({
      clientId: ids.stdio_peer,
      clientName: 'stdio_peer',
      autoExecute: true,
      costUsd: 0.5,
      timeoutMs: 30_000,
    });
    await api.put(`${CLIENT}/${ids.stdio_peer}`, { tools_to_execute: [], tools_to_auto_execute: [] });
    expect(await names(a.id)).toEqual(['sse_peer-add', 'sse_peer-echo']);
    await api.put(`${CLIENT}/${ids.sse_peer}`, { disabled: true });
    expect(await names()).toEqual([]);
  });

  it('deletes a stdio client and kills its child', async () => {
    const id = (await api.get(CLIENTS, { query: { search: 'stdio_peer' } })).body.clients[0].id;
    const pidResult = await gw.app.get(McpToolTransport).callTool(id, 'pid', {}, { timeoutMs: 5000 });
    const pid = Number((pidResult.content[0] as { text: string }).text);
    expect(pidAlive(pid)).toBe(true);
    const res = await api.delete(`${CLIENT}/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'MCP client deleted successfully' });
    const alive = await until(
      async () => pidAlive(pid),
      (v) => !v,
      5000,
    );
    expect(alive).toBe(false);
    expectError(await api.get(`${CLIENT}/${id}`), 404, 'mcp_client_not_found');
  });
});
