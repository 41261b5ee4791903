import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logging/logger.js';
import { LogCapture } from '../helpers/log-capture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('structured logs', () => {
  it('censors secret-bearing fields and auth headers by configuration', () => {
    const capture = new LogCapture();
    const logger = createLogger('info', capture);
    logger.info(
      {
        req: {
          headers: {
            authorization: 'Bearer sk-gw-leaked',
            'x-api-key': 'sk-gw-leaked-2',
            cookie: 'gateway_session=abc',
          },
        },
        body: { password: 'hunter2', oauth: { client_secret: 'shh' } },
        secret: { type: 'plain_text', value: 'plain-secret' },
      },
      'a request',
    );
    const text = capture.text();
    for (const leaked of ['sk-gw-leaked', 'gateway_session=abc', 'hunter2', 'shh', 'plain-secret'])
      expect(text).not.toContain(leaked);
    const record = capture.records()[0]!;
    expect(record).toMatchObject({ level: 'info', msg: 'a request', service: 'ai-gateway' });
    expect((record.req as any).headers.authorization).toBe('<REDACTED>');
    expect((record.body as any).oauth.client_secret).toBe('<REDACTED>');
  });

  describe('through HTTP', () => {
    let gw: TestApp;
    beforeAll(async () => {
      gw = await startTestApp();
    });
    afterAll(() => gw?.close());

    it('never writes credentials presented in headers', async () => {
      await gw.http.get('/api/version', {
        headers: {
          authorization: 'Bearer sk-gw-presented-secret-value',
          'x-gateway-setup-token': 'setup-secret-presented',
        },
      });
      await gw.http.get('/nope', { headers: { 'x-api-key': 'sk-gw-another-secret' } });
      const text = gw.logs.text();
      expect(text).toContain('request completed');
      for (const leaked of ['sk-gw-presented-secret-value', 'setup-secret-presented', 'sk-gw-another-secret']) {
        expect(text).not.toContain(leaked);
      }
    });
  });
});
