import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { unlock, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';
import { startHttpPeer, type McpPeer } from './support/mcp-peer';
import { SIM_AWS } from '../../test/simulator/families/bedrock-sigv4';
import { vertexServiceAccount } from '../../test/simulator/families/vertex-token';

/** A provider key value typed in the UI: it must never be shown again. */
const PROVIDER_SECRET = 'sk-ui-provider-secret-4821';

/**
 * The providers and virtual keys screens against a real gateway whose upstream is the provider simulator: a provider
 * and a key added in the UI, the test action (the simulator's answer, an upstream error), a virtual key created in
 * the UI (its value shown once) whose request shows live in the logs, its budget as a bar, search, rotation,
 * disabling and deletion; a 400 marks its field; key values never show in clear.
 */
test.describe('providers and virtual keys', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let api: GatewayApi;
  let uiKeyValue = '';

  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([startGateway(), startSimulator()]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  /** Types into a searchable select and picks the option. */
  const pickOption = async (page: Page, dialog: Locator, label: string, option: string) => {
    await dialog.getByRole('combobox', { name: label }).fill(option);
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  test('a provider and a key added in the UI; the key’s value is never shown', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'providers');
    await expect(page.getByText('No provider yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Add provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a provider' });
    await pickOption(page, dialog, 'Provider', 'openai');
    await dialog.getByLabel('Base URL').fill(`${sim.url}/openai/v1`);
    await dialog.getByLabel('Retries').fill('1');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('region', { name: 'openai' });
    await expect(card).toContainText(`${sim.url}/openai/v1`);
    await expect(card).toContainText('1 retries');

    await card.getByRole('button', { name: 'Add key to openai' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'Add a key to openai' });
    await keyDialog.getByLabel('Name').fill('ui-key');
    await keyDialog.getByLabel('Value', { exact: true }).fill(PROVIDER_SECRET);
    await keyDialog.getByRole('button', { name: 'Add key' }).click();
    await expect(keyDialog).toBeHidden();
    const keys = page.getByRole('table', { name: 'Keys of openai' });
    await expect(keys.getByRole('row', { name: /ui-key/ })).toContainText('Redacted');
    await expect(keys.getByRole('row', { name: /ui-key/ })).toContainText('Every model');
    await expect(keys.getByRole('row', { name: /ui-key/ })).toContainText('enabled');

    // The gateway stored what was typed: a request through /v1 reaches the simulator with it.
    const vk = await api.createVirtualKey('api-seeded');
    expect((await chat(gateway, vk.value, { model: 'openai/gpt-4o-mini' })).status).toBe(200);
    expect(sim.requests({ family: 'openai' }).at(-1)?.key).toBe(PROVIDER_SECRET);

    // Editing a key never reads its value back: the field is empty, and saving keeps the stored value.
    await keys.getByRole('button', { name: 'Edit key ui-key' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit key ui-key of openai' });
    await expect(edit.getByLabel('New value')).toHaveValue('');
    await edit.getByLabel('Weight').fill('3');
    await edit.getByRole('button', { name: 'Save key' }).click();
    await expect(edit).toBeHidden();
    await expect(keys.getByRole('row', { name: /ui-key/ })).toContainText('3');
    expect((await chat(gateway, vk.value, { model: 'openai/gpt-4o-mini' })).status).toBe(200);
    expect(sim.requests({ family: 'openai' }).at(-1)?.key).toBe(PROVIDER_SECRET);

    await page.reload();
    await expect(keys).toBeVisible();
    await expect(page.locator('body')).not.toContainText(PROVIDER_SECRET);
    expect(problems).toEqual([]);
  });

  test('the test action shows the simulator’s answer, then an upstream error', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'providers');
    await page.getByRole('button', { name: 'Test key ui-key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test openai' });
    await dialog.getByRole('combobox', { name: 'Model' }).fill('gpt-4o-mini');
    await dialog.getByLabel('Message').fill('ping from the dashboard');
    await dialog.getByRole('button', { name: 'Send test request' }).click();
    const answered = dialog.getByRole('status').filter({ hasText: 'The provider answered' });
    await expect(answered).toContainText('echo: ping from the dashboard');
    await expect(answered).toContainText('key ui-key, model gpt-4o-mini');

    await dialog.getByRole('combobox', { name: 'Model' }).fill('sim-rate-limit');
    await dialog.getByRole('button', { name: 'Send test request' }).click();
    const refused = dialog.getByRole('alert').filter({ hasText: 'The provider refused' });
    await expect(refused).toContainText('HTTP 429');
    await expect(refused).toContainText('provider_rate_limited');
    await expect(answered).toBeHidden();
    await expect(page.locator('body')).not.toContainText(PROVIDER_SECRET);
    expect(problems).toEqual([]);
  });

  test('a 400 from the API marks the field it names, and what was typed stays', async ({ page }) => {
    const { problems } = watchProblems(
      page,
      (url, status) => status === 400 && /\/api\/(providers|governance)/.test(url),
    );
    await unlock(page, gateway, 'providers');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a provider' });
    await pickOption(page, dialog, 'Provider', 'anthropic');
    // Checked on the client first, from the API's constraints: no request.
    await dialog.getByLabel('Retries').fill('11');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await expect(dialog.getByLabel('Retries')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText('Must be at most 10')).toBeVisible();
    await dialog.getByLabel('Retries').fill('2');
    // Only the server knows a base URL must be http(s): its 400 names base_url.
    await dialog.getByLabel('Base URL').fill('ftp://files.example.com/v1');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    const baseUrl = dialog.getByLabel('Base URL');
    await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText(/base_url/)).toBeVisible();
    await expect(baseUrl).toHaveValue('ftp://files.example.com/v1');
    await expect(dialog.getByLabel('Retries')).toHaveValue('2');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A nested field: the budget's window, named budgets[0].reset_duration by the API.
    await page.goto(`${gateway.url}/ui/virtual-keys`);
    await page.getByRole('button', { name: 'Create virtual key' }).click();
    const create = page.getByRole('dialog', { name: 'Create a virtual key' });
    await create.getByLabel('Name').fill('bad-window');
    await create.getByRole('button', { name: 'Add a budget' }).click();
    await create.getByLabel('Limit (USD)').fill('5');
    await create.getByLabel('Resets every').fill('fortnightly');
    await create.getByRole('button', { name: 'Create virtual key' }).click();
    const window = create.getByLabel('Resets every');
    await expect(window).toHaveAttribute('aria-invalid', 'true');
    await expect(window).toHaveValue('fortnightly');
    await expect(create.getByLabel('Name')).toHaveValue('bad-window');
    await expect(create.getByLabel('Limit (USD)')).toHaveValue('5');
    expect(
      (await api.request<{ virtual_keys: unknown[] }>('GET', '/api/governance/virtual-keys?search=bad-window'))
        .virtual_keys,
    ).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a virtual key created in the UI shows its value once; its request appears live in the logs', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'virtual-keys');
    await page.getByRole('button', { name: 'Create virtual key' }).click();
    const create = page.getByRole('dialog', { name: 'Create a virtual key' });
    await create.getByLabel('Name').fill('ui-vk');
    await create.getByRole('button', { name: 'Add a budget' }).click();
    await create.getByLabel('Limit (USD)').fill('10');
    await create.getByLabel('Resets every').fill('1d');
    await create.getByLabel('Request limit').fill('100');
    await create.getByLabel('Request window').fill('1h');
    await create.getByRole('button', { name: 'Create virtual key' }).click();

    const shown = page.getByRole('dialog', { name: 'Virtual key ui-vk created' });
    await expect(shown).toContainText('You will not see this value again');
    await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
    uiKeyValue = (await shown.getByLabel('Virtual key value').textContent())?.trim() ?? '';
    expect(uiKeyValue).toMatch(/^sk-gw-.{32}$/);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await expect(shown).toBeHidden();
    const table = page.getByRole('table', { name: 'Virtual keys' });
    await expect(table.getByRole('row', { name: /ui-vk/ })).toContainText('$0.00 of $10.00 / 1d');
    await expect(table.getByRole('row', { name: /ui-vk/ })).toContainText('100 req / 1h');
    await expect(page.locator('body')).not.toContainText(uiKeyValue);

    // Live in the logs page.
    await page.goto(`${gateway.url}/ui/logs?live=true`);
    await expect(page.getByRole('status').filter({ hasText: /^Connected$/ })).toBeVisible();
    const { status } = await chat(gateway, uiKeyValue, { model: 'openai/gpt-4o-mini' });
    expect(status).toBe(200);
    const fresh = page.getByRole('table', { name: 'Request logs' }).locator('tbody tr[data-new]');
    await expect(fresh).toHaveCount(1);
    await expect(fresh).toContainText('ui-vk');
    await expect(fresh).toContainText('openai / gpt-4o-mini');

    // Its budget and limit as bars: the exact spend of that request and when each resets.
    await page.goto(`${gateway.url}/ui/virtual-keys?search=ui-vk`);
    await page.getByRole('button', { name: 'Open the virtual key ui-vk' }).click();
    const drawer = page.getByRole('dialog', { name: 'Virtual key ui-vk' });
    const bars = drawer.getByRole('region', { name: 'Budgets and limits' });
    await expect(bars.getByRole('progressbar', { name: /^This key: requests: 1 of 100 requests$/ })).toBeVisible();
    // The spend of one small request, exactly (a bar that thin has no width to see: its label says it).
    const budget = bars.getByRole('progressbar', { name: /^This key: budget: \$0\.0000\d*[1-9] of \$10\.00$/ });
    await expect(budget).toHaveCount(1);
    await expect(bars.getByText(/^\$0\.0000\d*[1-9] of \$10\.00$/)).toBeVisible();
    await expect(bars).toContainText('Every 1d · resets');
    await expect(bars).toContainText('Every 1h · resets');
    await expect(page.locator('body')).not.toContainText(uiKeyValue);
    expect(problems).toEqual([]);
  });

  test('search on the server, rotation with a grace period, disabling, and a delete that names the key', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    for (const name of ['alpha-one', 'alpha-two', 'beta-one']) await api.createVirtualKey(name);
    const seeded = await api.createVirtualKey('rotate-me');
    await unlock(page, gateway, 'virtual-keys');
    const table = page.getByRole('table', { name: 'Virtual keys' });
    await page.getByRole('textbox', { name: 'Search by name' }).fill('ALPHA');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/ui\/virtual-keys\?search=ALPHA$/);
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(page.getByText('1–2 of 2')).toBeVisible();

    // Rotate a key with a grace period: a new value, shown once; the old one works until the grace ends.
    await page.getByRole('textbox', { name: 'Search by name' }).fill('rotate-me');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Open the virtual key rotate-me' }).click();
    const drawer = page.getByRole('dialog', { name: 'Virtual key rotate-me' });
    await drawer.getByRole('button', { name: 'Rotate' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate rotate-me' });
    await rotate.getByLabel('Grace period').fill('10m');
    await rotate.getByRole('button', { name: 'Rotate' }).click();
    const shown = page.getByRole('dialog', { name: 'New value of rotate-me' });
    await expect(shown).toContainText('You will not see this value again');
    const rotated = (await shown.getByLabel('Virtual key value').textContent())?.trim() ?? '';
    expect(rotated).toMatch(/^sk-gw-/);
    expect(rotated).not.toBe(seeded.value);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    expect((await chat(gateway, seeded.value, { model: 'openai/gpt-4o-mini' })).status).toBe(200);
    expect((await chat(gateway, rotated, { model: 'openai/gpt-4o-mini' })).status).toBe(200);

    // Disable: refused at once; enable again.
    await drawer.getByRole('button', { name: 'Disable' }).click();
    await expect(drawer.getByRole('region', { name: 'Summary' })).toContainText('disabled');
    expect((await chat(gateway, rotated, { model: 'openai/gpt-4o-mini' })).status).toBe(403);
    await drawer.getByRole('button', { name: 'Enable' }).click();
    await expect(drawer.getByRole('region', { name: 'Summary' })).toContainText('active');
    expect((await chat(gateway, rotated, { model: 'openai/gpt-4o-mini' })).status).toBe(200);

    // Delete, after a confirmation naming the key.
    await drawer.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete virtual key' });
    await expect(confirm).toContainText('Delete the virtual key rotate-me?');
    await confirm.getByRole('button', { name: 'Delete rotate-me' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByText('No virtual key has a name like this.')).toBeVisible();
    expect((await chat(gateway, rotated, { model: 'openai/gpt-4o-mini' })).status).toBe(401);
    for (const value of [seeded.value, rotated, PROVIDER_SECRET])
      await expect(page.locator('body')).not.toContainText(value);
    expect(problems).toEqual([]);
  });
});

/** Where a form's screenshot goes (ui/test-results/screenshots, not committed), for a reviewer to look at. */
const screenshotPath = (name: string) => join(RESULTS, 'screenshots', `${name}.png`);

/** Secrets typed in the settings tests: none may ever be shown again. */
const HEADER_SECRET = 'team-header-secret-7731';
const AZURE_SECRET = 'azure-ui-key-5512';

type ProviderView = { provider: string; extra_headers: Record<string, { value: string; ref: string; type: string }> };
type KeyView = {
  id: string;
  name: string;
  provider: string;
  weight: number;
  aliases: Record<string, { model_id: string; model_name?: string; model_family?: string }>;
  azure_key_config?: { endpoint: string; api_version?: string; deployments: Record<string, string> };
  bedrock_key_config?: Record<string, unknown>;
  vertex_key_config?: Record<string, unknown>;
};
type VirtualKeyView = {
  id: string;
  name: string;
  expires_at: string | null;
  team_id: string | null;
  customer_id: string | null;
  mcp_configs: Array<{ mcp_client_id: string; tools_to_execute: string[] }>;
};

/**
 * The forms' other fields end to end: a provider's extra headers and a key's aliases, the Azure, Bedrock and Vertex
 * blocks (each proved by the simulator, which checks Bedrock's signature and Vertex's service-account token), and a
 * virtual key's expiry, owner and MCP grants. Each is set in the UI, read back through the API, and seen after a
 * reload; an edit that leaves a stored secret untouched keeps it (the upstream still accepts the key).
 */
test.describe('provider and virtual key settings', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let peer: McpPeer;
  let api: GatewayApi;

  test.beforeAll(async () => {
    [gateway, sim, peer] = await Promise.all([startGateway(), startSimulator(), startHttpPeer()]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await peer?.close();
  });

  const pickOption = async (page: Page, scope: Locator, label: string, option: string) => {
    await scope.getByRole('combobox', { name: label }).fill(option);
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  const keysOf = async (provider: string) =>
    (await api.request<{ keys: KeyView[] }>('GET', '/api/keys')).keys.filter((k) => k.provider === provider);

  /** The test action on one key: the provider's answer must show (the key's secrets reached it intact). */
  const testKey = async (page: Page, provider: string, key: string, model: string) => {
    await page.getByRole('button', { name: `Test key ${key}` }).click();
    const dialog = page.getByRole('dialog', { name: `Test ${provider}` });
    await dialog.getByRole('combobox', { name: 'Model' }).fill(model);
    await dialog.getByLabel('Message').fill(`ping ${provider}`);
    await dialog.getByRole('button', { name: 'Send test request' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: 'The provider answered' })).toContainText(`key ${key}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  };

  test('extra headers and model aliases: set in the UI, stored, sent upstream; an untouched header kept', async ({
    page,
  }) => {
    const { problems } = watchProblems(page, (url, status) => status === 400 && url.includes('/api/providers'));
    await unlock(page, gateway, 'providers');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a provider' });
    await pickOption(page, dialog, 'Provider', 'openai');
    await dialog.getByLabel('Base URL').fill(`${sim.url}/openai/v1`);
    await dialog.getByRole('button', { name: 'Add a header' }).click();
    await dialog.getByLabel('Header 1: name').fill('X-Team');
    await dialog.getByLabel('Header 1: value').fill(HEADER_SECRET);
    await dialog.getByRole('button', { name: 'Add a header' }).click();
    // Only the server knows which headers it never forwards: its 400 names the header, on that row.
    await dialog.getByLabel('Header 2: name').fill('Host');
    await dialog.getByLabel('Header 2: value').fill('elsewhere.example.com');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await expect(dialog.getByLabel('Header 2: name')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText(/extra_headers\.Host cannot be set/)).toBeVisible();
    await expect(dialog.getByLabel('Header 1: value')).toHaveValue(HEADER_SECRET);
    await dialog.getByLabel('Header 2: name').fill('OpenAI-Organization');
    await dialog.getByLabel('Header 2: value').fill('env.UI_E2E_UNSET_ORG');
    await page.screenshot({ path: screenshotPath('provider-form-headers'), fullPage: true });
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await expect(dialog).toBeHidden();

    let stored = await api.request<ProviderView>('GET', '/api/providers/openai');
    expect(Object.keys(stored.extra_headers).sort()).toEqual(['OpenAI-Organization', 'X-Team']);
    expect(stored.extra_headers['X-Team']).toEqual({ value: '<REDACTED>', ref: '', type: 'plain_text' });
    expect(stored.extra_headers['OpenAI-Organization']).toMatchObject({ ref: 'env.UI_E2E_UNSET_ORG', type: 'env' });

    // A key with an alias, typed in the UI.
    const card = page.getByRole('region', { name: 'openai' });
    await card.getByRole('button', { name: 'Add key to openai' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'Add a key to openai' });
    await keyDialog.getByLabel('Name').fill('aliased');
    await keyDialog.getByLabel('Value', { exact: true }).fill('sk-aliased-key');
    await keyDialog.getByRole('button', { name: 'Add an alias' }).click();
    await keyDialog.getByLabel('Alias 1: requested model').fill('fast');
    await keyDialog.getByLabel('Alias 1: model id sent').fill('gpt-4o-mini');
    await keyDialog.getByLabel('Alias 1: family').fill('gpt-4o');
    await keyDialog.getByRole('button', { name: 'Add key' }).click();
    await expect(keyDialog).toBeHidden();
    const [key] = await keysOf('openai');
    expect(key?.aliases).toEqual({ fast: { model_id: 'gpt-4o-mini', model_family: 'gpt-4o' } });

    // The env reference resolves to nothing here, so drop it in an edit that leaves X-Team untouched.
    await card.getByRole('button', { name: 'Edit openai' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit provider openai' });
    await expect(edit.getByLabel('Header 1: name')).toHaveValue('X-Team');
    await expect(edit.getByLabel('Header 1: value')).toHaveValue('');
    await expect(edit.getByLabel('Header 2: name')).toHaveValue('OpenAI-Organization');
    await expect(edit).toContainText('Stored: Redacted (env.UI_E2E_UNSET_ORG)');
    await edit.getByRole('button', { name: 'Remove header OpenAI-Organization' }).click();
    await edit.getByLabel('Retries').fill('1');
    await edit.getByRole('button', { name: 'Save provider' }).click();
    await expect(edit).toBeHidden();
    stored = await api.request<ProviderView>('GET', '/api/providers/openai');
    expect(Object.keys(stored.extra_headers)).toEqual(['X-Team']);

    // Upstream gets the header's stored value (not "<REDACTED>") and the alias's model.
    const vk = await api.createVirtualKey('settings-seeded');
    expect((await chat(gateway, vk.value, { model: 'openai/fast' })).status).toBe(200);
    const sent = sim.requests({ family: 'openai' }).at(-1);
    expect(sent?.headers['x-team']).toBe(HEADER_SECRET);
    expect(sent?.headers['openai-organization']).toBeUndefined();
    expect((sent?.body as { model?: string }).model).toBe('gpt-4o-mini');

    await page.reload();
    await expect(card).toContainText('Headers: X-Team: Redacted');
    await expect(page.getByRole('table', { name: 'Keys of openai' })).toContainText('Aliases: fast → gpt-4o-mini');
    await expect(page.locator('body')).not.toContainText(HEADER_SECRET);
    expect(problems).toEqual([]);
  });

  test('Azure, Bedrock and Vertex keys: their blocks set in the UI, and kept through an edit', async ({ page }) => {
    const { problems } = watchProblems(page);
    await api.request('POST', '/api/providers', { provider: 'azure' });
    await api.request('POST', '/api/providers', { provider: 'bedrock', base_url: `${sim.url}/bedrock` });
    await api.request('POST', '/api/providers', { provider: 'vertex', base_url: `${sim.url}/vertex` });
    await unlock(page, gateway, 'providers');

    // Azure: endpoint, api-version, a deployment.
    await page.getByRole('button', { name: 'Add key to azure' }).click();
    const azure = page.getByRole('dialog', { name: 'Add a key to azure' });
    await azure.getByLabel('Name').fill('az-ui');
    await azure.getByLabel('Value', { exact: true }).fill(AZURE_SECRET);
    await azure.getByRole('button', { name: 'Add key' }).click();
    // Required for Azure keys: checked on the client from the API's constraints, no request.
    await expect(azure.getByLabel('Endpoint')).toHaveAttribute('aria-invalid', 'true');
    await azure.getByLabel('Endpoint').fill(`${sim.url}/azure`);
    await azure.getByLabel('API version').fill('2024-10-21');
    await azure.getByRole('button', { name: 'Add a deployment' }).click();
    await azure.getByLabel('Deployment 1: model').fill('gpt-4o-mini');
    await azure.getByLabel('Deployment 1: deployment name').fill('mini-prod');
    await page.screenshot({ path: screenshotPath('key-form-azure'), fullPage: true });
    await azure.getByRole('button', { name: 'Add key' }).click();
    await expect(azure).toBeHidden();
    const [azureKey] = await keysOf('azure');
    expect(azureKey?.azure_key_config).toEqual({
      endpoint: `${sim.url}/azure`,
      api_version: '2024-10-21',
      deployments: { 'gpt-4o-mini': 'mini-prod' },
    });
    await testKey(page, 'azure', 'az-ui', 'gpt-4o-mini');
    const azureSent = sim.requests({ family: 'azure' }).at(-1);
    expect(azureSent?.path).toContain('/deployments/mini-prod/');
    expect(azureSent?.query['api-version']).toBe('2024-10-21');
    expect(azureSent?.key).toBe(AZURE_SECRET);

    // Bedrock: region and an access key pair; the simulator verifies the SigV4 signature made with them.
    await page.getByRole('button', { name: 'Add key to bedrock' }).click();
    const bedrock = page.getByRole('dialog', { name: 'Add a key to bedrock' });
    await bedrock.getByLabel('Name').fill('br-ui');
    await bedrock.getByLabel('Region').fill('us-east-1');
    await bedrock.getByLabel('Access key id').fill(SIM_AWS.accessKeyId);
    await bedrock.getByLabel('Secret access key').fill(SIM_AWS.secretAccessKey);
    await page.screenshot({ path: screenshotPath('key-form-bedrock'), fullPage: true });
    await bedrock.getByRole('button', { name: 'Add key' }).click();
    await expect(bedrock).toBeHidden();
    const CLAUDE = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
    await testKey(page, 'bedrock', 'br-ui', CLAUDE);

    // Vertex: project, region and the service account's JSON; the simulator checks the token made with it.
    await page.getByRole('button', { name: 'Add key to vertex' }).click();
    const vertex = page.getByRole('dialog', { name: 'Add a key to vertex' });
    await vertex.getByLabel('Name').fill('vx-ui');
    await vertex.getByLabel('Project id').fill('sim-project');
    await vertex.getByLabel('Region').fill('us-central1');
    await vertex.getByLabel('Service account').fill(vertexServiceAccount(sim.url));
    await vertex.getByRole('button', { name: 'Add key' }).click();
    await expect(vertex).toBeHidden();
    await testKey(page, 'vertex', 'vx-ui', 'gemini-2.5-flash');

    const [bedrockKey] = await keysOf('bedrock');
    expect(bedrockKey?.bedrock_key_config).toEqual({
      region: 'us-east-1',
      access_key: { value: '<REDACTED>', ref: '', type: 'plain_text' },
      secret_key: { value: '<REDACTED>', ref: '', type: 'plain_text' },
    });
    const [vertexKey] = await keysOf('vertex');
    expect(vertexKey?.vertex_key_config).toEqual({
      project_id: 'sim-project',
      region: 'us-central1',
      auth_credentials: { value: '<REDACTED>', ref: '', type: 'plain_text' },
    });

    // Edits that leave every secret untouched: the stored ones are kept, so the upstream still accepts the keys.
    for (const [provider, name] of [
      ['bedrock', 'br-ui'],
      ['vertex', 'vx-ui'],
    ] as const) {
      await page.getByRole('button', { name: `Edit key ${name}` }).click();
      const edit = page.getByRole('dialog', { name: `Edit key ${name} of ${provider}` });
      await expect(edit).toContainText('Stored: Redacted. Leave empty to keep it');
      await edit.getByLabel('Weight').fill('2');
      if (provider === 'bedrock')
        await page.screenshot({ path: screenshotPath('key-form-bedrock-edit'), fullPage: true });
      await edit.getByRole('button', { name: 'Save key' }).click();
      await expect(edit).toBeHidden();
    }
    expect((await keysOf('bedrock'))[0]?.weight).toBe(2);
    expect((await keysOf('vertex'))[0]?.weight).toBe(2);
    await testKey(page, 'bedrock', 'br-ui', CLAUDE);
    await testKey(page, 'vertex', 'vx-ui', 'gemini-2.5-flash');

    await page.reload();
    const keysTable = (provider: string) => page.getByRole('table', { name: `Keys of ${provider}` });
    await expect(keysTable('azure')).toContainText(
      `Azure ${sim.url}/azure · api-version 2024-10-21 · gpt-4o-mini → mini-prod`,
    );
    await expect(keysTable('bedrock')).toContainText('Bedrock us-east-1 · access key Redacted');
    await expect(keysTable('vertex')).toContainText('Vertex sim-project / us-central1 · service account Redacted');
    for (const secret of [AZURE_SECRET, SIM_AWS.secretAccessKey, '-----BEGIN'])
      await expect(page.locator('body')).not.toContainText(secret);
    expect(problems).toEqual([]);
  });

  test('a virtual key’s expiry, owner and MCP grants: set in the UI, stored, shown after a reload', async ({
    page,
  }) => {
    const { problems } = watchProblems(page, (url, status) => status === 400 && url.includes('/virtual-keys'));
    const team = (await api.request<{ team: { id: string } }>('POST', '/api/governance/teams', { name: 'core-team' }))
      .team;
    const customer = (
      await api.request<{ customer: { id: string } }>('POST', '/api/governance/customers', { name: 'acme-corp' })
    ).customer;
    const gone = (await api.request<{ team: { id: string } }>('POST', '/api/governance/teams', { name: 'gone-team' }))
      .team;
    const client = (
      await api.request<{ client: { id: string } }>('POST', '/api/mcp/client', {
        name: 'tools',
        connection_type: 'http',
        connection_string: peer.url,
        tools_to_execute: ['*'],
      })
    ).client;

    await unlock(page, gateway, 'virtual-keys');
    await page.getByRole('button', { name: 'Create virtual key' }).click();
    const create = page.getByRole('dialog', { name: 'Create a virtual key' });
    await create.getByLabel('Name').fill('owned-vk');
    // In the browser's time zone (Europe/Berlin here): 12:30 local on 2031-03-04 is 11:30 UTC.
    await create.getByLabel('Expires').fill('2031-03-04T12:30');
    await create.getByRole('group', { name: 'Owner' }).getByText('Team', { exact: true }).click();
    await expect(create.getByRole('radio', { name: 'Team' })).toBeChecked();
    await pickOption(page, create, 'Team', 'gone-team');
    await create.getByRole('button', { name: 'Add an MCP client' }).click();
    await pickOption(page, create, 'MCP client 1', 'tools');
    const tools = create.getByLabel('Tools of client 1');
    await tools.click();
    await tools.press('Backspace');
    await tools.fill('echo');
    await tools.press('Enter');
    await tools.fill('add');
    await tools.press('Enter');
    // The team is deleted while the form is open: only the server knows, and its 400 lands on the Team field.
    await api.request('DELETE', `/api/governance/teams/${gone.id}`);
    await create.getByRole('button', { name: 'Create virtual key' }).click();
    await expect(create.getByRole('combobox', { name: 'Team' })).toHaveAttribute('aria-invalid', 'true');
    await expect(create.getByText(/is not a known team/)).toBeVisible();
    await expect(create.getByLabel('Name')).toHaveValue('owned-vk');
    await expect(create.getByLabel('Expires')).toHaveValue('2031-03-04T12:30');
    await pickOption(page, create, 'Team', 'core-team');
    await page.screenshot({ path: screenshotPath('virtual-key-form'), fullPage: true });
    await create.getByRole('button', { name: 'Create virtual key' }).click();
    const shown = page.getByRole('dialog', { name: 'Virtual key owned-vk created' });
    await shown.getByRole('button', { name: 'I have copied it' }).click();

    const list = await api.request<{ virtual_keys: VirtualKeyView[] }>(
      'GET',
      '/api/governance/virtual-keys?search=owned-vk',
    );
    const created = list.virtual_keys[0]!;
    expect(created).toMatchObject({
      expires_at: '2031-03-04T11:30:00.000Z',
      team_id: team.id,
      customer_id: null,
      mcp_configs: [{ mcp_client_id: client.id, tools_to_execute: ['echo', 'add'] }],
    });

    await page.reload();
    await page.getByRole('button', { name: 'Open the virtual key owned-vk' }).click();
    const drawer = page.getByRole('dialog', { name: 'Virtual key owned-vk' });
    const summary = drawer.getByRole('region', { name: 'Summary' });
    await expect(summary).toContainText('Team core-team');
    await expect(summary).toContainText('tools (echo, add)');
    await expect(summary.getByText(/2031/)).toBeVisible();

    // Edit: the customer instead of the team, every tool, no expiry.
    await drawer.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit virtual key owned-vk' });
    await expect(edit.getByLabel('Expires')).toHaveValue('2031-03-04T12:30');
    await expect(edit.getByRole('combobox', { name: 'Team' })).toHaveValue('core-team');
    await edit.getByRole('group', { name: 'Owner' }).getByText('Customer', { exact: true }).click();
    await pickOption(page, edit, 'Customer', 'acme-corp');
    await edit.getByLabel('Expires').fill('');
    await edit.getByRole('button', { name: 'Remove MCP client tools' }).click();
    await edit.getByRole('button', { name: 'Save virtual key' }).click();
    await expect(edit).toBeHidden();
    const saved = await api.request<VirtualKeyView>('GET', `/api/governance/virtual-keys/${created.id}`);
    expect(saved).toMatchObject({ expires_at: null, team_id: null, customer_id: customer.id, mcp_configs: [] });
    await page.reload();
    await expect(summary).toContainText('Customer acme-corp');
    await expect(summary).toContainText('Only those allowed on every key');
    await expect(summary).toContainText('Never');
    expect(problems).toEqual([]);
  });
});
