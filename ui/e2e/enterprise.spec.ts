import { expect, test } from '@playwright/test';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { navLinks, watchProblems } from './support/page';
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
});
