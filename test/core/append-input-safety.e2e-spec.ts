import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRUNCATION_MARKER, jsonbText, textColumn } from '../../src/core/append-log/text-column.js';
import { AuditService } from '../../src/modules/audit/audit.service.js';
import { AgentHistoryService } from '../../src/modules/agents/history/agent-history.service.js';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { createVirtualKey, MGMT, registerAgent, rpc, SETUP_TOKEN, sql, wireMessage } from '../agents/data-plane-kit.js';

describe('text and JSON fitted to their columns', () => {
  it('NUL removed, over-long values cut with a marker, short columns cut plainly', () => {
    expect(textColumn('a\u0000b', 10)).toBe('ab');
    const cut = textColumn('x'.repeat(100), 64);
    expect(cut).toHaveLength(64);
    expect(cut.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(textColumn('POSTPOSTPOSTPOSTPOST', 16)).toBe('POSTPOSTPOSTPOST');
    expect(jsonbText(JSON.stringify({ 'k\u0000': 'a\u0000\u0000b', lit: '\\u0000', esc: '\\\u0000' }))).toBe(
      JSON.stringify({ k: 'ab', lit: '\\u0000', esc: '\\' }),
    );
  });
});

describe(`audit and history rows store any input (${RUN_MODE})`, () => {
  let gw: TestApp;
  let agent: A2aAgent;
  let vk: string;
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    agent = await startA2aAgent();
    vk = (await createVirtualKey(gw, 'safety')).value;
    await registerAgent(gw, { name: 'safe', agent_card_url: agent.cardUrl, allow_by_default: true });
  });
  afterAll(async () => {
    await gw?.close();
    await agent?.close();
  });

  it('a %00 in a path is audited, refused or not; NUL is removed from the stored values', async () => {
    const res = await gw.http.delete('/api/agents/ab%00cd', MGMT);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await gw.app.get(AuditService).flush();
    const rows = await sql(gw, `SELECT path, target_id, status_code FROM audit_logs WHERE method = 'DELETE'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].path).toBe('/api/agents/ab%00cd');
    expect(rows[0].target_id ?? 'abcd').toBe('abcd');
    expect(rows[0].status_code).toBe(res.status);
  });

  it('an agent call with NUL in its payload is kept in history; an unknown 140-character method is refused, clipped and leaves no row', async () => {
    const longMethod = `Send${'Message'.repeat(20)}`;
    const unknown = await gw.http.post('/agents/a2a/safe/jsonrpc', rpc(longMethod, {}, 'long'), {
      headers: { 'x-gateway-vk': vk, 'a2a-version': '1.0' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.data.error.code).toBe('jsonrpc_method_not_found');
    // The echoed method is clipped, and the error's log line carries the event_id the caller got, at warn.
    expect(unknown.body.error.message.length).toBeLessThan(260);
    const eventId = unknown.body.error.data.event_id;
    const logged = gw.logs.records().find((r) => r.event_id === eventId);
    expect(logged).toMatchObject({ level: 'warn', status: 404, code: 'jsonrpc_method_not_found' });
    const nul = await gw.http.post(
      '/agents/a2a/safe/jsonrpc',
      rpc('SendMessage', { message: wireMessage('nul-1', 'before\u0000after') }, 'nul'),
      { headers: { 'x-gateway-vk': vk, 'a2a-version': '1.0' } },
    );
    expect(nul.status).toBe(200);
    await gw.app.get(AgentHistoryService).flush();
    // A call naming no A2A operation is no operation of history (docs/agents.md): only the SendMessage row.
    const rows = await sql(gw, `SELECT operation, request_payload::text AS payload FROM agent_operations`);
    expect(rows.map((r) => r.operation)).toEqual(['SendMessage']);
    expect(rows[0].payload).toContain('before');
    expect(rows[0].payload).toContain('after');
    expect(rows[0].payload).not.toContain('\\u0000');
  });
});
