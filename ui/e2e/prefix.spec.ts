import { expect, test } from '@playwright/test';
import { startPrefixProxy } from '../../test/helpers/prefix-proxy';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

/** The dashboard behind a reverse proxy that serves the gateway at /gateway/: nothing configured, everything works. */
test.describe('under a reverse-proxy path prefix', () => {
  let gateway: Gateway;
  let sim: Simulator;
  let proxy: Awaited<ReturnType<typeof startPrefixProxy>>;
  let key: { id: string; value: string };
  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([startGateway(), startSimulator()]);
    proxy = await startPrefixProxy({ port: gateway.port });
    const api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    key = await api.createVirtualKey('prefix-key');
  });
  test.afterAll(async () => {
    await proxy?.close();
    await gateway?.stop();
    await sim?.close();
  });

  test('unlock, navigate, live rows over the proxied /ws, and a deep-link reload, all under /gateway/', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && !url.pathname.startsWith('/gateway/')) outside.push(request.url());
    });
    await page.goto(proxy.url);
    await expect(page).toHaveURL(`${proxy.url}ui/`);
    await page.getByLabel('Setup token').fill(gateway.setupToken());
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Request logs' }).click();
    await expect(page).toHaveURL(`${proxy.url}ui/logs`);
    await page.getByRole('switch', { name: 'Live' }).check();
    await expect(page.getByRole('status').filter({ hasText: /^Connected$/ })).toBeVisible();
    expect((await chat(gateway, key.value, { model: 'openai/gpt-4o-mini' })).status).toBe(200);
    const rows = page.getByRole('table', { name: 'Request logs' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('prefix-key');

    await page.reload();
    await expect(page).toHaveURL(`${proxy.url}ui/logs?live=true`);
    await expect(rows).toHaveCount(1);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
