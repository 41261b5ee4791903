import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chat, chatMany, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { unlock, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

/**
 * The request logs screen against a real gateway whose upstream is the provider simulator, seeded through the API:
 * live rows, filters applied to them, the drawer's routing of a fallback, the export, a 400 on its field, deep links.
 */
test.describe('request logs', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let api: GatewayApi;
  let liveKey: { id: string; value: string };
  let bulkKey: { id: string; value: string };

  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([startGateway(), startSimulator()]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    liveKey = await api.createVirtualKey('live-key');
    bulkKey = await api.createVirtualKey('bulk-key');
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  const table = (page: Page) => page.getByRole('table', { name: 'Request logs' });
  const bodyRows = (page: Page) => table(page).locator('tbody tr');

  test('a request through /v1/chat/completions appears live at the top of the list', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'logs?live=true');
    await expect(page).toHaveURL(/\/ui\/logs\?live=true$/);
    await expect(page.getByRole('status').filter({ hasText: /^Connected$/ })).toBeVisible();
    const before = await bodyRows(page).count();

    const { id, status } = await chat(gateway, liveKey.value, { model: 'openai/gpt-4o-mini' });
    expect(status).toBe(200);
    const fresh = table(page).locator('tbody tr[data-new]');
    await expect(fresh).toHaveCount(1);
    await expect(fresh).toContainText('openai / gpt-4o-mini');
    await expect(fresh).toContainText('live-key');
    await expect(fresh).toContainText('success 200');
    await expect(bodyRows(page)).toHaveCount(before + 1);
    await expect(page.getByText(`1–${before + 1} of ${before + 1}`)).toBeVisible();

    // The row is the log the gateway wrote: its drawer reads it by id.
    await fresh.getByRole('button', { name: /^Open the log of/ }).click();
    await expect(page.getByRole('dialog', { name: 'Request log' })).toContainText(id);
    expect(problems).toEqual([]);
  });

  test('a filter applied before the requests hides a live row that does not match it', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'logs?live=true');
    await page.getByRole('button', { name: 'More filters' }).click();
    const models = page.getByRole('combobox', { name: 'Models' });
    await models.fill('gpt-4o');
    await models.press('Enter');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/models=gpt-4o(&|$)/);
    await expect(page.getByRole('status').filter({ hasText: /^Connected$/ })).toBeVisible();
    await expect(page.getByText('No log matches these filters.')).toBeVisible();

    // The one that does not match is sent first: had it been let through, it would show before the match.
    expect((await chat(gateway, liveKey.value, { model: 'openai/gpt-4o-mini' })).status).toBe(200);
    expect((await chat(gateway, liveKey.value, { model: 'openai/gpt-4o' })).status).toBe(200);
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page)).toContainText('openai / gpt-4o');
    await expect(bodyRows(page)).not.toContainText('gpt-4o-mini');
    // The server agrees: a reload shows the same single row.
    await page.reload();
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page)).toContainText('openai / gpt-4o');
    expect(problems).toEqual([]);
  });

  test('the drawer shows the routing of a fallback and its attempts', async ({ page }) => {
    const { problems } = watchProblems(page);
    const { id: primaryId, status } = await chat(gateway, liveKey.value, {
      model: 'openai/sim-rate-limit',
      fallbacks: ['openai/gpt-4o-mini'],
    });
    expect(status).toBe(200);
    await unlock(page, gateway, `logs?parent_request_ids=${primaryId}`);
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page)).toContainText('fallback 1');
    await bodyRows(page)
      .getByRole('button', { name: /^Open the log of/ })
      .click();

    const drawer = page.getByRole('dialog', { name: 'Request log' });
    const routing = drawer.getByRole('region', { name: 'Routing' });
    await expect(routing.getByRole('row', { name: /Attempt/ })).toContainText('Fallback 1');
    await expect(routing.getByRole('row', { name: /Fallback of/ })).toContainText(primaryId);
    await expect(routing.getByRole('row', { name: /^Model/ })).toContainText('gpt-4o-mini');
    const attempts = drawer.getByRole('table', { name: 'Attempts' });
    await expect(attempts.getByRole('row')).toHaveCount(3);
    await expect(attempts.getByRole('row').nth(1)).toContainText('openai / sim-rate-limit');
    await expect(attempts.getByRole('row').nth(1)).toContainText('error 429');
    await expect(attempts.getByRole('row').nth(2)).toContainText('Fallback 1 (this log)');

    // The primary attempt, with its error.
    await attempts.getByRole('button', { name: 'Primary' }).click();
    await expect(page).toHaveURL(new RegExp(`log=${primaryId}`));
    await expect(drawer.getByRole('region', { name: 'Summary' })).toContainText(primaryId);
    await expect(drawer.getByRole('region', { name: 'Error' })).toContainText('provider_rate_limited');
    await expect(attempts.getByRole('row').nth(1)).toContainText('Primary (this log)');
    expect(problems).toEqual([]);
  });

  test('the export of 2,500 rows gives 2,500 lines (JSON Lines) and a header plus 2,500 (CSV)', async ({ page }) => {
    test.setTimeout(300_000);
    await chatMany(gateway, bulkKey.value, 2500, { model: 'openai/gpt-4o-mini' });
    const { problems } = watchProblems(page);
    await unlock(page, gateway, `logs?virtual_key_ids=${bulkKey.id}`);
    await expect(page.getByText('1–50 of 2,500')).toBeVisible();

    for (const [format, label, lines] of [
      ['jsonl', 'JSON Lines', 2500],
      ['csv', 'CSV', 2501],
    ] as const) {
      await page.getByRole('button', { name: 'Export' }).click();
      await page.getByRole('menuitem', { name: label }).click();
      const dialog = page.getByRole('dialog', { name: `Export as ${format.toUpperCase()}` });
      const downloading = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Start export' }).click();
      const file = await downloading;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^request-logs-.+\\.${format}$`));
      const text = readFileSync(await file.path(), 'utf8');
      const rows = text.split(/\r?\n/).filter(Boolean);
      expect(rows).toHaveLength(lines);
      if (format === 'jsonl') {
        const parsed = rows.map((row) => JSON.parse(row) as { id: string; virtual_key_id: string });
        expect(new Set(parsed.map((row) => row.id)).size).toBe(2500);
        expect(parsed.every((row) => row.virtual_key_id === bulkKey.id)).toBe(true);
      } else {
        expect(rows[0]).toMatch(/^id,timestamp,status,/);
      }
      await expect(page.getByText('Exported 2,500 logs').last()).toBeVisible();
      await expect(dialog).toBeHidden();
    }
    expect(problems).toEqual([]);
  });

  test('the export shows its progress and can be cancelled', async ({ page }) => {
    await unlock(page, gateway, `logs?virtual_key_ids=${bulkKey.id}`);
    // Slow answers, so the export is caught in the middle.
    await page.route('**/api/logs?*', async (route) => {
      if (new URL(route.request().url()).searchParams.get('limit') === '1000')
        await new Promise((ok) => setTimeout(ok, 800));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export as CSV' });
    let downloaded = false;
    page.on('download', () => (downloaded = true));
    await dialog.getByRole('button', { name: 'Start export' }).click();
    await expect(dialog.getByText('1,000 of 2,500 logs')).toBeVisible();
    await expect(dialog.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('aria-valuenow', '40');
    await dialog.getByRole('button', { name: 'Cancel export' }).click();
    await expect(dialog).toBeHidden();
    await page.waitForTimeout(2000);
    expect(downloaded).toBe(false);
  });

  test('a 400 from the API marks the field it names, and what was typed stays', async ({ page }) => {
    // The list and its stats (asked beside it) are both refused.
    const { problems } = watchProblems(
      page,
      (url, status) => status === 400 && (url.includes('/api/logs?') || url.includes('/api/logs/stats?')),
    );
    await unlock(page, gateway, 'logs');
    await page.getByRole('button', { name: 'More filters' }).click();
    // Checked on the client first, from the API's own constraints: no request.
    await page.getByLabel('Min tokens').fill('1.5');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByLabel('Min tokens')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Must be a whole number')).toBeVisible();
    await page.getByLabel('Min tokens').fill('');

    // A minimum above its maximum is the server's to refuse: 400 naming min_latency.
    await page.getByLabel('Min latency (ms)').fill('500');
    await page.getByLabel('Max latency (ms)').fill('100');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const min = page.getByLabel('Min latency (ms)');
    await expect(min).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('min_latency is greater than max_latency').first()).toBeVisible();
    await expect(min).toHaveValue('500');
    await expect(page.getByLabel('Max latency (ms)')).toHaveValue('100');
    await expect(page.getByRole('alert')).toContainText('min_latency is greater than max_latency');
    expect(problems).toEqual([]);
  });

  test('a deep link with filters and an open log survives a reload', async ({ page }) => {
    const { problems } = watchProblems(page);
    const { id } = await chat(gateway, liveKey.value, { model: 'openai/gpt-4o-mini' });
    await unlock(page, gateway, `logs?status=success&virtual_key_ids=${liveKey.id}&log=${id}`);
    const drawer = page.getByRole('dialog', { name: 'Request log' });
    await expect(drawer.getByRole('region', { name: 'Summary' })).toContainText(id);
    await page.reload();
    await expect(drawer.getByRole('region', { name: 'Summary' })).toContainText(id);
    await expect(drawer.getByRole('region', { name: 'Input' })).toContainText('hello from the dashboard test');
    await page.getByRole('button', { name: 'Close the log' }).click();
    await expect(page).toHaveURL(new RegExp(`/ui/logs\\?status=success&virtual_key_ids=${liveKey.id}$`));
    for (const row of await bodyRows(page).all()) await expect(row).toContainText('success 200');
    expect(problems).toEqual([]);
  });
});
