import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '../../src/core/queue/job-catalogue.js';
import { AGENT_JOBS } from '../../src/modules/agents/agents.jobs.js';
import { JobRecoveryRegistry } from '../../src/core/queue/job-recovery.registry.js';
import type { RecoveryResult } from '../../src/core/queue/job-recovery.service.js';
import { QueueService } from '../../src/core/queue/queue.service.js';
import { startA2aAgent, type A2aAgent } from '../helpers/a2a-agent.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';
import {
  a2aClient,
  createVirtualKey,
  eventually,
  registerAgent,
  SETUP_TOKEN,
  sql,
  startPushReceiver,
  userMessage,
  type PushReceiver,
} from '../agents/data-plane-kit.js';

const MODE = `${RUN_MODE}${TEST_REDIS_URL ? '+redis' : ''}`;
const DELIVER = 'agents.push-deliver';

async function recover(gw: TestApp, reason: string): Promise<RecoveryResult> {
  const queue = gw.app.get(QueueService);
  const { id } = await queue.enqueue(JOBS.recoverJobs, { reason });
  const view = await queue.waitForCompletion(id, 20_000);
  expect(view.state, view.error).toBe('completed');
  return view.result as RecoveryResult;
}

function pushEvents(gw: TestApp): Promise<Array<{ id: string; status: string; attempts: number }>> {
  return sql(gw, `SELECT id, status, attempts FROM agent_push_events ORDER BY created_at, id`);
}

describe(`job recovery: lost push deliveries (${MODE})`, () => {
  let upstream: A2aAgent;
  let receiver: PushReceiver;
  let gw: TestApp;
  let pushes = 0;

  beforeAll(async () => {
    upstream = await startA2aAgent();
    receiver = await startPushReceiver();
    const appDir = mkdtempSync(join(tmpdir(), 'gw-recover-'));
    // Both apps read the push configs' sealed webhook URL and token.
    const config = { setup_token: SETUP_TOKEN, encryption_key: randomBytes(32).toString('base64') };
    // The api role only enqueues: its push jobs never run, and they are gone with its queue (in memory, or its own
    // Redis prefix, deleted on close: a flushed Redis).
    const api = await startTestApp({ appDir, keepDatabase: true, config: { ...config, role: 'api' } });
    try {
      const vk = await createVirtualKey(api, 'recover-key');
      await registerAgent(api, { name: 'recover', agent_card_url: upstream.cardUrl, virtual_key_ids: [vk.id] });
      const client = await a2aClient(api, 'recover', vk.value, 'JSONRPC');
      await client.sendMessage({
        ...userMessage('tck-complete-task-recover', 'push me later'),
        configuration: {
          acceptedOutputModes: [],
          taskPushNotificationConfig: {
            tenant: '',
            id: '',
            taskId: '',
            url: receiver.url,
            token: 'client-token',
            authentication: undefined,
          },
          historyLength: undefined,
          returnImmediately: false,
        },
      });
      pushes = await eventually(
        () => Promise.resolve(upstream.received.pushes.length),
        (n) => n >= 4,
      );
      expect(pushes).toBeGreaterThanOrEqual(4);
      const stored = await eventually(
        () => pushEvents(api),
        (rows) => rows.length === pushes,
      );
      expect(stored.map((r) => r.status)).toEqual(Array(pushes).fill('pending'));
    } finally {
      await api.close();
    }
    expect(receiver.received).toEqual([]);
    gw = await startTestApp({ appDir, databaseUrl: api.databaseUrl, config });
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
    await upstream?.close();
  });

  it('leaves rows younger than the grace period alone at start', async () => {
    const atStart = await eventually(
      () => Promise.resolve(gw.logs.records().find((l) => l.msg === 'recovered lost jobs' && l.reason === 'start')),
      (record) => record !== undefined,
    );
    expect(atStart).toMatchObject({ found: { [DELIVER]: 0 }, requeued: { [DELIVER]: 0 }, failures: [] });
    expect((await pushEvents(gw)).map((r) => r.status)).toEqual(Array(pushes).fill('pending'));
    expect(receiver.received).toEqual([]);
  });

  it('re-enqueues pending rows older than the grace period; the webhook gets them and the rows are delivered', async () => {
    await sql(gw, `UPDATE agent_push_events SET created_at = created_at - interval '5 minutes'`);
    // The first three attempts of every delivery fail, so the jobs still exist (waiting for a retry) on the next sweep.
    receiver.failNext(pushes * 3);
    expect(await recover(gw, 'test')).toMatchObject({ found: { [DELIVER]: pushes }, requeued: { [DELIVER]: pushes } });
    await receiver.waitFor((all) => all.length >= pushes);
    // Enqueue is idempotent by the job's id: jobs that exist are not queued twice.
    expect(await recover(gw, 'again')).toMatchObject({ found: { [DELIVER]: pushes }, requeued: { [DELIVER]: 0 } });

    const delivered = await eventually(
      () => pushEvents(gw),
      (rows) => rows.every((r) => r.status === 'delivered'),
      15_000,
    );
    expect(delivered.map((r) => r.status)).toEqual(Array(pushes).fill('delivered'));
    // Every attempt is one request to the webhook: three failures and one success per event.
    expect(delivered.reduce((sum, r) => sum + r.attempts, 0)).toBe(pushes * 4);
    const got = receiver.received.filter((r) => r.status === 200);
    expect(got).toHaveLength(pushes);
    for (const r of got) expect(r.headers['x-a2a-notification-token']).toBe('client-token');
    const sorted = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).sort();
    expect(sorted(got.map((r) => r.body))).toEqual(sorted(upstream.received.pushes.map((p) => p.event)));
    expect(receiver.received).toHaveLength(pushes * 4);

    // Nothing pending any more.
    expect(await recover(gw, 'after')).toMatchObject({ found: { [DELIVER]: 0 }, requeued: { [DELIVER]: 0 } });
  });

  it('refuses to register a job without an idempotency key', () => {
    const registry = gw.app.get(JobRecoveryRegistry);
    expect(() => registry.register({ job: JOBS.purgeExpired, findOrphans: () => Promise.resolve([]) })).toThrow(
      /no idempotencyKey/,
    );
    expect(() => registry.register({ job: AGENT_JOBS.pushDeliver, findOrphans: () => Promise.resolve([]) })).toThrow(
      /already registered/,
    );
  });
});
