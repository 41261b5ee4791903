import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  a2aClient,
  createVirtualKey,
  eventually,
  MGMT,
  registerAgent,
  rpc,
  SETUP_TOKEN,
  sql,
  startPushReceiver,
  userMessage,
  type PushReceiver,
  type VirtualKey,
} from './data-plane-kit.js';

const pushConfig = (url: string, extra: Record<string, unknown> = {}) => ({
  tenant: '',
  id: '',
  taskId: '',
  url,
  token: 'client-token',
  authentication: undefined,
  ...extra,
});

describe(`agents push relay (${RUN_MODE})`, () => {
  let gw: TestApp;
  let upstream: A2aAgent;
  let receiver: PushReceiver;
  let vk: VirtualKey;

  const callbackPrefix = () => `${gw.baseUrl}/agents/a2a/pusher/push?config=`;

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    upstream = await startA2aAgent();
    receiver = await startPushReceiver();
    vk = await createVirtualKey(gw, 'push-key');
    await registerAgent(gw, {
      name: 'pusher',
      agent_card_url: upstream.cardUrl,
      virtual_key_ids: [vk.id],
      runtime_auth: { type: 'headers', headers: { 'X-Upstream-Key': 'k1' } },
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await upstream?.close();
    await gw?.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    upstream.reset();
  });

  it('relays the upstream pushes of a SendMessage config to the client webhook with the client token', async () => {
    const client = await a2aClient(gw, 'pusher', vk.value, 'JSONRPC');
    const task = (await client.sendMessage({
      ...userMessage('tck-complete-task-push', 'push me'),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: pushConfig(receiver.url),
        historyLength: undefined,
        returnImmediately: false,
      },
    })) as any;
    expect(task.status.state).toBe(3);

    // The upstream only ever saw the gateway's callback and a gateway-minted token.
    const sentUpstream = JSON.stringify(upstream.protocolRequests().map((r) => r.body));
    expect(sentUpstream).not.toContain(receiver.url);
    expect(sentUpstream).not.toContain('client-token');
    await eventually(
      () => Promise.resolve(upstream.received.pushes.length),
      (n) => n >= 4,
    );
    const pushes = upstream.received.pushes;
    for (const p of pushes) {
      expect(p.url.startsWith(callbackPrefix())).toBe(true);
      expect(p.token).toBeTruthy();
      expect(p.token).not.toBe('client-token');
      expect(p.authentication).toEqual({ scheme: 'Bearer', credentials: p.token });
    }

    const got = await receiver.waitFor((all) => all.length >= pushes.length);
    expect(got).toHaveLength(pushes.length);
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/a2a+json');
      expect(r.headers['x-a2a-notification-token']).toBe('client-token');
      expect(r.headers.authorization).toBeUndefined();
    }
    const sorted = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).sort();
    expect(sorted(got.map((r) => r.body))).toEqual(sorted(pushes.map((p) => p.event)));

    // Get and List are answered from the gateway's store, with the client's own values.
    const configs = await client.listTaskPushNotificationConfig({
      taskId: task.id,
      tenant: '',
      pageSize: 0,
      pageToken: '',
    });
    expect(configs.configs).toHaveLength(1);
    const cfg = configs.configs[0]!;
    expect(cfg).toMatchObject({ taskId: task.id, url: receiver.url, token: 'client-token' });
    const one = await client.getTaskPushNotificationConfig({ taskId: task.id, id: cfg.id, tenant: '' });
    expect(one.url).toBe(receiver.url);

    const rows = await sql(gw, `SELECT * FROM agent_push_configs WHERE task_id = $1`, [task.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].client_url).not.toContain('127.0.0.1');
    expect(rows[0].client_token).not.toContain('client-token');
    expect(rows[0].gateway_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].virtual_key_id).toBe(vk.id);

    const mgmt = await gw.http.get('/api/agents/push-configs', {
      ...MGMT,
      query: { agent_name: 'pusher', task_id: task.id },
    });
    expect(mgmt.status).toBe(200);
    expect(mgmt.body.count).toBe(1);
    expect(mgmt.body.pagination.total_count).toBe(1);
    expect(mgmt.body.push_configs[0]).toMatchObject({ agent_name: 'pusher', task_id: task.id, token: '<REDACTED>' });
    expect(JSON.stringify(mgmt.body)).not.toContain('client-token');
    expect(gw.logs.text()).not.toContain('client-token');
  });

  it('checks the per-config token and the task id; duplicates are acknowledged but not re-delivered', async () => {
    const client = await a2aClient(gw, 'pusher', vk.value, 'HTTP+JSON');
    const task = (await client.sendMessage({
      ...userMessage('tck-input-required-dedupe'),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: pushConfig(receiver.url),
        historyLength: undefined,
        returnImmediately: false,
      },
    })) as any;
    await eventually(
      () => Promise.resolve(upstream.received.pushes.length),
      (n) => n >= 2,
    );
    const { url, token } = upstream.received.pushes[0]!;
    await receiver.waitFor((all) => all.length >= 2);
    receiver.received.length = 0;

    const event = {
      statusUpdate: {
        taskId: task.id,
        contextId: task.contextId,
        status: { state: 'TASK_STATE_WORKING', timestamp: '2026-11-21T00:00:00Z' },
      },
    };
    const post = (body: unknown, headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/a2a+json', ...headers },
        body: JSON.stringify(body),
      });

    expect((await post(event, {})).status).toBe(401);
    expect((await post(event, { authorization: 'Bearer wrong' })).status).toBe(401);
    const otherTask = { statusUpdate: { ...event.statusUpdate, taskId: 'another-task' } };
    const mismatch = await post(otherTask, { authorization: `Bearer ${token}` });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as any).error.code).toBe('task_id_mismatch');

    const first = await post(event, { 'x-a2a-notification-token': token! });
    expect(first.status).toBe(200);
    expect(((await first.json()) as any).status).toBe('accepted');
    const again = await post(event, { 'a2a-notification-token': token! });
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).status).toBe('duplicate');
    await receiver.waitFor((all) => all.length >= 1);
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toEqual(event);
  });

  it('retries the re-delivery with backoff when the client webhook fails', async () => {
    const client = await a2aClient(gw, 'pusher', vk.value, 'JSONRPC');
    const task = (await client.sendMessage(userMessage('tck-input-required-retry'))) as any;
    // A config created on an existing task (CreateTaskPushNotificationConfig), with the client's own auth.
    const created = await client.createTaskPushNotificationConfig({
      ...pushConfig(receiver.url, { token: '' }),
      taskId: task.id,
      id: 'client-cfg-1',
      authentication: { scheme: 'Basic', credentials: 'Y2xpZW50OnB3' },
    });
    expect(created).toMatchObject({ id: 'client-cfg-1', taskId: task.id, url: receiver.url });

    receiver.failNext(1);
    const canceled = await client.cancelTask({ id: task.id, tenant: '', metadata: undefined });
    expect(canceled.status?.state).toBe(5);
    const got = await receiver.waitFor((all) => all.some((r) => r.status === 200), 15_000);
    expect(got[0]!.status).toBe(503);
    expect(got.find((r) => r.status === 200)!.body).toEqual(got[0]!.body);
    for (const r of got) expect(r.headers.authorization).toBe('Basic Y2xpZW50OnB3');

    const attempts = await eventually(
      () =>
        sql(
          gw,
          `SELECT d.status, d.status_code, p.operation AS parent_operation FROM agent_operations d
             JOIN agent_operations p ON p.id = d.parent_id
            WHERE d.operation = 'PushDelivery' AND d.task_id = $1 ORDER BY d.created_at`,
          [task.id],
        ),
      (rows) => rows.length >= 2,
    );
    expect(attempts.map((a) => [a.status, a.status_code])).toEqual([
      ['error', 503],
      ['success', 200],
    ]);
    expect(attempts[0].parent_operation).toBe('PushNotification');
    const events = await sql(
      gw,
      `SELECT e.status, e.attempts FROM agent_push_events e
      JOIN agent_push_configs c ON c.id = e.push_config_id WHERE c.config_id = 'client-cfg-1'`,
    );
    expect(events).toEqual([{ status: 'delivered', attempts: 2 }]);

    // Delete removes the config in the gateway and upstream.
    await client.deleteTaskPushNotificationConfig({ taskId: task.id, id: 'client-cfg-1', tenant: '' });
    expect(await sql(gw, `SELECT 1 FROM agent_push_configs WHERE config_id = 'client-cfg-1'`)).toHaveLength(0);
    const upstreamList = await fetch(upstream.jsonrpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify(rpc('ListTaskPushNotificationConfigs', { taskId: task.id })),
    });
    expect(((await upstreamList.json()) as any).result.configs ?? []).toHaveLength(0);
  });

  it('management DELETE removes a config (204, then 404)', async () => {
    const client = await a2aClient(gw, 'pusher', vk.value, 'HTTP+JSON');
    const task = (await client.sendMessage(userMessage('tck-input-required-mgmt'))) as any;
    await client.createTaskPushNotificationConfig({ ...pushConfig(receiver.url), taskId: task.id, id: 'mgmt-cfg' });
    const path = `/api/agents/push-configs/pusher/${task.id}/mgmt-cfg`;
    expect((await gw.http.delete(path, MGMT)).status).toBe(204);
    const again = await gw.http.delete(path, MGMT);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('push_config_not_found');
    expect(again.body.extra_fields).toMatchObject({ a2a_agent_name: 'pusher' });
    // Registration and push-config management are no A2A v1 operations.
    expect(again.body.extra_fields.a2a_request_type).toBeUndefined();
    expect((await gw.http.delete(path)).status).toBe(401);
    const bad = await gw.http.get('/api/agents/push-configs', { ...MGMT, query: { limit: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('limit');
  });
});
