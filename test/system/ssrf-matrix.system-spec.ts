import dns, { type LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v1Card } from '../agents/agents-test-kit.js';
import { expectGatewayError } from '../helpers/gateway-error.js';
import type { HttpResult } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { IS_LONG } from './profile.js';

/**
 * SSRF matrix (issue 18 §4): every outbound call the gateway makes, to every class of forbidden destination, through
 * the HTTP API that triggers it. Metadata addresses are refused whatever the config, loopback unless
 * `outbound.allow_loopback`, private ranges unless `outbound.allow_private_networks`; redirects are never followed to a
 * refused address; a name's DNS answer is checked inside the connect (no rebinding between check and connect).
 *
 * "Nothing reached the target" is proved by a trap listener that counts every TCP connection (loopback classes); the
 * other classes cannot be listened on here, so there the refusal text proves that the policy, not the network, ended
 * the attempt. Names under `.ssrf.test` resolve through a scripted resolver installed over `dns.lookup` (the OS
 * resolver, not ours: the gateway's own lookup hook runs as in production); `vm` and `localhost` resolve to 127.0.0.1
 * through /etc/hosts.
 */

const SETUP_TOKEN = 'ssrf-setup-token-123456';
const MGMT = { headers: { 'x-gateway-setup-token': SETUP_TOKEN } };

// ---------------------------------------------------------------------------------------------------------------
// A scripted resolver for `*.ssrf.test` names (everything else goes to the real lookup).

type Answer = Array<{ address: string; family: 4 | 6 }>;
const scripted = new Map<string, () => Answer>();
const lookups: string[] = [];
const realLookup = dns.lookup;

function fakeLookup(hostname: string, options: unknown, callback?: unknown): void {
  const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
  const opts = (
    typeof options === 'object' && options ? options : typeof options === 'number' ? { family: options } : {}
  ) as {
    all?: boolean;
  };
  const script = scripted.get(hostname.toLowerCase());
  if (!script) {
    (realLookup as (...args: unknown[]) => void)(hostname, opts, cb);
    return;
  }
  lookups.push(hostname.toLowerCase());
  const list: LookupAddress[] = script();
  process.nextTick(() => (opts.all ? cb(null, list) : cb(null, list[0]!.address, list[0]!.family)));
}

function installResolver(): void {
  (dns as { lookup: unknown }).lookup = fakeLookup;
  syncBuiltinESMExports();
}
function restoreResolver(): void {
  (dns as { lookup: unknown }).lookup = realLookup;
  syncBuiltinESMExports();
}

// ---------------------------------------------------------------------------------------------------------------
// Listeners: a trap that counts connections, a redirector, a card server.

interface Listener {
  port: number;
  url: string;
  connections: () => number;
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, host = '::'): Promise<Listener> {
  const server: Server = createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((ok) => server.listen({ port: 0, host, ipv6Only: false }, ok));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Answers every request 200 `{}` and closes the connection (each request is a new connect, hence a new lookup). */
const trapHandler = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
  res.end('{}');
};

// ---------------------------------------------------------------------------------------------------------------
// The destination classes.

/** The fast profile keeps one URL of each form (IPv4, IPv6, mapped, numeric, name); the long one has them all. */
const fastOnly = (urls: string[], keep: number[]) => (IS_LONG ? urls : urls.filter((_u, i) => keep.includes(i)));

function metadataUrls(): string[] {
  return fastOnly(
    [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/latest/',
      'http://2852039166/latest/', // 169.254.169.254 as one decimal number (WHATWG URL parsing normalises it)
      'http://0xa9.0xfe.0xa9.0xfe/latest/', // hex parts
      'http://meta.ssrf.test/latest/', // a name resolving to the metadata address
    ],
    [0, 1, 2, 3, 4, 6],
  );
}

function loopbackUrls(port: number): string[] {
  return fastOnly(
    [
      `http://127.0.0.1:${port}/x`,
      `http://127.9.9.9:${port}/x`,
      `http://[::1]:${port}/x`,
      `http://0.0.0.0:${port}/x`,
      `http://[::ffff:127.0.0.1]:${port}/x`,
      `http://2130706433:${port}/x`, // 127.0.0.1, decimal
      `http://0177.0.0.1:${port}/x`, // 127.0.0.1, octal part
      `http://127.1:${port}/x`, // short form
      `http://localhost:${port}/x`,
      `http://vm:${port}/x`, // an /etc/hosts name for 127.0.0.1
      `http://loop.ssrf.test:${port}/x`,
    ],
    [0, 2, 3, 4, 5, 8, 9, 10],
  );
}

function privateUrls(): string[] {
  return fastOnly(
    [
      'http://10.0.0.1/x',
      'http://172.16.0.1/x',
      'http://172.31.255.254/x',
      'http://192.168.1.1/x',
      'http://100.64.0.1/x',
      'http://[fc00::1]/x',
      'http://[fd12:3456::1]/x',
      'http://[::ffff:10.0.0.1]/x',
      'http://167772161/x', // 10.0.0.1, decimal
      'http://private.ssrf.test/x',
    ],
    [0, 1, 3, 4, 5, 7, 9],
  );
}

const VAULT_ADDR = { metadata: 'http://169.254.169.254:8200', private: 'http://10.0.0.1:8200' };

type DestinationClass = 'metadata' | 'loopback' | 'private';
const WHY: Record<DestinationClass, RegExp> = {
  metadata: /cloud metadata and link-local addresses are never allowed/,
  loopback: /loopback addresses are not allowed \(outbound\.allow_loopback is false\)/,
  private: /private network addresses are not allowed \(outbound\.allow_private_networks is false\)/,
};

// ---------------------------------------------------------------------------------------------------------------
// The outbound call sites, each triggered through the HTTP API.

interface Stack {
  gw: TestApp;
  vk: string;
  /** A loopback card server whose cards point their interfaces at `cardTarget` (agent-call site). */
  cards: Listener;
  cardTarget: { url: string };
}

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;

/** Asserts a refusal: the GatewayError status/code/param, and a message naming why. */
type Check = (res: HttpResult, why: RegExp, url: string) => Promise<string | undefined> | string | undefined;

function gatewayError(res: HttpResult, status: number, code: string, param?: string): string | undefined {
  const e = res.body?.error;
  if (res.status !== status || e?.code !== code || (param !== undefined && e?.param !== param)) {
    return `${res.status} ${e?.code} param=${e?.param} ${res.text.slice(0, 300)}`;
  }
  return undefined;
}

interface Site {
  name: string;
  /** Sends the request that makes the gateway call `url`. */
  attempt(stack: Stack, url: string): Promise<HttpResult>;
  check: Check;
}

const refusedWith =
  (status: number, code: string, param?: string): Check =>
  (res, why) =>
    gatewayError(res, status, code, param) ??
    (why.test(String(res.body.error.message)) ? undefined : `message: ${res.body.error.message}`);

const agentBody = (extra: Record<string, unknown>) => ({ name: uniq('ssrf-agent'), ...extra });

/** An agent whose card is fetched with OAuth client credentials, `oauth` placing the URL under test. */
function oauthSite(what: string, oauth: (url: string) => Record<string, string>): Site {
  return {
    name: `OAuth ${what} (agent discovery_auth)`,
    attempt: (s, url) =>
      s.gw.http.post(
        '/api/agents',
        agentBody({
          agent_card_url: 'http://card.invalid/card.json',
          discovery_auth: { type: 'oauth', oauth: { ...oauth(url), client_id: 'cid', client_secret: 'csecret' } },
        }),
        MGMT,
      ),
    check: refusedWith(400, 'validation_failed', 'agent_card_url'),
  };
}

const SITES: Site[] = [
  {
    name: 'agent card fetch (POST /api/agents agent_card_url)',
    attempt: (s, url) => s.gw.http.post('/api/agents', agentBody({ agent_card_url: url }), MGMT),
    check: refusedWith(400, 'validation_failed', 'agent_card_url'),
  },
  oauthSite('token_url', (url) => ({ token_url: url })),
  oauthSite('discovery_url', (url) => ({ discovery_url: url })),
  // The provider's metadata document is read from <provider_url>/.well-known/…: the URL under test minus its last part.
  oauthSite('provider_url metadata', (url) => ({ provider_url: url.replace(/\/[^/]*$/, '') })),
  {
    name: 'MCP server, http (POST /api/mcp/client connection_string)',
    attempt: (s, url) =>
      s.gw.http.post(
        '/api/mcp/client',
        { name: uniq('ssrf_http').replace(/-/g, '_'), connection_type: 'http', connection_string: url },
        MGMT,
      ),
    check: refusedWith(400, 'validation_failed', 'connection_string'),
  },
  {
    name: 'MCP server, sse (POST /api/mcp/client connection_string)',
    attempt: (s, url) =>
      s.gw.http.post(
        '/api/mcp/client',
        { name: uniq('ssrf_sse').replace(/-/g, '_'), connection_type: 'sse', connection_string: url },
        MGMT,
      ),
    check: refusedWith(400, 'validation_failed', 'connection_string'),
  },
  {
    name: 'webhook delivery (POST /api/webhooks url, then its test delivery)',
    async attempt(s, url) {
      const created = await s.gw.http.post('/api/webhooks', { name: uniq('ssrf-hook'), url }, MGMT);
      if (created.status !== 201) return created;
      return s.gw.http.post(`/api/webhooks/${created.body.id}/test`, {}, MGMT);
    },
    check(res, why) {
      // IP literals and localhost names are refused at write (400 url); other names when the delivery connects.
      if (res.status === 400) return refusedWith(400, 'validation_failed', 'url')(res, why, '');
      if (res.status !== 200) return `${res.status} ${res.text.slice(0, 300)}`;
      const attempt = res.body.attempts?.[0] ?? res.body.last_attempt ?? res.body;
      const error = String(attempt.error ?? res.body.error ?? '');
      if (res.body.status !== 'failed' || !why.test(error))
        return `delivery: ${JSON.stringify(res.body).slice(0, 400)}`;
      return undefined;
    },
  },
  {
    name: 'provider base_url (PUT /api/providers/openai, then POST /v1/chat/completions)',
    async attempt(s, url) {
      const put = await s.gw.http.put('/api/providers/openai', { base_url: url, network_config: NETWORK }, MGMT);
      if (put.status !== 200) return put;
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      // The provider snapshot is rebuilt on change (at once here; through Redis across replicas): bounded wait.
      let res!: HttpResult;
      for (let i = 0; i < 50; i++) {
        res = await s.gw.http.post('/v1/chat/completions', CHAT, { headers: { authorization: `Bearer ${s.vk}` } });
        const message = String(res.body?.error?.message ?? '');
        if (message.includes(host) || res.body?.error?.code === 'provider_error' || res.status < 300) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return res;
    },
    check: refusedWith(502, 'upstream_error'),
  },
];

/** The agent-call site: the card (served from loopback) points the agent's interfaces at `url`. */
const AGENT_CALL: Site = {
  name: 'A2A agent call (card interfaces, then POST /agents/a2a/{name}/jsonrpc)',
  async attempt(s, url) {
    s.cardTarget.url = new URL(url).origin;
    const name = uniq('ssrf-call');
    const reg = await s.gw.http.post(
      '/api/agents',
      { name, agent_card_url: `${s.cards.url}/card.json`, allow_by_default: true },
      MGMT,
    );
    if (reg.status !== 201) return reg;
    return s.gw.http.post(
      `/agents/a2a/${name}/jsonrpc`,
      { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: wireMessage(name) } },
      { headers: { authorization: `Bearer ${s.vk}` } },
    );
  },
  // JSON-RPC clients get a JSON-RPC error carrying the GatewayError in `data` (docs/agents.md).
  check(res, why) {
    if (res.body?.jsonrpc !== '2.0' || res.body.error?.code !== -32603) return `not a JSON-RPC error: ${res.text}`;
    return refusedWith(502, 'upstream_error')({ ...res, body: res.body.error.data }, why, '');
  },
};

function wireMessage(messageId: string) {
  return { messageId, role: 'ROLE_USER', parts: [{ text: 'hello', mediaType: 'text/plain' }] };
}

/** The Vault site: a provider key stored as a `vault.` reference, resolved when a request uses it. */
async function vaultAttempt(s: Stack): Promise<HttpResult> {
  return s.gw.http.post(
    '/v1/chat/completions',
    { model: 'anthropic/claude-3-5-haiku-latest', messages: [{ role: 'user', content: 'hi' }] },
    { headers: { authorization: `Bearer ${s.vk}` } },
  );
}

const NETWORK = { default_request_timeout: '3s', max_retries: 0 };
const CHAT = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

async function startStack(
  outbound: { allow_loopback: boolean; allow_private_networks: boolean },
  extra: Record<string, unknown> = {},
) {
  const cardTarget = { url: 'http://127.0.0.1:9' };
  const cards = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(v1Card(cardTarget.url)));
  }, '127.0.0.1');
  // A loaded CI box can take Redis past the default 500 ms counter timeout (the login throttle's counters): 503s
  // that say nothing about SSRF.
  const gw = await startTestApp({
    config: { setup_token: SETUP_TOKEN, outbound, governance: { counter_timeout: '5s' }, ...extra },
  });
  const vk = await gw.http.post('/api/governance/virtual-keys', { name: 'ssrf' }, MGMT);
  expect(vk.status, vk.text).toBe(201);
  const provider = await gw.http.post(
    '/api/providers',
    { provider: 'openai', base_url: 'http://provider.invalid/v1', network_config: NETWORK },
    MGMT,
  );
  expect(provider.status, provider.text).toBe(201);
  const key = await gw.http.post('/api/providers/openai/keys', { name: 'k1', value: 'sk-ssrf-provider-key' }, MGMT);
  expect(key.status, key.text).toBe(201);
  // Resolving this key reads Vault (`vault_addr` of the stack); the provider itself is never reached.
  const anthropic = await gw.http.post(
    '/api/providers',
    { provider: 'anthropic', base_url: 'http://anthropic.invalid', network_config: NETWORK },
    MGMT,
  );
  expect(anthropic.status, anthropic.text).toBe(201);
  const vaultKey = await gw.http.post(
    '/api/providers/anthropic/keys',
    { name: 'v1', value: 'vault.secret/ssrf#key' },
    MGMT,
  );
  expect(vaultKey.status, vaultKey.text).toBe(201);
  return { gw, vk: vk.body.virtual_key.value as string, cards, cardTarget } satisfies Stack;
}

async function runMatrix(stack: Stack, site: Site, urls: string[], why: RegExp): Promise<string[]> {
  const problems: string[] = [];
  for (const url of urls) {
    const res = await site.attempt(stack, url);
    const problem = await site.check(res, why, url);
    if (problem) problems.push(`${url}: ${problem}`);
    else if (res.status >= 400) {
      const error = res.body.jsonrpc ? res.body.error.data : res.body;
      expectGatewayError(error, res.status, error.error.code);
    }
  }
  return problems;
}

/** Every site against every URL; sites concurrently (at most one site per stack keeps state: the provider). */
async function runSites(stack: Stack, sites: Site[], urls: string[], why: RegExp): Promise<string[]> {
  const problems = await Promise.all(
    sites.map(async (site) => (await runMatrix(stack, site, urls, why)).map((p) => `${site.name}: ${p}`)),
  );
  return problems.flat();
}

describe(`SSRF matrix (${RUN_MODE})`, () => {
  let trap: Listener;
  let open: Stack; // loopback and private networks allowed: only metadata is refused
  let strict: Stack; // neither allowed
  let noPrivate: Stack; // loopback allowed, private networks not
  let redirector: Listener;
  let redirectTo = '';

  beforeAll(async () => {
    installResolver();
    scripted.set('meta.ssrf.test', () => [{ address: '169.254.169.254', family: 4 }]);
    scripted.set('private.ssrf.test', () => [{ address: '10.0.0.1', family: 4 }]);
    scripted.set('loop.ssrf.test', () => [{ address: '127.0.0.1', family: 4 }]);
    scripted.set('mixed.ssrf.test', () => [
      { address: '127.0.0.1', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ]);
    let flip = 0;
    // Answers an allowed address and a metadata address in turn: a gateway that looked the name up once to check it
    // and again to connect would connect to the metadata address on every other request.
    scripted.set('rebind.ssrf.test', () => [
      { address: flip++ % 2 === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 },
    ]);
    trap = await listen(trapHandler);
    redirector = await listen((_req, res) => {
      res.writeHead(302, { location: redirectTo, connection: 'close' });
      res.end();
    }, '127.0.0.1');
    const vault = { vault_token: 'ssrf-vault-token' };
    [open, strict, noPrivate] = await Promise.all([
      startStack({ allow_loopback: true, allow_private_networks: true }, { ...vault, vault_addr: VAULT_ADDR.metadata }),
      startStack(
        { allow_loopback: false, allow_private_networks: false },
        { ...vault, vault_addr: `http://localhost:${trap.port}` },
      ),
      startStack({ allow_loopback: true, allow_private_networks: false }, { ...vault, vault_addr: VAULT_ADDR.private }),
    ]);
  });
  afterAll(async () => {
    restoreResolver();
    await Promise.all([open, strict, noPrivate].map((s) => s && Promise.all([s.gw.close(), s.cards.close()])));
    await trap?.close();
    await redirector?.close();
  });

  // One test per destination class; the call sites of a class run side by side (each site's URLs one after another),
  // and every problem is listed as `site: url: what came back`.
  describe('every call site', () => {
    it('cloud metadata addresses are refused with loopback and private networks allowed', async () => {
      expect(await runSites(open, [...SITES, AGENT_CALL], metadataUrls(), WHY.metadata)).toEqual([]);
    });
    it('loopback addresses are refused when outbound.allow_loopback is false, and nothing connects', async () => {
      // The agent call is not here: its card is served from loopback, which this gateway never reads; the call goes
      // through the same client and lookup hook as the card fetch.
      const before = trap.connections();
      expect(await runSites(strict, SITES, loopbackUrls(trap.port), WHY.loopback)).toEqual([]);
      expect(trap.connections()).toBe(before);
    });
    it('private ranges are refused when outbound.allow_private_networks is false', async () => {
      expect(await runSites(strict, SITES, privateUrls(), WHY.private)).toEqual([]);
      expect(await runSites(noPrivate, [AGENT_CALL], privateUrls(), WHY.private)).toEqual([]);
    });
  });

  describe('Vault (vault_addr, read when a `vault.` secret is resolved)', () => {
    it.each([
      ['metadata', () => open],
      ['loopback', () => strict],
      ['private', () => noPrivate],
    ] as const)('a %s vault_addr is refused, the secret unresolved (502), nothing connects', async (cls, stack) => {
      const before = trap.connections();
      const res = await vaultAttempt(stack());
      expectGatewayError(res.body, 502, 'secret_unresolved');
      expect(res.body.error.message).toMatch(
        /Secret vault\.secret\/ssrf#key could not be resolved: vault request failed/,
      );
      expect(res.body.error.message).toMatch(WHY[cls]);
      expect(trap.connections()).toBe(before);
    });
  });

  describe('redirects are never followed, whatever the target', () => {
    const REDIRECT_SITES = [...SITES, AGENT_CALL];
    it.each(REDIRECT_SITES.map((s) => [s.name, s] as const))('%s', async (_name, site) => {
      for (const to of ['http://169.254.169.254/latest/meta-data/', `http://127.0.0.1:${trap.port}/x`]) {
        const before = trap.connections();
        const hops = redirector.connections();
        redirectTo = to;
        const res = await site.attempt(open, `${redirector.url}/r`);
        // The redirecting server was reached (allowed loopback); its Location was not.
        expect(redirector.connections(), to).toBeGreaterThan(hops);
        expect(trap.connections(), to).toBe(before);
        if (res.status === 200) {
          // The webhook test delivery answers the failed attempt with the receiver's status.
          expect(res.body.status, JSON.stringify(res.body)).toBe('failed');
        } else {
          expect(res.status, res.text).toBeGreaterThanOrEqual(400);
          const error = res.body.jsonrpc ? res.body.error.data : res.body;
          // A provider's own answer (the 302) is relayed as a provider error (is_gateway_error false); the rest are ours.
          if (error.error.code === 'provider_error')
            expect(error).toMatchObject({ status_code: 502, is_gateway_error: false });
          else expectGatewayError(error, res.status, error.error.code);
        }
        expect(res.text).toMatch(/302|redirect/i);
      }
    });
  });

  describe('DNS answers are checked inside the connect', () => {
    async function hook(url: string): Promise<HttpResult> {
      const created = await open.gw.http.post('/api/webhooks', { name: uniq('dns-hook'), url }, MGMT);
      expect(created.status, created.text).toBe(201);
      const res = await open.gw.http.post(`/api/webhooks/${created.body.id}/test`, {}, MGMT);
      expect(res.status, res.text).toBe(200);
      return res;
    }

    it('a name resolving to an allowed address is reached (the scripted resolver and the trap work)', async () => {
      const before = trap.connections();
      for (const host of ['loop.ssrf.test', 'vm']) {
        const res = await hook(`http://${host}:${trap.port}/x`);
        expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
      }
      expect(trap.connections()).toBe(before + 2);
    });

    it('a name with any refused address among its answers is refused, and nothing connects', async () => {
      const before = trap.connections();
      const res = await hook(`http://mixed.ssrf.test:${trap.port}/x`);
      expect(res.body.status).toBe('failed');
      expect(JSON.stringify(res.body)).toMatch(WHY.metadata);
      const chat = await SITES.find((s) => s.name.startsWith('provider'))!.attempt(
        open,
        `http://mixed.ssrf.test:${trap.port}/v1`,
      );
      expectGatewayError(chat.body, 502, 'upstream_error');
      expect(chat.body.error.message).toMatch(WHY.metadata);
      expect(trap.connections()).toBe(before);
    });

    it('one lookup per connection: a name rebound between requests never reaches the refused address', async () => {
      const before = trap.connections();
      const lookupsBefore = lookups.filter((h) => h === 'rebind.ssrf.test').length;
      const created = await open.gw.http.post(
        '/api/webhooks',
        { name: uniq('rebind-hook'), url: `http://rebind.ssrf.test:${trap.port}/x` },
        MGMT,
      );
      expect(created.status, created.text).toBe(201);
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await open.gw.http.post(`/api/webhooks/${created.body.id}/test`, {}, MGMT);
        expect(res.status, res.text).toBe(200);
        outcomes.push(
          res.body.status === 'failed' && WHY.metadata.test(JSON.stringify(res.body)) ? 'refused' : res.body.status,
        );
      }
      // Each delivery connects afresh (the trap closes every connection) and looks the name up exactly once: the
      // answer that was checked is the address connected to.
      expect(outcomes).toEqual(['succeeded', 'refused', 'succeeded', 'refused']);
      expect(lookups.filter((h) => h === 'rebind.ssrf.test').length - lookupsBefore).toBe(4);
      expect(trap.connections()).toBe(before + 2);
    });
  });
});
