import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGatewayClient,
  GatewayApiError,
  GatewayClient,
  type GatewayClientOptions,
} from '../../clients/typescript/src/index.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, authEnabledConfig } from '../auth/auth-helpers.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The fetch every test client uses, counting the requests that reached the network (a pass-through, not a mock). */
function countingFetch(): { fetch: NonNullable<GatewayClientOptions['fetch']>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (request) => {
      calls.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return globalThis.fetch(request);
    },
  };
}

/**
 * A load balancer in front of the gateway that answers 503 with `Retry-After: 1` to the first `refuse` requests (as
 * one does while a replica restarts) and passes every other request through to the gateway unchanged.
 */
function drainingBalancer(
  target: string,
  refuse: number,
): Promise<{ url: string; seen: () => number; close: () => Promise<void> }> {
  let seen = 0;
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    seen += 1;
    if (seen <= refuse) {
      req.resume();
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain' }).end('replica restarting');
      return;
    }
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      ok({
        url: `http://127.0.0.1:${address.port}`,
        seen: () => seen,
        close: () => new Promise((done) => server.close(() => done())),
      });
    }),
  );
}

describe(`the typed client against the gateway (${RUN_MODE})`, () => {
  let gw: TestApp;
  const admin = () => ({ basic: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  beforeAll(async () => {
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }) });
  });
  afterAll(() => gw?.close());

  it('pages through every virtual key lazily, one request per page', async () => {
    const client = createGatewayClient({ baseUrl: gw.baseUrl, auth: admin() });
    const names = Array.from({ length: 230 }, (_, i) => `page-key-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 10) {
      await Promise.all(names.slice(i, i + 10).map((name) => client.virtualKeys.create({ name })));
    }
    const counting = countingFetch();
    const paged = createGatewayClient({ baseUrl: gw.baseUrl, auth: admin(), pageSize: 100, fetch: counting.fetch });
    const seen: string[] = [];
    for await (const vk of paged.virtualKeys.list({ sort_by: 'name', order: 'asc' })) seen.push(vk.name);
    expect(seen).toEqual(names);
    expect(counting.calls).toEqual([
      'GET /api/governance/virtual-keys?sort_by=name&order=asc&limit=100&offset=0',
      'GET /api/governance/virtual-keys?sort_by=name&order=asc&limit=100&offset=100',
      'GET /api/governance/virtual-keys?sort_by=name&order=asc&limit=100&offset=200',
    ]);
    // Stopping early asks for no further page.
    counting.calls.length = 0;
    for await (const vk of paged.virtualKeys.list()) if (vk) break;
    expect(counting.calls).toHaveLength(1);
    const pages = [];
    for await (const page of paged.virtualKeys.list().byPage()) pages.push([page.items.length, page.total]);
    expect(pages).toEqual([
      [100, 230],
      [100, 230],
      [30, 230],
    ]);
  });

  it('turns refusals into GatewayApiError with the GatewayError fields', async () => {
    const client = createGatewayClient({ baseUrl: gw.baseUrl, auth: admin() });
    await client.teams.create({ name: 'dup-team' });
    const conflict = await client.teams.create({ name: 'dup-team' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(GatewayApiError);
    expect(conflict).toMatchObject({
      status: 409,
      type: 'conflict',
      code: 'already_exists',
      param: 'name',
      isGatewayError: true,
      method: 'POST',
      message: 'A team named "dup-team" already exists',
    });
    expect((conflict as GatewayApiError).eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect((conflict as GatewayApiError).toJSON()).toMatchObject({
      status_code: 409,
      error: { code: 'already_exists' },
    });
    const invalid = await client.teams
      .create({ name: 'x', budgets: [{ max_limit: -1, reset_duration: '1d' }] })
      .catch((e) => e);
    expect(invalid).toMatchObject({
      status: 400,
      code: 'validation_failed',
      param: 'budgets[0].max_limit',
      errorType: 'caller_invalid_request',
    });
    const anonymous = await createGatewayClient({ baseUrl: gw.baseUrl })
      .teams.list()
      .toArray()
      .catch((e) => e);
    expect(anonymous).toMatchObject({ status: 401, code: 'missing_credentials' });
    const missing = await client.teams.get('00000000-0000-4000-8000-000000000000').catch((e) => e);
    expect(missing).toMatchObject({ status: 404, code: 'team_not_found' });
  });

  it('authenticates with a management key (its scopes), a session and Basic', async () => {
    const admin_ = createGatewayClient({ baseUrl: gw.baseUrl, auth: admin() });
    const key = await admin_.managementKeys.create({ name: 'reader', scopes: ['Teams:View'] });
    const reader = createGatewayClient({ baseUrl: gw.baseUrl, auth: { apiKey: key.value } });
    expect((await reader.whoami()).principal).toMatchObject({ kind: 'management_key', name: 'reader' });
    expect((await reader.teams.list().toArray()).map((t) => t.name)).toContain('dup-team');
    expect(
      await reader.customers
        .list()
        .toArray()
        .catch((e) => e),
    ).toMatchObject({ status: 403, code: 'permission_denied' });
    const session = await GatewayClient.login({ baseUrl: gw.baseUrl }, ADMIN_USERNAME, ADMIN_PASSWORD);
    expect((await session.whoami()).principal).toMatchObject({ kind: 'local_admin', auth_method: 'session' });
    await session.logout();
    expect(await session.whoami().catch((e) => e)).toMatchObject({ status: 401 });
  });

  it('waits out a 429 within maxDelayMs only: the login throttle answers with its Retry-After', async () => {
    const counting = countingFetch();
    const wrong = createGatewayClient({
      baseUrl: gw.baseUrl,
      auth: { basic: { username: 'throttled', password: 'wrong-password-1' } },
      retry: { maxRetries: 3, maxDelayMs: 2_000 },
      fetch: counting.fetch,
    });
    for (let i = 0; i < 5; i += 1)
      expect(
        await wrong
          .version()
          .then(() => wrong.whoami())
          .catch((e) => e.code),
      ).toBe('invalid_credentials');
    counting.calls.length = 0;
    const throttled = await wrong.whoami().catch((e: unknown) => e);
    expect(throttled).toMatchObject({ status: 429, code: 'login_throttled' });
    // The throttle's window is minutes long: more than maxDelayMs, so the answer is not waited for.
    expect((throttled as GatewayApiError).retryAfterMs).toBeGreaterThan(2_000);
    expect(counting.calls).toEqual(['GET /api/governance/users/me/permissions']);
  });

  it('sends a refused request again after Retry-After (503 from a balancer), body and all, once applied', async () => {
    const balancer = await drainingBalancer(gw.baseUrl, 2);
    try {
      const client = createGatewayClient({ baseUrl: balancer.url, auth: admin(), retry: { maxRetries: 3 } });
      const started = Date.now();
      const { team } = await client.teams.create({
        name: 'after-retry',
        budgets: [{ max_limit: 1, reset_duration: '1d' }],
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(team).toMatchObject({ name: 'after-retry', budgets: [expect.objectContaining({ max_limit: 1 })] });
      expect(balancer.seen()).toBe(3);
      const teams = await createGatewayClient({ baseUrl: gw.baseUrl, auth: admin() }).teams.list().toArray();
      expect(teams.filter((t) => t.name === 'after-retry')).toHaveLength(1);
      // Without retries the 503 surfaces as an error whose body was not a GatewayError.
      const plain = await drainingBalancer(gw.baseUrl, 1);
      const once = createGatewayClient({ baseUrl: plain.url, auth: admin(), retry: false });
      expect(await once.version().catch((e) => e)).toMatchObject({
        status: 503,
        code: 'http_503',
        message: 'replica restarting',
        retryAfterMs: 1000,
      });
      await plain.close();
    } finally {
      await balancer.close();
    }
  });
});
