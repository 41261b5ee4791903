import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { SETUP_TOKEN, seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { startHttpPeer, type McpPeer } from '../mcp/mcp-peers.js';
import { connectGatewayMcp, createMcpClient, createVirtualKey } from '../mcp/mcp-server-kit.js';
import { assignProfile, createProfile, createUser } from './access-profiles-kit.js';

const VKS = '/api/governance/virtual-keys';
const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);

/**
 * Virtual keys' MCP grants (`mcp_configs`) enforced by the gateway's MCP catalog, through HTTP with real MCP peers:
 * a profile's `mcp_servers` and `include` overrides reach its managed key; grants narrow to their tools; a change of
 * grants is seen on the next call (and on another replica in the scale-out mode).
 */
describe(`MCP grants of virtual keys (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let peers: McpPeer[];
  const ids: Record<'alpha' | 'beta' | 'shared', string> = { alpha: '', beta: '', shared: '' };
  const sessions: Client[] = [];
  const toolsOf = async (key: string, baseUrl = s.gw.baseUrl): Promise<string[]> => {
    const client = await connectGatewayMcp(baseUrl, '/mcp', key);
    sessions.push(client);
    return names((await client.listTools()).tools);
  };

  beforeAll(async () => {
    peers = await Promise.all([startHttpPeer(), startHttpPeer(), startHttpPeer()]);
    s = await startInferenceStack({ edition: 'enterprise', outbound: { allow_loopback: true } });
    const [alpha, beta, shared] = peers as [McpPeer, McpPeer, McpPeer];
    ids.alpha = await createMcpClient(s.admin, { name: 'alpha', connection_string: alpha.url });
    ids.beta = await createMcpClient(s.admin, { name: 'beta', connection_string: beta.url });
    // Served to every key whatever its grants: the grants add clients, they never hide these.
    ids.shared = await createMcpClient(s.admin, {
      name: 'shared',
      connection_string: shared.url,
      tools_to_execute: ['echo'],
      allow_on_all_virtual_keys: true,
    });
  });
  beforeEach(() => s.sim.reset());

  afterAll(async () => {
    await Promise.all(sessions.map((c) => c.close().catch(() => undefined)));
    await s?.close();
    await Promise.all((peers ?? []).map((p) => p.close()));
  });

  it('a profile granting one client whole and one tool of another: its managed key sees exactly those', async () => {
    const profile = await createProfile(s.admin, {
      name: 'mcp-users',
      mcp_servers: [{ mcp_server_id: ids.alpha }],
      mcp_tool_overrides: [{ mcp_client_id: ids.beta, tool_name: 'add', action: 'include' }],
    });
    const { virtual_key: key } = await assignProfile(s.admin, await createUser(s.admin), profile.id);
    expect(key.mcp_configs).toEqual([
      { mcp_client_id: ids.alpha, tools_to_execute: ['*'] },
      { mcp_client_id: ids.beta, tools_to_execute: ['add'] },
    ]);

    expect(await toolsOf(key.value)).toEqual([
      'alpha-add',
      'alpha-echo',
      'alpha-fail',
      'alpha-slow',
      'beta-add',
      'shared-echo',
    ]);
    const client = await connectGatewayMcp(s.gw.baseUrl, '/mcp', key.value);
    sessions.push(client);
    expect(await client.callTool({ name: 'beta-add', arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: 'text', text: '5' }],
    });
    // Granted a single tool of beta: its other tools are refused on execution too.
    const blocked = await client.callTool({ name: 'beta-echo', arguments: { text: 'x' } }).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(McpError);
    expect((blocked as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((blocked as McpError).data).toMatchObject({ status_code: 403, error: { code: 'tool_blocked' } });

    // The same grants in chat: the tools injected upstream are exactly those.
    const chat = await s.gw.http
      .withHeaders({ authorization: `Bearer ${key.value}` })
      .post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.status, chat.text).toBe(200);
    const offered = ((seen(s.sim)[0].body.tools ?? []) as any[]).map((t) => t.function.name);
    expect(offered.sort()).toEqual(['alpha-add', 'alpha-echo', 'alpha-fail', 'alpha-slow', 'beta-add', 'shared-echo']);

    // A key without grants sees none of them.
    const plain = await createVirtualKey(s.admin, 'no-grants');
    expect(await toolsOf(plain.value)).toEqual(['shared-echo']);
  });

  it('a key’s own grants apply on the next call after a change, and removing them takes the tools away', async () => {
    const key = await createVirtualKey(s.admin, 'granted-later');
    expect(await toolsOf(key.value)).toEqual(['shared-echo']);

    const granted = await s.admin.put(`${VKS}/${key.id}`, {
      mcp_configs: [{ mcp_client_id: ids.beta, tools_to_execute: ['echo', 'fail'] }],
    });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.virtual_key.mcp_configs).toEqual([
      { mcp_client_id: ids.beta, tools_to_execute: ['echo', 'fail'] },
    ]);
    expect(await toolsOf(key.value)).toEqual(['beta-echo', 'beta-fail', 'shared-echo']);

    // `*` is every tool the client executes; narrowing the client narrows the grant.
    expect((await s.admin.put(`${VKS}/${key.id}`, { mcp_configs: [{ mcp_client_id: ids.beta }] })).status).toBe(200);
    expect(await toolsOf(key.value)).toEqual(['beta-add', 'beta-echo', 'beta-fail', 'beta-slow', 'shared-echo']);

    expect((await s.admin.put(`${VKS}/${key.id}`, { mcp_configs: [] })).status).toBe(200);
    expect(await toolsOf(key.value)).toEqual(['shared-echo']);
  });

  describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('across replicas', () => {
    let replica: TestApp;

    beforeAll(async () => {
      replica = await startTestApp({
        config: { setup_token: SETUP_TOKEN, edition: 'enterprise', outbound: { allow_loopback: true } },
        databaseUrl: s.gw.databaseUrl,
        redisPrefix: s.gw.config.redis_prefix,
      });
    });
    afterAll(() => replica?.close());

    it('a grant changed on one replica is served by the other on its next call', async () => {
      const key = await createVirtualKey(s.admin, 'replicated');
      // Connected on the replica too before the change, so its catalog for the key is built and cached.
      await expect.poll(() => toolsOf(key.value, replica.baseUrl), { timeout: 10_000 }).toEqual(['shared-echo']);
      const res = await s.admin.put(`${VKS}/${key.id}`, {
        mcp_configs: [{ mcp_client_id: ids.alpha, tools_to_execute: ['add'] }],
      });
      expect(res.status, res.text).toBe(200);
      await expect
        .poll(() => toolsOf(key.value, replica.baseUrl), { timeout: 2_000 })
        .toEqual(['alpha-add', 'shared-echo']);
      expect((await s.admin.put(`${VKS}/${key.id}`, { mcp_configs: [] })).status).toBe(200);
      await expect.poll(() => toolsOf(key.value, replica.baseUrl), { timeout: 2_000 }).toEqual(['shared-echo']);
    });
  });
});
