import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { SETUP_TOKEN } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** A gateway that may reach loopback MCP peers, with its management client (setup token). */
export async function startMcpGateway(
  config: Record<string, unknown> = {},
): Promise<{ gw: TestApp; admin: HttpClient }> {
  const gw = await startTestApp({
    config: { setup_token: SETUP_TOKEN, outbound: { allow_loopback: true }, ...config },
  });
  return { gw, admin: gw.http.withHeaders({ 'X-Gateway-Setup-Token': SETUP_TOKEN }) };
}

export async function createVirtualKey(admin: HttpClient, name: string): Promise<{ id: string; value: string }> {
  const res = await admin.post('/api/governance/virtual-keys', { name });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.virtual_key.id as string, value: res.body.virtual_key.value as string };
}

/** Registers an MCP client (connected at once); answers its id. */
export async function createMcpClient(admin: HttpClient, body: Record<string, unknown>): Promise<string> {
  const res = await admin.post('/api/mcp/client', { connection_type: 'http', ...body });
  expect(res.status, res.text).toBe(201);
  expect(res.body.client.state).toBe('connected');
  return res.body.client.id as string;
}

/** An SDK client connected to the gateway's `/mcp` (or `/mcp/{client}`) with a virtual key. */
export async function connectGatewayMcp(baseUrl: string, path: string, key?: string): Promise<Client> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(path, baseUrl), { requestInit: { headers } });
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Tool log rows of `/api/mcp-logs` for a query, once `count` of them are written (the writer batches). */
export async function toolLogs(admin: HttpClient, query: Record<string, string>, count: number): Promise<any[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await admin.get('/api/mcp-logs', { query: { ...query, limit: 1000 } });
    expect(res.status, res.text).toBe(200);
    const done = (res.body.logs as any[]).filter((l) => l.status !== 'processing');
    if (done.length >= count || Date.now() > deadline) return done;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 25 ms until it holds or `ms` pass; its last answer. */
export async function until(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(25);
  return check();
}
