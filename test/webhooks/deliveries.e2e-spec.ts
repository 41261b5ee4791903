import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { WEBHOOK_JOBS } from '../../src/modules/webhooks/webhooks.jobs.js';
import { QueueService } from '../../src/core/queue/queue.service.js';
import { WebhookNotifier } from '../../src/modules/webhooks/webhook-notifier.js';
import { eventually } from '../agents/data-plane-kit.js';
import { expectError, OSS_CONFIG, ossClient, RFC3339_UTC, sql, UUID } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const MODE = `${RUN_MODE}${TEST_REDIS_URL ? '+redis' : ''}`;
const WEBHOOKS = '/api/webhooks';
const HEADER = 'x-gateway-async-webhook';

/** A rejection of `resolve`, synchronous or not. */
async function resolveError(notifier: WebhookNotifier, name: string): Promise<GatewayException> {
  try {
    await notifier.resolve(name, HEADER);
  } catch (err) {
    return err as GatewayException;
  }
  throw new Error(`resolve(${name}) did not fail`);
}

describe(`webhook deliveries (${MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  let receiver: WebhookReceiver;
  let notifier: WebhookNotifier;
  let hook: { id: string; name: string; secret: string };

  beforeAll(async () => {
    process.env.WEBHOOK_DELIVERY_TEST_TOKEN = 'token-from-env';
    receiver = await startWebhookReceiver();
    gw = await startTestApp({
      config: {
        ...OSS_CONFIG,
        outbound: { allow_loopback: true },
        webhooks: { max_attempts: 3, retry_backoff_initial: '100ms', delivery_timeout: '1s' },
      },
    });
    api = ossClient(gw);
    notifier = gw.app.get(WebhookNotifier);
    const res = await api.post(WEBHOOKS, {
      name: 'job-events',
      url: receiver.url,
      headers: { Authorization: 'env.WEBHOOK_DELIVERY_TEST_TOKEN' },
    });
    expect(res.status, res.text).toBe(201);
    hook = res.body;
    receiver.secret = hook.secret;
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
    delete process.env.WEBHOOK_DELIVERY_TEST_TOKEN;
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.delayMs = 0;
    receiver.replyBody = '{"ok":true}';
  });

  const delivery = async (id: string) => (await api.get(`${WEBHOOKS}/deliveries/${id}`)).body;
  const settled = (id: string, timeoutMs = 10_000) =>
    eventually(
      () => delivery(id),
      (d) => d.status !== 'pending',
      timeoutMs,
    );

  it('test: sends a signed webhook.test event now and answers the delivery with its attempt', async () => {
    const res = await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      webhook_id: hook.id,
      event: 'webhook.test',
      payload: { webhook_id: hook.id, webhook_name: 'job-events', message: expect.any(String) },
      status: 'succeeded',
      attempts: [
        {
          attempt: 1,
          at: expect.stringMatching(RFC3339_UTC),
          status_code: 200,
          duration_ms: expect.any(Number),
          response_excerpt: '{"ok":true}',
        },
      ],
      attempt_count: 1,
      next_attempt_at: null,
      created_at: expect.stringMatching(RFC3339_UTC),
      delivered_at: expect.stringMatching(RFC3339_UTC),
      redelivery_of: null,
    });
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.verified).toBe(true);
    expect(got!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/^ai-gateway-webhooks\//),
      'x-gateway-webhook-id': res.body.id,
      'x-gateway-webhook-event': 'webhook.test',
      'x-gateway-webhook-timestamp': expect.stringMatching(/^\d{10}$/),
      'x-gateway-webhook-signature': expect.stringMatching(/^v1=[0-9a-f]{64}$/),
      authorization: 'token-from-env',
    });
    expect(Math.abs(Number(got!.headers['x-gateway-webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(got!.body).toEqual({
      id: res.body.id,
      event: 'webhook.test',
      created_at: res.body.created_at,
      data: res.body.payload,
    });
    // A tampered body or another secret does not verify.
    const { verifySignature } = await import('./webhook-receiver.js');
    expect(verifySignature(hook.secret, got!.headers, got!.raw.replace('webhook.test', 'webhook.tEst'))).toBe(false);
    expect(verifySignature('whsec_other', got!.headers, got!.raw)).toBe(false);
  });

  it('test: a failing receiver is one failed attempt with its status, never retried; redirects are not followed', async () => {
    receiver.answerNext([500]);
    const failed = await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      status: 'failed',
      attempt_count: 1,
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(failed.body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 500, error: 'receiver answered HTTP 500' }),
    ]);
    receiver.answerNext([302]);
    const redirected = await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(redirected.body.attempts[0]).toMatchObject({ status_code: 302, error: 'receiver answered HTTP 302' });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received).toHaveLength(2);
  });

  it('test: a receiver slower than webhooks.delivery_timeout fails the attempt; only 1 KiB of an answer is kept', async () => {
    receiver.delayMs = 1_500;
    const slow = await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(slow.body.status).toBe('failed');
    expect(slow.body.attempts[0].status_code).toBeUndefined();
    expect(slow.body.attempts[0].error).toMatch(/within 1000 ms/);
    expect(slow.body.attempts[0].duration_ms).toBeGreaterThanOrEqual(900);
    expect(slow.body.attempts[0].duration_ms).toBeLessThan(1_500);

    receiver.delayMs = 0;
    receiver.replyBody = 'x'.repeat(64 * 1024);
    const big = await api.post(`${WEBHOOKS}/${hook.id}/test`);
    expect(big.body.status).toBe('succeeded');
    expect(big.body.attempts[0].response_excerpt).toBe('x'.repeat(1024));
  });

  it('notify() through the app records a delivery, queues it and the receiver gets the signed event', async () => {
    const data = { job_id: 'job-123', status: 'completed', result: { choices: [{ text: 'héllo' }] } };
    const id = await notifier.notify(hook.id, 'async_job.completed', data);
    expect(id).toMatch(UUID);
    const done = await settled(id!);
    expect(done).toMatchObject({
      id,
      event: 'async_job.completed',
      payload: data,
      status: 'succeeded',
      attempt_count: 1,
    });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verified).toBe(true);
    expect(receiver.received[0]!.body).toEqual({ id, event: 'async_job.completed', created_at: done.created_at, data });
    expect(receiver.received[0]!.headers['x-gateway-webhook-event']).toBe('async_job.completed');
  });

  it('retries on 500 with a doubling backoff, recording every attempt, then succeeds', async () => {
    receiver.answerNext([500, 503]);
    const id = (await notifier.notify(hook.id, 'async_job.completed', { job_id: 'retry-me' }))!;
    const done = await settled(id);
    expect(done.status).toBe('succeeded');
    expect(done.attempts.map((a: any) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'receiver answered HTTP 500'],
      [2, 503, 'receiver answered HTTP 503'],
      [3, 200, undefined],
    ]);
    expect(done.attempt_count).toBe(3);
    const at = done.attempts.map((a: any) => Date.parse(a.at));
    // Waits of 100 ms then 200 ms (webhooks.retry_backoff_initial doubling).
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(100);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(200);
    // Every attempt sends the same delivery: same id, same body, each signed afresh.
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.raw)).size).toBe(1);
    expect(receiver.received.every((r) => r.verified && r.headers['x-gateway-webhook-id'] === id)).toBe(true);
  });

  it('fails a delivery after webhooks.max_attempts, then redelivers it as a new delivery', async () => {
    receiver.answerNext([500, 500, 500]);
    const id = (await notifier.notify(hook.id, 'async_job.failed', { job_id: 'doomed' }))!;
    const failed = await settled(id);
    expect(failed).toMatchObject({ status: 'failed', attempt_count: 3, next_attempt_at: null, delivered_at: null });
    expect(failed.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 500]);
    await new Promise((r) => setTimeout(r, 600));
    expect(receiver.received).toHaveLength(3);

    const res = await api.post(`${WEBHOOKS}/deliveries/${id}/redeliver`);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      webhook_id: hook.id,
      event: 'async_job.failed',
      payload: { job_id: 'doomed' },
      status: 'pending',
      attempts: [],
      redelivery_of: id,
    });
    expect(res.body.id).not.toBe(id);
    const again = await settled(res.body.id);
    expect(again).toMatchObject({ status: 'succeeded', attempt_count: 1, redelivery_of: id });
    const last = receiver.received.at(-1)!;
    expect(last.verified).toBe(true);
    expect(last.body).toMatchObject({ id: res.body.id, event: 'async_job.failed', data: { job_id: 'doomed' } });
    // The original is left as it was.
    expect((await delivery(id)).status).toBe('failed');
  });

  it('lists deliveries newest first, paged, filtered by status and event; bad filters are 400', async () => {
    const all = await api.get(`${WEBHOOKS}/${hook.id}/deliveries`);
    expect(all.status).toBe(200);
    const times = all.body.deliveries.map((d: any) => Date.parse(d.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.body.count).toBe(all.body.deliveries.length);
    expect(all.body.pagination).toEqual({
      total_count: all.body.deliveries.length,
      limit: 50,
      offset: 0,
      sort_by: 'created_at',
      order: 'desc',
    });
    const page = await api.get(`${WEBHOOKS}/${hook.id}/deliveries`, { query: { limit: 2, offset: 1 } });
    expect(page.body.deliveries.map((d: any) => d.id)).toEqual(all.body.deliveries.slice(1, 3).map((d: any) => d.id));
    const failed = await api.get(`${WEBHOOKS}/${hook.id}/deliveries`, { query: { status: 'failed' } });
    expect(failed.body.deliveries.length).toBeGreaterThan(0);
    expect(failed.body.deliveries.every((d: any) => d.status === 'failed')).toBe(true);
    const tests = await api.get(`${WEBHOOKS}/${hook.id}/deliveries`, { query: { event: 'webhook.test' } });
    expect(tests.body.deliveries.length).toBe(5);
    expect(tests.body.pagination.total_count).toBe(5);
    const param = (query: Record<string, string | number>, name: string) =>
      api
        .get(`${WEBHOOKS}/${hook.id}/deliveries`, { query })
        .then((r) => expectError(r, 400, 'validation_failed', name));
    await param({ status: 'done' }, 'status');
    await param({ limit: 0 }, 'limit');
    await param({ offset: -1 }, 'offset');
    await param({ event: 'e'.repeat(129) }, 'event');
  });

  it('resolve(): an enabled webhook by name; unknown or disabled is 400 naming the header', async () => {
    expect(await notifier.resolve('job-events', HEADER)).toEqual({ id: hook.id, name: 'job-events' });
    const unknown = await resolveError(notifier, 'no-such-hook');
    expect(unknown).toBeInstanceOf(GatewayException);
    expect(unknown).toMatchObject({ status: 400, code: 'validation_failed', param: HEADER });

    const other = await api.post(WEBHOOKS, { name: 'soon-disabled', url: receiver.url });
    expect(await notifier.resolve('soon-disabled', HEADER)).toEqual({ id: other.body.id, name: 'soon-disabled' });
    await api.put(`${WEBHOOKS}/${other.body.id}`, { enabled: false });
    const disabled = await resolveError(notifier, 'soon-disabled');
    expect(disabled).toMatchObject({ status: 400, code: 'validation_failed', param: HEADER });
    expect(disabled.message).toContain('disabled');
    // A rename is seen at once too.
    await api.put(`${WEBHOOKS}/${other.body.id}`, { name: 'renamed-hook', enabled: true });
    expect(await notifier.resolve('renamed-hook', HEADER)).toEqual({ id: other.body.id, name: 'renamed-hook' });
    expect((await resolveError(notifier, 'soon-disabled')).param).toBe(HEADER);
    await api.delete(`${WEBHOOKS}/${other.body.id}`);
    expect((await resolveError(notifier, 'renamed-hook')).status).toBe(400);
  });

  it('a disabled webhook receives nothing: notify records nothing, pending deliveries fail, redelivery is 409', async () => {
    const off = await api.post(WEBHOOKS, { name: 'turned-off', url: receiver.url });
    const first = (await notifier.notify(off.body.id, 'async_job.completed', { n: 1 }))!;
    await settled(first);
    await api.put(`${WEBHOOKS}/${off.body.id}`, { enabled: false });
    const before = (await sql(gw, 'SELECT count(*)::int AS n FROM webhook_deliveries'))[0].n;
    expect(await notifier.notify(off.body.id, 'async_job.completed', { n: 2 })).toBeUndefined();
    expect(await notifier.notify('3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11', 'async_job.completed', {})).toBeUndefined();
    expect((await sql(gw, 'SELECT count(*)::int AS n FROM webhook_deliveries'))[0].n).toBe(before);
    expectError(await api.post(`${WEBHOOKS}/deliveries/${first}/redeliver`), 409, 'webhook_disabled');

    // A delivery still pending when its webhook was disabled fails at its next attempt without being sent.
    const received = receiver.received.length;
    await sql(
      gw,
      `INSERT INTO webhook_deliveries (id, webhook_id, event, payload, status, next_attempt_at, created_at)
       VALUES ('6b1f9a3e-0c4d-4e8f-9a7b-2c3d4e5f6a7b', $1, 'async_job.completed', '{}', 'pending', now(), now())`,
      [off.body.id],
    );
    const queue = gw.app.get(QueueService);
    const job = await queue.enqueue(WEBHOOK_JOBS.deliver, { delivery_id: '6b1f9a3e-0c4d-4e8f-9a7b-2c3d4e5f6a7b' });
    expect((await queue.waitForCompletion(job.id, 10_000)).state).toBe('completed');
    const gone = await delivery('6b1f9a3e-0c4d-4e8f-9a7b-2c3d4e5f6a7b');
    expect(gone).toMatchObject({ status: 'failed', attempt_count: 1 });
    expect(gone.attempts).toEqual([expect.objectContaining({ attempt: 1, error: 'webhook is disabled' })]);
    expect(receiver.received.length).toBe(received);
  });

  it('a duplicate job for a delivery does not send it twice', async () => {
    receiver.delayMs = 300;
    const id = (await notifier.notify(hook.id, 'async_job.completed', { job_id: 'once' }))!;
    const queue = gw.app.get(QueueService);
    // The same delivery under other job ids (a recovery sweep racing a live job): each run finds it claimed or done.
    await new Promise((r) => setTimeout(r, 100));
    const dup = await queue.enqueue(WEBHOOK_JOBS.deliver, { delivery_id: id }, { jobId: `dup-${id}` });
    expect((await queue.waitForCompletion(dup.id, 10_000)).result).toMatchObject({ skipped: expect.any(String) });
    const done = await settled(id);
    const late = await queue.enqueue(WEBHOOK_JOBS.deliver, { delivery_id: id }, { jobId: `late-${id}` });
    expect((await queue.waitForCompletion(late.id, 10_000)).result).toMatchObject({ skipped: 'delivery succeeded' });
    expect(done.attempt_count).toBe(1);
    expect(receiver.received.filter((r) => r.headers['x-gateway-webhook-id'] === id)).toHaveLength(1);
  });
});
