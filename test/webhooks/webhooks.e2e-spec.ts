import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditService } from '../../src/modules/audit/audit.service.js';
import { expectError, OSS_CONFIG, ossClient, RFC3339_UTC, sql, UUID } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const WEBHOOKS = '/api/webhooks';
const MISSING_ID = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;

describe(`webhooks: management (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    gw = await startTestApp({ config: { ...OSS_CONFIG, outbound: { allow_loopback: true } } });
    api = ossClient(gw);
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
  });

  const count = async () => (await sql(gw, 'SELECT count(*)::int AS n FROM webhooks'))[0].n as number;
  const create = async (body: Record<string, unknown>) => {
    const res = await api.post(WEBHOOKS, body);
    expect(res.status, res.text).toBe(201);
    return res.body;
  };

  it('creates a webhook: the secret once in clear, headers and secret sealed and redacted afterwards', async () => {
    const created = await create({
      name: 'billing-events',
      url: receiver.url,
      description: 'Billing receiver',
      headers: { Authorization: 'Bearer receiver-token-123', 'X-Team': 'env.WEBHOOK_TEAM' },
    });
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      name: 'billing-events',
      url: receiver.url,
      description: 'Billing receiver',
      enabled: true,
      headers: {
        Authorization: { value: '<REDACTED>', ref: '', type: 'plain_text' },
        'X-Team': { value: '<REDACTED>', ref: 'env.WEBHOOK_TEAM', type: 'env' },
      },
      secret: expect.stringMatching(SECRET),
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const got = await api.get(`${WEBHOOKS}/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...created, secret: '<REDACTED>' });
    const list = await api.get(WEBHOOKS);
    expect(list.body).toEqual({ webhooks: [{ ...created, secret: '<REDACTED>' }], count: 1 });
    for (const res of [got, list]) {
      expect(res.text).not.toContain(created.secret);
      expect(res.text).not.toContain('receiver-token-123');
    }
    const [row] = await sql(gw, 'SELECT headers::text AS h, secret_ciphertext AS s FROM webhooks WHERE id = $1', [
      created.id,
    ]);
    expect(row.h).not.toContain('receiver-token-123');
    expect(row.s).toMatch(/^v1:/);
    expect(row.s).not.toContain(created.secret);
    // Never logged either.
    expect(JSON.stringify(gw.logs.records())).not.toContain(created.secret);
    expect(JSON.stringify(gw.logs.records())).not.toContain('receiver-token-123');
  });

  it('refuses bad fields with 400 naming them, and writes nothing', async () => {
    const before = await count();
    const ok = { name: 'valid-name', url: receiver.url };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: receiver.url }, 'name'],
      [{ ...ok, name: 'Bad_Name' }, 'name'],
      [{ ...ok, name: 'x'.repeat(256) }, 'name'],
      [{ ...ok, name: 42 }, 'name'],
      [{ name: 'no-url' }, 'url'],
      [{ ...ok, url: 'ftp://example.com/hook' }, 'url'],
      [{ ...ok, url: '/relative/hook' }, 'url'],
      [{ ...ok, url: 'https://user:pass@example.com/hook' }, 'url'],
      [{ ...ok, url: `https://example.com/${'a'.repeat(2100)}` }, 'url'],
      [{ ...ok, url: 'http://169.254.169.254/latest' }, 'url'],
      [{ ...ok, description: 'd'.repeat(1025) }, 'description'],
      [{ ...ok, enabled: 'yes' }, 'enabled'],
      [{ ...ok, enabled: null }, 'enabled'],
      [{ ...ok, headers: 'Authorization: x' }, 'headers'],
      [{ ...ok, headers: { 'X-Gateway-Webhook-Signature': 'v1=forged' } }, 'headers.X-Gateway-Webhook-Signature'],
      [{ ...ok, headers: { 'Content-Type': 'text/plain' } }, 'headers.Content-Type'],
      [{ ...ok, headers: { Host: 'evil.example.com' } }, 'headers.Host'],
      [{ ...ok, headers: { 'Bad Header': 'x' } }, 'headers.Bad Header'],
      [{ ...ok, headers: { 'X-Key': 'line\nbreak' } }, 'headers.X-Key'],
      [{ ...ok, headers: { 'X-Key': '<REDACTED>' } }, 'headers.X-Key'],
    ];
    for (const [body, param] of cases) {
      expectError(await api.post(WEBHOOKS, body), 400, 'validation_failed', param);
    }
    expectError(
      await api.post(WEBHOOKS, undefined, { rawBody: '{"name":', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
    expect(await count()).toBe(before);
  });

  it('answers 404 for unknown ids and 409 for a name taken', async () => {
    for (const id of [MISSING_ID, 'not-a-uuid']) {
      expectError(await api.get(`${WEBHOOKS}/${id}`), 404, 'webhook_not_found');
      expectError(await api.put(`${WEBHOOKS}/${id}`, { enabled: false }), 404, 'webhook_not_found');
      expectError(await api.delete(`${WEBHOOKS}/${id}`), 404, 'webhook_not_found');
      expectError(await api.post(`${WEBHOOKS}/${id}/rotate-secret`), 404, 'webhook_not_found');
      expectError(await api.post(`${WEBHOOKS}/${id}/test`), 404, 'webhook_not_found');
      expectError(await api.get(`${WEBHOOKS}/${id}/deliveries`), 404, 'webhook_not_found');
      expectError(await api.get(`${WEBHOOKS}/deliveries/${id}`), 404, 'webhook_delivery_not_found');
      expectError(await api.post(`${WEBHOOKS}/deliveries/${id}/redeliver`), 404, 'webhook_delivery_not_found');
    }
    const before = await count();
    expectError(await api.post(WEBHOOKS, { name: 'billing-events', url: receiver.url }), 409, 'already_exists');
    const other = await create({ name: 'other-events', url: receiver.url });
    expectError(await api.put(`${WEBHOOKS}/${other.id}`, { name: 'billing-events' }), 409, 'already_exists');
    expect(await count()).toBe(before + 1);
    expect((await api.get(`${WEBHOOKS}/${other.id}`)).body.name).toBe('other-events');
  });

  it('updates the fields sent; <REDACTED> keeps a stored header; null clears the description; audited', async () => {
    const hook = await create({
      name: 'update-me',
      url: receiver.url,
      description: 'before',
      headers: { Authorization: 'Bearer keep-me-456' },
    });
    const started = new Date(Date.now() - 1000).toISOString();
    const res = await api.put(`${WEBHOOKS}/${hook.id}`, {
      name: 'updated-name',
      description: null,
      enabled: false,
      headers: { Authorization: '<REDACTED>', 'X-Extra': 'extra-value' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: hook.id,
      name: 'updated-name',
      url: receiver.url,
      description: null,
      enabled: false,
      secret: '<REDACTED>',
      headers: {
        Authorization: { value: '<REDACTED>', type: 'plain_text' },
        'X-Extra': { value: '<REDACTED>', type: 'plain_text' },
      },
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(hook.updated_at));
    // An update that names nothing else keeps everything.
    const same = await api.put(`${WEBHOOKS}/${hook.id}`, {});
    expect(same.body).toMatchObject({ name: 'updated-name', description: null, enabled: false });
    expectError(
      await api.put(`${WEBHOOKS}/${hook.id}`, { url: 'http://169.254.169.254/' }),
      400,
      'validation_failed',
      'url',
    );
    expectError(await api.put(`${WEBHOOKS}/${hook.id}`, { name: null }), 400, 'validation_failed', 'name');
    expectError(
      await api.put(`${WEBHOOKS}/${hook.id}`, { headers: { 'X-New': '<REDACTED>' } }),
      400,
      'validation_failed',
      'headers.X-New',
    );

    // The kept header still carries its stored value: a test delivery sends it.
    receiver.secret = '';
    const sent = await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(sent.status, sent.text).toBe(200);
    const last = receiver.received.at(-1)!;
    expect(last.headers.authorization).toBe('Bearer keep-me-456');
    expect(last.headers['x-extra']).toBe('extra-value');

    await gw.app.get(AuditService).flush();
    const audited = await sql(
      gw,
      `SELECT method, route, target_id, permission, status_code FROM audit_logs WHERE route LIKE '/api/webhooks%' AND created_at >= $1 ORDER BY created_at`,
      [started],
    );
    expect(audited).toEqual(
      expect.arrayContaining([
        {
          method: 'PUT',
          route: '/api/webhooks/:id',
          target_id: hook.id,
          permission: 'Webhooks:Update',
          status_code: 200,
        },
        {
          method: 'PUT',
          route: '/api/webhooks/:id',
          target_id: hook.id,
          permission: 'Webhooks:Update',
          status_code: 400,
        },
        {
          method: 'POST',
          route: '/api/webhooks/:id/test',
          target_id: hook.id,
          permission: 'Webhooks:Update',
          status_code: 200,
        },
      ]),
    );
  });

  it('rotates the secret: the new one shown once, the old one no longer signs', async () => {
    const hook = await create({ name: 'rotate-me', url: receiver.url });
    const rotated = await api.post(`${WEBHOOKS}/${hook.id}/rotate-secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body).toMatchObject({ id: hook.id, name: 'rotate-me', secret: expect.stringMatching(SECRET) });
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect((await api.get(`${WEBHOOKS}/${hook.id}`)).body.secret).toBe('<REDACTED>');

    receiver.secret = hook.secret;
    await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(receiver.received.at(-1)!.verified).toBe(false);
    receiver.secret = rotated.body.secret;
    await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(receiver.received.at(-1)!.verified).toBe(true);
  });

  it('deletes a webhook with its deliveries', async () => {
    const hook = await create({ name: 'delete-me', url: receiver.url });
    await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(
      (await sql(gw, 'SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [hook.id]))[0].n,
    ).toBe(1);
    const res = await api.delete(`${WEBHOOKS}/${hook.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Webhook deleted successfully' });
    expectError(await api.get(`${WEBHOOKS}/${hook.id}`), 404, 'webhook_not_found');
    expect(
      (await sql(gw, 'SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [hook.id]))[0].n,
    ).toBe(0);
  });
});

describe(`webhooks: the outbound address policy (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    gw = await startTestApp({ config: { ...OSS_CONFIG, outbound: { allow_loopback: false } } });
    api = ossClient(gw);
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
  });

  it('refuses loopback URLs at create and update when outbound.allow_loopback is off', async () => {
    for (const url of [receiver.url, 'http://localhost:9/hook', 'http://[::1]:9/hook', 'http://api.localhost/hook']) {
      const res = await api.post(WEBHOOKS, { name: 'loop', url });
      expectError(res, 400, 'validation_failed', 'url');
      expect(res.body.error.message).toContain('outbound.allow_loopback');
    }
    const hook = await api.post(WEBHOOKS, { name: 'public-hook', url: 'https://hooks.example.com/gateway' });
    expect(hook.status, hook.text).toBe(201);
    expectError(await api.put(`${WEBHOOKS}/${hook.body.id}`, { url: receiver.url }), 400, 'validation_failed', 'url');
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM webhooks'))[0].n).toBe(1);
  });

  it('checks the policy again when a delivery connects', async () => {
    // A URL stored while the policy allowed it (written here directly): every delivery still obeys today's policy.
    const hook = await api.post(WEBHOOKS, { name: 'stored-before', url: 'https://hooks.example.com/other' });
    await sql(gw, 'UPDATE webhooks SET url = $1 WHERE id = $2', [receiver.url, hook.body.id]);
    const res = await api.post(`${WEBHOOKS}/${hook.body.id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.attempts).toHaveLength(1);
    expect(res.body.attempts[0].status_code).toBeUndefined();
    expect(res.body.attempts[0].error).toMatch(/refused: loopback addresses are not allowed/);
    expect(receiver.received).toEqual([]);
  });
});
