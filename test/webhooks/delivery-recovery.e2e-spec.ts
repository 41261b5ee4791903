import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '../../src/core/queue/job-catalogue.js';
import { WEBHOOK_JOBS } from '../../src/modules/webhooks/webhooks.jobs.js';
import type { RecoveryResult } from '../../src/core/queue/job-recovery.service.js';
import { QueueService } from '../../src/core/queue/queue.service.js';
import { WebhookNotifier } from '../../src/modules/webhooks/webhook-notifier.js';
import { eventually } from '../agents/data-plane-kit.js';
import { OSS_CONFIG, ossClient, sql } from '../governance/governance-test-kit.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const MODE = `${RUN_MODE}${TEST_REDIS_URL ? '+redis' : ''}`;
const DELIVER = WEBHOOK_JOBS.deliver;

async function recover(gw: TestApp, reason: string): Promise<RecoveryResult> {
  const queue = gw.app.get(QueueService);
  const { id } = await queue.enqueue(JOBS.recoverJobs, { reason });
  const view = await queue.waitForCompletion(id, 20_000);
  expect(view.state, view.error).toBe('completed');
  return view.result as RecoveryResult;
}

const deliveries = (gw: TestApp) =>
  sql<{ id: string; status: string; attempt_count: number }>(
    gw,
    'SELECT id, status, attempt_count FROM webhook_deliveries ORDER BY created_at, id',
  );

describe(`webhook deliveries survive a restart (${MODE})`, () => {
  let receiver: WebhookReceiver;
  let gw: TestApp;
  const ids: string[] = [];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    const appDir = mkdtempSync(join(tmpdir(), 'gw-webhooks-'));
    // Both apps decrypt the same signing secret.
    const config = {
      ...OSS_CONFIG,
      encryption_key: randomBytes(32).toString('base64'),
      outbound: { allow_loopback: true },
      webhooks: { max_attempts: 3, retry_backoff_initial: '50ms', delivery_timeout: '2s' },
    };
    // The api role only enqueues: its jobs never run and are gone with its queue (in memory, or its own Redis prefix,
    // deleted on close: a flushed Redis).
    const api = await startTestApp({ appDir, keepDatabase: true, config: { ...config, role: 'api' } });
    try {
      const created = await ossClient(api).post('/api/webhooks', { name: 'after-restart', url: receiver.url });
      expect(created.status, created.text).toBe(201);
      receiver.secret = created.body.secret;
      const notifier = api.app.get(WebhookNotifier);
      for (const n of [1, 2, 3]) ids.push((await notifier.notify(created.body.id, 'async_job.completed', { n }))!);
      expect((await deliveries(api)).map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
    } finally {
      await api.close();
    }
    expect(receiver.received).toEqual([]);
    gw = await startTestApp({ appDir, databaseUrl: api.databaseUrl, config });
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
  });

  it('re-enqueues pending deliveries whose attempt is overdue; each is sent once and recorded', async () => {
    // At start the rows are younger than the grace period: their jobs might still be about to run.
    const atStart = await eventually(
      () => Promise.resolve(gw.logs.records().find((l) => l.msg === 'recovered lost jobs' && l.reason === 'start')),
      (record) => record !== undefined,
    );
    expect(atStart).toMatchObject({ found: { [DELIVER]: 0 }, requeued: { [DELIVER]: 0 } });

    await sql(gw, `UPDATE webhook_deliveries SET next_attempt_at = next_attempt_at - interval '5 minutes'`);
    receiver.answerNext([500]);
    expect(await recover(gw, 'test')).toMatchObject({ found: { [DELIVER]: 3 }, requeued: { [DELIVER]: 3 } });
    const done = await eventually(
      () => deliveries(gw),
      (rows) => rows.every((r) => r.status === 'succeeded'),
      15_000,
    );
    expect(done.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // One delivery failed once and was retried: four requests in all, every one signed.
    expect(done.reduce((sum, r) => sum + r.attempt_count, 0)).toBe(4);
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.received.filter((r) => r.status === 200).map((r) => r.body.id))).toEqual(new Set(ids));
    expect(await recover(gw, 'after')).toMatchObject({ found: { [DELIVER]: 0 }, requeued: { [DELIVER]: 0 } });
  });
});
