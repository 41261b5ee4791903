import { expect, test, type Page } from '@playwright/test';
import { formatCost, formatNumber } from '../src/shared/format/format';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { unlock, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

/** What the test sent, as the gateway answered it: the figures the overview must show. */
interface Sent {
  requests: number;
  errors: number;
  tokens: number;
  cost: number;
  byModel: Map<string, { requests: number; errors: number; tokens: number; cost: number }>;
  byKey: Map<string, { requests: number; cost: number }>;
}

/**
 * The overview against a real gateway whose upstream is the provider simulator, seeded through the API: its figures
 * are those of the requests sent (counted here from the gateway's own answers), the breakdown by provider and model,
 * the virtual keys by cost, and the range (periods, a custom range, in the URL).
 */
test.describe('overview', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  const sent: Sent = { requests: 0, errors: 0, tokens: 0, cost: 0, byModel: new Map(), byKey: new Map() };

  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([startGateway(), startSimulator()]);
    const api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    const alpha = await api.createVirtualKey('team-alpha');
    const beta = await api.createVirtualKey('team-beta');
    const plan: Array<[{ value: string }, string, string, number]> = [
      [alpha, 'team-alpha', 'gpt-4o-mini', 3],
      [beta, 'team-beta', 'gpt-4o', 2],
      // Refused upstream (400 is not retried): one request, one error.
      [alpha, 'team-alpha', 'sim-error-400', 1],
    ];
    for (const [key, keyName, model, times] of plan) {
      for (let i = 0; i < times; i++) {
        const answer = await chat(gateway, key.value, {
          model: `openai/${model}`,
          messages: [{ role: 'user', content: `request ${i} ${'word '.repeat(i * 5)}` }],
        });
        const failed = answer.status !== 200;
        if (model === 'sim-error-400') expect(answer.status).toBe(400);
        else expect(answer.status).toBe(200);
        sent.requests += 1;
        sent.errors += failed ? 1 : 0;
        sent.tokens += answer.tokens;
        sent.cost += answer.cost;
        const m = sent.byModel.get(model) ?? { requests: 0, errors: 0, tokens: 0, cost: 0 };
        sent.byModel.set(model, {
          requests: m.requests + 1,
          errors: m.errors + (failed ? 1 : 0),
          tokens: m.tokens + answer.tokens,
          cost: m.cost + answer.cost,
        });
        const k = sent.byKey.get(keyName) ?? { requests: 0, cost: 0 };
        sent.byKey.set(keyName, { requests: k.requests + 1, cost: k.cost + answer.cost });
      }
    }
    expect(sent.cost).toBeGreaterThan(0);
    expect(sent.tokens).toBeGreaterThan(0);
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  /** A headline figure's value, as shown under its label. */
  const figure = (page: Page, label: string) => page.getByRole('group', { name: label }).locator('p').nth(1);
  const breakdown = (page: Page, name = 'By provider and model') => page.getByRole('table', { name });
  const cells = (page: Page, table: string, row: string) =>
    page
      .getByRole('table', { name: table })
      .getByRole('row', { name: new RegExp(`^${row} `) })
      .getByRole('cell');

  test('shows the figures of the requests sent, by provider and model and by virtual key', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway);
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

    await expect(figure(page, 'Requests')).toHaveText(formatNumber(sent.requests));
    await expect(figure(page, 'Errors')).toHaveText(formatNumber(sent.errors));
    await expect(page.getByRole('group', { name: 'Errors' })).toContainText('83.3% succeeded');
    await expect(figure(page, 'Tokens')).toHaveText(formatNumber(sent.tokens));
    await expect(figure(page, 'Cost')).toHaveText(formatCost(sent.cost));
    for (const p of ['p50', 'p95', 'p99']) await expect(figure(page, `Latency ${p}`)).toHaveText(/^[\d.,]+ (ms|s)$/);

    // By provider and model, most requests first.
    await expect(breakdown(page).locator('tbody tr')).toHaveCount(3);
    await expect(breakdown(page).locator('tbody tr').first()).toContainText('openai / gpt-4o-mini');
    for (const [model, m] of sent.byModel) {
      const row = cells(page, 'By provider and model', `openai / ${model}`);
      await expect(row.nth(1)).toHaveText(formatNumber(m.requests));
      await expect(row.nth(2)).toHaveText(formatNumber(m.errors));
      await expect(row.nth(5)).toHaveText(formatNumber(m.tokens));
      await expect(row.nth(6)).toHaveText(formatCost(m.cost));
    }

    // The virtual keys, the costliest first.
    const keys = [...sent.byKey].sort((a, b) => b[1].cost - a[1].cost);
    const keyRows = page.getByRole('table', { name: 'Top virtual keys by cost' }).locator('tbody tr');
    await expect(keyRows).toHaveCount(2);
    for (const [i, [name, k]] of keys.entries()) {
      await expect(keyRows.nth(i).getByRole('cell').nth(0)).toHaveText(name);
      await expect(keyRows.nth(i).getByRole('cell').nth(1)).toHaveText(formatNumber(k.requests));
      await expect(keyRows.nth(i).getByRole('cell').nth(3)).toHaveText(formatCost(k.cost));
    }

    // The charts are drawn, and their text alternative (a table per chart) holds the requests sent, by outcome;
    // circuits are an enterprise feature.
    const requestsChart = page.getByRole('region', { name: 'Requests over time' });
    await expect(requestsChart.locator('canvas').first()).toBeVisible();
    const columnSums = (name: string) =>
      page
        .getByRole('table', { name })
        .locator('tbody tr')
        .evaluateAll((rows) =>
          rows
            .map((row) => [...row.querySelectorAll('td')].map((td) => Number(td.textContent?.replace(/[^\d.]/g, ''))))
            .reduce((sums, row) => sums.map((sum, i) => sum + (row[i] || 0)), [0, 0]),
        );
    await expect.poll(() => columnSums('Requests per interval')).toEqual([sent.requests - sent.errors, sent.errors]);
    await expect.poll(async () => (await columnSums('Tokens per interval')).reduce((a, b) => a + b)).toBe(sent.tokens);
    await expect(page.getByRole('region', { name: 'Open circuits' })).toContainText(
      'Circuit breakers are part of the enterprise edition.',
    );

    // A group leads to its request logs over the same range.
    await breakdown(page).getByRole('link', { name: 'openai / gpt-4o', exact: true }).click();
    await expect(page).toHaveURL(/\/ui\/logs\?period=24h&providers=openai&models=gpt-4o$/);
    await expect(page.getByRole('table', { name: 'Request logs' }).locator('tbody tr')).toHaveCount(2);
    expect(problems).toEqual([]);
  });

  test('the range: periods and a custom range, kept in the URL', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway);
    await expect(figure(page, 'Requests')).toHaveText(formatNumber(sent.requests));

    await page.getByText('Last hour', { exact: true }).click();
    await expect(page).toHaveURL(/\/ui\/\?period=1h$/);
    await expect(figure(page, 'Requests')).toHaveText(formatNumber(sent.requests));

    // Three to two days ago: nothing was sent then.
    await page.getByText('Custom', { exact: true }).click();
    const day = 24 * 3_600_000;
    // The inputs hold the browser's local time (the page runs in Europe/Berlin): fill them in the page's zone.
    const [from, to] = await page.evaluate(
      (times) =>
        times.map((ms) => {
          const d = new Date(ms);
          return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
        }),
      [Date.now() - 3 * day, Date.now() - 2 * day],
    );
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(from!);
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(to!);
    await page.getByRole('button', { name: 'Apply range' }).click();
    await expect(page).toHaveURL(/\/ui\/\?start_time=[^&]+&end_time=[^&]+$/);
    await expect(figure(page, 'Requests')).toHaveText('0');
    await expect(figure(page, 'Cost')).toHaveText(formatCost(0));
    await expect(page.getByRole('region', { name: 'Breakdown' })).toContainText('No request in this range.');
    await page.reload();
    await expect(figure(page, 'Requests')).toHaveText('0');

    // From before the requests to now: all of them again.
    await page.getByText('7 days', { exact: true }).click();
    await expect(page).toHaveURL(/\/ui\/\?period=7d$/);
    await expect(figure(page, 'Requests')).toHaveText(formatNumber(sent.requests));

    // Grouped by provider: one row holding every request.
    await page.getByText('Provider', { exact: true }).click();
    await expect(page).toHaveURL(/\/ui\/\?period=7d&group_by=provider$/);
    const byProvider = breakdown(page, 'By provider').locator('tbody tr');
    await expect(byProvider).toHaveCount(1);
    await expect(byProvider.getByRole('cell').nth(0)).toHaveText('openai');
    await expect(byProvider.getByRole('cell').nth(1)).toHaveText(formatNumber(sent.requests));
    expect(problems).toEqual([]);
  });
});
