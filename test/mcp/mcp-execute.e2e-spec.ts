import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import type { TestApp } from '../helpers/test-app.js';
import { startHttpPeer, startSsePeer, type McpPeer } from './mcp-peers.js';
import { createMcpClient, createVirtualKey, startMcpGateway, toolLogs } from './mcp-server-kit.js';

const EXECUTE = '/v1/mcp/tool/execute';
const chatCall = (name: string, args: unknown, id = 'call_1') => ({
  id,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

/** `POST /v1/mcp/tool/execute` through HTTP: `tools` (http peer, key A only, echo priced) and `legacy` (sse, all keys). */
describe('POST /v1/mcp/tool/execute', () => {
  let gw: TestApp;
  let admin: HttpClient;
  let peers: McpPeer[];
  let keyA: { id: string; value: string };
  let keyB: { id: string; value: string };
  let asA: HttpClient;
  let asB: HttpClient;

  beforeAll(async () => {
    peers = await Promise.all([startHttpPeer(), startSsePeer()]);
    const [http, sse] = peers as [McpPeer, McpPeer];
    ({ gw, admin } = await startMcpGateway());
    [keyA, keyB] = await Promise.all([createVirtualKey(admin, 'exec-a'), createVirtualKey(admin, 'exec-b')]);
    await createMcpClient(admin, {
      name: 'tools',
      connection_string: http.url,
      vk_configs: [{ virtual_key_id: keyA.id }],
      tool_pricing: { echo: 0.5 },
    });
    await createMcpClient(admin, {
      name: 'hasty',
      connection_string: http.url,
      tools_to_execute: ['slow'],
      tool_execution_timeout: 1,
      vk_configs: [{ virtual_key_id: keyA.id }],
    });
    await createMcpClient(admin, {
      name: 'legacy',
      connection_type: 'sse',
      connection_string: sse.url,
      allow_on_all_virtual_keys: true,
    });
    asA = gw.http.withHeaders({ authorization: `Bearer ${keyA.value}` });
    asB = gw.http.withHeaders({ 'x-api-key': keyB.value });
  });

  afterAll(async () => {
    await gw?.close();
    await Promise.all((peers ?? []).map((p) => p.close()));
  });

  it('format=chat (the default) answers a tool message, and logs the call with its price', async () => {
    const res = await asA.post(EXECUTE, chatCall('tools-echo', { text: 'hi there' }), {
      headers: { 'x-gateway-log-meta-team': 'blue' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ role: 'tool', content: 'hi there', tool_call_id: 'call_1' });
    const explicit = await asA.post(`${EXECUTE}?format=chat`, chatCall('legacy-add', { a: 2, b: 40 }, 'c2'));
    expect(explicit.body).toEqual({ role: 'tool', content: '42', tool_call_id: 'c2' });

    const rows = await toolLogs(admin, { virtual_key_ids: keyA.id, tool_names: 'tools-echo' }, 1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tool_name: 'tools-echo',
      server_label: 'tools',
      virtual_key_id: keyA.id,
      virtual_key_name: 'exec-a',
      status: 'success',
      cost: 0.5,
      arguments: { text: 'hi there' },
      metadata: { team: 'blue' },
    });
    const add = await toolLogs(admin, { virtual_key_ids: keyA.id, tool_names: 'legacy-add' }, 1);
    expect(add[0]).toMatchObject({ server_label: 'legacy', status: 'success' });
  });

  it('format=responses answers a function_call_output item', async () => {
    const res = await asB.post(`${EXECUTE}?format=responses`, {
      call_id: 'fc_9',
      name: 'legacy-echo',
      arguments: '{"text":"from responses"}',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ type: 'function_call_output', call_id: 'fc_9', output: 'from responses' });
    const rows = await toolLogs(admin, { virtual_key_ids: keyB.id, tool_names: 'legacy-echo' }, 1);
    expect(rows[0]).toMatchObject({ server_label: 'legacy', virtual_key_id: keyB.id, status: 'success' });
  });

  it('a tool that fails still answers 200 with its message (logged as an error)', async () => {
    const res = await asA.post(EXECUTE, chatCall('tools-fail', {}, 'c3'));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ role: 'tool', content: 'this tool failed', tool_call_id: 'c3' });
    const rows = await toolLogs(admin, { virtual_key_ids: keyA.id, tool_names: 'tools-fail' }, 1);
    expect(rows[0]).toMatchObject({ status: 'error', server_label: 'tools' });
    expect(rows[0].cost ?? 0).toBe(0);
  });

  it('a tool that does not answer within the client timeout answers 200 saying so (logged: upstream_timeout)', async () => {
    const res = await asA.post(`${EXECUTE}?format=responses`, {
      call_id: 'slow_1',
      name: 'hasty-slow',
      arguments: '{"ms":3000}',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ type: 'function_call_output', call_id: 'slow_1' });
    expect(res.body.output).toMatch(/timed out after 1000 ms/);
    const rows = await toolLogs(admin, { virtual_key_ids: keyA.id, tool_names: 'hasty-slow' }, 1);
    expect(rows[0]).toMatchObject({ status: 'error', server_label: 'hasty' });
    expect(rows[0].error_details.error.code).toBe('upstream_timeout');
  });

  it('a tool outside the key allow-list, or unknown, is 403 tool_blocked (policy_tool_blocked), not logged', async () => {
    for (const name of ['tools-echo', 'tools-nothing', 'nobody-echo']) {
      const res = await asB.post(EXECUTE, chatCall(name, { text: 'x' }));
      expectError(res, 403, 'tool_blocked');
      expect(res.body.extra_fields.error_type).toBe('policy_tool_blocked');
    }
    const responses = await asB.post(`${EXECUTE}?format=responses`, {
      call_id: 'x',
      name: 'tools-echo',
      arguments: '{}',
    });
    expectError(responses, 403, 'tool_blocked');
    const rows = await toolLogs(admin, { virtual_key_ids: keyB.id, tool_names: 'tools-echo' }, 0);
    expect(rows).toEqual([]);
  });

  it('400 names the field: format, name, arguments (a string holding a JSON object), id', async () => {
    expectError(
      await asA.post(`${EXECUTE}?format=xml`, chatCall('tools-echo', {})),
      400,
      'validation_failed',
      'format',
    );
    const chat = [
      [{ id: 'c', type: 'function', function: { arguments: '{}' } }, 'function.name'],
      [{ id: 'c', type: 'function', function: { name: '', arguments: '{}' } }, 'function.name'],
      [{ id: 'c', type: 'function', function: { name: 'tools-echo' } }, 'function.arguments'],
      [chatCall('tools-echo', '[1,2]'), 'function.arguments'],
      [chatCall('tools-echo', 'not json'), 'function.arguments'],
      [chatCall('tools-echo', '"text"'), 'function.arguments'],
      [
        { id: 'c', type: 'function', function: { name: 'tools-echo', arguments: { text: 'object' } } },
        'function.arguments',
      ],
      [{ type: 'function', function: { name: 'tools-echo', arguments: '{}' } }, 'id'],
      [{ id: 'c', type: 'function' }, 'function'],
      [{ id: 'c', type: 'custom', function: { name: 'tools-echo', arguments: '{}' } }, 'type'],
    ] as const;
    for (const [body, param] of chat) expectError(await asA.post(EXECUTE, body), 400, 'validation_failed', param);
    const responses = [
      [{ call_id: 'c', arguments: '{}' }, 'name'],
      [{ call_id: 'c', name: 'tools-echo' }, 'arguments'],
      [{ call_id: 'c', name: 'tools-echo', arguments: 'null' }, 'arguments'],
      [{ name: 'tools-echo', arguments: '{}' }, 'call_id'],
    ] as const;
    for (const [body, param] of responses) {
      expectError(await asA.post(`${EXECUTE}?format=responses`, body), 400, 'validation_failed', param);
    }
  });

  it('needs a virtual key like /v1/chat/completions', async () => {
    expectError(await gw.http.post(EXECUTE, chatCall('legacy-echo', { text: 'x' })), 401, 'missing_credentials');
    const bad = await gw.http.post(EXECUTE, chatCall('legacy-echo', { text: 'x' }), {
      headers: { authorization: 'Bearer sk-gw-not-a-key' },
    });
    expect(bad.status).toBe(401);
    // Nothing the caller sent is read before it is known: a bad query is still a 401 without a key.
    const badQuery = await gw.http.post(`${EXECUTE}?format=${'9'.repeat(60)}`, chatCall('legacy-echo', { text: 'x' }));
    expectError(badQuery, 401, 'missing_credentials');
  });
});

describe('POST /v1/mcp/tool/execute without required virtual keys', () => {
  let gw: TestApp;
  let peer: McpPeer;

  beforeAll(async () => {
    peer = await startHttpPeer();
    let admin: HttpClient;
    ({ gw, admin } = await startMcpGateway({ inference: { require_virtual_key: false } }));
    await createMcpClient(admin, { name: 'open', connection_string: peer.url, allow_on_all_virtual_keys: true });
    await createMcpClient(admin, { name: 'closed', connection_string: peer.url });
  });

  afterAll(async () => {
    await gw?.close();
    await peer?.close();
  });

  it('a key-less caller may use the clients allowed on all virtual keys, and only those', async () => {
    const res = await gw.http.post(EXECUTE, chatCall('open-echo', { text: 'anonymous' }));
    expect(res.body).toEqual({ role: 'tool', content: 'anonymous', tool_call_id: 'call_1' });
    expectError(await gw.http.post(EXECUTE, chatCall('closed-echo', { text: 'x' })), 403, 'tool_blocked');
  });
});
