import { expect, test, type Page } from '@playwright/test';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

const ADMIN = { username: 'admin', password: 'enterprise-admin-password' };

/**
 * Circuit breakers in the enterprise edition: a policy created in the UI (with a refusal on its field first), a
 * circuit opened by the simulator's signal header on a real /v1 request, shown open with its signal, and closed by
 * hand after a confirmation naming it; the next request goes to the primary again.
 */
test.describe('circuit breakers', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let api: GatewayApi;
  let virtualKey: string;

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
    api = new GatewayApi(gateway, { basic: ADMIN });
    await api.addOpenAi(sim.url);
    await api.request('POST', '/api/providers', { provider: 'anthropic', base_url: `${sim.url}/anthropic` });
    await api.request('POST', '/api/providers/anthropic/keys', { name: 'sim-ant', value: 'sk-ant-sim' });
    virtualKey = (await api.createVirtualKey('circuit-key')).value;
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  async function signIn(page: Page, path: string) {
    await page.goto(`${gateway.url}/ui/${path}`);
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByRole('textbox', { name: /^Password/ }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  }

  test('a policy added in the UI, its circuit opened by a signal, shown open, closed by hand', async ({ page }) => {
    const { problems } = watchProblems(page, (url, status) => status === 400 && url.includes('/policies'));
    await signIn(page, 'circuit-breakers');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Circuit breakers' }),
    ).toBeVisible();
    await expect(page.getByText('Every circuit is closed')).toBeVisible();

    await page.getByRole('button', { name: 'Add policy' }).click();
    const form = page.getByRole('form', { name: 'Add a policy' });
    await form.getByLabel('Name').fill('mini-overload');
    await form.getByLabel('Primary model').fill('gpt-4o-mini');
    await form.getByLabel('Fallback model').fill('claude-3-5-haiku-latest');
    await form.getByLabel('Signal 1 header').fill('x-overloaded');
    await form.getByLabel('Signal 1 value').fill('true');
    // A cooldown the API cannot read: its refusal lands on the field, and what was typed stays.
    await form.getByLabel('Cooldown', { exact: true }).fill('soon');
    await form.getByRole('button', { name: 'Add policy' }).click();
    await expect(form.getByLabel('Cooldown', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Signal 1 header')).toHaveValue('x-overloaded');
    await form.getByLabel('Cooldown', { exact: true }).fill('5m');
    await form.getByRole('button', { name: 'Add policy' }).click();
    await expect(form).toBeHidden();

    const policies = page.getByRole('table', { name: 'Circuit breaker policies' });
    const row = policies.locator('tbody tr', { hasText: 'mini-overload' });
    await expect(row).toContainText('openai/gpt-4o-mini');
    await expect(row).toContainText('anthropic/claude-3-5-haiku-latest');
    await expect(row).toContainText('x-overloaded = true');
    await expect(row).toContainText('closed');

    // The primary answers with the signal: the circuit opens, and the next request is served by the fallback.
    sim.scenario({
      match: { family: 'openai' },
      responses: [{ ok: true, headers: { 'x-overloaded': 'true' } } as never],
    });
    expect((await chat(gateway, virtualKey, { model: 'openai/gpt-4o-mini' })).status).toBe(200);
    const open = page.getByRole('table', { name: 'Open circuits' });
    await expect(open.locator('tbody tr')).toHaveCount(1);
    await expect(open).toContainText('mini-overload');
    await expect(open).toContainText('x-overloaded: true');
    await expect(row).toContainText('open');

    await open.getByRole('button', { name: 'Close circuit mini-overload' }).click();
    const confirm = page.getByRole('dialog', { name: 'Close circuit' });
    await expect(confirm).toContainText('Close the circuit mini-overload now?');
    await confirm.getByRole('button', { name: 'Close mini-overload' }).click();
    await expect(page.getByText('Every circuit is closed')).toBeVisible();
    await expect(row).toContainText('closed');
    const state = await api.request<{ circuits: Record<string, unknown> }>('GET', '/api/circuit-breaker/state');
    expect(state.circuits).toEqual({});
    expect(problems).toEqual([]);
  });

  test('in the open-source edition the screen says it is enterprise-only and the sidebar has no item', async ({
    page,
  }) => {
    const oss = await startGateway();
    try {
      const { problems } = watchProblems(page);
      await page.goto(`${oss.url}/ui/circuit-breakers`);
      await page.getByLabel('Setup token').fill(oss.setupToken());
      await page.getByRole('button', { name: 'Unlock' }).click();
      await expect(page.getByText('Circuit breakers are part of the enterprise edition.')).toBeVisible();
      await expect(
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Circuit breakers' }),
      ).toHaveCount(0);
      expect(problems).toEqual([]);
    } finally {
      await oss.stop();
    }
  });
});
