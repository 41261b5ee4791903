import { expect, test } from '@playwright/test';
import { startGateway, type Gateway } from './support/gateway';
import { navLinks, watchProblems } from './support/page';

/** A brand-new gateway (embedded default, nothing configured): unlocked in the browser with its setup token. */
test.describe('first run: unlock with the setup token', () => {
  let gateway: Gateway;
  test.beforeAll(async () => {
    gateway = await startGateway({ fresh: true });
  });
  test.afterAll(async () => gateway?.stop());

  test('the unlock page says where the token is; a wrong token is refused; the right one opens the dashboard and stays out of the browser', async ({
    page,
    context,
  }) => {
    const { problems } = watchProblems(page, (url, status) => url.endsWith('/api/session/setup') && status === 403);
    await page.goto(`${gateway.url}/`);
    await expect(page).toHaveURL(`${gateway.url}/ui/`);
    await expect(page.getByRole('heading', { name: 'Unlock the gateway' })).toBeVisible();
    await expect(page.getByText(/generated a setup token into the file setup-token/)).toBeVisible();
    await expect(page.getByText('./data/setup-token')).toBeVisible();

    await page.getByLabel('Setup token').fill('not-the-token-at-all');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect(page.getByRole('alert')).toHaveText(/^RefusedThe setup token is not valid$/);
    await expect(page.getByLabel('Setup token')).toHaveValue('not-the-token-at-all');

    const token = gateway.setupToken();
    await page.getByLabel('Setup token').fill(token);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect(navLinks(page)).toHaveText([
      'Overview',
      'Request logs',
      'MCP tool logs',
      'Providers and keys',
      'Virtual keys',
      'Teams and customers',
      'Models and pricing',
      'Routing rules',
      'MCP clients',
      'MCP tool groups',
      'Agents',
      'Webhooks',
      'Async jobs',
      'Settings',
      'Audit log',
      'Management keys',
    ]);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();

    // The browser holds the HttpOnly setup-session cookie, never the token.
    const cookies = await context.cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['gateway_setup_session', true, 'Strict']]);
    expect(cookies[0]!.value).not.toContain(token);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(token);
    expect(await page.content()).not.toContain(token);

    // A reload keeps the session; signing out ends it.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Unlock the gateway' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Signed out.');
    expect(await context.cookies()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
