import { expect, test, type Page } from '@playwright/test';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { flipSwitch, unlock, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

interface PluginView {
  name: string;
  enabled: boolean;
  order: number;
  config: Record<string, unknown>;
}
interface PluginList {
  plugins: PluginView[];
}
interface RuntimeConfig {
  config: { mcp: { max_agent_depth: number }; logs: { retention: string } };
  sources: Record<string, 'api' | 'file' | 'default'>;
}

/**
 * Settings: a runtime setting that comes from the environment (`file`) changed in the UI, saved with source `api`
 * and taken by the gateway, then reset to the environment's value; a value the gateway refuses shows its message at
 * the setting and keeps what was typed; plugins switched and moved; the response cache turned on in the UI, a hit seen
 * in its figures and the entry removed by its request id after a confirmation.
 */
test.describe('settings', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let api: GatewayApi;
  let virtualKey: string;

  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([startGateway({ env: { GATEWAY_MCP_MAX_AGENT_DEPTH: '7' } }), startSimulator()]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    virtualKey = (await api.createVirtualKey('settings-key')).value;
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  const row = (page: Page, key: string) =>
    page.getByRole('list', { name: `${key.split('.')[0]} settings` }).getByRole('listitem', { name: key });

  test('a setting changed in the UI is saved with source api, then reset to the file value', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const depth = row(page, 'mcp.max_agent_depth');
    const input = depth.getByRole('textbox', { name: 'mcp.max_agent_depth' });
    await expect(input).toHaveValue('7');
    await expect(depth.getByText('file', { exact: true })).toBeVisible();
    await expect(depth.getByRole('button', { name: 'Reset mcp.max_agent_depth' })).toBeDisabled();
    // A default stays a default.
    await expect(row(page, 'logs.retention').getByText('default', { exact: true })).toBeVisible();

    await input.fill('12');
    await expect(depth).toContainText('Not saved (was 7)');
    await expect(page.getByText('1 unsaved change(s)')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(depth.getByText('api', { exact: true })).toBeVisible();
    await expect(page.getByText('No unsaved change')).toBeVisible();
    await expect(input).toHaveValue('12');
    const saved = await api.request<RuntimeConfig>('GET', '/api/config');
    expect(saved.config.mcp.max_agent_depth).toBe(12);
    expect(saved.sources['mcp.max_agent_depth']).toBe('api');

    // After a reload the page reads the same from the gateway.
    await page.reload();
    await expect(input).toHaveValue('12');
    await expect(depth.getByText('api', { exact: true })).toBeVisible();

    await depth.getByRole('button', { name: 'Reset mcp.max_agent_depth' }).click();
    await expect(depth.getByText('file', { exact: true })).toBeVisible();
    await expect(input).toHaveValue('7');
    await expect(page.getByText('mcp.max_agent_depth is back to 7 (file)')).toBeVisible();
    const reset = await api.request<RuntimeConfig>('GET', '/api/config');
    expect(reset.config.mcp.max_agent_depth).toBe(7);
    expect(reset.sources['mcp.max_agent_depth']).toBe('file');
    expect(problems).toEqual([]);
  });

  test('a value the gateway refuses shows its message at the setting, keeps what was typed, and changes nothing', async ({
    page,
  }) => {
    // The message the gateway gives for this value, asked directly.
    const direct = await fetch(`${gateway.url}/api/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-gateway-setup-token': gateway.setupToken() },
      body: JSON.stringify({ logs: { retention: 'soon' } }),
    });
    expect(direct.status).toBe(400);
    const { error } = (await direct.json()) as { error: { param: string; message: string } };
    expect(error.param).toBe('logs.retention');

    const { problems } = watchProblems(page, (url, status) => status === 400 && url.endsWith('/api/config'));
    await unlock(page, gateway, 'settings');
    const retention = row(page, 'logs.retention').getByRole('textbox', { name: 'logs.retention' });
    const depth = row(page, 'mcp.max_agent_depth').getByRole('textbox', { name: 'mcp.max_agent_depth' });
    await retention.fill('soon');
    await depth.fill('9');
    // A number out of range is refused before anything is sent.
    await row(page, 'inference.routing_chain_max_depth')
      .getByRole('textbox', { name: 'inference.routing_chain_max_depth' })
      .fill('1000');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(row(page, 'inference.routing_chain_max_depth')).toContainText('Must be at most 100');
    await row(page, 'inference.routing_chain_max_depth')
      .getByRole('textbox', { name: 'inference.routing_chain_max_depth' })
      .fill('10');

    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(retention).toHaveAttribute('aria-invalid', 'true');
    await expect(row(page, 'logs.retention')).toContainText(error.message);
    await expect(retention).toHaveValue('soon');
    await expect(depth).toHaveValue('9');
    await expect(page.getByText('2 unsaved change(s)')).toBeVisible();
    const after = await api.request<RuntimeConfig>('GET', '/api/config');
    expect(after.config.mcp.max_agent_depth).toBe(7);
    expect(after.sources['logs.retention']).toBe('default');

    // Fixed, both are saved in one request.
    await retention.fill('14d');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(row(page, 'logs.retention').getByText('api', { exact: true })).toBeVisible();
    await expect(row(page, 'mcp.max_agent_depth').getByText('api', { exact: true })).toBeVisible();
    const fixed = await api.request<RuntimeConfig>('GET', '/api/config');
    expect(fixed.config.logs.retention).toBe('14d');
    expect(fixed.config.mcp.max_agent_depth).toBe(9);
    await page.screenshot({ path: 'ui/test-results/screenshots/settings-config.png', fullPage: true });
    expect(problems).toEqual([]);
  });

  test('plugins: one switched off and on, one moved up, through the UI and read back from the API', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'settings?tab=plugins');
    const plugins = page.getByRole('table', { name: 'Plugins' });
    const before = await api.request<PluginList>('GET', '/api/plugins');
    const first = before.plugins[0]!;
    const second = before.plugins[1]!;
    await expect(plugins.getByRole('row')).toHaveCount(before.plugins.length + 1);

    const toggle = plugins.getByRole('switch', { name: `Enable ${first.name}` });
    await expect(toggle).toBeChecked({ checked: first.enabled });
    await flipSwitch(toggle);
    await expect(toggle).toBeChecked({ checked: !first.enabled });
    expect((await api.request<PluginView>('GET', `/api/plugins/${first.name}`)).enabled).toBe(!first.enabled);
    await flipSwitch(toggle);
    await expect(toggle).toBeChecked({ checked: first.enabled });

    await plugins.getByRole('button', { name: `Move ${second.name} up` }).click();
    await expect(plugins.getByRole('row').nth(1)).toContainText(second.name);
    const moved = await api.request<PluginList>('GET', '/api/plugins');
    expect(moved.plugins.map((p) => p.name).slice(0, 2)).toEqual([second.name, first.name]);
    await page.screenshot({ path: 'ui/test-results/screenshots/settings-plugins.png', fullPage: true });
    expect(problems).toEqual([]);
  });

  test('the cache turned on in the UI (its config refused once at the field), its hit seen, its entry removed', async ({
    page,
  }) => {
    const { problems } = watchProblems(
      page,
      (url, status) =>
        (status === 400 && url.endsWith('/api/plugins/cache')) || (status === 404 && url.includes('/api/cache/clear')),
    );
    await unlock(page, gateway, 'settings?tab=plugins');
    const plugins = page.getByRole('table', { name: 'Plugins' });
    const toggle = plugins.getByRole('switch', { name: 'Enable cache' });
    await expect(toggle).not.toBeChecked();
    await flipSwitch(toggle);
    await expect(toggle).toBeChecked();

    await plugins.getByRole('button', { name: 'Edit config of cache' }).click();
    const form = page.getByRole('form', { name: 'Config of cache' });
    const config = form.getByLabel('Config (JSON object)');
    await config.fill('{"ttl": "forever"}');
    await form.getByRole('button', { name: 'Save config' }).click();
    await expect(config).toHaveAttribute('aria-invalid', 'true');
    await expect(form).toContainText('config.ttl must be a duration such as 30s, 5m or 1h (at most 30d)');
    await expect(config).toHaveValue('{"ttl": "forever"}');
    await config.fill('{"ttl": "10m"}');
    await form.getByRole('button', { name: 'Save config' }).click();
    await expect(form).toBeHidden();
    await expect(plugins.getByRole('row').filter({ hasText: 'cache' })).toContainText('{"ttl":"10m"}');
    expect((await api.request<PluginView>('GET', '/api/plugins/cache')).config).toEqual({ ttl: '10m' });

    // The same request twice: the first is stored (a miss), the second answered from the cache (a hit).
    const first = await chat(gateway, virtualKey, { model: 'openai/gpt-4o-mini' });
    expect(first.status).toBe(200);
    expect((await chat(gateway, virtualKey, { model: 'openai/gpt-4o-mini' })).status).toBe(200);

    await page.getByRole('tab', { name: 'Response cache' }).click();
    await expect(page).toHaveURL(/tab=cache/);
    await expect(page.getByRole('group', { name: 'Hit ratio' })).toContainText('50%');
    await expect(page.getByRole('group', { name: 'Hit ratio' })).toContainText('1 of 2 lookups');
    await expect(page.getByRole('group', { name: 'Entries' })).toContainText('1');

    const purge = page.getByRole('form', { name: 'Remove a cache entry' });
    const input = purge.getByLabel('Cache key or request id');
    await input.fill(first.id);
    await purge.getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove cache entry' });
    await expect(confirm).toContainText(`the entry written by request ${first.id}`);
    await confirm.getByRole('button', { name: 'Remove entry' }).click();
    await expect(input).toHaveValue('');
    await expect(page.getByRole('group', { name: 'Entries' })).toContainText('0');
    expect((await api.request<{ entries: number }>('GET', '/api/cache/stats')).entries).toBe(0);

    // Gone now: the API's 404 lands on the field, with what was typed kept.
    await input.fill(first.id);
    await purge.getByRole('button', { name: 'Remove' }).click();
    await page
      .getByRole('dialog', { name: 'Remove cache entry' })
      .getByRole('button', { name: 'Remove entry' })
      .click();
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveValue(first.id);
    await page.screenshot({ path: 'ui/test-results/screenshots/settings-cache.png', fullPage: true });
    expect(problems).toEqual([]);
  });

  test('the audit log lists the settings writes of the tests above, filtered, each linking to its screen', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'audit-logs');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    const filters = page.getByRole('form', { name: 'Filter the audit log' });
    await filters.getByLabel('Permission').fill('Settings:Update');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/permission=Settings%3AUpdate/);
    const table = page.getByRole('table', { name: 'Audit log' });
    // Rows reach the log through a buffer: read again until the last write is there.
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(
        table.locator('tbody tr').filter({ hasText: 'logs.retention' }).filter({ hasText: '200' }),
      ).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    const rows = table.locator('tbody tr');
    const expected = (
      await api.request<{ pagination: { total_count: number } }>('GET', '/api/audit-logs?permission=Settings:Update')
    ).pagination.total_count;
    expect(expected).toBeGreaterThanOrEqual(4);
    await expect(rows).toHaveCount(expected);
    // The refused write is there with its status, what it asked to change named.
    await expect(rows.filter({ hasText: '400' }).filter({ hasText: 'changed logs.retention' }).first()).toBeVisible();
    await expect(rows.first()).toContainText('PUT /api/config');

    await page.screenshot({ path: 'ui/test-results/screenshots/audit-logs.png', fullPage: true });
    await rows.first().getByRole('link', { name: 'runtime config' }).click();
    await expect(page).toHaveURL(/\/ui\/settings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    expect(problems).toEqual([]);
  });
});
