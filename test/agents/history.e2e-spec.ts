import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  userMessage,
  wireMessage,
  type VirtualKey,
} from './data-plane-kit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe(`agents history (${RUN_MODE})`, () => {
  let gw: TestApp;
  let upstream: A2aAgent;
  let a: VirtualKey;
  let b: VirtualKey;
  let sentTaskId = '';
  let streamTaskId = '';
  let startedAt = '';

  const history = (query: Record<string, string | number> = {}) =>
    gw.http.get('/api/agents/history', { ...MGMT, query });

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    upstream = await startA2aAgent();
    a = await createVirtualKey(gw, 'hist-a');
    b = await createVirtualKey(gw, 'hist-b');
    await registerAgent(gw, { name: 'hist', agent_card_url: upstream.cardUrl, allow_by_default: true });
    await registerAgent(gw, { name: 'hist2', agent_card_url: upstream.cardUrl, allow_by_default: true });
    await registerAgent(gw, { name: 'closed', agent_card_url: upstream.cardUrl });
    startedAt = new Date(Date.now() - 1000).toISOString();

    // One of each: card, unary send (JSON-RPC), stream (JSON-RPC), get (REST), an upstream error, another agent.
    const client = await a2aClient(gw, 'hist', a.value, 'JSONRPC');
    const task = (await client.sendMessage(
      userMessage('tck-complete-task-hist', 'history', {
        metadata: { api_key: 'sk-should-not-be-stored', note: 'kept' },
      }),
    )) as any;
    sentTaskId = task.id;
    for await (const event of client.sendMessageStream(userMessage('tck-stream-001-hist'))) {
      if (event.payload?.$case === 'task') streamTaskId = event.payload.value.id;
    }
    const rest = await a2aClient(gw, 'hist', b.value, 'HTTP+JSON');
    await rest.getTask({ id: sentTaskId, tenant: '' });
    await gw.http.post('/agents/a2a/hist/jsonrpc', rpc('GetTask', { id: 'missing-task' }), {
      headers: { authorization: `Bearer ${b.value}` },
    });
    // Refused: key not granted.
    await gw.http.post('/agents/a2a/closed/jsonrpc', rpc('GetTask', { id: 'x' }), {
      headers: { authorization: `Bearer ${a.value}` },
    });
    await gw.http.post(
      '/agents/a2a/hist2/jsonrpc',
      rpc('SendMessage', { message: wireMessage('tck-message-response-2') }),
      {
        headers: { authorization: `Bearer ${b.value}` },
      },
    );
  });
  afterAll(async () => {
    await upstream?.close();
    await gw?.close();
  });

  it('records every operation with caller, task, state, status and latency', async () => {
    const res = await eventually(
      () => history({ agent_names: 'hist', limit: 1000 }),
      (r) => r.body?.history?.some((h: any) => h.operation === 'SendStreamingMessage'),
    );
    expect(res.status, res.text).toBe(200);
    const rows = res.body.history as any[];
    expect(res.body.count).toBe(rows.length);
    expect(res.body.pagination).toEqual({
      total_count: rows.length,
      limit: 1000,
      offset: 0,
      sort_by: 'created_at',
      order: 'desc',
    });
    const ops = rows.map((r) => r.operation);
    for (const op of ['GetAgentCard', 'SendMessage', 'SendStreamingMessage', 'StreamEvent', 'GetTask']) {
      expect(ops, op).toContain(op);
    }
    const send = rows.find((r) => r.operation === 'SendMessage')!;
    expect(send).toMatchObject({
      agent_name: 'hist',
      protocol_binding: 'JSONRPC',
      virtual_key_id: a.id,
      task_id: sentTaskId,
      task_state: 'TASK_STATE_COMPLETED',
      status: 'success',
      status_code: 200,
      parent_id: null,
    });
    expect(send.id).toMatch(UUID);
    expect(send.latency_ms).toBeGreaterThanOrEqual(0);
    expect(send.created_at).toMatch(/Z$/);
    expect(send.request_payload.params.metadata).toEqual({ api_key: '<REDACTED>', note: 'kept' });
    expect(send.response_payload.result.task.id).toBe(sentTaskId);
    expect(JSON.stringify(res.body)).not.toContain('sk-should-not-be-stored');

    const restGet = rows.find((r) => r.operation === 'GetTask' && r.protocol_binding === 'HTTP+JSON')!;
    expect(restGet).toMatchObject({ virtual_key_id: b.id, task_id: sentTaskId, status: 'success' });
    const failed = rows.find((r) => r.operation === 'GetTask' && r.status === 'error')!;
    expect(failed.task_id).toBe('missing-task');
    expect(failed.error.code).toBe(-32001);

    const stream = rows.find((r) => r.operation === 'SendStreamingMessage')!;
    expect(stream).toMatchObject({ task_id: streamTaskId, task_state: 'TASK_STATE_COMPLETED', status: 'success' });
    const children = rows.filter((r) => r.parent_id === stream.id);
    expect(children).toHaveLength(6);
    expect(children.every((c) => c.operation === 'StreamEvent' && c.task_id === streamTaskId)).toBe(true);

    // Newest first.
    const times = rows.map((r) => Date.parse(r.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it('records refused calls of a known key', async () => {
    const res = await history({ agent_names: 'closed' });
    expect(res.body.history).toHaveLength(1);
    expect(res.body.history[0]).toMatchObject({
      operation: 'GetTask',
      protocol_binding: 'JSONRPC',
      virtual_key_id: a.id,
      status: 'error',
      status_code: 403,
    });
    expect(res.body.history[0].error.error.code).toBe('permission_denied');
  });

  it('stores the rows in agent_operations', async () => {
    const rows = await sql(
      gw,
      `SELECT operation, status, status_code, virtual_key_id, task_state FROM agent_operations
        WHERE agent_name = 'hist' AND task_id = $1 AND parent_id IS NULL ORDER BY created_at`,
      [sentTaskId],
    );
    expect(rows.map((r) => r.operation)).toEqual(['SendMessage', 'GetTask']);
    expect(rows[0]).toMatchObject({ status: 'success', status_code: 200, virtual_key_id: a.id });
    const raw = await sql(gw, `SELECT request_payload::text AS p FROM agent_operations WHERE task_id = $1`, [
      sentTaskId,
    ]);
    expect(raw.map((r) => r.p).join()).not.toContain('sk-should-not-be-stored');
  });

  it('filters by agent, operation, status, virtual key, task and time', async () => {
    const byAgent = await history({ agent_names: 'hist2' });
    expect(byAgent.body.history.length).toBeGreaterThan(0);
    expect(byAgent.body.history.every((h: any) => h.agent_name === 'hist2')).toBe(true);

    const byOps = await history({ operations: 'SendMessage,GetTask', agent_names: 'hist,hist2' });
    expect(new Set(byOps.body.history.map((h: any) => h.operation))).toEqual(new Set(['SendMessage', 'GetTask']));

    const errors = await history({ statuses: 'error' });
    expect(errors.body.history.length).toBeGreaterThan(0);
    expect(errors.body.history.every((h: any) => h.status === 'error')).toBe(true);

    const byKey = await history({ virtual_key_ids: b.id });
    expect(byKey.body.history.length).toBeGreaterThanOrEqual(3);
    expect(byKey.body.history.every((h: any) => h.virtual_key_id === b.id)).toBe(true);

    const byTask = await history({ task_id: streamTaskId });
    expect(byTask.body.history.length).toBeGreaterThanOrEqual(7);

    const future = await history({ start_time: '2099-01-01T00:00:00Z' });
    expect(future.body.history).toEqual([]);
    const window = await history({ start_time: startedAt, end_time: new Date(Date.now() + 60_000).toISOString() });
    expect(window.body.pagination.total_count).toBeGreaterThan(0);

    const paged = await history({ limit: 2, offset: 1 });
    expect(paged.body.history).toHaveLength(2);
    expect(paged.body.pagination).toMatchObject({ limit: 2, offset: 1 });
  });

  it('rejects bad query values naming the parameter', async () => {
    for (const [query, param] of [
      [{ start_time: 'yesterday' }, 'start_time'],
      [{ end_time: '2026-13-01T00:00:00Z' }, 'end_time'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 1001 }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ statuses: 'success,bogus' }, 'statuses'],
    ] as const) {
      const res = await history(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.param).toBe(param);
      expect(res.body.extra_fields.a2a_request_type).toBeUndefined();
    }
  });

  it('gets one operation by id; unknown ids are 404 agent_operation_not_found', async () => {
    const list = await history({ operations: 'SendMessage', agent_names: 'hist' });
    const id = list.body.history[0].id as string;
    const one = await gw.http.get(`/api/agents/history/${id}`, MGMT);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(id);
    const missing = await gw.http.get('/api/agents/history/6c1d3c4e-0000-4000-8000-000000000000', MGMT);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('agent_operation_not_found');
    expect(missing.body.extra_fields.a2a_request_type).toBeUndefined();
    expect((await gw.http.get('/api/agents/history')).status).toBe(401);
  });
});
