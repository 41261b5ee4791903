import { describe, expect, it } from 'vitest';
import { LOG_CENSOR, redactLogFields } from '../../src/core/logging/log-redaction.js';
import { createLogger } from '../../src/core/logging/logger.js';
import { LogCapture } from '../helpers/log-capture.js';

describe('log redaction', () => {
  it('censors secret fields down to the fourth level and leaves the fifth, as the configured depth says', () => {
    const record = {
      token: 't1',
      a: { password: 't2', b: { api_key: 't3', c: { client_secret: 't4', d: { secret: 'deep' } } } },
    };
    expect(redactLogFields(record)).toEqual({
      token: LOG_CENSOR,
      a: { password: LOG_CENSOR, b: { api_key: LOG_CENSOR, c: { client_secret: LOG_CENSOR, d: { secret: 'deep' } } } },
    });
  });

  it('censors secret headers in any headers object, whatever their case, and nothing of the same name elsewhere', () => {
    const record = {
      req: { headers: { Authorization: 'Bearer sk-1', 'content-type': 'application/json' } },
      upstream: { headers: { 'x-api-key': 'sk-2', 'X-Goog-Api-Key': 'sk-3' } },
      headers: { 'x-gateway-vk': 'sk-gw-4', 'set-cookie': ['a=b'] },
      'x-api-key-name': 'main',
    };
    expect(redactLogFields(record)).toEqual({
      req: { headers: { Authorization: LOG_CENSOR, 'content-type': 'application/json' } },
      upstream: { headers: { 'x-api-key': LOG_CENSOR, 'X-Goog-Api-Key': LOG_CENSOR } },
      headers: { 'x-gateway-vk': LOG_CENSOR, 'set-cookie': LOG_CENSOR },
      'x-api-key-name': 'main',
    });
  });

  it('walks arrays, skips byte buffers, and changes nothing in place: a record without secrets comes back as is', () => {
    const bytes = Buffer.from('token');
    const record = { items: [{ id: 1 }, { id: 2, value: 'secret-value' }], bytes, keep: { n: 1 } };
    const redacted = redactLogFields(record) as typeof record;
    expect(redacted.items).toEqual([{ id: 1 }, { id: 2, value: LOG_CENSOR }]);
    expect(redacted.bytes).toBe(bytes);
    expect(redacted.keep).toBe(record.keep);
    expect(record.items[1]).toEqual({ id: 2, value: 'secret-value' });
    const clean = { method: 'POST', route: '/v1/chat/completions', status: 200, nested: { a: [1, 2] } };
    expect(redactLogFields(clean)).toBe(clean);
  });

  it('through the logger: the record, a child binding and an error (after its serializer) are censored', () => {
    const capture = new LogCapture();
    const logger = createLogger('info', capture);
    const err = Object.assign(new Error('upstream refused'), { config: { headers: { authorization: 'Bearer sk-5' } } });
    logger.child({ token: 'sk-child-6' }).warn({ err, body: { oauth: { client_secret: 'sk-7' } } }, 'failed');
    const text = capture.text();
    for (const leaked of ['sk-5', 'sk-child-6', 'sk-7']) expect(text).not.toContain(leaked);
    const record = capture.records()[0]!;
    expect(record).toMatchObject({ level: 'warn', msg: 'failed', token: LOG_CENSOR });
    expect(record.err).toMatchObject({ type: 'Error', message: 'upstream refused' });
    expect((record.err as any).config.headers.authorization).toBe(LOG_CENSOR);
    expect((record.body as any).oauth.client_secret).toBe(LOG_CENSOR);
  });
});
