import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { unlock, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

const SHOTS = join(RESULTS, 'screenshots');

/** A chat completion small enough to price exactly: one output token (the simulator honours `max_tokens`). */
const SMALL = { model: 'openai/gpt-4o-mini', max_tokens: 1 };

/** The dollars a person reads, as the dashboard writes them (2 to 6 decimals). */
const usd = (n: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 6,
  }).format(n);

/**
 * Teams and customers against a real gateway whose upstream is the provider simulator: a team created in the UI with a
 * small budget and a request limit, a virtual key attached to it, requests through that key until the gateway answers
 * 429; the team's bars then read used up and the refused request is in the request logs. The budget tightened in the
 * UI below what was spent reads used up, and the next request is refused by it. Refusals (a name taken, a window
 * the API cannot read) keep what was typed; a delete names the object.
 */
test.describe('teams and customers', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let api: GatewayApi;

  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([startGateway(), startSimulator()]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  const teamsTable = (page: Page) => page.getByRole('table', { name: 'Teams' });

  test('a team’s budget and request limit used up by its key: full bars, the 429 in the logs', async ({ page }) => {
    const { problems } = watchProblems(page, (url, status) => status === 400 && url.endsWith('/api/governance/teams'));
    await unlock(page, gateway, 'teams');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teams and customers' }),
    ).toBeVisible();
    await expect(page.getByText('No team yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Create team' }).click();
    const form = page.getByRole('dialog', { name: 'Create a team' });
    await form.getByLabel('Name').fill('research');
    await form.getByRole('button', { name: 'Add a budget' }).click();
    await form.getByLabel('Budget 1 limit (USD)').fill('0.00001');
    // A window the API cannot read: its refusal lands on the field, and what was typed stays.
    await form.getByLabel('Budget 1 resets every').fill('1 day');
    await form.getByLabel('Request limit').fill('3');
    await form.getByLabel('Request window').fill('1h');
    await form.getByRole('button', { name: 'Create team' }).click();
    const window = form.getByLabel('Budget 1 resets every');
    await expect(window).toHaveAttribute('aria-invalid', 'true');
    await expect(form).toContainText('budgets[0].reset_duration must be a duration');
    await expect(form.getByLabel('Budget 1 limit (USD)')).toHaveValue('0.00001');
    await expect(form.getByLabel('Request limit')).toHaveValue('3');
    await window.fill('1d');
    await form.getByRole('button', { name: 'Create team' }).click();
    await expect(form).toBeHidden();

    const row = teamsTable(page).getByRole('row', { name: /research/ });
    await expect(row).toContainText('$0.00 of $0.00001 / 1d');
    await expect(row).toContainText('0 of 3 requests / 1h');

    // A virtual key attached to the team (through the API), listed on the team with a link to it.
    const teams = await api.request<{ teams: Array<{ id: string; name: string }> }>('GET', '/api/governance/teams');
    const team = teams.teams.find((t) => t.name === 'research')!;
    const created = await api.request<{ virtual_key: { id: string; value: string } }>(
      'POST',
      '/api/governance/virtual-keys',
      { name: 'research-key', team_id: team.id },
    );
    const key = created.virtual_key;
    await page.getByRole('button', { name: 'Open team research' }).click();
    await expect(page).toHaveURL(new RegExp(`/ui/teams\\?open=${team.id}$`));
    const drawer = page.getByRole('dialog', { name: 'Team research' });
    const keyLink = drawer.getByRole('region', { name: 'Virtual keys' }).getByRole('link', { name: 'research-key' });
    await expect(keyLink).toHaveAttribute('href', new RegExp(`virtual-keys\\?key=${key.id}$`));
    await expect(drawer.getByRole('region', { name: 'Budgets and limits' })).toContainText(
      'Every 1d · the window starts with the next charge',
    );

    // Requests through the key until the gateway refuses one: the team's limit of 3 requests.
    const answers: Array<{ status: number; cost: number; id: string }> = [];
    while (answers.length < 10 && answers.at(-1)?.status !== 429) answers.push(await chat(gateway, key.value, SMALL));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    const spent = answers.reduce((sum, a) => sum + a.cost, 0);
    expect(spent).toBeGreaterThan(0);
    const refused = answers.at(-1)!;

    await page.reload();
    const bars = page
      .getByRole('dialog', { name: 'Team research' })
      .getByRole('region', { name: 'Budgets and limits' });
    await expect(bars.getByRole('progressbar', { name: 'Requests: 3 of 3 requests' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    await expect(bars).toContainText('3 of 3 requests · used up');
    // The budget's exact spend, and when its window (started by the first charge) resets.
    await expect(bars.getByRole('progressbar', { name: `Budget 1d: ${usd(spent)} of $0.00001` })).toBeVisible();
    // A fixed window of one day from the first charge, a few seconds ago (in the browser's zone).
    const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'Europe/Berlin',
    });
    await expect(bars).toContainText(`Every 1d · resets ${tomorrow}`);
    await page.screenshot({ path: join(SHOTS, 'teams-drawer.png'), fullPage: true });

    // The refused request in the request logs, with its status.
    await page.goto(`${gateway.url}/ui/logs?virtual_key_ids=${key.id}&status=error`);
    const logs = page.getByRole('table', { name: 'Request logs' });
    await expect(logs.locator('tbody tr')).toHaveCount(1);
    await expect(logs.locator('tbody tr')).toContainText('error 429');
    await expect(logs.locator('tbody tr')).toContainText('research-key');
    const log = await api.request<{ status_code: number; team_id: string }>('GET', `/api/logs/${refused.id}`);
    expect(log).toMatchObject({ status_code: 429, team_id: team.id });

    // The budget tightened below what was spent (and the request limit removed): the bar reads used up, and the
    // next request is refused by the budget (402 budget_exceeded).
    await page.goto(`${gateway.url}/ui/teams`);
    await teamsTable(page).getByRole('button', { name: 'Edit team research' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit team research' });
    await expect(edit.getByLabel('Budget 1 limit (USD)')).toHaveValue('0.00001');
    await edit.getByLabel('Budget 1 limit (USD)').fill('0.000001');
    await edit.getByLabel('Request limit').fill('');
    await edit.getByLabel('Request window').fill('');
    await edit.getByRole('button', { name: 'Save team' }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText(`${usd(spent)} of $0.000001 / 1d`);
    await expect(row).not.toContainText('requests');
    await page.getByRole('button', { name: 'Open team research' }).click();
    const tightened = page.getByRole('dialog', { name: 'Team research' }).getByRole('region', {
      name: 'Budgets and limits',
    });
    await expect(tightened.getByRole('progressbar', { name: `Budget 1d: ${usd(spent)} of $0.000001` })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    await expect(tightened).toContainText(`${usd(spent)} of $0.000001 · used up`);
    expect((await chat(gateway, key.value, SMALL)).status).toBe(402);
    await page.screenshot({ path: join(SHOTS, 'teams-list.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  test('customers: a name taken keeps the form, search, and a delete that names the customer', async ({ page }) => {
    const { problems } = watchProblems(
      page,
      (url, status) => status === 409 && url.endsWith('/api/governance/customers'),
    );
    await api.request('POST', '/api/governance/customers', { name: 'acme' });
    await api.request('POST', '/api/governance/customers', { name: 'globex' });
    const vk = await api.createVirtualKey('acme-key');
    const customers = await api.request<{ customers: Array<{ id: string; name: string }> }>(
      'GET',
      '/api/governance/customers',
    );
    const acme = customers.customers.find((c) => c.name === 'acme')!;
    await api.request('PUT', `/api/governance/virtual-keys/${vk.id}`, { customer_id: acme.id });

    await unlock(page, gateway, 'teams');
    await page.getByRole('tab', { name: 'Customers' }).click();
    await expect(page).toHaveURL(/\/ui\/teams\?tab=customers$/);
    const table = page.getByRole('table', { name: 'Customers' });
    await expect(table.locator('tbody tr')).toHaveCount(2);

    // A name taken: the API's 409 message shows and what was typed stays.
    await page.getByRole('button', { name: 'Create customer' }).click();
    const form = page.getByRole('dialog', { name: 'Create a customer' });
    await form.getByLabel('Name').fill('acme');
    await form.getByLabel('Request limit').fill('100');
    await form.getByLabel('Request window').fill('1m');
    await form.getByRole('button', { name: 'Create customer' }).click();
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(form).toContainText('A customer named "acme" already exists');
    await expect(form.getByLabel('Name')).toHaveValue('acme');
    await expect(form.getByLabel('Request limit')).toHaveValue('100');
    await form.getByLabel('Name').fill('initech');
    await form.getByRole('button', { name: 'Create customer' }).click();
    await expect(form).toBeHidden();
    await expect(table.getByRole('row', { name: /initech/ })).toContainText('0 of 100 requests / 1m');

    await page.getByRole('textbox', { name: 'Search customers by name' }).fill('ACM');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/ui\/teams\?tab=customers&search=ACM$/);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await table.getByRole('button', { name: 'Open customer acme' }).click();
    const drawer = page.getByRole('dialog', { name: 'Customer acme' });
    await drawer.getByRole('link', { name: 'acme-key' }).click();
    await expect(page).toHaveURL(new RegExp(`/ui/virtual-keys\\?key=${vk.id}$`));
    await expect(page.getByRole('dialog', { name: 'Virtual key acme-key' })).toContainText('Customer acme');

    await page.goto(`${gateway.url}/ui/teams?tab=customers`);
    await table.getByRole('button', { name: 'Delete customer acme' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete customer' });
    await expect(confirm).toContainText('Delete the customer acme?');
    await confirm.getByRole('button', { name: 'Delete acme' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(table).not.toContainText('acme');
    const key = await api.request<{ customer_id: string | null }>('GET', `/api/governance/virtual-keys/${vk.id}`);
    expect(key.customer_id).toBeNull();
    expect(problems).toEqual([]);
  });
});
