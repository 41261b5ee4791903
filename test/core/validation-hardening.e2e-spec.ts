import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, authEnabledConfig } from '../auth/auth-helpers.js';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import type { HttpClient, HttpResult } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { sql } from '../governance/governance-test-kit.js';

/** Issue 8, items 9, 10, 11, 14 and 16: hostile bodies and queries are 400s naming the field, never 500s. */

function expect400(res: HttpResult, param: string, message?: RegExp): void {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }, res.text).toEqual({
    status: 400,
    code: 'validation_failed',
    param,
  });
  expect(res.body.is_gateway_error).toBe(true);
  if (message) expect(res.body.error.message).toMatch(message);
}

describe(`validation hardening (${RUN_MODE})`, () => {
  let gw: TestApp;
  let a2a: A2aAgent;
  let http: HttpClient;
  let vkId: string;
  let userId: string;
  let roleId: string;
  let keyId: string;
  const agentBody = () => ({ agent_card_url: a2a.cardUrl, allow_by_default: true });
  const withRuntimeAuth = (runtime_auth: unknown) => ({ ...agentBody(), runtime_auth });
  const oauth = (extra: Record<string, unknown>) => ({
    type: 'oauth',
    oauth: { client_id: 'id', client_secret: 'secret', token_url: `${a2a.url}/token`, ...extra },
  });

  beforeAll(async () => {
    a2a = await startA2aAgent();
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }) });
    http = gw.http.withHeaders(ADMIN_BASIC);
    expect((await http.post('/api/agents', { name: 'hardened', ...agentBody() })).status).toBe(201);
    const vk = await http.post('/api/governance/virtual-keys', { name: 'hardened' });
    const role = await http.post('/api/governance/rbac/roles', {
      name: 'hardened',
      permissions: ['AgentGateway:View'],
    });
    const user = await http.post('/api/governance/users', { name: 'U', email: 'u@example.com', role_id: role.body.id });
    const key = await http.post('/api/management-keys', { name: 'hardened', scopes: [] });
    for (const res of [vk, role, user, key]) expect(res.status, res.text).toBe(201);
    vkId = vk.body.virtual_key.id;
    roleId = role.body.id;
    userId = user.body.id;
    keyId = key.body.id;
  });
  afterAll(async () => {
    await gw?.close();
    await a2a?.close();
  });

  describe('item 9: a NUL character in a body string is a 400 naming the field, and nothing is stored', () => {
    it('top-level fields of create, update and login bodies', async () => {
      expect400(await http.post('/api/governance/virtual-keys', { name: 'nul\u0000key' }), 'name', /NUL/);
      expect400(await http.put(`/api/governance/virtual-keys/${vkId}`, { description: 'a\u0000' }), 'description');
      expect400(await http.post('/api/governance/rbac/roles', { name: 'r\u0000', permissions: [] }), 'name');
      expect400(await http.put(`/api/governance/users/${userId}`, { name: 'n\u0000' }), 'name');
      expect400(await http.post('/api/management-keys', { name: 'k\u0000', scopes: [] }), 'name');
      expect400(await gw.http.post('/api/session/login', { username: 'ad\u0000min', password: 'x' }), 'username');
      const rows = await sql(gw, `SELECT count(*)::int AS n FROM virtual_keys WHERE name LIKE 'nul%'`);
      expect(rows[0].n).toBe(0);
    });

    it('nested strings, array items and field names', async () => {
      const scopes = withRuntimeAuth(oauth({ scopes: ['read', 'wr\u0000ite'] }));
      expect400(await http.put('/api/agents/hardened', scopes), 'runtime_auth.oauth.scopes[1]');
      const resource = withRuntimeAuth(oauth({ resource: 'r\u0000' }));
      expect400(await http.put('/api/agents/hardened', resource), 'runtime_auth.oauth.resource');
      const header = withRuntimeAuth({ type: 'headers', headers: { 'x-api-key': 'a\u0000b' } });
      expect400(await http.put('/api/agents/hardened', header), 'runtime_auth.headers.x-api-key');
      expect400(await http.post('/api/governance/virtual-keys', { 'na\u0000me': 'x' }), 'body');
    });
  });

  describe('item 10: null for a field that is not nullable is a 400 naming it', () => {
    it.each([
      ['PUT', () => `/api/governance/virtual-keys/${vkId}`, { name: null }, 'name'],
      ['PUT', () => `/api/governance/virtual-keys/${vkId}`, { description: null }, 'description'],
      ['PUT', () => `/api/governance/virtual-keys/${vkId}`, { is_active: null }, 'is_active'],
      ['POST', () => `/api/governance/virtual-keys/${vkId}/rotate`, { grace_period: null }, 'grace_period'],
      ['PUT', () => `/api/governance/users/${userId}`, { password: null }, 'password'],
      ['PUT', () => `/api/governance/users/${userId}`, { email: null }, 'email'],
      ['PUT', () => `/api/governance/users/${userId}`, { name: null }, 'name'],
      ['PUT', () => `/api/governance/rbac/roles/${roleId}`, { permissions: null }, 'permissions'],
      ['PUT', () => `/api/governance/rbac/roles/${roleId}`, { description: null }, 'description'],
      ['PUT', () => `/api/management-keys/${keyId}`, { scopes: null }, 'scopes'],
      ['PUT', () => `/api/management-keys/${keyId}`, { name: null }, 'name'],
      ['PUT', () => '/api/agents/hardened', { agent_card_url: null }, 'agent_card_url'],
    ])('%s %s with %j', async (method, path, body, param) => {
      expect400(await http.request(method, path(), { body }), param, /must not be null/);
    });

    it('POST /api/governance/virtual-keys/rotate with grace_period: null', async () => {
      const res = await http.post('/api/governance/virtual-keys/rotate', { ids: [vkId], grace_period: null });
      expect400(res, 'grace_period', /must not be null/);
    });

    it('POST /api/governance/users with password: null', async () => {
      const body = { name: 'N', email: 'n@example.com', role_id: roleId, password: null };
      expect400(await http.post('/api/governance/users', body), 'password', /must not be null/);
    });

    it('token_url: null names runtime_auth.oauth.token_url, enabled: null names enabled', async () => {
      expect400(
        await http.put('/api/agents/hardened', withRuntimeAuth(oauth({ token_url: null }))),
        'runtime_auth.oauth.token_url',
      );
      expect400(await http.put('/api/agents/hardened', { ...agentBody(), enabled: null }), 'enabled');
    });

    it('fields the contract declares nullable still accept null (clearing the value)', async () => {
      const vk = await http.put(`/api/governance/virtual-keys/${vkId}`, {
        team_id: null,
        customer_id: null,
        expires_at: null,
      });
      expect(vk.status, vk.text).toBe(200);
      expect(vk.body.virtual_key).toMatchObject({ team_id: null, customer_id: null, expires_at: null });
      expect((await http.put(`/api/governance/users/${userId}`, { team_id: null })).status).toBe(200);
      const key = await http.put(`/api/management-keys/${keyId}`, { expires_at: null });
      expect(key.status, key.text).toBe(200);
      expect(key.body.expires_at).toBeNull();
    });
  });

  describe('item 11: offset and limit are bounded plain decimal integers', () => {
    const lists = [
      '/api/governance/virtual-keys',
      '/api/audit-logs',
      '/api/agents/history',
      '/api/agents/push-configs',
    ];

    it.each(lists)('%s refuses an offset beyond the bound or int64, and odd integer spellings', async (path) => {
      for (const offset of ['99999999999999999999', '9223372036854775808', '1000000001', '1e30']) {
        expect400(await http.get(path, { query: { offset } }), 'offset');
      }
      for (const limit of ['0x10', '1e3', '+5', ' 5', '5.0', '1001', '0', '']) {
        expect400(await http.get(path, { query: { limit } }), 'limit', /limit/);
      }
    });

    it('accepts plain decimal integers within the bounds', async () => {
      const res = await http.get('/api/governance/virtual-keys', { query: { limit: '5', offset: '1000000000' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.pagination).toMatchObject({ limit: 5, offset: 1_000_000_000 });
      expect400(await http.get('/api/audit-logs', { query: { status_code: '0x1F4' } }), 'status_code');
      expect((await http.get('/api/audit-logs', { query: { status_code: '201' } })).status).toBe(200);
    });
  });

  describe('item 14: error.param names the field at fault', () => {
    it.each(['[]', '"text"', '42', 'null', 'true'])('a %s body names the body', async (raw) => {
      for (const [method, path] of [
        ['POST', '/api/governance/virtual-keys'],
        ['PUT', '/api/agents/hardened'],
        ['POST', '/api/session/login'],
      ] as const) {
        const res = await http.request(method, path, { rawBody: raw, headers: { 'content-type': 'application/json' } });
        expect400(res, 'body', /must be a JSON object/);
      }
    });

    it('list items are named by index', async () => {
      const scopes = withRuntimeAuth(oauth({ scopes: ['read', 5] }));
      expect400(await http.put('/api/agents/hardened', scopes), 'runtime_auth.oauth.scopes[1]');
      const schemes = withRuntimeAuth({ type: 'none', security_schemes: [''] });
      expect400(await http.put('/api/agents/hardened', schemes), 'runtime_auth.security_schemes[0]');
      expect400(await http.post('/api/management-keys', { name: 'k', scopes: ['AgentGateway:View', 7] }), 'scopes[1]');
    });

    it('header-map SecretValues name the header, and bad header values are not blamed on agent_card_url', async () => {
      const empty = withRuntimeAuth({ type: 'headers', headers: { 'X-Custom': '' } });
      expect400(await http.put('/api/agents/hardened', empty), 'runtime_auth.headers.X-Custom');
      const badRef = {
        ...agentBody(),
        discovery_auth: { type: 'headers', headers: { 'x-api-key': 'env.not-a-name' } },
      };
      expect400(await http.put('/api/agents/hardened', badRef), 'discovery_auth.headers.x-api-key');
      const newline = {
        ...agentBody(),
        discovery_auth: { type: 'headers', headers: { 'X-Custom': 'a\r\nInjected: 1' } },
      };
      expect400(await http.put('/api/agents/hardened', newline), 'discovery_auth.headers.X-Custom', /header value/);
      const badName = { ...agentBody(), discovery_auth: { type: 'headers', headers: { 'Bad Name': 'v' } } };
      expect400(await http.put('/api/agents/hardened', badName), 'discovery_auth.headers.Bad Name', /header name/);
    });

    it('an array where a nested object belongs is named, not stored as an empty object (was a 500)', async () => {
      const before = (await http.get('/api/governance/virtual-keys')).body.virtual_keys.length as number;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: 'nested-1', provider_configs: [[]] }, 'provider_configs[0]'],
        [{ name: 'nested-2', budgets: [[]] }, 'budgets[0]'],
        [{ name: 'nested-3', provider_configs: [{ provider: 'openai' }, []] }, 'provider_configs[1]'],
        // A list inside the list: the item is blamed, not the list's own items (was `budgets[0][0][0]`).
        [{ name: 'nested-4', budgets: [[[1]]] }, 'budgets[0]'],
        [{ name: 'nested-5', provider_configs: ['x'] }, 'provider_configs[0]'],
      ];
      for (const [body, param] of cases) {
        expect400(await http.post('/api/governance/virtual-keys', body), param, /must be an object/);
      }
      expect400(await http.post('/api/governance/teams', { name: 'nested-team', rate_limit: [] }), 'rate_limit');
      expect((await http.get('/api/governance/virtual-keys')).body.virtual_keys.length).toBe(before);
    });

    it('unknown fields are named, nested ones with their path', async () => {
      const top = await http.post('/api/governance/virtual-keys', { name: 'x', bogus: 1 });
      expect400(top, 'bogus', /bogus is not a known field/);
      const nested = withRuntimeAuth({ type: 'none', bogus: 1 });
      expect400(await http.put('/api/agents/hardened', nested), 'runtime_auth.bogus', /not a known field/);
      // A null value does not make an undeclared field a declared one that "must not be null".
      const nullUnknown = await http.post('/api/governance/virtual-keys', { name: 'x', bogus: null });
      expect400(nullUnknown, 'bogus', /^bogus is not a known field$/);
    });
  });

  describe('item 16: secrets, strings and arrays are bounded', () => {
    it('a 100 KB client_secret and a 9 KB one are refused', async () => {
      for (const size of [100_000, 9_000]) {
        const body = withRuntimeAuth(oauth({ client_secret: 's'.repeat(size) }));
        expect400(await http.put('/api/agents/hardened', body), 'runtime_auth.oauth.client_secret', /at most/);
      }
    });

    it('5,000 scopes and 101 scopes are refused', async () => {
      for (const count of [5_000, 101]) {
        const scopes = Array.from({ length: count }, (_, i) => `scope-${i}`);
        expect400(
          await http.put('/api/agents/hardened', withRuntimeAuth(oauth({ scopes }))),
          'runtime_auth.oauth.scopes',
          /at most/,
        );
      }
    });

    it('long strings and lists anywhere are refused, naming the field', async () => {
      expect400(await http.post('/api/governance/virtual-keys', { name: 'n'.repeat(100_000) }), 'name');
      expect400(
        await http.put('/api/agents/hardened', {
          ...agentBody(),
          agent_card_url: `${a2a.cardUrl}?${'q'.repeat(3000)}`,
        }),
        'agent_card_url',
      );
      const ids = Array.from({ length: 1001 }, (_, i) => `id-${i}`);
      expect400(await http.post('/api/governance/virtual-keys/rotate', { ids }), 'ids', /at most/);
      const headers = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`x-h${i}`, 'v']));
      expect400(
        await http.put('/api/agents/hardened', withRuntimeAuth({ type: 'headers', headers })),
        'runtime_auth.headers',
      );
      expect400(await http.get('/api/audit-logs', { query: { actor: 'a'.repeat(300) } }), 'actor');
    });
  });

  it('no request DTO uses @IsOptional(), which lets null through (config validation may)', () => {
    const src = join(import.meta.dirname, '../../src');
    const offenders = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.startsWith('core/config/'))
      .filter((file) => /@IsOptional\(/.test(readFileSync(join(src, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('no 500 in the whole file', () => {
    expect(gw.logs.text()).not.toMatch(/"status_code":500|internal_error/);
  });
});
