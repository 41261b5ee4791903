import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialThrottle, SETUP_TOKEN_ACCOUNT } from '../../src/core/auth/credential-throttle.js';
import { ALL_PERMISSIONS, formatPermission } from '../../src/core/auth/permissions.js';
import type { RouteAccess } from '../../src/core/auth/route-access.decorator.js';
import { RouteAccessRegistry } from '../../src/core/auth/route-access.registry.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { openLive, refusedUpgrade } from '../live/live-kit.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { ADMIN_BASIC, ADMIN_PASSWORD, SETUP_HEADER, SETUP_TOKEN, authEnabledConfig, bearer } from './auth-helpers.js';

/** The documented public routes (decisions.md), besides `GET /.well-known/*`. */
const DOCUMENTED_PUBLIC = [
  'GET /health',
  'GET /',
  'GET /api/version',
  'GET /api/session/is-auth-enabled',
  'POST /api/session/login',
].sort();
/**
 * The routes that check a credential of their own (`@RouteCredential`), with the refusal of a request without it:
 * the setup-token exchange and the upstream agents' push callbacks.
 */
const ROUTE_CREDENTIAL_ROUTES: Record<string, string> = {
  'POST /api/session/setup': 'setup_token_required',
  'POST /agents/a2a/:name/push': 'missing_credentials',
};
/** The one management route reached with a virtual key only. */
const QUOTA_ROUTE = 'GET /api/governance/virtual-keys/quota';
/** Governance object routes (issue 11): each must be in the table, so the checks below cover them. */
const GOVERNANCE_OBJECT_ROUTES = [
  'GET /api/governance/teams',
  'POST /api/governance/teams',
  'GET /api/governance/teams/:team_id',
  'PUT /api/governance/teams/:team_id',
  'DELETE /api/governance/teams/:team_id',
  'GET /api/governance/teams/:team_id/customers',
  'POST /api/governance/teams/:team_id/customers',
  'DELETE /api/governance/teams/:team_id/customers/:customer_id',
  'DELETE /api/teams/:team_id/customers/:customer_id',
  'GET /api/governance/customers',
  'POST /api/governance/customers',
  'GET /api/governance/customers/:customer_id',
  'PUT /api/governance/customers/:customer_id',
  'DELETE /api/governance/customers/:customer_id',
  'GET /api/governance/customers/:customer_id/teams',
  'GET /api/governance/budgets',
  'GET /api/governance/rate-limits',
  'PUT /api/governance/virtual-keys/:vk_id/budgets/:budget_id/override',
  'DELETE /api/governance/virtual-keys/:vk_id/budgets/:budget_id/override',
  'GET /api/governance/providers',
  'PUT /api/governance/providers/:provider',
  'DELETE /api/governance/providers/:provider',
  'GET /api/governance/model-configs',
  'POST /api/governance/model-configs',
  'GET /api/governance/model-configs/:mc_id',
  'PUT /api/governance/model-configs/:mc_id',
  'DELETE /api/governance/model-configs/:mc_id',
];
/** Response cache routes (issue 17 §3). */
const CACHE_ROUTES = [
  'GET /api/cache/stats',
  'DELETE /api/cache/clear/:request_id',
  'DELETE /api/cache/clear-by-key/:cache_key',
];
/** Data-plane prefixes: their own auth (virtual keys, per-config tokens), never management, never setup-locked. */
const DATA_PLANE_PREFIXES = ['/v1/', '/agents/a2a/'];

interface Route {
  method: string;
  path: string;
  access: RouteAccess | undefined;
}

/**
 * Pages registered on Fastify directly, outside the guard, holding no data: the API docs and the dashboard's files
 * (test/core/dashboard.e2e-spec.ts; every API call the dashboard makes is checked like any other).
 */
const isStaticPage = (path: string) =>
  path === '/openapi.json' ||
  path === '/docs' ||
  path.startsWith('/docs/') ||
  path === '/ui' ||
  path.startsWith('/ui/');
const isManagement = (path: string) =>
  path.startsWith('/api/') || path === '/metrics' || path === '/ws' || path.startsWith('/ws/');
const isWellKnown = (path: string) => path.startsWith('/.well-known/');
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const permissionOf = (access: RouteAccess | undefined) =>
  access?.kind === 'management' && access.operation
    ? formatPermission({ resource: access.resource, operation: access.operation })
    : null;

/** A concrete URL for a route pattern: parameters and wildcards filled with a probe value. */
function concretePath(path: string): string {
  return path.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, 'route-table-probe').replace(/\*/g, 'probe');
}

function routesOf(gw: TestApp): Route[] {
  const registry = gw.app.get(RouteAccessRegistry);
  const seen = new Map<string, Route>();
  for (const r of gw.routes.routes) {
    if (!seen.has(key(r))) seen.set(key(r), { ...r, access: registry.get(r.method, r.path) });
  }
  return [...seen.values()].sort((a, b) => key(a).localeCompare(key(b)));
}

/**
 * The enterprise-only operations (`x-enterprise: true`) of the running app's OpenAPI document, as route keys. Each
 * must be a registered route, so the checks below reach it.
 */
async function enterpriseOnlyRoutes(gw: TestApp, routes: Route[]): Promise<Set<string>> {
  const res = await fetch(new URL('/openapi.json', gw.baseUrl));
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { paths: Record<string, Record<string, { 'x-enterprise'?: boolean }>> };
  const found = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (operation?.['x-enterprise'] === true)
        found.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    }
  }
  const registered = new Set(routes.map(key));
  expect([...found].filter((k) => !registered.has(k))).toEqual([]);
  return found;
}

/** Every registered route falls in a category one of the checks probes: nothing is left without a case. */
function uncovered(routes: Route[]): string[] {
  return routes
    .filter((r) => !isStaticPage(r.path))
    .filter((r) => {
      const kind = r.access?.kind;
      if (kind === 'management') return !isManagement(r.path); // probed by the management loops only under these paths
      if (kind === 'public') return false; // public checks
      if (kind === 'route-credential') return !(key(r) in ROUTE_CREDENTIAL_ROUTES); // probed one by one
      if (kind === 'virtual-key') return isManagement(r.path) && key(r) !== QUOTA_ROUTE; // data plane, or the quota route
      return true; // no declaration
    })
    .map(key);
}

async function call(gw: TestApp, route: Route, headers: Record<string, string> = {}, body = '{}') {
  const hasBody = !['GET', 'DELETE', 'HEAD', 'OPTIONS'].includes(route.method);
  try {
    const res = await fetch(new URL(concretePath(route.path), gw.baseUrl), {
      method: route.method,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
      body: hasBody ? body : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let code: string | undefined;
    try {
      const error = (JSON.parse(text) as { error?: { code?: unknown; details?: Array<{ reason?: string }> } }).error;
      // Google's shape (`/genai`) has a numeric code; our code is its ErrorInfo reason.
      code = typeof error?.code === 'string' ? error.code : error?.details?.[0]?.reason;
    } catch {
      code = undefined;
    }
    return { status: res.status, code, text };
  } catch (err) {
    // A handler still working after the guard let it through (a long poll or stream): not a refusal.
    if ((err as Error).name === 'TimeoutError') return { status: 0, code: 'timeout', text: '' };
    throw err;
  }
}

/** Runs `probe` over every route with a little concurrency; collects mismatches instead of stopping at the first. */
let queue: Promise<unknown> = Promise.resolve();
/** Runs `task` after every task queued before it (probes of different routes otherwise run 8 at a time). */
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

async function eachRoute(routes: Route[], probe: (route: Route) => Promise<string | undefined>): Promise<string[]> {
  const problems: string[] = [];
  for (let i = 0; i < routes.length; i += 8) {
    const batch = await Promise.all(routes.slice(i, i + 8).map((r) => probe(r)));
    for (const p of batch) if (p) problems.push(p);
  }
  return problems;
}

describe(`route table, open-source edition under the setup lock (${RUN_MODE})`, () => {
  let gw: TestApp;
  let routes: Route[] = [];
  let virtualKey: string;
  let enterpriseOnly = new Set<string>();
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    routes = routesOf(gw);
    enterpriseOnly = await enterpriseOnlyRoutes(gw, routes);
    const vk = await gw.http.post('/api/governance/virtual-keys', { name: 'route-table' }, { headers: SETUP_HEADER });
    expect(vk.status).toBe(201);
    virtualKey = vk.body.virtual_key.value;
  });
  afterAll(() => gw?.close());

  it("the table holds the gateway's routes", () => {
    expect(routes.length).toBeGreaterThan(5);
    expect(routes.map(key)).toEqual(
      expect.arrayContaining([
        ...DOCUMENTED_PUBLIC,
        ...Object.keys(ROUTE_CREDENTIAL_ROUTES),
        'GET /metrics',
        'GET /ws',
        'POST /api/session/ws-ticket',
      ]),
    );
    expect(routes.map(key)).toEqual(expect.arrayContaining(GOVERNANCE_OBJECT_ROUTES));
    // Each needs a management credential and its permission.
    expect(routes.map(key)).toEqual(expect.arrayContaining(CACHE_ROUTES));
    const access = [...GOVERNANCE_OBJECT_ROUTES, ...CACHE_ROUTES].map(
      (r) => routes.find((route) => key(route) === r)?.access?.kind,
    );
    expect(new Set(access)).toEqual(new Set(['management']));
  });
  declarationChecksLazy(() => routes);

  it('public routes answer without credentials (not 401/403)', async () => {
    const problems = await eachRoute(
      routes.filter((r) => r.access?.kind === 'public' && isManagement(r.path) && r.method === 'GET'),
      async (r) => {
        const res = await call(gw, r);
        return [401, 403].includes(res.status) ? `${key(r)}: ${res.status}` : undefined;
      },
    );
    expect(problems).toEqual([]);
  });

  it('every management route: 401 without credentials, 401 with a virtual key, 403 with a wrong setup token', async () => {
    const management = routes.filter((r) => isManagement(r.path) && r.access?.kind === 'management');
    expect(management.length).toBeGreaterThan(3);
    const problems = await eachRoute(management, async (r) => {
      const none = await call(gw, r);
      if (none.status !== 401 || none.code !== 'setup_token_required')
        return `${key(r)} none: ${none.status} ${none.code}`;
      const vk = await call(gw, r, bearer(virtualKey));
      if (vk.status !== 401 || vk.code !== 'virtual_key_not_accepted') return `${key(r)} vk: ${vk.status} ${vk.code}`;
      const apiKey = await call(gw, r, { 'x-api-key': virtualKey });
      if (apiKey.status !== 401) return `${key(r)} x-api-key: ${apiKey.status}`;
      // Wrong tokens count against the shared password throttle (5 per window): one at a time, each from a clean count.
      const wrong = await oneAtATime(async () => {
        await gw.app.get(CredentialThrottle).forgive({ account: SETUP_TOKEN_ACCOUNT, address: '127.0.0.1' });
        return call(gw, r, { 'x-gateway-setup-token': 'definitely-wrong' });
      });
      if (wrong.status !== 403 || wrong.code !== 'setup_token_invalid') return `${key(r)} wrong: ${wrong.status}`;
      const right = await call(gw, r, SETUP_HEADER);
      if ([401, 403].includes(right.status)) return `${key(r)} right token: ${right.status} ${right.code}`;
      // Enterprise-only operations answer 404 `enterprise_only` in oss, after the lock; nothing else does.
      if (enterpriseOnly.has(key(r)) !== (right.status === 404 && right.code === 'enterprise_only')) {
        return `${key(r)} right token: ${right.status} ${right.code} (enterprise-only: ${enterpriseOnly.has(key(r))})`;
      }
      for (const res of [none, vk, apiKey, wrong, right]) {
        if (res.text.includes(SETUP_TOKEN)) return `${key(r)}: the setup token is in a response body`;
      }
      return undefined;
    });
    expect(problems).toEqual([]);
  }, 180_000);

  it('data-plane routes are never behind the setup lock', async () => {
    const dataPlane = routes.filter(
      (r) =>
        !isManagement(r.path) &&
        !isStaticPage(r.path) &&
        r.path !== '/health' &&
        ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method),
    );
    const problems = await eachRoute(dataPlane, async (r) => {
      const res = await call(gw, r);
      return res.code?.startsWith('setup_token') ? `${key(r)}: ${res.status} ${res.code}` : undefined;
    });
    expect(problems).toEqual([]);
  });

  it('every route refuses a missing or wrong credential before parsing its body (inference routes included)', async () => {
    // A body no parser accepts: a route that read it before the credential would answer 400 or 415, not 401/403.
    const unparsable = { 'content-type': 'application/json' };
    const guarded = routes.filter(
      (r) => !isStaticPage(r.path) && (r.access?.kind === 'management' || r.access?.kind === 'virtual-key'),
    );
    expect(guarded.filter((r) => r.path.startsWith('/v1/') && r.method === 'POST').length).toBeGreaterThan(20);
    const problems = await eachRoute(guarded, async (r) => {
      const management = r.access?.kind === 'management';
      const none = await call(gw, r, unparsable, '{"unterminated');
      const expectedNone = management ? 'setup_token_required' : 'missing_credentials';
      if (none.status !== 401 || none.code !== expectedNone) return `${key(r)} none: ${none.status} ${none.code}`;
      if (management) return undefined; // the wrong setup token is probed above, one at a time (its throttle)
      const wrong = await call(gw, r, { ...unparsable, ...bearer('sk-gw-not-a-real-key-000000000000000') }, '{"x');
      return wrong.status === 401 && wrong.code === 'invalid_credentials'
        ? undefined
        : `${key(r)} wrong key: ${wrong.status} ${wrong.code}`;
    });
    expect(problems).toEqual([]);
  }, 180_000);

  it('the routes with a credential of their own refuse a missing or wrong one before parsing the body', async () => {
    const own = routes.filter((r) => r.access?.kind === 'route-credential');
    expect(own.map(key).sort()).toEqual(Object.keys(ROUTE_CREDENTIAL_ROUTES).sort());
    const unparsable = { 'content-type': 'application/json' };
    for (const r of own) {
      const none = await call(gw, r, unparsable, '{"unterminated');
      expect({ route: key(r), status: none.status, code: none.code }).toEqual({
        route: key(r),
        status: 401,
        code: ROUTE_CREDENTIAL_ROUTES[key(r)],
      });
    }
    const push = own.find((r) => r.path === '/agents/a2a/:name/push')!;
    const wrong = await call(gw, push, { ...unparsable, ...bearer('not-a-minted-token') }, '{"x');
    expect([wrong.status, wrong.code]).toEqual([401, 'invalid_credentials']);
  });

  it('the quota route takes a virtual key only', async () => {
    const quota = routes.find((r) => key(r) === QUOTA_ROUTE);
    expect(quota?.access).toEqual({ kind: 'virtual-key' });
    expect((await call(gw, quota!)).status).toBe(401);
    expect((await call(gw, quota!, SETUP_HEADER)).status).toBe(401);
    expect((await call(gw, quota!, bearer(virtualKey))).status).toBe(200);
    expect((await call(gw, quota!, { 'x-api-key': virtualKey })).status).toBe(200);
    expect((await call(gw, quota!, { 'x-gateway-vk': virtualKey })).status).toBe(200);
  });

  it('every registered route has a case in the checks above', () => {
    expect(uncovered(routes)).toEqual([]);
    // Issue 13-17 routes, each reached by the management checks above.
    expect(routes.map(key)).toEqual(
      expect.arrayContaining([
        'GET /api/plugins',
        'GET /api/config',
        'PUT /api/config',
        'POST /api/session/ws-ticket',
        'GET /ws',
        'GET /api/mcp-logs',
        'GET /api/circuit-breaker/policies',
        'GET /api/governance/access-profiles',
        'GET /api/cache/stats',
      ]),
    );
    expect(enterpriseOnly.size).toBeGreaterThan(0);
  });

  it('the /ws upgrade: refused (401) without the setup token or with a virtual key; opens with it or a ticket', async () => {
    const none = await refusedUpgrade(gw);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('setup_token_required');
    const vk = await refusedUpgrade(gw, { headers: bearer(virtualKey) });
    expect(vk.status).toBe(401);
    expect(vk.body.error.code).toBe('virtual_key_not_accepted');
    (await openLive(gw, { headers: SETUP_HEADER })).close();
    const ticket = await gw.http.post('/api/session/ws-ticket', {}, { headers: SETUP_HEADER });
    expect(ticket.status, ticket.text).toBe(200);
    (await openLive(gw, { ticket: ticket.body.ticket })).close();
    const reused = await refusedUpgrade(gw, { ticket: ticket.body.ticket });
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('invalid_credentials');
  });

  it('no setup token or key value in any log line', () => {
    expect(gw.logs.text()).not.toContain(SETUP_TOKEN);
    expect(gw.logs.text()).not.toContain(virtualKey);
  });
});

describe(`route table, enterprise edition with dashboard auth (${RUN_MODE})`, () => {
  let gw: TestApp;
  let routes: Route[] = [];
  let virtualKey: string;
  /** Per permission: a key holding only it, and a key holding every permission but it. */
  const keys = new Map<string, { holding: string; lacking: string }>();
  let noScopeKey: string;

  async function createKey(name: string, scopes: readonly string[]): Promise<string> {
    const res = await gw.http.post('/api/management-keys', { name, scopes }, { headers: ADMIN_BASIC });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.value as string;
  }

  beforeAll(async () => {
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }) });
    routes = routesOf(gw);
    const vk = await gw.http.post('/api/governance/virtual-keys', { name: 'route-table' }, { headers: ADMIN_BASIC });
    expect(vk.status).toBe(201);
    virtualKey = vk.body.virtual_key.value;
    noScopeKey = await createKey('no-scopes', []);
    const permissions = new Set(routes.map((r) => permissionOf(r.access)).filter((p): p is string => p !== null));
    for (const permission of permissions) {
      keys.set(permission, {
        holding: await createKey(`holding ${permission}`, [permission]),
        lacking: await createKey(
          `lacking ${permission}`,
          ALL_PERMISSIONS.filter((p) => p !== permission),
        ),
      });
    }
  }, 120_000);
  afterAll(() => gw?.close());

  it('every route carries a declaration', () => {
    expect(routes.filter((r) => !isStaticPage(r.path) && !r.access).map(key)).toEqual([]);
  });

  it('every management route: 401 without credentials and with a virtual key; 403 without its permission', async () => {
    const management = routes.filter((r) => isManagement(r.path) && r.access?.kind === 'management');
    const problems = await eachRoute(management, async (r) => {
      const none = await call(gw, r);
      if (none.status !== 401) return `${key(r)} none: ${none.status} ${none.code}`;
      const vk = await call(gw, r, bearer(virtualKey));
      if (vk.status !== 401 || vk.code !== 'virtual_key_not_accepted') return `${key(r)} vk: ${vk.status} ${vk.code}`;
      const setup = await call(gw, r, SETUP_HEADER);
      if (setup.status !== 401) return `${key(r)} setup header: ${setup.status}`;
      const permission = permissionOf(r.access);
      if (permission === null) {
        // @Authenticated: any management principal.
        const any = await call(gw, r, bearer(noScopeKey));
        return [401, 403].includes(any.status) ? `${key(r)} authenticated: ${any.status} ${any.code}` : undefined;
      }
      const pair = keys.get(permission)!;
      const lacking = await call(gw, r, bearer(pair.lacking));
      if (lacking.status !== 403 || lacking.code !== 'permission_denied' || !lacking.text.includes(permission)) {
        return `${key(r)} lacking ${permission}: ${lacking.status} ${lacking.code}`;
      }
      const holding = await call(gw, r, bearer(pair.holding));
      if ([401, 403].includes(holding.status) || holding.code === 'enterprise_only')
        return `${key(r)} holding ${permission}: ${holding.status} ${holding.code}`;
      for (const res of [none, vk, setup, lacking, holding]) {
        if (res.text.includes(ADMIN_PASSWORD)) return `${key(r)}: the admin password is in a response body`;
      }
      return undefined;
    });
    expect(problems).toEqual([]);
  }, 300_000);

  it('routing rules and pricing overrides carry their permissions (issue 11)', () => {
    const expected: Record<string, string> = {
      'GET /api/governance/routing-rules': 'RoutingRules:View',
      'POST /api/governance/routing-rules': 'RoutingRules:Create',
      'GET /api/governance/routing-rules/:rule_id': 'RoutingRules:View',
      'PUT /api/governance/routing-rules/:rule_id': 'RoutingRules:Update',
      'DELETE /api/governance/routing-rules/:rule_id': 'RoutingRules:Delete',
      'GET /api/governance/pricing-overrides': 'Governance:View',
      'POST /api/governance/pricing-overrides': 'Governance:Create',
      'GET /api/governance/pricing-overrides/:id': 'Governance:View',
      'PUT /api/governance/pricing-overrides/:id': 'Governance:Update',
      'DELETE /api/governance/pricing-overrides/:id': 'Governance:Delete',
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((k) => [k, permissionOf(routes.find((r) => key(r) === k)?.access)]),
    );
    expect(actual).toEqual(expected);
  });

  it('runtime config routes carry their permissions, so the checks above cover them (issue 17)', () => {
    const expected: Record<string, string> = {
      'GET /api/config': 'Settings:View',
      'PUT /api/config': 'Settings:Update',
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((k) => [k, permissionOf(routes.find((r) => key(r) === k)?.access)]),
    );
    expect(actual).toEqual(expected);
  });

  it('circuit breaker routes carry their permissions, so the checks above cover them', () => {
    const expected: Record<string, string> = {
      'GET /api/circuit-breaker/policies': 'CircuitBreaker:View',
      'POST /api/circuit-breaker/policies': 'CircuitBreaker:Create',
      'GET /api/circuit-breaker/policies/:name': 'CircuitBreaker:View',
      'PUT /api/circuit-breaker/policies/:name': 'CircuitBreaker:Update',
      'DELETE /api/circuit-breaker/policies/:name': 'CircuitBreaker:Delete',
      'GET /api/circuit-breaker/state': 'CircuitBreaker:View',
      'DELETE /api/circuit-breaker/state/:key': 'CircuitBreaker:Delete',
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((k) => [k, permissionOf(routes.find((r) => key(r) === k)?.access)]),
    );
    expect(actual).toEqual(expected);
  });

  it('the live channel and its tickets need Dashboard:View (docs/live-channel.md), so the checks above cover them', () => {
    const expected: Record<string, string> = {
      'GET /ws': 'Dashboard:View',
      'POST /api/session/ws-ticket': 'Dashboard:View',
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((k) => [k, permissionOf(routes.find((r) => key(r) === k)?.access)]),
    );
    expect(actual).toEqual(expected);
  });

  it('access profile routes carry their permissions, so the checks above cover them', () => {
    const expected: Record<string, string> = {
      'POST /api/governance/access-profiles': 'AccessProfiles:Create',
      'GET /api/governance/access-profiles/:profile_id': 'AccessProfiles:View',
      'GET /api/governance/access-profiles': 'AccessProfiles:View',
      'PUT /api/governance/access-profiles/:profile_id': 'AccessProfiles:Update',
      'DELETE /api/governance/access-profiles/:profile_id': 'AccessProfiles:Delete',
      'PUT /api/governance/access-profiles/:profile_id/activate': 'AccessProfiles:Update',
      'PUT /api/governance/access-profiles/:profile_id/deactivate': 'AccessProfiles:Update',
      'POST /api/governance/access-profiles/:profile_id/clone': 'AccessProfiles:Create',
      'GET /api/governance/access-profiles/:profile_id/versions': 'AccessProfiles:View',
      'GET /api/governance/access-profiles/:profile_id/versions/:version': 'AccessProfiles:View',
      'GET /api/access-profiles/:profile_id/versions': 'AccessProfiles:View',
      'POST /api/governance/users/:user_id/access-profiles': 'AccessProfiles:Create',
      'GET /api/governance/users/:user_id/access-profiles': 'AccessProfiles:View',
      'DELETE /api/governance/users/:user_id/access-profiles/:profile_id': 'AccessProfiles:Delete',
      'POST /api/governance/access-profiles/:profile_id/roles': 'AccessProfiles:Create',
      'DELETE /api/governance/access-profiles/:profile_id/roles/:role_id': 'AccessProfiles:Delete',
      'POST /api/governance/access-profiles/:profile_id/propagate': 'AccessProfiles:Create',
      'POST /api/access-profiles/:profile_id/propagate': 'AccessProfiles:Create',
      'GET /api/governance/access-profiles/propagations/:job_id': 'AccessProfiles:View',
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((k) => [k, permissionOf(routes.find((r) => key(r) === k)?.access)]),
    );
    expect(actual).toEqual(expected);
  });

  it('plugin routes carry their permissions, so the checks above cover them (issue 17)', () => {
    const expected: Record<string, string> = {
      'GET /api/plugins': 'Plugins:View',
      'GET /api/plugins/:name': 'Plugins:View',
      'PUT /api/plugins/:name': 'Plugins:Update',
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((k) => [k, permissionOf(routes.find((r) => key(r) === k)?.access)]),
    );
    expect(actual).toEqual(expected);
  });

  it('every registered route has a case in the checks above', () => {
    expect(uncovered(routes)).toEqual([]);
  });

  it('the /ws upgrade: 401 without credentials or with a virtual key, 403 without Dashboard:View, opens with it', async () => {
    const none = await refusedUpgrade(gw);
    expect([none.status, none.body.error.code]).toEqual([401, 'missing_credentials']);
    const vk = await refusedUpgrade(gw, { headers: bearer(virtualKey) });
    expect([vk.status, vk.body.error.code]).toEqual([401, 'virtual_key_not_accepted']);
    const lacking = await refusedUpgrade(gw, { headers: bearer(keys.get('Dashboard:View')!.lacking) });
    expect([lacking.status, lacking.body.error.code]).toEqual([403, 'permission_denied']);
    expect(lacking.body.error.message).toContain('Dashboard:View');
    (await openLive(gw, { headers: bearer(keys.get('Dashboard:View')!.holding) })).close();
  });

  it('the local admin bypasses permission checks', async () => {
    const management = routes.filter((r) => isManagement(r.path) && r.access?.kind === 'management');
    const problems = await eachRoute(
      management.filter((r) => r.method === 'GET'),
      async (r) => {
        const res = await call(gw, r, ADMIN_BASIC);
        return [401, 403].includes(res.status) ? `${key(r)}: ${res.status} ${res.code}` : undefined;
      },
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it('the quota route takes a virtual key only', async () => {
    const quota = routes.find((r) => key(r) === QUOTA_ROUTE)!;
    expect((await call(gw, quota)).status).toBe(401);
    expect((await call(gw, quota, ADMIN_BASIC)).status).toBe(401);
    expect((await call(gw, quota, bearer(virtualKey))).status).toBe(200);
  });
});

describe(`route table, open-source edition with dashboard auth (${RUN_MODE})`, () => {
  let gw: TestApp;
  let routes: Route[] = [];
  let virtualKey: string;
  let enterpriseOnly = new Set<string>();
  beforeAll(async () => {
    gw = await startTestApp({ config: authEnabledConfig() });
    routes = routesOf(gw);
    enterpriseOnly = await enterpriseOnlyRoutes(gw, routes);
    const vk = await gw.http.post('/api/governance/virtual-keys', { name: 'route-table' }, { headers: ADMIN_BASIC });
    expect(vk.status).toBe(201);
    virtualKey = vk.body.virtual_key.value;
  });
  afterAll(() => gw?.close());

  it('every management route: 401 without credentials, with a virtual key or with the setup token; the admin gets through, to 404 enterprise_only on enterprise routes', async () => {
    const management = routes.filter((r) => isManagement(r.path) && r.access?.kind === 'management');
    const problems = await eachRoute(management, async (r) => {
      const none = await call(gw, r);
      if (none.status !== 401 || none.code !== 'missing_credentials')
        return `${key(r)} none: ${none.status} ${none.code}`;
      const vk = await call(gw, r, bearer(virtualKey));
      if (vk.status !== 401 || vk.code !== 'virtual_key_not_accepted') return `${key(r)} vk: ${vk.status} ${vk.code}`;
      // With dashboard auth active the setup token opens nothing (docs/auth.md, rule 3 applies only without it). Its
      // check still counts against the client address's throttle: one at a time, from a clean count, the admin after.
      const [setup, admin] = await oneAtATime(async () => {
        const throttle = gw.app.get(CredentialThrottle);
        await throttle.forgive({ account: SETUP_TOKEN_ACCOUNT, address: '127.0.0.1' });
        const withToken = await call(gw, r, SETUP_HEADER);
        await throttle.forgive({ account: SETUP_TOKEN_ACCOUNT, address: '127.0.0.1' });
        return [withToken, await call(gw, r, ADMIN_BASIC)] as const;
      });
      if (setup.status !== 401) return `${key(r)} setup header: ${setup.status} ${setup.code}`;
      if ([401, 403].includes(admin.status)) return `${key(r)} admin: ${admin.status} ${admin.code}`;
      if (enterpriseOnly.has(key(r)) !== (admin.status === 404 && admin.code === 'enterprise_only')) {
        return `${key(r)} admin: ${admin.status} ${admin.code} (enterprise-only: ${enterpriseOnly.has(key(r))})`;
      }
      for (const res of [none, vk, setup, admin]) {
        if (res.text.includes(ADMIN_PASSWORD)) return `${key(r)}: the admin password is in a response body`;
      }
      return undefined;
    });
    expect(problems).toEqual([]);
  }, 180_000);

  it('the /ws upgrade: 401 without credentials, opens for the admin', async () => {
    await gw.app.get(CredentialThrottle).forgive({ account: SETUP_TOKEN_ACCOUNT, address: '127.0.0.1' });
    const none = await refusedUpgrade(gw);
    expect([none.status, none.body.error.code]).toEqual([401, 'missing_credentials']);
    (await openLive(gw, { headers: ADMIN_BASIC })).close();
  });
});

describe(`route table, setup lock without a configured setup token (${RUN_MODE})`, () => {
  let gw: TestApp;
  let routes: Route[] = [];
  beforeAll(async () => {
    gw = await startTestApp();
    routes = routesOf(gw);
  });
  afterAll(() => gw?.close());

  it('every management route: 401 setup_token_required without the header, 403 setup_token_invalid with any', async () => {
    const management = routes.filter((r) => isManagement(r.path) && r.access?.kind === 'management');
    const problems = await eachRoute(management, async (r) => {
      const none = await call(gw, r);
      if (none.status !== 401 || none.code !== 'setup_token_required')
        return `${key(r)} none: ${none.status} ${none.code}`;
      const any = await oneAtATime(async () => {
        await gw.app.get(CredentialThrottle).forgive({ account: SETUP_TOKEN_ACCOUNT, address: '127.0.0.1' });
        return call(gw, r, SETUP_HEADER);
      });
      if (any.status !== 403 || any.code !== 'setup_token_invalid')
        return `${key(r)} header: ${any.status} ${any.code}`;
      return undefined;
    });
    expect(problems).toEqual([]);
  }, 180_000);
});

/** The declaration checks, reading the routes when each test runs. */
function declarationChecksLazy(get: () => Route[]): void {
  it('every route carries a declaration (@Public, @Permission, @Authenticated or @VirtualKeyAuth)', () => {
    expect(
      get()
        .filter((r) => !isStaticPage(r.path) && !r.access)
        .map(key),
    ).toEqual([]);
  });
  it('the public routes are exactly the documented ones, and /.well-known/* is GET only', () => {
    const publicRoutes = get().filter((r) => r.access?.kind === 'public');
    const documented = publicRoutes
      .filter((r) => !isWellKnown(r.path) && !DATA_PLANE_PREFIXES.some((p) => r.path.startsWith(p)))
      .map(key)
      .sort();
    expect(documented).toEqual(DOCUMENTED_PUBLIC);
    expect(publicRoutes.filter((r) => isWellKnown(r.path) && r.method !== 'GET').map(key)).toEqual([]);
  });
  it('management routes need management credentials (virtual keys only on the quota route)', () => {
    const wrong = get()
      .filter((r) => isManagement(r.path) && r.access && r.access.kind !== 'public')
      .filter((r) => (r.access?.kind === 'virtual-key') !== (key(r) === QUOTA_ROUTE))
      .map(key);
    expect(wrong).toEqual([]);
  });
}
