import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResult } from '../helpers/http.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { created, startInferenceStack, type InferenceStack } from './inference-kit.js';

/** Async jobs calling back (issue 16): the job's webhook gets a signed event when the job finishes. */
describe(`async jobs with webhooks (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let receiver: WebhookReceiver;

  async function pollUntilDone(type: string, id: string): Promise<HttpResult> {
    for (let i = 0; i < 400; i++) {
      const res = await s.inference.get(`/v1/async/${type}/${id}`);
      if (res.status !== 202) return res;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`job ${id} did not finish`);
  }

  beforeAll(async () => {
    s = await startInferenceStack({ webhooks: { retry_backoff_initial: '50ms', max_attempts: 3 } });
    receiver = await startWebhookReceiver();
    const webhook = await created(s.admin.post('/api/webhooks', { name: 'jobs-done', url: receiver.url }));
    receiver.secret = webhook.secret;
    await created(s.admin.post('/api/webhooks', { name: 'paused', url: receiver.url, enabled: false }));
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('completed and failed jobs each send one signed event carrying the job, retried after a 500', async () => {
    receiver.answerNext([500]);
    const withHook = s.gw.http.withHeaders({ authorization: `Bearer ${s.vk}`, 'x-gateway-async-webhook': 'jobs-done' });
    const ok = await withHook.post('/v1/async/chat/completions', {
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'call me back' }],
    });
    expect(ok.status, ok.text).toBe(202);
    const failed = await withHook.post('/v1/async/chat/completions', {
      model: 'openai/sim-error-400',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(failed.status).toBe(202);
    const okPoll = await pollUntilDone('chat/completions', ok.body.id);
    const failedPoll = await pollUntilDone('chat/completions', failed.body.id);

    const all = await receiver.waitFor(
      (r) => r.filter((d) => d.status === 200 && [ok.body.id, failed.body.id].includes(d.body?.data?.id)).length === 2,
    );
    expect(all.every((d) => d.verified)).toBe(true);
    const completedEvent = all.filter((d) => d.body.data.id === ok.body.id && d.status === 200);
    expect(completedEvent).toHaveLength(1);
    expect(completedEvent[0]!.body.event).toBe('async_job.completed');
    expect(completedEvent[0]!.headers['x-gateway-webhook-event']).toBe('async_job.completed');
    expect(completedEvent[0]!.body.data).toEqual({
      id: ok.body.id,
      type: 'chat/completions',
      status: 'completed',
      status_code: 200,
      result: okPoll.body.result,
      created_at: okPoll.body.created_at,
      completed_at: okPoll.body.completed_at,
      expires_at: okPoll.body.expires_at,
    });
    const failedEvent = all.find((d) => d.body.data.id === failed.body.id && d.status === 200)!;
    expect(failedEvent.body.event).toBe('async_job.failed');
    expect(failedEvent.body.data.error).toEqual(failedPoll.body.error);
    expect(failedEvent.body.data.status_code).toBe(400);
    // The first attempt got a 500 and was retried: two attempts recorded on that delivery.
    const webhooks = await s.admin.get('/api/webhooks');
    const hook = webhooks.body.webhooks.find((w: any) => w.name === 'jobs-done');
    const deliveries = await s.admin.get(`/api/webhooks/${hook.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    const ofJob = (id: string) => deliveries.body.deliveries.filter((d: any) => d.payload.id === id);
    const [okDelivery] = ofJob(ok.body.id);
    const [failedDelivery] = ofJob(failed.body.id);
    expect(ofJob(ok.body.id)).toHaveLength(1);
    expect(ofJob(failed.body.id)).toHaveLength(1);
    expect(okDelivery.event).toBe('async_job.completed');
    expect(failedDelivery.event).toBe('async_job.failed');
    expect([okDelivery.status, failedDelivery.status]).toEqual(['succeeded', 'succeeded']);
    // The receiver's first answer was a 500: that delivery was attempted again and recorded both.
    const attempts = [okDelivery, failedDelivery].map((d: any) => d.attempts.map((a: any) => a.status_code));
    expect(attempts.sort((a, b) => b.length - a.length)).toEqual([[500, 200], [200]]);
  });

  it('a disabled or unknown webhook is refused at submit; a job without one sends nothing', async () => {
    for (const name of ['paused', 'missing']) {
      const res = await s.gw.http
        .withHeaders({ authorization: `Bearer ${s.vk}`, 'x-gateway-async-webhook': name })
        .post('/v1/async/embeddings', { model: 'openai/text-embedding-3-small', input: 'x' });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.param).toBe('x-gateway-async-webhook');
    }
    const before = receiver.received.length;
    const plain = await s.inference.post('/v1/async/embeddings', {
      model: 'openai/text-embedding-3-small',
      input: 'x',
    });
    await pollUntilDone('embeddings', plain.body.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.length).toBe(before);
  });
});
