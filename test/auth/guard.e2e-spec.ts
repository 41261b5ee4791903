import { Controller, Get, Module, Post } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentPrincipal, type Principal } from '../../src/core/auth/principal.js';
import {
  Authenticated,
  EnterpriseOnly,
  Permission,
  VirtualKeyAuth,
} from '../../src/core/auth/route-access.decorator.js';
import { RouteAccessRegistry } from '../../src/core/auth/route-access.registry.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { ADMIN_BASIC, SETUP_HEADER, SETUP_TOKEN, authEnabledConfig, bearer, expectError } from './auth-helpers.js';

function view(p: Principal | undefined) {
  if (!p) return { principal: null };
  return {
    kind: p.kind,
    auth_method: p.authMethod,
    name: p.name ?? null,
    all: p.permissions === 'all',
    virtual_key_id: p.virtualKey?.id ?? null,
  };
}

/** Test-only routes exercising each declaration. */
@Controller('api/guard-probe')
class ProbeController {
  @Get('undeclared')
  undeclared(): string {
    return 'should never be served';
  }

  @Get('whoami')
  @Authenticated()
  whoami(@CurrentPrincipal() p: Principal) {
    return view(p);
  }

  @Get('enterprise')
  @Permission('CircuitBreaker', 'View')
  @EnterpriseOnly()
  enterprise() {
    return { ok: true };
  }
}

@Controller('api/guard-probe/class')
@Permission('Webhooks', 'Update')
class ClassLevelController {
  @Post()
  write() {
    return { ok: true };
  }

  @Get()
  @Permission('Webhooks', 'View')
  read() {
    return { ok: true };
  }
}

@Controller('v1/guard-probe')
class DataPlaneController {
  @Get('required')
  @VirtualKeyAuth()
  required(@CurrentPrincipal() p: Principal) {
    return view(p);
  }

  @Get('optional')
  @VirtualKeyAuth({ optional: true })
  optional(@CurrentPrincipal() p?: Principal) {
    return view(p);
  }
}

@Module({ controllers: [ProbeController, ClassLevelController, DataPlaneController] })
class ProbeModule {}

describe(`guard declarations (${RUN_MODE})`, () => {
  let gw: TestApp;
  let vk: { id: string; value: string };
  let webhooksViewKey: string;
  beforeAll(async () => {
    gw = await startTestApp({ config: authEnabledConfig({ edition: 'enterprise' }), extraModules: [ProbeModule] });
    const created = await gw.http.post('/api/governance/virtual-keys', { name: 'probe' }, { headers: ADMIN_BASIC });
    expect(created.status).toBe(201);
    vk = created.body.virtual_key;
    const key = await gw.http.post(
      '/api/management-keys',
      { name: 'webhooks-viewer', scopes: ['Webhooks:View'] },
      { headers: ADMIN_BASIC },
    );
    expect(key.status).toBe(201);
    webhooksViewKey = key.body.value;
  });
  afterAll(() => gw?.close());

  it('a route without a declaration is refused (even for the admin), logged, and visible to the route table', async () => {
    expectError(await gw.http.get('/api/guard-probe/undeclared', { headers: ADMIN_BASIC }), 403, 'permission_denied');
    expect(gw.app.get(RouteAccessRegistry).get('GET', '/api/guard-probe/undeclared')).toBeUndefined();
    const line = gw.logs.records().find((r) => String(r.msg).includes('no access declaration'));
    expect(line).toMatchObject({ level: 'error', route: '/api/guard-probe/undeclared' });
  });

  it('a class-level declaration applies to methods without their own', async () => {
    const registry = gw.app.get(RouteAccessRegistry);
    expect(registry.get('POST', '/api/guard-probe/class')).toEqual({
      kind: 'management',
      resource: 'Webhooks',
      operation: 'Update',
    });
    expect(registry.get('GET', '/api/guard-probe/class')).toMatchObject({ operation: 'View' });
    expect((await gw.http.get('/api/guard-probe/class', { headers: bearer(webhooksViewKey) })).status).toBe(200);
    const denied = await gw.http.post('/api/guard-probe/class', {}, { headers: bearer(webhooksViewKey) });
    expectError(denied, 403, 'permission_denied');
    expect(denied.body.error.message).toContain('Webhooks:Update');
  });

  it('request.principal is set for handlers', async () => {
    expect((await gw.http.get('/api/guard-probe/whoami', { headers: ADMIN_BASIC })).body).toEqual({
      kind: 'local_admin',
      auth_method: 'basic',
      name: 'admin',
      all: true,
      virtual_key_id: null,
    });
    expect((await gw.http.get('/api/guard-probe/whoami', { headers: bearer(webhooksViewKey) })).body).toMatchObject({
      kind: 'management_key',
      auth_method: 'management_key',
      all: false,
    });
  });

  it('virtual-key routes: the key from Bearer, x-api-key or x-gateway-vk; Basic never counts', async () => {
    for (const headers of [bearer(vk.value), { 'x-api-key': vk.value }, { 'x-gateway-vk': vk.value }]) {
      const res = await gw.http.get('/v1/guard-probe/required', { headers });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ kind: 'virtual_key', auth_method: 'virtual_key', virtual_key_id: vk.id });
    }
    expectError(await gw.http.get('/v1/guard-probe/required'), 401, 'missing_credentials');
    expectError(await gw.http.get('/v1/guard-probe/required', { headers: ADMIN_BASIC }), 401, 'missing_credentials');
    expectError(
      await gw.http.get('/v1/guard-probe/required', { headers: bearer('sk-gw-unknownunknownunknownunknown00') }),
      401,
      'invalid_credentials',
    );
    // Optional: without a virtual key the request goes on only where `inference.require_virtual_key` is off (on by
    // default), and a provider key only on a route taking direct keys; a bad `sk-gw-` never.
    expectError(await gw.http.get('/v1/guard-probe/optional'), 401, 'missing_credentials');
    expectError(
      await gw.http.get('/v1/guard-probe/optional', { headers: bearer('sk-provider-123') }),
      401,
      'invalid_credentials',
    );
    expect((await gw.http.get('/v1/guard-probe/optional', { headers: bearer(vk.value) })).body).toMatchObject({
      virtual_key_id: vk.id,
    });
    expect((await gw.http.get('/v1/guard-probe/optional', { headers: bearer('sk-gw-nope') })).status).toBe(401);
  });

  it('enterprise-only routes are served in the enterprise edition', async () => {
    expect((await gw.http.get('/api/guard-probe/enterprise', { headers: ADMIN_BASIC })).status).toBe(200);
  });

  it('OpenAPI carries x-permission and x-enterprise', async () => {
    const doc = await gw.http.get('/openapi.json');
    expect(doc.body.paths['/api/guard-probe/enterprise'].get['x-permission']).toBe('CircuitBreaker:View');
    expect(doc.body.paths['/api/guard-probe/enterprise'].get['x-enterprise']).toBe(true);
    expect(doc.body.paths['/api/audit-logs'].get['x-permission']).toBe('AuditLogs:View');
    expect(doc.body.paths['/api/session/login'].post.security).toEqual([{}]);
  });
});

describe(`guard in the open-source edition (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN }, extraModules: [ProbeModule] });
  });
  afterAll(() => gw?.close());

  it('enterprise-only routes: 401 under the lock first, then 404 enterprise_only', async () => {
    expectError(await gw.http.get('/api/guard-probe/enterprise'), 401, 'setup_token_required');
    expectError(await gw.http.get('/api/guard-probe/enterprise', { headers: SETUP_HEADER }), 404, 'enterprise_only');
  });

  it('the setup caller is the local admin with every permission', async () => {
    expect((await gw.http.get('/api/guard-probe/whoami', { headers: SETUP_HEADER })).body).toEqual({
      kind: 'setup',
      auth_method: 'setup_token',
      name: 'setup',
      all: true,
      virtual_key_id: null,
    });
  });

  it('data-plane routes are not behind the setup lock', async () => {
    expectError(await gw.http.get('/v1/guard-probe/optional'), 401, 'missing_credentials');
    expectError(await gw.http.get('/v1/guard-probe/required'), 401, 'missing_credentials');
  });
});
