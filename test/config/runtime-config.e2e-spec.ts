import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectGatewayError } from '../helpers/gateway-error.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import { SETUP_TOKEN, created, seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

const CONFIG = '/api/config';
const ORIGIN = 'https://dashboard.example.com';
const chat = (model = 'openai/gpt-4o-mini') => ({ model, messages: [{ role: 'user', content: 'hi' }] });

async function settingRows(gw: TestApp): Promise<Array<{ key: string; value: unknown; updated_by: string | null }>> {
  const db = gw.app.get<DataSource>(getDataSourceToken());
  return db.query('SELECT key, value, updated_by FROM runtime_settings ORDER BY key');
}

async function put(admin: HttpClient, body: unknown) {
  const res = await admin.put(CONFIG, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe(`runtime config (${RUN_MODE})`, () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack({ logs: { retention: '7d' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('GET shows the settings, where each comes from, and the process settings without secrets', async () => {
    const res = await s.admin.get(CONFIG);
    expect(res.status, res.text).toBe(200);
    expect(res.body.config.logs.retention).toBe('7d');
    expect(res.body.config.inference).toMatchObject({ require_virtual_key: true, forward_headers: [] });
    expect(res.body.config.http).toEqual({ cors_allowed_origins: [] });
    expect(res.body.sources).toMatchObject({
      'logs.retention': 'file',
      'inference.require_virtual_key': 'default',
      'http.cors_allowed_origins': 'default',
    });
    expect(Object.values(res.body.sources).every((v) => v === 'file' || v === 'default')).toBe(true);
    expect(res.body.process).toMatchObject({
      database: RUN_MODE === 'postgres' ? 'postgres' : 'pglite',
      redis: Boolean(TEST_REDIS_URL),
      role: 'all',
      edition: 'oss',
      encryption_key_source: 'config',
    });
    expect(res.text).not.toContain(s.gw.config.encryption_key!);
    if (s.gw.config.database_url) expect(res.text).not.toContain(s.gw.config.database_url);
  });

  it('PUT inference.require_virtual_key applies on the next /v1 request; null resets it', async () => {
    expect((await s.gw.http.post('/v1/chat/completions', chat())).status).toBe(401);
    const body = await put(s.admin, { inference: { require_virtual_key: false } });
    expect(body.config.inference.require_virtual_key).toBe(false);
    expect(body.sources['inference.require_virtual_key']).toBe('api');
    expect(await settingRows(s.gw)).toEqual([
      { key: 'inference.require_virtual_key', value: false, updated_by: expect.any(String) },
    ]);
    const before = seen(s.sim).length;
    const open = await s.gw.http.post('/v1/chat/completions', chat());
    expect(open.status, open.text).toBe(200);
    expect(seen(s.sim).length).toBe(before + 1);

    const reset = await put(s.admin, { inference: { require_virtual_key: null } });
    expect(reset.config.inference.require_virtual_key).toBe(true);
    expect(reset.sources['inference.require_virtual_key']).toBe('default');
    expect(await settingRows(s.gw)).toEqual([]);
    expect((await s.gw.http.post('/v1/chat/completions', chat())).status).toBe(401);
  });

  it('a bad value: 400 naming the key, nothing stored or applied (the valid keys beside it neither)', async () => {
    const before = (await s.admin.get(CONFIG)).body;
    const cases: Array<[unknown, string]> = [
      [{ inference: { require_virtual_key: 'yes' } }, 'inference.require_virtual_key'],
      [{ logs: { enabled: false, retention: '0d' } }, 'logs.retention'],
      [{ inference: { forward_headers: ['authorization'] } }, 'inference.forward_headers'],
      [{ inference: { forward_headers: 'x-tenant-id' } }, 'inference.forward_headers'],
      [{ http: { cors_allowed_origins: ['https://a.example.com/path'] } }, 'http.cors_allowed_origins'],
      [{ governance: { redis_failure_mode: 'sometimes' } }, 'governance.redis_failure_mode'],
      [{ inference: { nope: true } }, 'inference.nope'],
      [{ governance: { counter_timeout: '1s' } }, 'governance.counter_timeout'],
      [{ webhooks: { max_attempts: 3 } }, 'webhooks'],
      [{ no_such_section: 1 }, 'no_such_section'],
      [{ constructor: 1 }, 'constructor'],
      [{ logs: 5 }, 'logs'],
      [{}, 'body'],
    ];
    for (const [body, param] of cases) {
      const res = await s.admin.put(CONFIG, body);
      expect(res.status, res.text).toBe(400);
      expectGatewayError(res.body, 400, 'validation_failed');
      expect(res.body.error.param, JSON.stringify(body)).toBe(param);
      // An unknown key reads like every other unknown field (docs/errors.md).
      if (['inference.nope', 'constructor'].includes(param))
        expect(res.body.error.message).toBe(`${param} is not a known field`);
    }
    expect((await s.admin.get(CONFIG)).body).toEqual(before);
    expect(await settingRows(s.gw)).toEqual([]);
    expect(s.gw.config.logs.enabled).toBe(true);
  });

  it('process settings are read-only: a PUT naming one is refused with its key', async () => {
    for (const [body, param] of [
      [{ port: 9999 }, 'port'],
      [{ database_url: 'postgres://elsewhere/db' }, 'database_url'],
      [{ redis_url: 'redis://elsewhere' }, 'redis_url'],
      [{ encryption_key: 'x'.repeat(44) }, 'encryption_key'],
      [{ role: 'worker' }, 'role'],
      [{ process: { port: 1 } }, 'process'],
      [{ logs: { enabled: false }, edition: 'enterprise' }, 'edition'],
    ] as const) {
      const res = await s.admin.put(CONFIG, body);
      expect(res.status, res.text).toBe(400);
      expectGatewayError(res.body, 400, 'validation_failed');
      expect(res.body.error.param).toBe(param);
      expect(res.body.error.message).toContain('read-only');
    }
    expect(await settingRows(s.gw)).toEqual([]);
    expect(s.gw.config.logs.enabled).toBe(true);
  });

  it('CORS: no headers while the list is empty; a newly allowed origin is answered, preflight included', async () => {
    const preflight = () =>
      fetch(`${s.gw.baseUrl}/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const closed = await preflight();
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
    expect(closed.status).not.toBe(204);

    await put(s.admin, { http: { cors_allowed_origins: [ORIGIN] } });
    const open = await preflight();
    expect(open.status).toBe(204);
    expect(open.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(open.headers.get('access-control-allow-credentials')).toBe('true');
    expect(open.headers.get('access-control-allow-methods')).toContain('POST');
    expect(open.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(open.headers.get('vary')).toContain('Origin');

    const answer = await s.inference.post('/v1/chat/completions', chat(), { headers: { origin: ORIGIN } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    // A streamed answer writes its head past Fastify's hooks: the CORS headers still go with it.
    const streamed = await s.inference.post(
      '/v1/chat/completions',
      { ...chat(), stream: true },
      { headers: { origin: ORIGIN } },
    );
    expect(streamed.status, streamed.text).toBe(200);
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(streamed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const management = await s.admin.get(CONFIG, { headers: { origin: ORIGIN } });
    expect(management.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const other = await s.admin.get(CONFIG, { headers: { origin: 'https://evil.example.com' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();

    await put(s.admin, { http: { cors_allowed_origins: null } });
    expect((await preflight()).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('inference.forward_headers: the listed caller headers reach the provider, credentials never', async () => {
    const headers = { 'x-tenant-id': 'tenant-7', 'x-trace-span': 'span-1', 'x-other': 'no' };
    const before = await s.inference.post('/v1/chat/completions', chat(), { headers });
    expect(before.status, before.text).toBe(200);
    expect(seen(s.sim, { family: 'openai' }).at(-1)!.headers['x-tenant-id']).toBeUndefined();

    await put(s.admin, { inference: { forward_headers: ['x-tenant-id', 'x-trace-*'] } });
    const res = await s.inference.post('/v1/chat/completions', chat(), { headers });
    expect(res.status, res.text).toBe(200);
    const received = seen(s.sim, { family: 'openai' }).at(-1)!.headers;
    expect(received['x-tenant-id']).toBe('tenant-7');
    expect(received['x-trace-span']).toBe('span-1');
    expect(received['x-other']).toBeUndefined();
    // The provider's key, not the caller's virtual key.
    expect(received.authorization).toMatch(/^Bearer sk-oa-/);
    await put(s.admin, { inference: { forward_headers: null } });
  });

  it('inference.network_defaults: providers without their own values retry and time out by them, at once', async () => {
    await created(s.admin.post('/api/providers', { provider: 'groq', base_url: `${s.sim.url}/openai/v1` }));
    await created(s.admin.post('/api/providers/groq/keys', { name: 'gq-1', value: 'gsk-1' }));
    const groqCalls = () => seen(s.sim, { family: 'openai' }).filter((r) => r.headers.authorization === 'Bearer gsk-1');
    const failTwice = () =>
      s.sim.scenario({
        match: { family: 'openai' },
        responses: [{ fault: 'error', status: 503 }, { fault: 'error', status: 503 }, { ok: true }],
      });
    expect((await s.admin.get('/api/providers/groq')).body.network_config).toEqual({
      default_request_timeout: '30s',
      max_retries: 0,
      retry_backoff_initial: '500ms',
      retry_backoff_max: '5s',
    });
    failTwice();
    expect((await s.inference.post('/v1/chat/completions', chat('groq/llama-3.1-8b'))).status).toBe(503);
    expect(groqCalls()).toHaveLength(1);

    const body = await put(s.admin, {
      inference: { network_defaults: { max_retries: 2, retry_backoff_initial: '10ms', retry_backoff_max: '50ms' } },
    });
    expect(body.config.inference.network_defaults).toMatchObject({ max_retries: 2, retry_backoff_initial: '10ms' });
    expect(body.sources['inference.network_defaults.max_retries']).toBe('api');
    expect((await s.admin.get('/api/providers/groq')).body.network_config).toMatchObject({ max_retries: 2 });
    // openai sets its own network_config: the defaults do not touch it.
    expect((await s.admin.get('/api/providers/openai')).body.network_config.retry_backoff_initial).toBe('20ms');
    s.sim.reset();
    failTwice();
    const retried = await s.inference.post('/v1/chat/completions', chat('groq/llama-3.1-8b'));
    expect(retried.status, retried.text).toBe(200);
    expect(groqCalls()).toHaveLength(3);

    const bad = await s.admin.put(CONFIG, { inference: { network_defaults: { retry_backoff_initial: '1s' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('inference.network_defaults.retry_backoff_initial');
    await put(s.admin, {
      inference: { network_defaults: { max_retries: null, retry_backoff_initial: null, retry_backoff_max: null } },
    });
    expect((await s.admin.get('/api/providers/groq')).body.network_config.max_retries).toBe(0);
    s.sim.reset();
  });

  it('logs.enabled: off stops request log rows from the next request', async () => {
    const count = async () => (await s.admin.get('/api/logs', { query: { limit: 1000 } })).body.logs.length as number;
    const start = await count();
    await put(s.admin, { logs: { enabled: false } });
    expect((await s.inference.post('/v1/chat/completions', chat())).status).toBe(200);
    expect(await count()).toBe(start);
    await put(s.admin, { logs: { enabled: null } });
    expect((await s.inference.post('/v1/chat/completions', chat())).status).toBe(200);
    expect(await count()).toBe(start + 1);
  });

  it('each PUT is audited with the keys it asked to change, never their values', async () => {
    await put(s.admin, { inference: { forward_headers: ['x-audited-header'] }, logs: { capture_raw: true } });
    const res = await s.admin.get('/api/audit-logs', { query: { method: 'PUT', limit: 100 } });
    expect(res.status, res.text).toBe(200);
    const rows = (res.body.audit_logs as any[]).filter((r) => r.route === CONFIG && r.status_code === 200);
    const latest = rows.find((r) => r.metadata?.changed_keys?.includes('logs.capture_raw'));
    expect(latest).toMatchObject({
      permission: 'Settings:Update',
      method: 'PUT',
      metadata: { changed_keys: ['inference.forward_headers', 'logs.capture_raw'] },
    });
    expect(JSON.stringify(latest)).not.toContain('x-audited-header');
    const refused = (res.body.audit_logs as any[]).find((r) => r.route === CONFIG && r.status_code === 400);
    expect(refused).toBeDefined();
    await put(s.admin, { inference: { forward_headers: null }, logs: { capture_raw: null } });
  });
});

describe(`runtime config across a restart (${RUN_MODE})`, () => {
  it('values set through the API outlive a restart and win over the file', async () => {
    const appDir = mkdtempSync(join(tmpdir(), 'gw-runtime-config-'));
    const file = { setup_token: SETUP_TOKEN, logs: { retention: '7d' } };
    const first = await startTestApp({ appDir, config: file, keepDatabase: true });
    const admin = (gw: TestApp) => gw.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
    try {
      await put(admin(first), { logs: { retention: '14d' }, http: { cors_allowed_origins: [ORIGIN] } });
    } finally {
      await first.close();
    }
    const second = await startTestApp({
      appDir,
      config: { ...file, encryption_key: first.config.encryption_key },
      databaseUrl: first.databaseUrl,
    });
    try {
      const res = await admin(second).get(CONFIG);
      expect(res.body.config.logs.retention).toBe('14d');
      expect(res.body.sources['logs.retention']).toBe('api');
      expect(res.body.sources['http.cors_allowed_origins']).toBe('api');
      // Applied before serving: the live config and the CORS hook have them.
      expect(second.config.logs.retention).toBe('14d');
      const preflight = await fetch(`${second.baseUrl}/api/config`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'PUT' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    } finally {
      await second.close();
    }
  });
});

describe.skipIf(!TEST_REDIS_URL || RUN_MODE !== 'postgres')(`runtime config across replicas (${RUN_MODE})`, () => {
  let a: InferenceStack;
  let b: TestApp;
  beforeAll(async () => {
    a = await startInferenceStack({}, { keepDatabase: true });
    b = await startTestApp({
      config: { setup_token: SETUP_TOKEN, encryption_key: a.gw.config.encryption_key },
      databaseUrl: a.gw.databaseUrl,
      redisPrefix: a.gw.config.redis_prefix,
    });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a PUT on one replica is in effect on the other within one second', async () => {
    const onB = () => b.http.post('/v1/chat/completions', chat());
    expect((await onB()).status).toBe(401);
    const started = Date.now();
    await put(a.admin, { inference: { require_virtual_key: false } });
    await vi.waitFor(async () => expect((await onB()).status).toBe(200), { timeout: 1000, interval: 20 });
    expect(Date.now() - started).toBeLessThan(1000);
    const view = await b.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN }).get(CONFIG);
    expect(view.body.sources['inference.require_virtual_key']).toBe('api');

    await put(a.admin, { inference: { require_virtual_key: null } });
    await vi.waitFor(async () => expect((await onB()).status).toBe(401), { timeout: 1000, interval: 20 });
  });
});
