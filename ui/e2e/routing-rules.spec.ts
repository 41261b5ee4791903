import { expect, test, type Page } from '@playwright/test';
import { GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { unlock, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

const RULES = '/api/governance/routing-rules';
type Rule = { id: string; name: string; priority: number };

/**
 * The routing rules screen against a real gateway with the provider simulator upstream (issue 47 §2): a rule written
 * in the editor (its expression refused by the gateway with the position, then accepted) sends the next request to
 * its fallback provider, seen in the log's routing info; the try panel shows the same chain; reordering, a refused
 * edit that keeps the dialog, and a deletion confirmed by name.
 */
test.describe('routing rules', () => {
  test.describe.configure({ mode: 'serial' });
  // Two screens and a real request each: more than the default on a busy 2-core machine.
  test.setTimeout(300_000);
  let gateway: Gateway;
  let sim: Simulator;
  let api: GatewayApi;
  let vk: { id: string; value: string };

  test.beforeAll(async () => {
    [gateway, sim] = await Promise.all([startGateway(), startSimulator()]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    await api.request('POST', '/api/providers', { provider: 'anthropic', base_url: `${sim.url}/anthropic` });
    await api.request('POST', '/api/providers/anthropic/keys', { name: 'sim-anthropic', value: 'sk-ant-sim' });
    vk = await api.createVirtualKey('routing-key');
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
  });

  const rules = async () => (await api.request<{ rules: Rule[] }>('GET', RULES)).rules;
  const ruleRows = (page: Page) => page.getByRole('table', { name: 'Routing rules' }).locator('tbody tr');

  async function premiumChat(): Promise<{ id: string; status: number; provider: string | null }> {
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${vk.value}`, 'content-type': 'application/json', 'x-tier': 'premium' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'route me' }] }),
    });
    await res.text();
    return {
      id: res.headers.get('x-request-id') ?? '',
      status: res.status,
      provider: res.headers.get('x-gateway-routing-info-provider'),
    };
  }

  test('a routing rule created in the editor sends the next request to the fallback provider', async ({ page }) => {
    // The editor's check of a broken expression is a 200 (valid: false); the create is never sent.
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'routing-rules');
    await expect(page.getByText(/^No routing rule:/)).toBeVisible();
    await page.getByRole('button', { name: 'Create routing rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a routing rule' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('premium-to-fallback');
    const expression = dialog.getByLabel('CEL expression');
    await expression.fill('headers["x-tier"] ==');
    await dialog.getByRole('combobox', { name: 'Provider' }).fill('openai');
    await page.getByRole('option', { name: 'openai', exact: true }).click();
    await dialog.getByLabel('Model').fill('sim-rate-limit');
    await dialog.getByLabel('Fallbacks').fill('anthropic/claude-sonnet-4-5');
    await dialog.getByLabel('Fallbacks').press('Enter');
    await dialog.getByRole('button', { name: 'Create rule' }).click();

    // The gateway refused the expression: where, on the field, with a caret under the column; nothing was saved.
    await expect(expression).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText(/^Line 1, column \d+: /)).toBeVisible();
    await expect(dialog.getByLabel('Where the expression fails')).toContainText('^');
    await expect(expression).toHaveValue('headers["x-tier"] ==');
    expect(await rules()).toEqual([]);

    await expression.fill('headers["x-tier"] == "premium"');
    await dialog.getByRole('button', { name: 'Check expression' }).click();
    await expect(dialog.getByText('The gateway accepts this expression')).toBeVisible();
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expect(dialog).toBeHidden();
    await expect(ruleRows(page)).toHaveCount(1);
    await expect(ruleRows(page)).toContainText('premium-to-fallback');
    await expect(ruleRows(page)).toContainText('openai/sim-rate-limit');
    await expect(ruleRows(page)).toContainText('anthropic/claude-sonnet-4-5');
    const [rule] = await rules();
    expect(rule).toMatchObject({ name: 'premium-to-fallback' });

    // The try panel: the gateway's own evaluation of a sample request.
    const tryForm = page.getByRole('form', { name: 'Try the rules' });
    await tryForm.getByLabel('Model').fill('openai/gpt-4o-mini');
    await tryForm.getByLabel('Headers').fill('x-tier: premium');
    await tryForm.getByRole('button', { name: 'Try' }).click();
    const result = tryForm.getByRole('status', { name: 'Try result' });
    await expect(result).toContainText('Matched rule premium-to-fallback');
    const chain = result.getByRole('list', { name: 'Chain' }).getByRole('listitem');
    await expect(chain).toHaveText(['openai/sim-rate-limit (target)', 'anthropic/claude-sonnet-4-5 (fallback 1)']);
    await tryForm.getByLabel('Headers').fill('');
    await tryForm.getByRole('button', { name: 'Try' }).click();
    await expect(result).toContainText('No rule matched');
    await expect(chain).toHaveText(['openai/gpt-4o-mini (target)']);

    // The next request: the rule's target fails at the simulator, its fallback provider answers.
    const sent = await premiumChat();
    expect(sent.status).toBe(200);
    expect(sent.provider).toBe('anthropic');
    expect(sim.requests({ family: 'anthropic' })).toHaveLength(1);

    // The log's routing info says so (rows are written in batches: wait for it through the API first).
    await expect
      .poll(
        async () =>
          (await api.request<{ logs: unknown[] }>('GET', `/api/logs?parent_request_ids=${sent.id}`)).logs.length,
      )
      .toBe(1);
    await page.goto(`${gateway.url}/ui/logs?parent_request_ids=${sent.id}`);
    const rows = page.getByRole('table', { name: 'Request logs' }).locator('tbody tr');
    // A loaded machine may take a while to fetch the logs screen's chunk the first time.
    await expect(rows).toHaveCount(1, { timeout: 60_000 });
    await rows.getByRole('button', { name: /^Open the log of/ }).click();
    const routing = page.getByRole('dialog', { name: 'Request log' }).getByRole('region', { name: 'Routing' });
    await expect(routing.getByRole('row', { name: /^Provider anthropic$/ })).toBeVisible();
    await expect(routing.getByRole('row', { name: /Attempt/ })).toContainText('Fallback 1');
    await expect(routing.getByRole('row', { name: /Routing rule/ })).toContainText(rule!.id);
    expect(problems).toEqual([]);
  });

  test('reorder within the scope; a refused edit keeps the dialog; delete names the rule', async ({ page }) => {
    const { problems } = watchProblems(page, (url, status) => status === 409 && url.includes(RULES));
    await api.request('POST', RULES, {
      name: 'second',
      cel_expression: 'model == "never-sent"',
      targets: [{ provider: 'openai', model: 'gpt-4o', weight: 1 }],
    });
    await unlock(page, gateway, 'routing-rules');
    await expect(ruleRows(page)).toHaveCount(2);
    await expect(ruleRows(page).nth(0)).toContainText('premium-to-fallback');
    await expect(page.getByRole('button', { name: 'Move premium-to-fallback up' })).toBeDisabled();

    // Equal priorities (creation time decides): moving up renumbers the scope, and the gateway keeps that order.
    await page.getByRole('button', { name: 'Move second up' }).click();
    await expect(ruleRows(page).nth(0)).toContainText('second');
    await expect(ruleRows(page).nth(1)).toContainText('premium-to-fallback');
    expect((await rules()).map((r) => r.name)).toEqual(['second', 'premium-to-fallback']);
    await page.reload();
    await expect(ruleRows(page).nth(0)).toContainText('second');

    // A name taken in the scope: the API's 409 on the field, the dialog and what was typed stay.
    await page.getByRole('button', { name: 'Edit second' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit routing rule second' });
    await edit.getByRole('textbox', { name: 'Name' }).fill('premium-to-fallback');
    await edit.getByLabel('Description').fill('typed before the refusal');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await expect(edit.getByText('A routing rule named "premium-to-fallback" already exists')).toBeVisible();
    await expect(edit.getByLabel('Description')).toHaveValue('typed before the refusal');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(ruleRows(page).nth(0)).toContainText('second');

    // Delete asks, naming the rule; cancelling keeps it.
    await page.getByRole('button', { name: 'Delete second' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete routing rule' });
    await expect(confirm).toContainText('Delete the routing rule second?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(ruleRows(page)).toHaveCount(2);
    await page.getByRole('button', { name: 'Delete second' }).click();
    await confirm.getByRole('button', { name: 'Delete second' }).click();
    await expect(ruleRows(page)).toHaveCount(1);
    expect((await rules()).map((r) => r.name)).toEqual(['premium-to-fallback']);
    expect(problems).toEqual([]);
  });
});
