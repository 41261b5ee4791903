import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAM_EVENT_CHARS, MAX_STREAM_EVENTS } from '../../src/modules/agents/data-plane/stream-events.js';
import { startA2aAgent, type A2aAgent, STREAM_001_EVENT_KINDS } from '../helpers/a2a-agent.js';
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
import { startCardServer, v1Card, type CardServer } from './agents-test-kit.js';

/** One streamed JSON-RPC event (a status update) numbered `i`, padded to make it big. */
function statusEvent(i: number, pad: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 'long',
    result: {
      statusUpdate: {
        taskId: 'long-task',
        contextId: 'long-context',
        status: { state: 'TASK_STATE_WORKING' },
        metadata: { i, pad: 'x'.repeat(pad) },
      },
    },
  });
}

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
    for (const op of ['GetAgentCard', 'SendMessage', 'SendStreamingMessage', 'GetTask']) {
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

    // A stream is ONE row: its events are aggregated in response_payload, in order; no child rows.
    const streams = rows.filter((r) => r.operation === 'SendStreamingMessage');
    expect(streams).toHaveLength(1);
    const stream = streams[0]!;
    expect(stream).toMatchObject({
      protocol_binding: 'JSONRPC',
      virtual_key_id: a.id,
      task_id: streamTaskId,
      task_state: 'TASK_STATE_COMPLETED',
      status: 'success',
      status_code: 200,
      parent_id: null,
      error: null,
    });
    expect(stream.request_payload.method).toBe('SendStreamingMessage');
    expect(rows.filter((r) => r.parent_id === stream.id)).toEqual([]);
    expect(ops).not.toContain('StreamEvent');
    expect(Object.keys(stream.response_payload).sort()).toEqual(['client_closed', 'event_count', 'events']);
    expect(stream.response_payload).toMatchObject({ event_count: 6, client_closed: false });
    const events = stream.response_payload.events as any[];
    expect(events.map((e) => Object.keys(e.result)[0])).toEqual([...STREAM_001_EVENT_KINDS]);
    expect(events.every((e) => e.jsonrpc === '2.0')).toBe(true);
    expect(events[0].result.task.id).toBe(streamTaskId);
    expect(events[2].result.artifactUpdate.artifact.parts[0].text).toBe('echo: hello [1]');
    expect(events[5].result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');

    // Newest first.
    const times = rows.map((r) => Date.parse(r.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  describe('a long stream', () => {
    let server: CardServer;
    const scenario = { count: 0, pad: 0 };

    beforeAll(async () => {
      // A hand-written upstream: the SDK agent never streams a thousand events.
      server = await startCardServer((req, res) => {
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v1Card(server.url)));
          return;
        }
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (let i = 0; i < scenario.count; i++) res.write(`data: ${statusEvent(i, scenario.pad)}\n\n`);
          res.end();
        });
      });
      await registerAgent(gw, { name: 'long', agent_card_url: server.cardUrl, allow_by_default: true });
    });
    afterAll(async () => {
      await server?.close();
    });

    async function streamRow(messageId: string): Promise<any> {
      const res = await fetch(`${gw.baseUrl}/agents/a2a/long/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${a.value}` },
        body: JSON.stringify(rpc('SendStreamingMessage', { message: wireMessage(messageId) }, 'long')),
      });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await res.text();
      expect(text.match(/^data: /gm)).toHaveLength(scenario.count);
      const list = await history({ agent_names: 'long', operations: 'SendStreamingMessage', limit: 1000 });
      const mine = list.body.history.filter((h: any) => h.request_payload.params.message.messageId === messageId);
      expect(mine).toHaveLength(1);
      return mine[0];
    }

    it(`keeps the first ${MAX_STREAM_EVENTS} events and counts the rest`, async () => {
      scenario.count = MAX_STREAM_EVENTS + 234;
      scenario.pad = 10;
      const row = await streamRow('long-by-count');
      expect(row).toMatchObject({ task_id: 'long-task', context_id: 'long-context', status: 'success' });
      const payload = row.response_payload;
      expect(payload).toMatchObject({
        event_count: MAX_STREAM_EVENTS + 234,
        truncated_events: 234,
        client_closed: false,
      });
      expect(payload.events.map((e: any) => e.result.statusUpdate.metadata.i)).toEqual(
        Array.from({ length: MAX_STREAM_EVENTS }, (_, i) => i),
      );
    });

    it('keeps at most 1 MiB of event data and counts the rest', async () => {
      scenario.count = 40;
      scenario.pad = 40_000;
      const eventChars = statusEvent(0, scenario.pad).length;
      const kept = Math.floor(MAX_STREAM_EVENT_CHARS / eventChars);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(40);
      const row = await streamRow('long-by-size');
      const payload = row.response_payload;
      expect(payload).toMatchObject({ event_count: 40, truncated_events: 40 - kept, client_closed: false });
      expect(payload.events).toHaveLength(kept);
      expect(payload.events.at(-1).result.statusUpdate.metadata).toEqual({ i: kept - 1, pad: 'x'.repeat(40_000) });
    });
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
    expect(byTask.body.history.map((h: any) => h.operation)).toEqual(['SendStreamingMessage']);

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
