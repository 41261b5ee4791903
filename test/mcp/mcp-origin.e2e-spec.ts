import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/core/config/config.loader.js';
import { McpOriginPolicy } from '../../src/modules/mcp/server/mcp-origin-policy.js';
import { expectError } from '../governance/governance-test-kit.js';
import type { TestApp } from '../helpers/test-app.js';
import { startHttpPeer, type McpPeer } from './mcp-peers.js';
import { createMcpClient, createVirtualKey, startMcpGateway } from './mcp-server-kit.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'origin-test', version: '1' } },
};

/** A POST through undici's request, which (unlike fetch) sends the Host header it is given. */
async function post(gw: TestApp, path: string, headers: Record<string, string>, body: unknown = INIT) {
  const res = await request(`${gw.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

/**
 * DNS-rebinding protection on `/mcp` and `/mcp/{client}` through HTTP: a Host the gateway does not serve or an Origin
 * that is not allowed gets a 403 GatewayError before authentication, whatever the route; the allowed ones go on.
 */
describe('MCP Origin and Host validation', () => {
  let gw: TestApp;
  let peer: McpPeer;
  let key: string;
  let port: string;

  beforeAll(async () => {
    peer = await startHttpPeer();
    const started = await startMcpGateway({
      public_base_url: 'https://gw.example.com',
      mcp: {
        allowed_hosts: ['mcp.internal', '*.corp.example'],
        allowed_origins: ['http://localhost:*', 'https://*.app.example:8443'],
      },
    });
    gw = started.gw;
    port = new URL(gw.baseUrl).port;
    key = (await createVirtualKey(started.admin, 'origin-key')).value;
    await createMcpClient(started.admin, {
      name: 'alpha',
      connection_string: peer.url,
      allow_on_all_virtual_keys: true,
    });
  });

  afterAll(async () => {
    await gw?.close();
    await peer?.close();
  });

  it('refuses a Host the gateway does not serve with 403, before credentials are checked', async () => {
    for (const path of ['/mcp', '/mcp/alpha']) {
      const res = await post(gw, path, { host: 'evil.example.com', origin: 'http://evil.example.com' });
      expectError(res, 403, 'permission_denied', 'host');
      expect(res.body.extra_fields.error_type).toBe('policy_access_denied');
      expect(res.body.error.message).toContain("Host 'evil.example.com'");
      expect(res.body.error.message).toContain('mcp.allowed_hosts');
    }
    // The GET stream too, and with a valid key: the check is about where the request was addressed, not who sent it.
    const stream = await request(`${gw.baseUrl}/mcp`, {
      method: 'GET',
      headers: { host: 'evil.example.com', accept: 'text/event-stream', authorization: `Bearer ${key}` },
    });
    expect(stream.statusCode).toBe(403);
    expect(JSON.parse(await stream.body.text())).toMatchObject({ error: { code: 'permission_denied', param: 'host' } });
  });

  it('refuses an Origin that is not allowed with 403, even on a served host', async () => {
    for (const origin of [
      'http://evil.example.com',
      'null',
      'https://127.0.0.1.evil.example',
      'http://localhost.evil',
    ]) {
      const res = await post(gw, '/mcp', { origin, authorization: `Bearer ${key}` });
      expectError(res, 403, 'permission_denied', 'origin');
      expect(res.body.error.message).toContain(`Origin '${origin}'`);
    }
    // The allowed-origin pattern's port and scheme are part of the match.
    for (const origin of ['https://x.app.example', 'http://x.app.example:8443', 'https://app.example:8443']) {
      expectError(await post(gw, '/mcp', { origin, authorization: `Bearer ${key}` }), 403, 'permission_denied');
    }
  });

  it('serves loopback, the listen address, public_base_url and mcp.allowed_hosts; same-origin and allowed origins', async () => {
    const cases: Array<Record<string, string>> = [
      {}, // the listen address, no Origin (not a browser)
      { host: `localhost:${port}`, origin: 'http://localhost:5173' }, // the default http://localhost:*
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` }, // same-origin
      { host: `[::1]:${port}` },
      { host: 'gw.example.com', origin: 'https://gw.example.com' }, // public_base_url
      { host: 'mcp.internal:443', origin: 'https://mcp.internal' }, // allowed_hosts, same-origin
      { host: 'a.b.corp.example', origin: 'https://team.app.example:8443' }, // wildcards
    ];
    for (const headers of cases) {
      const res = await post(gw, '/mcp', { ...headers, authorization: `Bearer ${key}` });
      expect(res.status, JSON.stringify({ headers, body: res.body })).toBe(200);
      expect(res.body.result.serverInfo.name).toBe('ai-gateway');
    }
    expect(
      (await post(gw, '/mcp/alpha', { origin: 'http://localhost:3000', authorization: `Bearer ${key}` })).status,
    ).toBe(200);
  });

  it('leaves other routes alone (the HTTP API has its own CORS rules)', async () => {
    const res = await request(`${gw.baseUrl}/api/version`, { headers: { host: 'evil.example.com' } });
    await res.body.text();
    expect(res.statusCode).toBe(200);
  });
});

describe('McpOriginPolicy', () => {
  const policy = (mcp: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    new McpOriginPolicy(loadConfig({ env: {}, overrides: { mcp, ...extra } }));

  it('a wildcard listen address names no host; `*` allows any host or origin', () => {
    const wildcard = policy({}, { host: '0.0.0.0' });
    expect(wildcard.refusal('0.0.0.0:8080', undefined)?.status).toBe(403);
    expect(wildcard.refusal('localhost:8080', undefined)).toBeUndefined();
    expect(wildcard.refusal(undefined, undefined)?.status).toBe(403);
    const open = policy({ allowed_hosts: ['*'], allowed_origins: ['*'] });
    expect(open.refusal('anything.example', 'http://elsewhere.example')).toBeUndefined();
    const specific = policy({}, { host: '10.1.2.3' });
    expect(specific.refusal('10.1.2.3:8080', 'http://10.1.2.3:8080')).toBeUndefined();
  });

  it('refuses a bad pattern at start-up, one line per problem', () => {
    expect(() => loadConfig({ env: {}, overrides: { mcp: { allowed_origins: ['localhost:3000'] } } })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ env: {}, overrides: { mcp: { allowed_hosts: ['evil.example:80'] } } })).toThrow(
      /mcp.allowed_hosts/,
    );
    const fromEnv = loadConfig({
      env: { GATEWAY_MCP_ALLOWED_HOSTS: 'a.example, b.example', GATEWAY_MCP_ALLOWED_ORIGINS: '*' },
    });
    expect(fromEnv.mcp.allowed_hosts).toEqual(['a.example', 'b.example']);
    expect(fromEnv.mcp.allowed_origins).toEqual(['*']);
    expect(loadConfig({ env: {} }).mcp.allowed_origins).toEqual(['http://localhost:*']);
  });
});
