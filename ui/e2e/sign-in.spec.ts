import { expect, test } from '@playwright/test';
import { startGateway, type Gateway } from './support/gateway';
import { navLinks, watchProblems, seriousViolations } from './support/page';

const ADMIN = { username: 'admin', password: 'dashboard-admin-password' };

/** Dashboard auth on: sign-in, a refused password, the login throttle, sign-out, and a session that ends under the user. */
test.describe('sign-in with dashboard auth', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  test.beforeAll(async () => {
    gateway = await startGateway({
      env: {
        GATEWAY_AUTH_ENABLED: 'true',
        GATEWAY_ADMIN_USERNAME: ADMIN.username,
        GATEWAY_ADMIN_PASSWORD: ADMIN.password,
      },
    });
  });
  test.afterAll(async () => gateway?.stop());

  test('a wrong password is refused with the API message; the right one lands on the page asked for; sign-out', async ({
    page,
    context,
  }) => {
    const { problems } = watchProblems(page, (url, status) => url.endsWith('/api/session/login') && status === 401);
    await page.goto(`${gateway.url}/ui/logs?status=error`);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByRole('textbox', { name: /^Password/ }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Invalid username or password/);
    await expect(page.getByLabel('Username or email')).toHaveValue(ADMIN.username);

    await page.getByRole('textbox', { name: /^Password/ }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Request logs' })).toBeVisible();
    await expect(page).toHaveURL(`${gateway.url}/ui/logs?status=error`);
    const session = (await context.cookies()).find((c) => c.name === 'gateway_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Signed out.');
    expect((await context.cookies()).some((c) => c.name === 'gateway_session')).toBe(false);
    expect(problems).toEqual([]);
  });

  test("the login throttle's 429 says when to try again, and the button waits", async ({ page }) => {
    const { problems } = watchProblems(
      page,
      (url, status) => url.endsWith('/api/session/login') && (status === 401 || status === 429),
    );
    await page.goto(`${gateway.url}/ui/`);
    await page.getByLabel('Username or email').fill('someone@example.com');
    await page.getByRole('textbox', { name: /^Password/ }).fill('guessing-wrong');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toHaveText(/Invalid username or password/);
    }
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Too many requestsToo many failed attempts: try again in \d+ s/);
    await expect(page.getByText(/You can try again in \d+ s \(at .+\)/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    expect(problems).toEqual([]);
  });

  test('a session that ends under the user returns to sign-in with a message, and signing in again keeps the URL', async ({
    page,
    context,
  }) => {
    const { problems } = watchProblems(page, (url, status) => status === 401 && url.includes('/api/'));
    await page.goto(`${gateway.url}/ui/logs?status=success`);
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByRole('textbox', { name: /^Password/ }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(navLinks(page)).toHaveCount(16); // every open-source screen

    // The session is revoked elsewhere (its token logged out through the API).
    const token = (await context.cookies()).find((c) => c.name === 'gateway_session')!.value;
    const revoked = await fetch(`${gateway.url}/api/session/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Your session has ended. Sign in again to continue.');
    await expect(page).toHaveURL(`${gateway.url}/ui/logs?status=success`);
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByRole('textbox', { name: /^Password/ }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Request logs' })).toBeVisible();
    await expect(page).toHaveURL(`${gateway.url}/ui/logs?status=success`);
    expect(problems).toEqual([]);
  });
});
