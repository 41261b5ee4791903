import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
  type ClientCapabilities,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../helpers/http.js';
import type { TestApp } from '../helpers/test-app.js';
import { startHttpPeer, type McpPeer } from './mcp-peers.js';
import { createMcpClient, createVirtualKey, startMcpGateway, toolLogs, until } from './mcp-server-kit.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

const textOf = (result: object) => ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';

/**
 * MCP beyond tools through the gateway, driven by the official SDK client: the reference server (test/mcp/reference-
 * server.ts) registered as `ref` (granted to key A only) and a tools-only peer `alpha` (on all keys). Prompts,
 * resources and completions are relayed per client and aggregated on `/mcp` with the key's filtering and `<client>-`
 * names; what the server sends during a call reaches the caller; every relayed call has its log row and kind.
 */
describe('MCP relay beyond tools (/mcp and /mcp/{client})', () => {
  let gw: TestApp;
  let admin: HttpClient;
  let reference: ReferenceServer;
  let alpha: McpPeer;
  let keyA: { id: string; value: string };
  let keyB: { id: string; value: string };
  const clients: Client[] = [];

  async function connect(path: string, key: string, capabilities: ClientCapabilities = {}): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(path, gw.baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    const client = new Client({ name: 'relay-test', version: '1.0.0' }, { capabilities });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    [reference, alpha] = await Promise.all([startReferenceServer(), startHttpPeer()]);
    ({ gw, admin } = await startMcpGateway());
    [keyA, keyB] = await Promise.all([createVirtualKey(admin, 'key-a'), createVirtualKey(admin, 'key-b')]);
    await createMcpClient(admin, {
      name: 'ref',
      connection_string: reference.url,
      vk_configs: [{ virtual_key_id: keyA.id }],
      tool_execution_timeout: 10,
    });
    await createMcpClient(admin, { name: 'alpha', connection_string: alpha.url, allow_on_all_virtual_keys: true });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await gw?.close();
    await Promise.all([reference?.close(), alpha?.close()]);
  });

  it('lists prompts, resources and templates per key: namespaced on /mcp, own names on /mcp/{client}', async () => {
    const a = await connect('/mcp', keyA.value);
    expect(a.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
    });
    expect((await a.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'ref-test_prompt_with_arguments',
      'ref-test_prompt_with_embedded_resource',
      'ref-test_prompt_with_image',
      'ref-test_simple_prompt',
    ]);
    const resources = (await a.listResources()).resources;
    expect(resources.map((r) => [r.name, r.uri])).toEqual([
      ['ref-static-binary', 'test://static-binary'],
      ['ref-static-text', 'test://static-text'],
      ['ref-watched-resource', 'test://watched-resource'],
    ]);
    expect((await a.listResourceTemplates()).resourceTemplates).toEqual([
      { name: 'ref-template-data', uriTemplate: 'test://template/{id}/data', mimeType: 'application/json' },
    ]);

    const own = await connect('/mcp/ref', keyA.value);
    expect((await own.listPrompts()).prompts.map((p) => p.name)).toContain('test_simple_prompt');
    expect((await own.listResources()).resources.map((r) => r.name)).toContain('static-text');

    // Key B may use alpha only (tools, nothing else): nothing of ref, and /mcp/ref is refused.
    const b = await connect('/mcp', keyB.value);
    expect((await b.listPrompts()).prompts).toEqual([]);
    expect((await b.listResources()).resources).toEqual([]);
    const read = await b.readResource({ uri: 'test://static-text' }).catch((e: unknown) => e);
    expect((read as McpError).code).toBe(-32002);
    const prompt = await b.getPrompt({ name: 'ref-test_simple_prompt' }).catch((e: unknown) => e);
    expect((prompt as McpError).message).toBe(
      "MCP error -32602: Prompt 'ref-test_simple_prompt' does not exist or is not available to virtual key 'key-b'",
    );
    await expect(connect('/mcp/ref', keyB.value)).rejects.toThrow(/403/);
    // A client whose server has no prompts or resources does not declare them on its own path.
    const tools = await connect('/mcp/alpha', keyB.value);
    expect(tools.getServerCapabilities()?.prompts).toBeUndefined();
    expect(tools.getServerCapabilities()?.resources).toBeUndefined();
  });

  it('relays prompts/get, resources/read and completion/complete, each logged with its kind', async () => {
    const a = await connect('/mcp', keyA.value);
    const prompt = await a.getPrompt({ name: 'ref-test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 'y' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='x', arg2='y'" });
    // A URI no client lists is read from the client whose template matches it.
    const read = await a.readResource({ uri: 'test://template/42/data' });
    expect(read.contents).toEqual([
      { uri: 'test://template/42/data', mimeType: 'application/json', text: '{"id":"42","data":true}' },
    ]);
    const binary = await a.readResource({ uri: 'test://static-binary' });
    expect(binary.contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) as string });
    const completion = await a.complete({
      ref: { type: 'ref/prompt', name: 'ref-test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'pa' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
    const byTemplate = await a.complete({
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '4' },
    });
    expect(byTemplate.completion.values).toEqual(['456']);

    const rows = await toolLogs(admin, { virtual_key_ids: keyA.id, server_labels: 'ref' }, 5);
    const kinds = rows.map((r) => [r.mcp_request_type, r.tool_name, r.status]).sort();
    expect(kinds).toEqual(
      [
        ['completion', 'ref-test_prompt_with_arguments', 'success'],
        ['completion', 'test://template/{id}/data', 'success'],
        ['prompt', 'ref-test_prompt_with_arguments', 'success'],
        ['resource', 'test://static-binary', 'success'],
        ['resource', 'test://template/42/data', 'success'],
      ].sort(),
    );
    const promptRow = rows.find((r) => r.mcp_request_type === 'prompt');
    expect(promptRow).toMatchObject({ server_label: 'ref', arguments: { name: 'test_prompt_with_arguments' } });
    expect(promptRow.result.messages).toHaveLength(1);
  });

  it("relays the server's JSON-RPC errors as they are (code, message, data), logged as errors", async () => {
    const own = await connect('/mcp/ref', keyA.value);
    const missing = await own.readResource({ uri: 'test://nope' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(McpError);
    expect((missing as McpError).code).toBe(-32002);
    expect((missing as McpError).message).toBe('MCP error -32002: Resource not found: test://nope');
    expect((missing as McpError).data).toEqual({ uri: 'test://nope' });
    const unknown = await own.getPrompt({ name: 'nope' }).catch((e: unknown) => e);
    expect((unknown as McpError).message).toBe('MCP error -32602: Unknown prompt: nope');
    const rows = await toolLogs(admin, { tool_names: 'test://nope', status: 'error' }, 1);
    expect(rows[0]).toMatchObject({
      mcp_request_type: 'resource',
      error_details: { status_code: 502, error: { code: 'upstream_error' }, extra_fields: { jsonrpc_code: -32002 } },
    });
  });

  it("relays progress with the caller's token, and log lines at or above the session's level", async () => {
    const a = await connect('/mcp', keyA.value);
    const progress: Progress[] = [];
    const result = await a.request(
      { method: 'tools/call', params: { name: 'ref-test_tool_with_progress', arguments: {} } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p) },
    );
    expect(textOf(result)).toBe('Tool with progress executed successfully');
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [0, 100],
      [50, 100],
      [100, 100],
    ]);
    // The server got a progress token (the gateway's own, mapped back to the caller's).
    expect(reference.events.filter((e) => e.startsWith('progressToken:')).at(-1)).not.toBe('progressToken:undefined');

    const logs: LoggingMessageNotification['params'][] = [];
    a.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await a.setLoggingLevel('warning');
    await a.callTool({ name: 'ref-test_tool_with_logging', arguments: {} });
    expect(logs).toEqual([]);
    await a.setLoggingLevel('debug');
    await a.callTool({ name: 'ref-test_tool_with_logging', arguments: {} });
    expect(logs.map((l) => [l.level, l.data, l.logger])).toEqual([
      ['info', 'Tool execution started', 'ref'],
      ['info', 'Tool processing data', 'ref'],
      ['info', 'Tool execution completed', 'ref'],
    ]);
  });

  it('relays sampling, elicitation and roots to a caller that declared them, and refuses them for one that did not', async () => {
    const capable = await connect('/mcp/ref', keyA.value, {
      sampling: {},
      elicitation: { form: {} },
      roots: { listChanged: true },
    });
    capable.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      model: 'caller-model',
      content: { type: 'text', text: `echo of ${JSON.stringify(request.params.messages[0]?.content)}` },
    }));
    capable.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { response: 'yes' } }));
    capable.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    const sampled = await capable.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    expect(textOf(sampled)).toBe('LLM response: echo of {"type":"text","text":"hi"}');
    const elicited = await capable.callTool({ name: 'test_elicitation', arguments: { message: 'ok?' } });
    expect(textOf(elicited)).toBe('Elicitation completed: action=accept, content={"response":"yes"}');
    expect(textOf(await capable.callTool({ name: 'ask_roots', arguments: {} }))).toBe('file:///work');

    const plain = await connect('/mcp/ref', keyA.value);
    const refused = await plain.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      'The AI gateway cannot relay sampling/createMessage: its caller did not declare sampling',
    );
  });

  it('cancels the upstream call when the caller cancels its request', async () => {
    const a = await connect('/mcp', keyA.value);
    const controller = new AbortController();
    const call = a.callTool({ name: 'ref-slow', arguments: { ms: 20_000 } }, undefined, { signal: controller.signal });
    await until(() => false, 300);
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    expect(await until(() => reference.events.includes('cancelled:slow'))).toBe(true);
    const rows = await toolLogs(admin, { tool_names: 'ref-slow' }, 1);
    expect(rows[0]).toMatchObject({ mcp_request_type: 'tool', status: 'error' });
  });

  it("delivers subscribed resources' updates and unrelated log lines on the session's GET stream", async () => {
    const a = await connect('/mcp', keyA.value);
    const updates: string[] = [];
    const logs: LoggingMessageNotification['params'][] = [];
    a.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    a.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await a.subscribeResource({ uri: 'test://watched-resource' });
    expect(reference.events).toContain('subscribe:test://watched-resource');
    expect(await reference.notifyUpdated('test://watched-resource')).toBe(1);
    expect(await until(() => updates.length === 1)).toBe(true);
    expect(updates).toEqual(['test://watched-resource']);

    await a.callTool({ name: 'ref-log_unrelated', arguments: {} });
    expect(await until(() => logs.length === 1)).toBe(true);
    expect(logs[0]).toMatchObject({ level: 'warning', data: 'unrelated', logger: 'ref' });

    // The last interest gone, the gateway's connection unsubscribes: the server has no subscriber left.
    await a.unsubscribeResource({ uri: 'test://watched-resource' });
    expect(await until(() => reference.events.includes('unsubscribe:test://watched-resource'))).toBe(true);
    expect(await reference.notifyUpdated('test://watched-resource')).toBe(0);

    // Without a session there is no stream to deliver updates on.
    const raw = await gw.http.post(
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'test://watched-resource' } },
      {
        headers: {
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${keyA.value}`,
          'mcp-protocol-version': '2025-11-25',
        },
      },
    );
    expect(raw.body.error).toMatchObject({ code: ErrorCode.InvalidRequest });
  });
});
