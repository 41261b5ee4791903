import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock/clock.js';
import { LiveHub } from '../../src/core/live/live-hub.js';
import { ADMIN_BASIC, ADMIN_PASSWORD, authEnabledConfig, bearer, expectError } from '../auth/auth-helpers.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { created, FAST_NETWORK } from '../inference/inference-kit.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { openLive, refusedUpgrade, settle, type LiveClient } from './live-kit.js';

const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'live please' }], max_tokens: 8 };

/**
 * Issue 17 §4 with dashboard auth in the enterprise edition: who may open `/ws` (credentials, tickets) and what each
 * subscriber receives (log rows, changes, circuits), filtered by its permissions. Real WebSocket clients (`ws`), the
 * provider simulator upstream.
 */
describe(`live channel: auth and permissions (${RUN_MODE})`, () => {
  let sim: Simulator;
  let gw: TestApp;
  let admin: HttpClient;
  let vk: string;
  const clock = new ManualClock();
  /** Management keys by what they hold. */
  const keys: Record<string, string> = {};
  const open: LiveClient[] = [];
  const track = (client: LiveClient) => {
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }), clock });
    admin = gw.http.withHeaders(ADMIN_BASIC);
    await created(
      admin.post('/api/providers', { provider: 'openai', base_url: `${sim.url}/openai/v1`, network_config: FAST_NETWORK }),
    );
    await created(admin.post('/api/providers/openai/keys', { name: 'oa-1', value: 'sk-oa-1' }));
    await created(
      admin.post('/api/providers', {
        provider: 'anthropic',
        base_url: `${sim.url}/anthropic`,
        network_config: FAST_NETWORK,
      }),
    );
    await created(admin.post('/api/providers/anthropic/keys', { name: 'an-1', value: 'sk-ant-1' }));
    vk = (await created(admin.post('/api/governance/virtual-keys', { name: 'live-vk' }))).virtual_key.value;
    const scoped: Record<string, string[]> = {
      logs: ['Dashboard:View', 'Logs:View'],
      keysOnly: ['Dashboard:View', 'VirtualKeys:View'],
      noDashboard: ['Logs:View', 'VirtualKeys:View'],
    };
    for (const [name, scopes] of Object.entries(scoped)) {
      keys[name] = (await created(admin.post('/api/management-keys', { name, scopes }))).value;
    }
  }, 60_000);

  afterAll(async () => {
    for (const client of open) client.close();
    await gw?.close();
    await sim?.close();
  });

  it('refuses an upgrade without credentials with a 401 GatewayError, before upgrading', async () => {
    const res = await refusedUpgrade(gw);
    expectError(res, 401, 'missing_credentials');
    expect(res.body.error.message).toContain('Management credentials');
    const wrong = await refusedUpgrade(gw, { headers: bearer('gwm_not-a-real-key') });
    expectError(wrong, 401, 'invalid_credentials');
    const virtualKey = await refusedUpgrade(gw, { headers: bearer(vk) });
    expectError(virtualKey, 401, 'virtual_key_not_accepted');
    expect(gw.app.get(LiveHub).size).toBe(0);
  });

  it('refuses a caller without Dashboard:View with 403 naming the permission', async () => {
    const res = await refusedUpgrade(gw, { headers: bearer(keys.noDashboard!) });
    expectError(res, 403, 'permission_denied');
    expect(res.body.error.message).toContain('Dashboard:View');
  });

  it('answers a plain GET (no upgrade) with 426 upgrade_required', async () => {
    const res = await admin.get('/ws');
    expectError(res, 426, 'upgrade_required');
    expect(res.headers.get('upgrade')).toBe('websocket');
  });

  it('opens with Basic, a management bearer and a session cookie; ready names the permissions', async () => {
    const basic = track(await openLive(gw, { headers: ADMIN_BASIC }));
    expect(basic.of('ready')[0]!.data).toEqual({ permissions: 'all' });
    const scoped = track(await openLive(gw, { headers: bearer(keys.logs!) }));
    expect(scoped.of('ready')[0]!.data).toEqual({ permissions: ['Dashboard:View', 'Logs:View'] });
    const login = await gw.http.post('/api/session/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(login.status, login.text).toBe(200);
    const cookie = track(await openLive(gw, { headers: { cookie: `gateway_session=${login.body.token}` } }));
    expect(cookie.of('ready')).toHaveLength(1);
    for (const client of [basic, scoped, cookie]) client.close();
  });

  it('a ticket opens one connection as its issuer, once, within 30 s', async () => {
    expectError(await gw.http.post('/api/session/ws-ticket', {}), 401, 'missing_credentials');
    expectError(
      await gw.http.post('/api/session/ws-ticket', {}, { headers: bearer(keys.noDashboard!) }),
      403,
      'permission_denied',
    );
    const issued = await gw.http.post('/api/session/ws-ticket', {}, { headers: bearer(keys.logs!) });
    expect(issued.status, issued.text).toBe(200);
    expect(Object.keys(issued.body).sort()).toEqual(['expires_at', 'ticket']);
    expect(Date.parse(issued.body.expires_at) - clock.now()).toBe(30_000);
    const client = track(await openLive(gw, { ticket: issued.body.ticket }));
    expect(client.of('ready')[0]!.data).toEqual({ permissions: ['Dashboard:View', 'Logs:View'] });
    expectError(await refusedUpgrade(gw, { ticket: issued.body.ticket }), 401, 'invalid_credentials');
    expectError(await refusedUpgrade(gw, { ticket: 'made-up' }), 401, 'invalid_credentials');

    const late = await gw.http.post('/api/session/ws-ticket', {}, { headers: ADMIN_BASIC });
    clock.advance(30_001);
    expectError(await refusedUpgrade(gw, { ticket: late.body.ticket }), 401, 'invalid_credentials');
    client.close();
  });

  it('pushes a request-log row to Logs:View only, and a virtual key change to VirtualKeys:View only', async () => {
    const logs = track(await openLive(gw, { headers: bearer(keys.logs!) }));
    const keysOnly = track(await openLive(gw, { headers: bearer(keys.keysOnly!) }));
    const res = await gw.http.post('/v1/chat/completions', chat, { headers: bearer(vk) });
    expect(res.status, res.text).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const row = await logs.next((m) => m.type === 'log' && m.id === requestId);
    expect(row).toMatchObject({ action: 'created', data: { id: requestId, provider: 'openai', status: 'success' } });
    expect(row.data.model).toBe('gpt-4o-mini');
    expect(row.data.virtual_key_name).toBe('live-vk');
    expect(Date.parse(row.at)).not.toBeNaN();
    // Never a secret: neither the virtual key's value nor the provider key's.
    expect(JSON.stringify(row)).not.toContain(vk);
    expect(JSON.stringify(row)).not.toContain('sk-oa-1');

    const made = await created(admin.post('/api/governance/virtual-keys', { name: 'made-live' }));
    const change = await keysOnly.next((m) => m.type === 'change' && m.id === made.virtual_key.id);
    expect(change).toMatchObject({
      resource: 'VirtualKeys',
      action: 'created',
      data: { method: 'POST', route: '/api/governance/virtual-keys' },
    });
    expect(JSON.stringify(change)).not.toContain(made.virtual_key.value);
    const updated = await admin.put(`/api/governance/virtual-keys/${made.virtual_key.id}`, { description: 'now' });
    expect(updated.status, updated.text).toBe(200);
    await keysOnly.next((m) => m.type === 'change' && m.action === 'updated' && m.id === made.virtual_key.id);

    await settle();
    expect(keysOnly.of('log')).toEqual([]);
    expect(logs.of('change')).toEqual([]);
    // A provider change is for ModelProvider:View, which neither holds.
    await created(admin.post('/api/providers/openai/keys', { name: 'oa-2', value: 'sk-oa-2' }));
    await settle();
    expect([...logs.of('change'), ...keysOnly.of('change')].filter((m) => m.resource === 'ModelProvider')).toEqual([]);
    logs.close();
    keysOnly.close();
  });

  it('pushes circuit openings and closings to CircuitBreaker:View', async () => {
    const watcher = track(await openLive(gw, { headers: ADMIN_BASIC }));
    const logsOnly = track(await openLive(gw, { headers: bearer(keys.logs!) }));
    await created(
      admin.post('/api/circuit-breaker/policies', {
        name: 'live-overload',
        primary_provider: 'openai',
        primary_model: 'gpt-4o-mini',
        fallback_provider: 'anthropic',
        fallback_model: 'claude-3-5-haiku-latest',
        condition: { signals: [{ source: 'response_header', header_name: 'x-overloaded', header_value: 'true' }] },
        default_cooldown: '5m',
      }),
    );
    sim.scenario({ match: { family: 'openai' }, responses: [{ ok: true, headers: { 'x-overloaded': 'true' } } as never] });
    const res = await gw.http.post('/v1/chat/completions', chat, { headers: bearer(vk) });
    expect(res.status, res.text).toBe(200);
    const opened = await watcher.next((m) => m.type === 'circuit' && m.action === 'opened');
    expect(opened).toMatchObject({
      resource: 'circuit',
      id: 'live-overload',
      data: { status: 'open', signal: { header_name: 'x-overloaded', header_value: 'true' } },
    });
    const closedByHand = await admin.delete('/api/circuit-breaker/state/live-overload');
    expect(closedByHand.status, closedByHand.text).toBe(200);
    const closed = await watcher.next((m) => m.type === 'circuit' && m.action === 'closed');
    expect(closed).toMatchObject({ id: 'live-overload', data: { reason: 'closed_by_hand' } });
    await settle();
    expect(logsOnly.of('circuit')).toEqual([]);
    watcher.close();
    logsOnly.close();
  });
});

