import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolCatalog } from '../../src/modules/mcp/mcp-contract.js';
import { OSS_CONFIG, ossClient } from '../governance/governance-test-kit.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { startHttpPeer, type McpPeer } from './mcp-peers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(50);
  return check();
}

/** Two replicas on one database and one Redis: each holds its own connections; changes reach both. */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('MCP clients across two replicas', () => {
  let a: TestApp;
  let b: TestApp;
  let peer: McpPeer;

  beforeAll(async () => {
    peer = await startHttpPeer();
    a = await startTestApp({ config: OSS_CONFIG, keepDatabase: true });
    b = await startTestApp({ config: OSS_CONFIG, databaseUrl: a.databaseUrl, redisPrefix: a.config.redis_prefix });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await peer?.close();
  });

  it('connects on every replica, refreshes and forgets everywhere', async () => {
    const created = await ossClient(a).post('/api/mcp/client', {
      name: 'shared',
      connection_type: 'http',
      connection_string: peer.url,
      allow_on_all_virtual_keys: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.client.id as string;
    const catalogB = b.app.get(McpToolCatalog);
    const namesB = () => (catalogB.toolsFor({}) as readonly { name: string }[]).map((t) => t.name);
    expect(await until(() => namesB().includes('shared-echo'))).toBe(true);
    const onB = await ossClient(b).get(`/api/mcp/client/${id}`);
    expect(onB.body.client.state).toBe('connected');

    await ossClient(a).put(`/api/mcp/client/${id}`, { tools_to_execute: ['add'] });
    expect(await until(() => namesB().join() === 'shared-add')).toBe(true);

    peer.addTool('late');
    await ossClient(a).put(`/api/mcp/client/${id}`, { tools_to_execute: ['*'] });
    expect((await ossClient(a).post(`/api/mcp/client/${id}/refresh-tools`)).body.tool_count).toBe(5);
    expect(await until(() => namesB().includes('shared-late'))).toBe(true);

    await ossClient(a).delete(`/api/mcp/client/${id}`);
    expect(await until(() => namesB().length === 0)).toBe(true);
  });

  it('a replica started later connects to the existing clients', async () => {
    const created = await ossClient(a).post('/api/mcp/client', {
      name: 'early',
      connection_type: 'http',
      connection_string: peer.url,
      allow_on_all_virtual_keys: true,
    });
    expect(created.status).toBe(201);
    const c = await startTestApp({
      config: OSS_CONFIG,
      databaseUrl: a.databaseUrl,
      redisPrefix: a.config.redis_prefix,
      keepDatabase: true,
    });
    try {
      const catalogC = c.app.get(McpToolCatalog);
      expect(
        await until(() => (catalogC.toolsFor({}) as readonly { name: string }[]).some((t) => t.name === 'early-echo')),
      ).toBe(true);
    } finally {
      await c.close();
    }
  });
});
