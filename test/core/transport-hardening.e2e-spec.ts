import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Public } from '../../src/core/auth/route-access.decorator.js';
import { AcceptsBody } from '../../src/core/http/media-types.js';
import { MAX_JSON_DEPTH } from '../../src/core/http/limits.js';
import { SETUP_HEADER, SETUP_TOKEN } from '../auth/auth-helpers.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { expectGatewayError, UUID } from '../helpers/gateway-error.js';

/** Test-only routes: one takes any JSON (no DTO), one declares a non-JSON media type. */
@Controller('probe-transport')
class TransportProbeController {
  @Post('json')
  @Public()
  @HttpCode(200)
  json(@Body() body: unknown): { body: unknown } {
    return { body };
  }

  @Post('text')
  @Public()
  @HttpCode(200)
  @AcceptsBody('text/plain')
  text(@Body() body: unknown): { body: unknown } {
    return { body };
  }
}
@Module({ controllers: [TransportProbeController] })
class TransportProbeModule {}

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

describe(`transport hardening (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ extraModules: [TransportProbeModule], config: { setup_token: SETUP_TOKEN } });
  });
  afterAll(() => gw?.close());

  /** The log record carrying this event_id (item 15: every error response is logged with it). */
  function logOf(eventId: string): Record<string, unknown> | undefined {
    return gw.logs.records().find((r) => r.event_id === eventId);
  }

  function expectWarnLogged(body: any, status: number, code: string): void {
    const record = logOf(body.event_id);
    expect(record, `no log line with event_id ${body.event_id}`).toBeDefined();
    expect(record).toMatchObject({ level: 'warn', status, code });
    expect(record!.req_id).toEqual(expect.any(String));
  }

  describe('JSON nesting depth (item 8)', () => {
    it('refuses deep nesting on the public login with 400 invalid_json naming the limit', async () => {
      const rawBody = `{"username":${nested(5000)},"password":"x"}`;
      const res = await gw.http.request('POST', '/api/session/login', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expectGatewayError(res.body, 400, 'invalid_json');
      expect(res.body.error.message).toContain(String(MAX_JSON_DEPTH));
      expectWarnLogged(res.body, 400, 'invalid_json');
    });

    it('accepts exactly the limit and refuses one level more; brackets inside strings do not count', async () => {
      let res = await gw.http.request('POST', '/probe-transport/json', {
        rawBody: nested(MAX_JSON_DEPTH),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(200);

      res = await gw.http.request('POST', '/probe-transport/json', {
        rawBody: nested(MAX_JSON_DEPTH + 1),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expectGatewayError(res.body, 400, 'invalid_json');

      const brackets = `{"s":"${'[{'.repeat(500)}\\"${'[{'.repeat(500)}"}`;
      res = await gw.http.request('POST', '/probe-transport/json', {
        rawBody: brackets,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(200);
      expect(res.body.body).toEqual(JSON.parse(brackets));
    });

    it('refuses deep nesting on a management route (5,000 levels in a field)', async () => {
      const res = await gw.http.request('POST', '/api/agents', {
        rawBody: `{"name":"deep","agent_card_url":${nested(5000)}}`,
        headers: { ...SETUP_HEADER, 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expectGatewayError(res.body, 400, 'invalid_json');
    });
  });

  describe('NUL in path parameters and query values (item 9)', () => {
    it('a NUL in a path parameter is 400 validation_failed naming the parameter', async () => {
      const res = await gw.http.get('/api/agents/bad%00name', { headers: SETUP_HEADER });
      expect(res.status).toBe(400);
      expectGatewayError(res.body, 400, 'validation_failed');
      expect(res.body.error.param).toBe('name');
      expectWarnLogged(res.body, 400, 'validation_failed');
    });

    it('a NUL in a query value is 400 validation_failed naming the field', async () => {
      const res = await gw.http.get('/api/audit-logs?actor=a%00b', { headers: SETUP_HEADER });
      expect(res.status).toBe(400);
      expectGatewayError(res.body, 400, 'validation_failed');
      expect(res.body.error.param).toBe('actor');
    });

    it('a NUL in a repeated query value and in the REST data plane path is refused too', async () => {
      let res = await gw.http.get('/api/audit-logs?actor=a&actor=b%00', { headers: SETUP_HEADER });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe('actor');

      res = await gw.http.get('/agents/a2a/someone/rest/tasks/t%00x');
      expect(res.status).toBe(400);
      expectGatewayError(res.body, 400, 'validation_failed');
      expect(res.body.error.param).toBe('path');
    });

    it('the same requests without NUL still work', async () => {
      expect((await gw.http.get('/api/agents/good-name', { headers: SETUP_HEADER })).status).toBe(404);
      expect((await gw.http.get('/api/audit-logs?actor=ab', { headers: SETUP_HEADER })).status).toBe(200);
    });
  });

  describe('Fastify and Node defaults are GatewayErrors without echoing input (item 12)', () => {
    it('bad percent-encoding is 400 invalid_url', async () => {
      const marker = 'zz-bad-url-marker';
      const res = await rawRequest(
        gw.baseUrl,
        `GET /api/agents/%E0%A4%A${marker} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toContain('application/json');
      expectGatewayError(res.body, 400, 'invalid_url');
      expect(res.text).not.toContain(marker);
      expect(res.text).not.toContain('FST_');
      expect(res.headers['x-request-id']).toMatch(UUID);
      expectWarnLogged(res.body, 400, 'invalid_url');
      expect(logOf(res.body.event_id)!.req_id).toBe(res.headers['x-request-id']);
    });

    it('a path parameter over the maximum length is 414 uri_too_long', async () => {
      const long = 'n'.repeat(300);
      const res = await gw.http.get(`/api/agents/${long}`, { headers: SETUP_HEADER });
      expect(res.status).toBe(414);
      expectGatewayError(res.body, 414, 'uri_too_long');
      expect(res.text).not.toContain('n'.repeat(101));
      expect(res.headers.get('x-request-id')).toMatch(UUID);
      expectWarnLogged(res.body, 414, 'uri_too_long');
      expect(JSON.stringify(logOf(res.body.event_id))).not.toContain('n'.repeat(101));
    });

    it('a request line over 16 KiB is 431 request_header_fields_too_large', async () => {
      const marker = 'q'.repeat(20 * 1024);
      const res = await rawRequest(gw.baseUrl, `GET /health?x=${marker} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.headers.connection).toBe('close');
      expectGatewayError(res.body, 431, 'request_header_fields_too_large');
      expect(res.text).not.toContain('qqqq');
      expectWarnLogged(res.body, 431, 'request_header_fields_too_large');
    });

    it('a malformed request (NUL in a header) is 400 bad_request from the HTTP parser', async () => {
      const res = await rawRequest(gw.baseUrl, `GET /health HTTP/1.1\r\nHost: localhost\r\nX-A: a\u0000b\r\n\r\n`);
      expect(res.status).toBe(400);
      expectGatewayError(res.body, 400, 'bad_request');
      expectWarnLogged(res.body, 400, 'bad_request');
    });

    it('the server still answers normally afterwards', async () => {
      expect((await gw.http.get('/health')).status).toBe(200);
    });
  });

  describe('media types (item 13)', () => {
    it('a form body is 415 unsupported_media_type naming the accepted types', async () => {
      const res = await gw.http.request('POST', '/api/session/login', {
        rawBody: 'username=admin&password=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(415);
      expectGatewayError(res.body, 415, 'unsupported_media_type');
      expect(res.body.error.message).toContain('application/json');
      expectWarnLogged(res.body, 415, 'unsupported_media_type');
    });

    it('a JSON body sent as text/plain is 415, on management routes and on the REST data plane', async () => {
      let res = await gw.http.request('POST', '/api/session/login', {
        rawBody: JSON.stringify({ username: 'admin', password: 'x' }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).toBe(415);
      expectGatewayError(res.body, 415, 'unsupported_media_type');

      // The data plane checks the caller's credentials before the body (docs/auth.md): without any, 401; with a
      // virtual key, the media type is refused.
      const send = { message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] } };
      res = await gw.http.request('POST', '/agents/a2a/someone/rest/message:send', {
        rawBody: JSON.stringify(send),
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).toBe(401);
      const vk = await gw.http.post('/api/governance/virtual-keys', { name: 'media-types' }, { headers: SETUP_HEADER });
      expect(vk.status, JSON.stringify(vk.body)).toBe(201);
      res = await gw.http.request('POST', '/agents/a2a/someone/rest/message:send', {
        rawBody: JSON.stringify(send),
        headers: { 'content-type': 'text/plain', 'x-gateway-vk': vk.body.virtual_key.value },
      });
      expect(res.status).toBe(415);
      expectGatewayError(res.body, 415, 'unsupported_media_type');
    });

    it('the content type is not echoed', async () => {
      const odd = `application/x-${'m'.repeat(2000)}`;
      const res = await gw.http.request('POST', '/probe-transport/json', {
        rawBody: 'x',
        headers: { 'content-type': odd },
      });
      expect(res.status).toBe(415);
      expect(res.text).not.toContain('m'.repeat(300));
    });

    it('JSON and +json types are accepted, with parameters', async () => {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'application/a2a+json']) {
        const res = await gw.http.request('POST', '/probe-transport/json', {
          rawBody: '{"a":1}',
          headers: { 'content-type': type },
        });
        expect({ type, status: res.status, body: res.body }).toEqual({ type, status: 200, body: { body: { a: 1 } } });
      }
    });

    it('a route that declares another media type accepts it, and refuses JSON', async () => {
      let res = await gw.http.request('POST', '/probe-transport/text', {
        rawBody: 'plain words',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ body: 'plain words' });

      res = await gw.http.request('POST', '/probe-transport/text', {
        rawBody: '{"a":1}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(415);
      expect(res.body.error.message).toContain('text/plain');
    });

    it('an unknown route stays a 404 whatever the body type', async () => {
      const res = await gw.http.request('POST', '/api/nothing-here', {
        rawBody: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(404);
      expectGatewayError(res.body, 404, 'route_not_found');
    });

    it('a body-less request with a content-type header still works', async () => {
      for (const type of ['text/plain', 'application/json', 'application/x-www-form-urlencoded']) {
        const res = await gw.http.request('POST', '/api/session/logout', {
          rawBody: '',
          headers: { ...SETUP_HEADER, 'content-type': type },
        });
        expect({ type, status: res.status }).toEqual({ type, status: 200 });
      }
    });
  });

  describe('error logging and echoed input (items 15 and 16)', () => {
    it('a 404 is logged at warn with its event_id, request id, status and code', async () => {
      const res = await gw.http.get('/api/does-not-exist');
      expect(res.status).toBe(404);
      expectWarnLogged(res.body, 404, 'route_not_found');
      expect(logOf(res.body.event_id)!.req_id).toBe(res.headers.get('x-request-id'));
    });

    it('a 401 from the guard is logged at warn', async () => {
      const res = await gw.http.get('/api/agents');
      expect(res.status).toBe(401);
      expectWarnLogged(res.body, 401, res.body.error.code);
    });

    it('a long unknown path is cut in the message and in the log line', async () => {
      const long = 'p'.repeat(5000);
      const res = await gw.http.get(`/nothing/${long}`);
      expect(res.status).toBe(404);
      expectGatewayError(res.body, 404, 'route_not_found');
      expect(res.body.error.message.length).toBeLessThan(400);
      expect(res.body.error.message).toContain('…');
      expect(res.text).not.toContain('p'.repeat(300));
      const line = gw.logs.lines.find((l) => l.includes(res.body.event_id));
      expect(line).toBeDefined();
      expect(line).not.toContain('p'.repeat(300));
      const access = gw.logs.records().find((r) => r.req_id === res.headers.get('x-request-id') && r.url);
      expect(String(access?.url).length).toBeLessThan(1200);
    });

    it('a long path under a wrong method is cut in the 405 message', async () => {
      const res = await gw.http.request('PUT', `/agents/a2a/someone/rest/${'m'.repeat(5000)}`);
      expect(res.status).toBe(405);
      expectGatewayError(res.body, 405, 'method_not_allowed');
      expect(res.body.error.message.length).toBeLessThan(400);
      expect(res.text).not.toContain('m'.repeat(300));
    });
  });
});
