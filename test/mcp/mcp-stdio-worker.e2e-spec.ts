import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpConnection } from '../../src/modules/mcp/clients/mcp-connection.js';
import { McpConnectionRegistry } from '../../src/modules/mcp/clients/mcp-connection.registry.js';
import { WorkerRoutedConnection } from '../../src/modules/mcp/clients/stdio/worker-routed-connection.js';
import { SETUP_TOKEN } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { stdioPeerCommand } from './mcp-peers.js';
import { connectGatewayMcp, createVirtualKey, toolLogs } from './mcp-server-kit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await sleep(50);
  return check();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/**
 * An `api` replica and a `worker` replica on one Postgres and one Redis: only the worker spawns the stdio server
 * (each child writes its pid to PID_DIR); the api replica lists its tools from the worker's report and sends its
 * calls, checks and refreshes to the worker through the queue.
 */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('stdio MCP clients run on the worker role only', () => {
  let worker: TestApp;
  let api: TestApp;
  let admin: HttpClient;
  let mcp: Client | undefined;
  let clientId: string;
  const pidDir = mkdtempSync(join(tmpdir(), 'gw-stdio-pids-'));
  const spawned = () => readdirSync(pidDir).map(Number);
  // One encryption key for both: the worker decrypts the envs the api replica sealed.
  const config = {
    setup_token: SETUP_TOKEN,
    outbound: { allow_loopback: true },
    encryption_key: randomBytes(32).toString('base64'),
  };

  beforeAll(async () => {
    worker = await startTestApp({ config: { ...config, role: 'worker' }, keepDatabase: true });
    api = await startTestApp({
      config: { ...config, role: 'api' },
      databaseUrl: worker.databaseUrl,
      redisPrefix: worker.config.redis_prefix,
    });
    admin = api.http.withHeaders({ 'X-Gateway-Setup-Token': SETUP_TOKEN });
  });

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    await worker?.close();
    await api?.close();
  });

  it('creates through the api replica: the check and the kept child both run on the worker', async () => {
    const res = await admin.post('/api/mcp/client', {
      name: 'local',
      connection_type: 'stdio',
      stdio_config: { ...stdioPeerCommand(), envs: { PID_DIR: pidDir } },
      allow_on_all_virtual_keys: true,
      tool_execution_timeout: 1,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.client.state).toBe('connected');
    expect(res.body.client.tools.map((t: { name: string }) => t.name)).toEqual([
      'add',
      'echo',
      'env',
      'fail',
      'pid',
      'slow',
    ]);
    clientId = res.body.client.id as string;

    const onWorker = () => worker.app.get(McpConnectionRegistry).connectionOf(clientId);
    expect(await until(() => onWorker()?.state === 'connected')).toBe(true);
    const workerChild = (onWorker() as McpConnection).pid!;
    expect(workerChild).toBeGreaterThan(0);
    // The api replica holds no child of its own: a connection routed to the worker.
    const onApi = api.app.get(McpConnectionRegistry).connectionOf(clientId);
    expect(onApi).toBeInstanceOf(WorkerRoutedConnection);
    // Two children in all (the create check, stopped, and the worker's kept one), one alive: the worker's.
    expect(await until(() => spawned().filter(alive).length === 1)).toBe(true);
    expect(spawned()).toHaveLength(2);
    expect(spawned().filter(alive)).toEqual([workerChild]);
  });

  it("shows the worker's state and tools on the api replica", async () => {
    // The worker reports once its child answers; the api replica reads the report when told (invalidation bus).
    const view = () => admin.get(`/api/mcp/client/${clientId}`);
    expect(await until(async () => (await view()).body.client?.state === 'connected')).toBe(true);
    const seen = await view();
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.client).toMatchObject({ state: 'connected', last_error: null });
    expect(seen.body.client.tools).toHaveLength(6);
    const listed = await admin.get('/api/mcp/clients', { query: { state: 'connected' } });
    expect(listed.body.clients.map((c: { name: string }) => c.name)).toEqual(['local']);
  });

  it('runs /mcp tools/call through the api replica on the worker, logged on the api replica', async () => {
    const key = await createVirtualKey(admin, 'stdio-caller');
    mcp = await connectGatewayMcp(api.baseUrl, '/mcp', key.value);
    const tools = (await mcp.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(['local-add', 'local-echo', 'local-env', 'local-fail', 'local-pid', 'local-slow']);

    const workerChild = (worker.app.get(McpConnectionRegistry).connectionOf(clientId) as McpConnection).pid;
    const pid = (await mcp.callTool({ name: 'local-pid', arguments: {} })) as CallToolResult;
    expect(Number(textOf(pid))).toBe(workerChild);
    const echo = (await mcp.callTool({ name: 'local-echo', arguments: { text: 'via the worker' } })) as CallToolResult;
    expect(echo.isError).toBeFalsy();
    expect(textOf(echo)).toBe('via the worker');
    const env = (await mcp.callTool({ name: 'local-env', arguments: { name: 'PID_DIR' } })) as CallToolResult;
    expect(textOf(env)).toBe(pidDir);
    const calls = worker.logs.records().filter((l) => l.msg === 'mcp stdio call');
    expect(calls.map((l) => l.tool)).toEqual(['pid', 'echo', 'env']);
    expect(api.logs.records().some((l) => l.msg === 'mcp stdio call')).toBe(false);
    // Arguments are the tool log's, never the worker's log lines.
    expect(JSON.stringify(calls)).not.toContain('via the worker');

    const rows = await toolLogs(admin, { tool_names: 'local-echo' }, 1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'success',
      server_label: 'local',
      virtual_key_id: key.id,
      arguments: { text: 'via the worker' },
    });
    expect(rows[0].result.content[0].text).toBe('via the worker');
  });

  it("keeps the client's timeout, failures and their log rows", async () => {
    const slow = (await mcp!.callTool({ name: 'local-slow', arguments: { ms: 3_000 } })) as CallToolResult;
    expect(slow.isError).toBe(true);
    expect(textOf(slow)).toMatch(/timed out after 1000 ms/);
    const [row] = await toolLogs(admin, { tool_names: 'local-slow' }, 1);
    expect(row).toMatchObject({ status: 'error', error_details: { error: { code: 'upstream_timeout' } } });
    expect(row.latency).toBeGreaterThanOrEqual(900);
    expect(row.latency).toBeLessThan(4_000);

    const fail = (await mcp!.callTool({ name: 'local-fail', arguments: {} })) as CallToolResult;
    expect(fail.isError).toBe(true);
    expect(textOf(fail)).toBe('this tool failed');
    const [failed] = await toolLogs(admin, { tool_names: 'local-fail' }, 1);
    expect(failed).toMatchObject({ status: 'error', result: { isError: true } });
  });

  it('refreshes through the worker and refuses a broken command with 400 (nothing saved)', async () => {
    const refreshed = await admin.post(`/api/mcp/client/${clientId}/refresh-tools`);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.tool_count).toBe(6);

    const broken = await admin.post('/api/mcp/client', {
      name: 'broken',
      connection_type: 'stdio',
      stdio_config: { command: join(pidDir, 'no-such-command') },
    });
    expect(broken.status, broken.text).toBe(400);
    expect(broken.body.error.param).toBe('stdio_config');
    expect((await admin.get('/api/mcp/clients', { query: { search: 'broken' } })).body.total_count).toBe(0);
  });

  it('deleting through the api replica stops the worker child', async () => {
    const workerChild = (worker.app.get(McpConnectionRegistry).connectionOf(clientId) as McpConnection).pid!;
    expect((await admin.delete(`/api/mcp/client/${clientId}`)).status).toBe(200);
    expect(await until(() => !alive(workerChild))).toBe(true);
    expect(spawned()).toHaveLength(2);
  });
});
