import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { unlock, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

const SHOTS = join(RESULTS, 'screenshots');

/** A chat completion small enough to price exactly: one output token (the simulator honours `max_tokens`). */
const SMALL = { model: 'openai/gpt-4o-mini', max_tokens: 1 };

interface Log {
  cost: number | null;
  prompt_tokens: number;
  completion_tokens: number;
}

/** Picks `option` in the Mantine select labelled `label` inside `scope`. */
async function pick(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Models and pricing against a real gateway whose upstream is the provider simulator: a pricing override created in
 * the UI (after the gateway refuses its pattern, everything typed kept) becomes the effective price shown beside the
 * catalogue price, and the next request through `/v1/chat/completions` is logged at the cost it implies; a model
 * config created, edited and deleted after a confirmation naming it; a provider budget set in the UI and read back;
 * a virtual key's budget raised from the virtual keys screen, its bar reading the new limit, then ended.
 */
test.describe('models and pricing', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let api: GatewayApi;
  let key: { id: string; value: string };

  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([startGateway(), startSimulator()]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    const created = await api.request<{ virtual_key: { id: string; value: string } }>(
      'POST',
      '/api/governance/virtual-keys',
      { name: 'pricing-key', budgets: [{ max_limit: 1, reset_duration: '1d' }] },
    );
    key = created.virtual_key;
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&');
  const logOf = (id: string) =>
    expect
      .poll(async () => api.request<Log>('GET', `/api/logs/${id}`).catch(() => undefined), { timeout: 15_000 })
      .toBeDefined()
      .then(() => api.request<Log>('GET', `/api/logs/${id}`));

  test('a pricing override typed in the UI is the effective price, and the next request is charged at it', async ({
    page,
  }) => {
    const { problems } = watchProblems(
      page,
      (url, status) => status === 400 && url.endsWith('/api/governance/pricing-overrides'),
    );
    // Before any override: the catalogue price (the gateway's price table).
    const before = await chat(gateway, key.value, SMALL);
    expect(before.status).toBe(200);
    const catalogue = await logOf(before.id);
    expect(catalogue.cost).toBeGreaterThan(0);
    // The price table's rates the API lists for the model are the ones that request was charged at.
    const listed = await api.request<{
      models: Array<{
        id: string;
        catalogue_price?: { input_cost_per_token?: number; output_cost_per_token?: number };
      }>;
    }>('GET', '/api/models');
    const rates = listed.models.find((m) => m.id === 'openai/gpt-4o-mini')!.catalogue_price!;
    expect(catalogue.cost).toBeCloseTo(
      catalogue.prompt_tokens * rates.input_cost_per_token! +
        catalogue.completion_tokens * rates.output_cost_per_token!,
      10,
    );
    const perMillion = (rate: number) => `$${(rate * 1e6).toFixed(2)} / 1M tokens`;

    await unlock(page, gateway, 'models');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models and pricing' }),
    ).toBeVisible();
    const models = page.getByRole('table', { name: 'Models and prices' });
    const mini = models.getByRole('row', { name: /openai\/gpt-4o-mini/ });
    // The catalogue price in its column, and the same as the effective price (no override yet).
    await expect(mini.getByRole('cell').nth(1)).toHaveText(
      new RegExp(
        `^Input ${escape(perMillion(rates.input_cost_per_token!))}Output ${escape(perMillion(rates.output_cost_per_token!))}`,
      ),
    );
    await expect(mini.getByRole('cell').nth(2)).toContainText(`Input ${perMillion(rates.input_cost_per_token!)}`);
    await expect(mini.getByRole('cell').nth(2)).toContainText('Catalogue price');
    await expect(mini.getByRole('link', { name: 'Requests for openai/gpt-4o-mini' })).toHaveAttribute(
      'href',
      /\/ui\/logs\?.*models=gpt-4o-mini/,
    );

    await page.getByRole('tab', { name: 'Pricing overrides' }).click();
    await expect(page).toHaveURL(/\/ui\/models\?tab=overrides$/);
    await expect(page.getByText('No pricing override')).toBeVisible();
    await page.getByRole('button', { name: 'Create pricing override' }).click();
    const form = page.getByRole('dialog', { name: 'Create a pricing override' });
    await form.getByLabel('Name').fill('negotiated mini');
    await pick(page, form, 'Provider', 'openai');
    await pick(page, form, 'Match', 'Prefix (ends with *)');
    // A prefix without its `*`: the gateway refuses it on the field, and everything typed stays.
    await form.getByRole('textbox', { name: 'Model' }).fill('gpt-4o-mini');
    await form.getByLabel('Input (USD per 1M tokens)').fill('2.5');
    await form.getByLabel('Output (USD per 1M tokens)').fill('10');
    await form.getByRole('button', { name: 'Create override' }).click();
    const pattern = form.getByRole('textbox', { name: 'Model' });
    await expect(pattern).toHaveAttribute('aria-invalid', 'true');
    await expect(form).toContainText('pattern of a wildcard match is a prefix ending with one *');
    await expect(form.getByLabel('Name')).toHaveValue('negotiated mini');
    await expect(form.getByLabel('Input (USD per 1M tokens)')).toHaveValue('2.5');
    await expect(form.getByLabel('Output (USD per 1M tokens)')).toHaveValue('10');
    await pattern.fill('gpt-4o-mini*');
    await form.getByRole('button', { name: 'Create override' }).click();
    await expect(form).toBeHidden();
    const row = page.getByRole('table', { name: 'Pricing overrides' }).getByRole('row', { name: /negotiated mini/ });
    await expect(row).toContainText('Provider openai');
    await expect(row).toContainText('gpt-4o-mini* (prefix)');
    await expect(row).toContainText('Input $2.50 / 1M tokens');

    // Stored per token, as typed per 1M tokens.
    const stored = await api.request<{ pricing_overrides: Array<Record<string, unknown>> }>(
      'GET',
      '/api/governance/pricing-overrides',
    );
    expect(stored.pricing_overrides).toEqual([
      expect.objectContaining({
        name: 'negotiated mini',
        scope_kind: 'provider',
        provider_id: 'openai',
        match_type: 'wildcard',
        pattern: 'gpt-4o-mini*',
        request_types: ['chat_completion'],
        patch: { input_cost_per_token: 0.0000025, output_cost_per_token: 0.00001 },
      }),
    ]);

    // The effective price beside the catalogue price: the override's rates for gpt-4o-mini, the catalogue's for
    // gpt-4o (the prefix does not cover it).
    await page.getByRole('tab', { name: 'Models and prices' }).click();
    await expect(mini).toContainText('Input $2.50 / 1M tokens');
    await expect(mini).toContainText('Output $10.00 / 1M tokens');
    await expect(mini).toContainText('Override negotiated mini · Provider openai');
    // The catalogue column still shows the price table's rates beside it.
    await expect(mini.getByRole('cell').nth(1)).toContainText(`Input ${perMillion(rates.input_cost_per_token!)}`);
    await expect(models.getByRole('row', { name: /openai\/gpt-4o\b(?!-)/ })).toContainText('Catalogue price');
    // Embeddings are not covered by an override for chat completions.
    await pick(page, page.locator('main'), 'Request type', 'embedding');
    await expect(page).toHaveURL(/request_type=embedding/);
    await expect(mini).toContainText('Catalogue price');
    await pick(page, page.locator('main'), 'Request type', 'chat_completion');
    await expect(mini).toContainText('Input $2.50 / 1M tokens');
    await page.screenshot({ path: join(SHOTS, 'models-and-prices.png'), fullPage: true });

    // The next request is logged at the override's rates: its tokens times the rates typed.
    const after = await chat(gateway, key.value, SMALL);
    expect(after.status).toBe(200);
    const charged = await logOf(after.id);
    const expected = charged.prompt_tokens * 0.0000025 + charged.completion_tokens * 0.00001;
    expect(charged.prompt_tokens).toBeGreaterThan(0);
    expect(charged.cost).toBeCloseTo(expected, 10);
    expect(charged.cost).not.toBeCloseTo(catalogue.cost!, 10);
    expect(after.cost).toBeCloseTo(expected, 10);
    expect(problems).toEqual([]);
  });

  test('a model config created, edited, and deleted after a confirmation naming it', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'models?tab=configs');
    await expect(page.getByText('No model config')).toBeVisible();
    await page.getByRole('button', { name: 'Create model config' }).click();
    const form = page.getByRole('dialog', { name: 'Create a model config' });
    await form.getByRole('textbox', { name: 'Model' }).fill('gpt-4o-mini');
    await pick(page, form, 'Provider', 'openai');
    await form.getByRole('button', { name: 'Add a budget' }).click();
    await form.getByLabel('Budget 1 limit (USD)').fill('5');
    await form.getByRole('button', { name: 'Create model config' }).click();
    await expect(form).toBeHidden();
    const table = page.getByRole('table', { name: 'Model configs' });
    const row = table.getByRole('row', { name: /openai\/gpt-4o-mini/ });
    await expect(row).toContainText('Everyone');
    await expect(row).toContainText('$0.00 of $5.00 / 1d');
    type Configs = {
      model_configs: Array<{ id: string; model_name: string; provider: string | null; budgets: unknown[] }>;
    };
    const created = await api.request<Configs>('GET', '/api/governance/model-configs');
    expect(created.model_configs).toEqual([
      expect.objectContaining({
        model_name: 'gpt-4o-mini',
        provider: 'openai',
        scope: 'global',
        budgets: [expect.objectContaining({ max_limit: 5, reset_duration: '1d' })],
        rate_limit: null,
      }),
    ]);

    await table.getByRole('button', { name: 'Edit model config openai/gpt-4o-mini' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit model config openai/gpt-4o-mini' });
    await expect(edit.getByLabel('Budget 1 limit (USD)')).toHaveValue('5');
    await edit.getByLabel('Budget 1 limit (USD)').fill('7');
    await edit.getByLabel('Request limit').fill('100');
    await edit.getByLabel('Request window').fill('1h');
    await edit.getByRole('button', { name: 'Save model config' }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText('$0.00 of $7.00 / 1d');
    await expect(row).toContainText('0 of 100 requests / 1h');
    const edited = await api.request<Configs>('GET', '/api/governance/model-configs');
    expect(edited.model_configs).toEqual([
      expect.objectContaining({
        id: created.model_configs[0]!.id,
        budgets: [expect.objectContaining({ max_limit: 7, reset_duration: '1d' })],
        rate_limit: expect.objectContaining({ request_max_limit: 100, request_reset_duration: '1h' }),
      }),
    ]);
    await page.screenshot({ path: join(SHOTS, 'model-configs.png'), fullPage: true });

    await table.getByRole('button', { name: 'Delete model config openai/gpt-4o-mini' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete model config' });
    await expect(confirm).toContainText('Delete the model config openai/gpt-4o-mini (Everyone)?');
    await confirm.getByRole('button', { name: 'Delete openai/gpt-4o-mini' }).click();
    await expect(page.getByText('No model config')).toBeVisible();
    expect((await api.request<Configs>('GET', '/api/governance/model-configs')).model_configs).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a provider budget set in the UI, read back through the API', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'models?tab=providers');
    await expect(page.getByText('No provider has budgets or rate limits of its own.')).toBeVisible();
    await page.getByRole('button', { name: 'Set provider limits' }).click();
    const form = page.getByRole('dialog', { name: 'Set provider limits' });
    await pick(page, form, 'Provider', 'openai');
    await form.getByRole('button', { name: 'Add a budget' }).click();
    await form.getByLabel('Budget 1 limit (USD)').fill('100');
    await form.getByLabel('Budget 1 resets every').fill('1M');
    await form.getByRole('button', { name: 'Save provider limits' }).click();
    await expect(form).toBeHidden();
    const row = page.getByRole('table', { name: 'Provider limits' }).getByRole('row', { name: /openai/ });
    await expect(row).toContainText('of $100.00 / 1M');
    const stored = await api.request<{ providers: Array<Record<string, unknown>> }>('GET', '/api/governance/providers');
    expect(stored.providers).toEqual([
      expect.objectContaining({
        provider: 'openai',
        budgets: [expect.objectContaining({ max_limit: 100, reset_duration: '1M' })],
        rate_limit: null,
      }),
    ]);
    await page.screenshot({ path: join(SHOTS, 'provider-limits.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  test('a virtual key’s budget raised from the virtual keys screen, its bar at the new limit, then ended', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, `virtual-keys?key=${key.id}`);
    const drawer = page.getByRole('dialog', { name: 'Virtual key pricing-key' });
    const bars = drawer.getByRole('region', { name: 'Budgets and limits' });
    // A bar at zero has no width: found by its name, which carries the limit.
    await expect(bars.getByRole('progressbar', { name: /^This key: budget: .* of \$1\.00$/ })).toHaveCount(1);
    const overrides = drawer.getByRole('region', { name: 'Budget overrides' });
    await expect(overrides.getByRole('group', { name: 'This key: budget 1d' })).toContainText(
      'Limit $1.00 · no override',
    );

    await overrides.getByRole('button', { name: 'Raise this key: budget 1d' }).click();
    const form = page.getByRole('dialog', { name: 'Raise the 1d budget of pricing-key' });
    await form.getByLabel('Amount added (USD)').fill('4');
    await form.getByLabel('Windows').fill('2');
    await form.getByRole('button', { name: 'Raise budget' }).click();
    const confirm = page.getByRole('dialog', { name: 'Raise the budget' });
    await expect(confirm).toContainText(
      'Raise the 1d budget of virtual key pricing-key (this key) from $1.00 to $5.00 for 2 window(s), this one first?',
    );
    await confirm.getByRole('button', { name: 'Raise the budget of pricing-key' }).click();
    await expect(form).toBeHidden();
    await expect(bars.getByRole('progressbar', { name: /^This key: budget: .* of \$5\.00$/ })).toHaveCount(1);
    await expect(overrides).toContainText('Limit $1.00 · override +$4.00 for 2 windows (now $5.00)');
    type Key = {
      budgets: Array<{ max_limit: number; effective_max_limit: number; override: Record<string, unknown> | null }>;
    };
    const raised = await api.request<Key>('GET', `/api/governance/virtual-keys/${key.id}`);
    expect(raised.budgets).toEqual([
      expect.objectContaining({
        max_limit: 1,
        effective_max_limit: 5,
        override: expect.objectContaining({ amount: 4, mode: 'cycles', cycles: 2 }),
      }),
    ]);
    await page.screenshot({ path: join(SHOTS, 'virtual-key-budget-override.png'), fullPage: true });

    await overrides.getByRole('button', { name: 'End the override of this key: budget 1d' }).click();
    const end = page.getByRole('dialog', { name: 'End the override' });
    await expect(end).toContainText('virtual key pricing-key');
    await end.getByRole('button', { name: 'End the override of pricing-key' }).click();
    await expect(overrides).toContainText('Limit $1.00 · no override');
    await expect(bars.getByRole('progressbar', { name: /^This key: budget: .* of \$1\.00$/ })).toHaveCount(1);
    const ended = await api.request<Key>('GET', `/api/governance/virtual-keys/${key.id}`);
    expect(ended.budgets).toEqual([expect.objectContaining({ effective_max_limit: 1, override: null })]);
    expect(problems).toEqual([]);
  });
});
