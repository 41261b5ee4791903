import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { navLinks, unlock, watchProblems, seriousViolations } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/** Two attempts a delivery, 300 ms apart: a failing receiver fails a delivery in about a second, not a minute. */
const WEBHOOKS_CONFIG = { webhooks: { max_attempts: 2, retry_backoff_initial: '300ms', delivery_timeout: '5s' } };

/** A screenshot to look at (ui/test-results/screenshots, not committed). */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(RESULTS, 'screenshots', `webhooks-${name}.png`), fullPage: true });
}

/** Submits an async chat completion that reports to `webhook` when it finishes; returns the job's id. */
async function submitJob(gateway: Gateway, virtualKey: string, webhook: string, model: string): Promise<string> {
  const res = await fetch(`${gateway.url}/v1/async/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${virtualKey}`,
      'content-type': 'application/json',
      'x-gateway-async-webhook': webhook,
    },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello from the webhooks test' }] }),
  });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(202);
  return body.id;
}

/**
 * Webhooks and async jobs against the built gateway: a webhook added in the UI (a refused URL first), its signing
 * secret shown once and verified by a real receiver on loopback; an async job's completion delivered to that receiver,
 * which answers 500 until the delivery is failed with its error; the receiver fixed, redeliver, and the new delivery
 * shown succeeded. The async jobs screen shows the jobs with their status, webhook and error; delete confirms by name.
 */
test.describe('webhooks and async jobs', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let receiver: WebhookReceiver;
  let api: GatewayApi;
  let virtualKey: string;
  let configDir: string;

  test.beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'gw-ui-e2e-webhooks-'));
    const config = join(configDir, 'config.json');
    writeFileSync(config, JSON.stringify(WEBHOOKS_CONFIG));
    [gateway, sim, receiver] = await Promise.all([
      startGateway({ args: ['--config', config] }),
      startSimulator(),
      startWebhookReceiver(),
    ]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    virtualKey = (await api.createVirtualKey('webhooks-key')).value;
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await receiver?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  test('a delivery fails against a receiver answering 500, is shown failed, and succeeds on redeliver', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { problems } = watchProblems(page, (url, status) => status === 400 && url.endsWith('/api/webhooks'));
    await unlock(page, gateway, 'webhooks');
    await expect(navLinks(page).filter({ hasText: 'Webhooks' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No webhook yet')).toBeVisible();

    // Added in the UI: a cloud metadata address is refused by the gateway, on the URL field, and what was typed stays.
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('form', { name: 'Add a webhook' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('job-events');
    await form.getByRole('textbox', { name: /^URL/ }).fill('http://169.254.169.254/hook');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header 1 name').fill('Authorization');
    await form.getByLabel('Header 1 value').fill('Bearer receiver-token');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await expect(form.getByRole('textbox', { name: /^URL/ })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('textbox', { name: /^Name/ })).toHaveValue('job-events');
    await expect(form.getByLabel('Header 1 value')).toHaveValue('Bearer receiver-token');
    await form.getByRole('textbox', { name: /^URL/ }).fill(receiver.url);
    await form.getByRole('button', { name: 'Add webhook' }).click();

    // The signing secret, once: copied from the dialog, it is the one the receiver verifies signatures with.
    const shown = page.getByRole('dialog', { name: 'Webhook job-events created' });
    await expect(shown).toContainText('You will not see this value again');
    await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
    await shot(page, 'secret-once');
    const secret = (await shown.getByLabel('Signing secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await expect(shown).toBeHidden();

    const webhooks = page.getByRole('table', { name: 'Webhooks' });
    const row = webhooks.locator('tbody tr', { hasText: 'job-events' });
    await expect(row).toContainText(receiver.url);
    await expect(row).toContainText('Authorization: Redacted');
    await expect(row).toContainText('enabled');
    await expect(row.getByRole('cell', { name: 'Redacted', exact: true })).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(page.getByText('Bearer receiver-token')).toHaveCount(0);

    // An async job naming the webhook completes; the receiver answers 500 to both attempts: the delivery fails.
    const log = page.getByRole('table', { name: 'Deliveries of job-events' });
    await expect(page.getByText('No delivery yet')).toBeVisible();
    receiver.answerNext([500, 500]);
    const jobId = await submitJob(gateway, virtualKey, 'job-events', 'openai/gpt-4o-mini');
    const failed = log.locator('tbody tr', { hasText: 'async_job.completed' });
    await expect(failed).toHaveCount(1);
    await expect(failed).toContainText('failed', { timeout: 30_000 });
    await expect(failed).toContainText('Failed after 2 attempts; no retry left');
    await expect(failed).toContainText('receiver answered HTTP 500');
    await shot(page, 'delivery-failed');
    expect(receiver.received.map((r) => [r.status, r.verified, r.headers.authorization])).toEqual([
      [500, true, 'Bearer receiver-token'],
      [500, true, 'Bearer receiver-token'],
    ]);
    expect(receiver.received[0]!.body).toMatchObject({ event: 'async_job.completed', data: { id: jobId } });

    // Its attempts, each with what the receiver answered.
    await failed.getByRole('button', { name: 'Attempts' }).click();
    const attempts = page.getByRole('dialog', { name: 'Delivery async_job.completed' });
    await expect(attempts.getByRole('table', { name: 'Attempts' }).locator('tbody tr')).toHaveCount(2);
    await expect(attempts.getByRole('table', { name: 'Attempts' })).toContainText('receiver answered HTTP 500');
    await expect(attempts).toContainText('"status": "completed"');
    await shot(page, 'attempts');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(attempts).toBeHidden();

    // The receiver is fixed (it answers 200 from now on): redeliver, and the new delivery is shown succeeded.
    await failed.getByRole('button', { name: 'Redeliver' }).click();
    await expect(page.getByText('Delivery of async_job.completed queued again')).toBeVisible();
    const rows = log.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    const redelivered = rows.filter({ hasText: 'redelivery' });
    await expect(redelivered).toContainText('succeeded', { timeout: 30_000 });
    await expect(redelivered).toContainText('Delivered on attempt 1');
    await expect(redelivered).toContainText('async_job.completed');
    // The original stays as it was.
    await expect(rows.filter({ hasNotText: 'redelivery' })).toContainText('Failed after 2 attempts');
    expect(receiver.received).toHaveLength(3);
    await shot(page, 'redelivered');
    expect(await seriousViolations(page)).toEqual([]);
    expect(receiver.received[2]).toMatchObject({ status: 200, verified: true });
    expect(receiver.received[2]!.body).toMatchObject({ event: 'async_job.completed', data: { id: jobId } });

    // The status filter: only the failed one.
    await page.getByRole('radiogroup', { name: 'Delivery status' }).getByText('Failed').click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('Failed after 2 attempts');
    expect(problems).toEqual([]);
  });

  test('a test delivery reports the receiver’s refusal; the async jobs screen shows each job’s status and error', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { problems } = watchProblems(page);
    // A job the provider refuses (the simulator answers 400 to this model): failed, with the provider's error.
    await submitJob(gateway, virtualKey, 'job-events', 'openai/sim-error-400');
    await unlock(page, gateway, 'webhooks?webhook=' + (await webhookId(api, 'job-events')));

    receiver.answerNext([503]);
    await page.getByRole('button', { name: 'Send a test delivery to job-events' }).click();
    await expect(page.getByText('Test delivery to job-events failed')).toBeVisible();
    const log = page.getByRole('table', { name: 'Deliveries of job-events' });
    const testRow = log.locator('tbody tr', { hasText: 'webhook.test' });
    await expect(testRow).toContainText('failed');
    await expect(testRow).toContainText('Failed after 1 attempt; no retry left');
    await expect(testRow).toContainText('receiver answered HTTP 503');

    await navLinks(page).filter({ hasText: 'Async jobs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Async jobs' })).toBeVisible();
    const jobs = page.getByRole('table', { name: 'Async jobs' });
    await expect(jobs.locator('tbody tr')).toHaveCount(2);
    const refused = jobs.locator('tbody tr', { hasText: 'failed 400' });
    await expect(refused).toContainText('chat/completions', { timeout: 30_000 });
    await expect(refused).toContainText('job-events');
    const completed = jobs.locator('tbody tr', { hasText: 'completed 200' });
    await expect(completed).toContainText('result readable until');
    await expect(completed.getByRole('link', { name: 'job-events' })).toBeVisible();
    await shot(page, 'async-jobs');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'failed', exact: true }).click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(jobs.locator('tbody tr')).toHaveCount(1);
    await expect(jobs).toContainText('failed 400');

    // The webhook's link leads to its delivery log.
    await jobs.getByRole('link', { name: 'job-events' }).click();
    await expect(page.getByRole('table', { name: 'Deliveries of job-events' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('an edit keeps a header value it does not retype; a rotated secret is shown once and signs the next delivery', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    const created = await api.request<{ secret: string }>('POST', '/api/webhooks', {
      name: 'edit-me',
      url: receiver.url,
      headers: { Authorization: 'Bearer kept' },
    });
    await unlock(page, gateway, 'webhooks');
    await page.getByRole('button', { name: 'Edit webhook edit-me' }).click();
    const form = page.getByRole('form', { name: 'Edit webhook' });
    await expect(form.getByLabel('Header 1 name')).toHaveValue('Authorization');
    await expect(form.getByLabel('Header 1 value')).toHaveValue('');
    await expect(form.getByLabel('Header 1 value')).toHaveAttribute('placeholder', 'Stored: Redacted');
    await form.getByRole('textbox', { name: /^Description/ }).fill('billing events');
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await expect(page.getByText('Webhook edit-me saved')).toBeVisible();
    const row = page.getByRole('table', { name: 'Webhooks' }).locator('tbody tr', { hasText: 'edit-me' });
    await expect(row).toContainText('billing events');
    await expect(row).toContainText('Authorization: Redacted');

    await row.getByRole('button', { name: 'Rotate secret of edit-me' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate signing secret' });
    await expect(confirm).toContainText('Replace the signing secret of edit-me?');
    await confirm.getByRole('button', { name: 'Rotate the secret of edit-me' }).click();
    const shown = page.getByRole('dialog', { name: 'New signing secret of edit-me' });
    await expect(shown).toContainText('You will not see this value again');
    const secret = (await shown.getByLabel('Signing secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);
    receiver.secret = secret;
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.getByText(secret)).toHaveCount(0);

    const before = receiver.received.length;
    await row.getByRole('button', { name: 'Send a test delivery to edit-me' }).click();
    await expect(page.getByText('Test delivery to edit-me succeeded (HTTP 200)')).toBeVisible();
    expect(receiver.received).toHaveLength(before + 1);
    const got = receiver.received.at(-1)!;
    expect(got).toMatchObject({
      verified: true,
      headers: { authorization: 'Bearer kept' },
      body: { event: 'webhook.test' },
    });
    await expect(
      page.getByRole('table', { name: 'Deliveries of edit-me' }).locator('tbody tr', { hasText: 'webhook.test' }),
    ).toContainText('Delivered on attempt 1');
    expect(problems).toEqual([]);
  });

  test('delete asks for a confirmation naming the webhook', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'webhooks');
    await page.getByRole('button', { name: 'Delete webhook job-events' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete webhook' });
    await expect(confirm).toContainText('Delete the webhook job-events?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('table', { name: 'Webhooks' })).toContainText('job-events');
    await page.getByRole('button', { name: 'Delete webhook job-events' }).click();
    await confirm.getByRole('button', { name: 'Delete job-events' }).click();
    await expect(page.getByRole('table', { name: 'Webhooks' })).not.toContainText('job-events');
    const left = await api.request<{ webhooks: Array<{ name: string }> }>('GET', '/api/webhooks');
    expect(left.webhooks.map((webhook) => webhook.name)).toEqual(['edit-me']);
    expect(problems).toEqual([]);
  });
});

async function webhookId(api: GatewayApi, name: string): Promise<string> {
  const list = await api.request<{ webhooks: Array<{ id: string; name: string }> }>('GET', '/api/webhooks');
  return list.webhooks.find((webhook) => webhook.name === name)!.id;
}
