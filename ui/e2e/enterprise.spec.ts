import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { navLinks, seriousViolations, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

const ADMIN = { username: 'admin', password: 'enterprise-admin-password' };
const PASSWORD = 'user-password-123';

/**
 * Enterprise edition: the sidebar shows what the signed-in user may view, actions they may not take are disabled
 * naming the permission, and a direct link to a screen they may not view shows the API's 403.
 */
test.describe('permissions in the enterprise edition', () => {
  let gateway: Gateway;
  let sim: Simulator;
  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([
      startGateway({
        env: {
          GATEWAY_EDITION: 'enterprise',
          GATEWAY_AUTH_ENABLED: 'true',
          GATEWAY_ADMIN_USERNAME: ADMIN.username,
          GATEWAY_ADMIN_PASSWORD: ADMIN.password,
        },
      }),
      startSimulator(),
    ]);
    const api = new GatewayApi(gateway, { basic: ADMIN });
    for (const [email, role, permissions] of [
      ['viewer@example.com', 'dashboard only', ['Dashboard:View']],
      ['log-reader@example.com', 'log reader', ['Dashboard:View', 'Logs:View']],
    ] as const) {
      const created = await api.request<{ id: string }>('POST', '/api/governance/rbac/roles', {
        name: role,
        permissions,
      });
      await api.request('POST', '/api/governance/users', {
        name: email,
        email,
        role_id: created.id,
        password: PASSWORD,
      });
    }
    await api.addOpenAi(sim.url);
    const key = await api.createVirtualKey('enterprise-key');
    expect((await chat(gateway, key.value, { model: 'openai/gpt-4o-mini' })).status).toBe(200);
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  async function signIn(page: import('@playwright/test').Page, email: string, path: string) {
    await page.goto(`${gateway.url}/ui/${path}`);
    await page.getByLabel('Username or email').fill(email);
    await page.getByRole('textbox', { name: /^Password/ }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  test('without Logs:View the item is hidden, and a deep link shows the 403 message', async ({ page }) => {
    const { problems } = watchProblems(page, (url, status) => status === 403 && url.includes('/api/logs'));
    await signIn(page, 'viewer@example.com', '');
    await expect(navLinks(page)).toHaveText(['Overview']);
    await page.goto(`${gateway.url}/ui/logs`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Not permitted');
    await expect(alert).toContainText('Missing permission Logs:View');
    await expect(navLinks(page)).toHaveText(['Overview']);
    expect(problems).toEqual([]);
  });

  test('with Logs:View but not Logs:Delete the logs show and Delete is disabled, naming the permission', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    await signIn(page, 'log-reader@example.com', 'logs');
    // Async jobs are listed under Logs:View too.
    await expect(navLinks(page)).toHaveText(['Overview', 'Request logs', 'Async jobs']);
    const rows = page.getByRole('table', { name: 'Request logs' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await rows.getByRole('button', { name: /^Open the log of/ }).click();
    const remove = page.getByRole('dialog', { name: 'Request log' }).getByRole('button', { name: 'Delete' });
    await expect(remove).toBeDisabled();
    await expect(remove).toHaveAccessibleDescription('Needs the Logs:Delete permission');
    await remove.locator('..').hover();
    await expect(page.getByRole('tooltip')).toHaveText('Needs the Logs:Delete permission');
    expect(problems).toEqual([]);
  });

  test('a team links a customer from its drawer and unlinks it after a confirmation naming both', async ({ page }) => {
    const { problems } = watchProblems(page);
    const api = new GatewayApi(gateway, { basic: ADMIN });
    const team = (await api.request<{ team: { id: string } }>('POST', '/api/governance/teams', { name: 'platform' }))
      .team;
    const acme = (
      await api.request<{ customer: { id: string } }>('POST', '/api/governance/customers', { name: 'acme' })
    ).customer;
    await api.request('POST', '/api/governance/customers', { name: 'globex' });
    const linkedNames = async () =>
      (
        await api.request<{ customers: Array<{ name: string }> }>('GET', `/api/governance/teams/${team.id}/customers`)
      ).customers.map((c) => c.name);

    await page.goto(`${gateway.url}/ui/teams?open=${team.id}`);
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByRole('textbox', { name: /^Password/ }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const customers = page.getByRole('dialog', { name: 'Team platform' }).getByRole('region', { name: 'Customers' });
    await expect(customers).toContainText('No customer linked.');

    await customers.getByLabel('Link a customer').click();
    await page.getByRole('option', { name: 'acme' }).click();
    await customers.getByRole('button', { name: 'Link', exact: true }).click();
    await expect(customers.getByRole('list', { name: 'Linked customers' })).toHaveText('acmeUnlink');
    expect(await linkedNames()).toEqual(['acme']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(RESULTS, 'screenshots', 'teams-customer-links.png'), fullPage: true });
    // The customer's own drawer lists the team.
    await page.goto(`${gateway.url}/ui/teams?tab=customers&open=${acme.id}`);
    await expect(
      page.getByRole('dialog', { name: 'Customer acme' }).getByRole('region', { name: 'Summary' }),
    ).toContainText('platform');

    await page.goto(`${gateway.url}/ui/teams?open=${team.id}`);
    await customers.getByRole('button', { name: 'Unlink the customer acme' }).click();
    const confirm = page.getByRole('dialog', { name: 'Unlink customer' });
    await expect(confirm).toContainText('Unlink the customer acme from the team platform?');
    await confirm.getByRole('button', { name: 'Unlink acme' }).click();
    await expect(customers).toContainText('No customer linked.');
    expect(await linkedNames()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
