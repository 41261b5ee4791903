import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, ValidateNested } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Public } from '../../src/core/auth/route-access.decorator.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { expectGatewayError, UUID } from '../helpers/gateway-error.js';

class InnerDto {
  @ApiProperty()
  @IsString()
  client_id: string;
}
class ProbeDto {
  @ApiProperty()
  @IsInt()
  @Max(10)
  count: number;

  @ApiProperty({ type: InnerDto })
  @ValidateNested()
  @Type(() => InnerDto)
  oauth: InnerDto;
}

/** Test-only routes that exercise the global pipe and filter. */
@Controller('probe')
class ProbeController {
  @Post()
  @Public()
  echo(@Body() body: ProbeDto): ProbeDto {
    return body;
  }

  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('database password is hunter2 at /srv/internal.ts:42');
  }
}
@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe(`platform (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ extraModules: [ProbeModule], config: { limits: { max_body_bytes: 4096 } } });
  });
  afterAll(() => gw?.close());

  it('GET /health reports the database (and Redis when configured)', async () => {
    const res = await gw.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.components.database).toMatchObject({
      status: 'ok',
      kind: RUN_MODE === 'postgres' ? 'postgres' : 'pglite',
    });
    if (process.env.REDIS_URL) expect(res.body.components.redis).toMatchObject({ status: 'ok', kind: 'redis' });
    else expect(res.body.components.redis).toBeUndefined();
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('GET /api/version', async () => {
    const res = await gw.http.get('/api/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: '0.1.0', api_version: '1.0.0', edition: 'oss' });
  });

  it('unknown route is 404 route_not_found', async () => {
    const res = await gw.http.get('/api/does-not-exist');
    expect(res.status).toBe(404);
    expectGatewayError(res.body, 404, 'route_not_found');
    expect(res.body.type).toBe('not_found');
  });

  it('wrong method is 405 with Allow', async () => {
    const res = await gw.http.delete('/health');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expectGatewayError(res.body, 405, 'method_not_allowed');
  });

  it('malformed JSON is 400 invalid_json', async () => {
    const res = await gw.http.request('POST', '/probe', {
      rawBody: '{"count": 1,',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectGatewayError(res.body, 400, 'invalid_json');
    expect(res.body.type).toBe('invalid_request_error');
  });

  it('invalid body is 400 validation_failed naming the field, nested by path', async () => {
    let res = await gw.http.post('/probe', { count: 11, oauth: { client_id: 'x' } });
    expect(res.status).toBe(400);
    expectGatewayError(res.body, 400, 'validation_failed');
    expect(res.body.error.param).toBe('count');
    expect(res.body.extra_fields.error_type).toBe('caller_invalid_request');

    res = await gw.http.post('/probe', { count: 1, oauth: { client_id: 5 } });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('oauth.client_id');

    res = await gw.http.post('/probe', { count: 1, oauth: { client_id: 'a' }, surprise: true });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('surprise');

    res = await gw.http.post('/probe', { count: 2, oauth: { client_id: 'a' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ count: 2, oauth: { client_id: 'a' } });
  });

  it('body over the limit is 413', async () => {
    const res = await gw.http.request('POST', '/probe', {
      rawBody: JSON.stringify({ count: 1, pad: 'x'.repeat(8000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expectGatewayError(res.body, 413, 'payload_too_large');
  });

  it('an unexpected exception is 500 without internals, logged with the same event_id', async () => {
    const res = await gw.http.get('/probe/boom');
    expect(res.status).toBe(500);
    expectGatewayError(res.body, 500, 'internal_error');
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toContain('internal.ts');
    expect(res.body.extra_fields.error_type).toBe('gateway_internal');
    const line = gw.logs.records().find((r) => r.event_id === res.body.event_id);
    expect(line).toMatchObject({ level: 'error', msg: 'unexpected error' });
  });

  it('serves the OpenAPI document and the docs UI', async () => {
    const doc = await gw.http.get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.info.version).toBe('1.0.0');
    expect(Object.keys(doc.body.components.securitySchemes).sort()).toEqual(
      ['ApiKeyAuth', 'BasicAuth', 'BearerAuth', 'ManagementBearerAuth', 'SetupToken'].sort(),
    );
    expect(doc.body.paths['/health'].get.responses['503'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/GatewayError',
    );
    const ui = await gw.http.get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });

  it('every request is logged as structured JSON with its request id', async () => {
    const res = await gw.http.get('/api/version', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
    const line = gw.logs.records().find((r) => r.req_id === 'trace-abc-123' && r.msg === 'request completed');
    expect(line).toMatchObject({ method: 'GET', route: '/api/version', status: 200 });
  });
});
