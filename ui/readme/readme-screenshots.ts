import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { chat, chatMany, GatewayApi } from '../e2e/support/api';
import { REPO, startGateway, type Gateway } from '../e2e/support/gateway';
import { unlock } from '../e2e/support/page';
import { startSimulator, type Simulator } from '../e2e/support/simulator';

const IMAGES = join(REPO, 'docs', 'images');

/**
 * Writes docs/images/dashboard-overview.png and dashboard-logs.png (light, 1280×800): a gateway with a few keys and
 * models, some errors and a fallback, all sent through `/v1` to the provider simulator.
 */
test('README screenshots', async ({ page }) => {
  test.setTimeout(300_000);
  let gateway: Gateway | undefined;
  let sim: Simulator | undefined;
  try {
    [gateway, sim] = await Promise.all([startGateway(), startSimulator()]);
    const api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    const [search, support, batch] = await Promise.all(
      ['search-service', 'support-bot', 'nightly-batch'].map((name) => api.createVirtualKey(name)),
    );
    await chatMany(gateway, search!.value, 40, { model: 'openai/gpt-4o-mini' }, 4);
    await chatMany(gateway, support!.value, 12, { model: 'openai/gpt-4o' }, 4);
    await chatMany(gateway, batch!.value, 20, { model: 'openai/gpt-4.1-nano' }, 4);
    for (let i = 0; i < 3; i++) {
      await chat(gateway, support!.value, { model: 'openai/sim-rate-limit', fallbacks: ['openai/gpt-4o-mini'] });
      await chat(gateway, batch!.value, { model: 'openai/sim-error-400' });
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await unlock(page, gateway, '?period=1h');
    await expect(page.getByRole('table', { name: 'By provider and model' }).locator('tbody tr')).toHaveCount(5);
    await expect(page.getByRole('region', { name: 'Cost over time' }).locator('canvas').first()).toBeVisible();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(IMAGES, 'dashboard-overview.png') });

    await page.goto(`${gateway.url}/ui/logs`);
    await expect(page.getByRole('table', { name: 'Request logs' }).locator('tbody tr')).toHaveCount(50);
    await page.screenshot({ path: join(IMAGES, 'dashboard-logs.png') });
  } finally {
    await gateway?.stop();
    await sim?.close();
  }
});
