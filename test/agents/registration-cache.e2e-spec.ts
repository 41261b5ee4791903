import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import {
  createVirtualKey,
  MGMT,
  registerAgent,
  rpc,
  SETUP_TOKEN,
  sql,
  wireMessage,
  type VirtualKey,
} from './data-plane-kit.js';

const send = (gw: TestApp, name: string, key: VirtualKey) =>
  gw.http.post(`/agents/a2a/${name}/jsonrpc`, rpc('SendMessage', { message: wireMessage('tck-message-response-c') }), {
    headers: { authorization: `Bearer ${key.value}` },
  });

/**
 * The data plane reads agent registrations from memory, not the database: a row changed behind the gateway's back is
 * not seen, while a change through the API is seen at once (and, with Redis, by every replica).
 */
describe(`agent registrations on the request path (${RUN_MODE})`, () => {
  let gw: TestApp;
  let agent: A2aAgent;
  let key: VirtualKey;

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    agent = await startA2aAgent();
    key = await createVirtualKey(gw, 'cache-key');
    await registerAgent(gw, { name: 'cached', agent_card_url: agent.cardUrl, allow_by_default: true });
  });

  afterAll(async () => {
    await gw?.close();
    await agent?.close();
  });

  it('serves calls from the cached registration; API writes invalidate it', async () => {
    expect((await send(gw, 'cached', key)).status).toBe(200);
    // Behind the gateway's back: the data plane keeps using what it read, proving it does not query per call.
    await sql(gw, 'UPDATE agents SET enabled = false WHERE name = $1', ['cached']);
    expect((await send(gw, 'cached', key)).status).toBe(200);

    // Through the API: seen by the very next call.
    const put = await gw.http.put('/api/agents/cached', { agent_card_url: agent.cardUrl, enabled: false }, MGMT);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const off = await send(gw, 'cached', key);
    expect(off.status).toBe(404);
    expect(off.body.error.code).toBe('agent_not_found');

    const on = await gw.http.put(
      '/api/agents/cached',
      { agent_card_url: agent.cardUrl, enabled: true, allow_by_default: true },
      MGMT,
    );
    expect(on.status).toBe(200);
    expect((await send(gw, 'cached', key)).status).toBe(200);

    expect((await gw.http.delete('/api/agents/cached', MGMT)).status).toBe(204);
    expect((await send(gw, 'cached', key)).status).toBe(404);
  });

  it('an unknown name is remembered briefly, and registering it is seen at once', async () => {
    expect((await send(gw, 'late', key)).status).toBe(404);
    await registerAgent(gw, { name: 'late', agent_card_url: agent.cardUrl, allow_by_default: true });
    expect((await send(gw, 'late', key)).status).toBe(200);
  });
});

describe.skipIf(!TEST_REDIS_URL || RUN_MODE !== 'postgres')(`agent registrations across replicas (${RUN_MODE})`, () => {
  let first: TestApp;
  let second: TestApp;
  let agent: A2aAgent;
  let key: VirtualKey;

  beforeAll(async () => {
    first = await startTestApp({ config: { setup_token: SETUP_TOKEN }, keepDatabase: true });
    second = await startTestApp({
      config: { setup_token: SETUP_TOKEN },
      databaseUrl: first.databaseUrl,
      redisPrefix: first.config.redis_prefix,
    });
    agent = await startA2aAgent();
    key = await createVirtualKey(first, 'replica-key');
    await registerAgent(first, { name: 'shared', agent_card_url: agent.cardUrl, allow_by_default: true });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await agent?.close();
  });

  it('a change on one replica is seen by the other within moments', async () => {
    expect((await send(second, 'shared', key)).status).toBe(200);
    const put = await first.http.put('/api/agents/shared', { agent_card_url: agent.cardUrl, enabled: false }, MGMT);
    expect(put.status).toBe(200);
    // The second replica cached the registration for minutes; only the Redis message can refuse it this soon.
    await vi.waitFor(async () => expect((await send(second, 'shared', key)).status).toBe(404), {
      timeout: 2000,
      interval: 25,
    });
  });
});
