import { join } from 'node:path';
import { Role } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { expect, test, type Page } from '@playwright/test';
import { startA2aAgent, type A2aAgent } from '../../test/helpers/a2a-agent';
import { RESULTS } from '../playwright.config';
import { GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { navLinks, unlock, watchProblems, seriousViolations } from './support/page';

/** A screenshot to look at (ui/test-results/screenshots, not committed). */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(RESULTS, 'screenshots', `agents-${name}.png`), fullPage: true });
}

/** The official SDK client holding a virtual key, discovering the agent through the gateway's rewritten card. */
async function gatewayClient(gateway: Gateway, name: string, virtualKey: string) {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${virtualKey}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    preferredTransports: ['JSONRPC'],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }).createFromUrl(`${gateway.url}/agents/a2a/${name}/.well-known/agent-card.json`, '');
}

/** A SendMessage request; the test agent acts on the messageId's prefix (test/helpers/a2a-agent.ts). */
function message(messageId: string, text: string) {
  return {
    tenant: '',
    configuration: undefined,
    metadata: undefined,
    message: {
      messageId,
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text' as const, value: text },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      contextId: '',
      taskId: '',
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
  };
}

/**
 * Agents against the built gateway and a real @a2a-js/sdk agent on loopback: registered by URL in the UI (a card URL
 * the gateway cannot read refused first, on its field, with what was typed kept), its card shown with its skills; one
 * message sent through the gateway's A2A route with a virtual key, seen in the history and opened in the drawer; the
 * upstream authentication shown redacted after an edit; a push configuration listed and deleted; the agent deleted
 * after a confirmation naming it.
 */
test.describe('agents', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let agent: A2aAgent;
  let api: GatewayApi;
  let virtualKey: string;

  test.beforeAll(async () => {
    [gateway, agent] = await Promise.all([
      startGateway(),
      startA2aAgent({ name: 'Trip Planner', description: 'Plans trips for the dashboard test' }),
    ]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    virtualKey = (await api.createVirtualKey('agents-key')).value;
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await agent?.close();
  });

  test('an agent registered by URL, its card shown, a message in its history, a push config and the agent deleted', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const { problems } = watchProblems(
      page,
      (url, status) => status === 400 && (url.endsWith('/api/agents') || url.endsWith('/api/agents/inspect')),
    );
    await unlock(page, gateway, 'agents');
    await expect(navLinks(page).filter({ hasText: 'Agents' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();
    await expect(page.getByText('No agent yet')).toBeVisible();
    await expect(page.getByText('No operation matches')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // A card URL that answers 404: the gateway's refusal on the URL field, and what was typed stays.
    await page.getByRole('button', { name: 'Register agent' }).click();
    const form = page.getByRole('form', { name: 'Register an agent' });
    const url = form.getByRole('textbox', { name: /^Agent card URL/ });
    await form.getByRole('textbox', { name: /^Name/ }).fill('trip-planner');
    await url.fill(`${agent.url}/no-card-here.json`);
    await form.getByText('Any virtual key may call it').click();
    await form.getByRole('button', { name: 'Register agent' }).click();
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText(/agent_card_url cannot be registered/)).toBeVisible();
    await expect(form.getByRole('textbox', { name: /^Name/ })).toHaveValue('trip-planner');
    await expect(form.getByRole('checkbox', { name: 'Any virtual key may call it' })).toBeChecked();
    await shot(page, 'refused');

    // The right URL: previewed, then registered.
    await url.fill(agent.cardUrl);
    await form.getByRole('button', { name: 'Preview card' }).click();
    await expect(form.getByRole('region', { name: 'Card preview' })).toContainText('Trip Planner');
    await form.getByRole('button', { name: 'Register agent' }).click();
    await expect(form).toBeHidden();

    const panel = page.getByRole('article', { name: 'Agent trip-planner' });
    await expect(panel.getByRole('list', { name: 'Skills' })).toContainText('Echo');
    await expect(panel).toContainText('Plans trips for the dashboard test');
    await expect(panel).toContainText('Streaming');
    await expect(panel.getByRole('list', { name: 'Interfaces' })).toContainText(agent.jsonrpcUrl);
    await expect(panel).toContainText('Any virtual key');

    // Upstream authentication set in an edit, then shown redacted (never read back).
    await panel.getByRole('button', { name: 'Edit agent trip-planner' }).click();
    const edit = page.getByRole('form', { name: 'Edit agent' });
    await edit.getByText('Headers', { exact: true }).first().click();
    await edit.getByLabel('Upstream authentication (A2A calls): header 1 name').fill('X-Upstream-Token');
    await edit.getByLabel('Upstream authentication (A2A calls): header 1 value').fill('upstream-secret-123');
    await edit.getByRole('button', { name: 'Save agent' }).click();
    await expect(edit).toBeHidden();
    await expect(panel).toContainText('Header X-Upstream-Token: Redacted');
    await expect(page.getByText('upstream-secret-123')).toHaveCount(0);

    // One message through the gateway's A2A route with a virtual key, then in the history on the screen.
    const client = await gatewayClient(gateway, 'trip-planner', virtualKey);
    const sent = (await client.sendMessage(message(`tck-complete-task-${Date.now()}`, 'book a train'))) as {
      id?: string;
    };
    expect(sent.id).toBeTruthy();
    expect(agent.protocolRequests().at(-1)?.headers['x-upstream-token']).toBe('upstream-secret-123');
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('textbox', { name: 'Task id' }).fill(sent.id!);
    await history.getByRole('textbox', { name: 'Task id' }).press('Enter');
    await expect(page).toHaveURL(new RegExp(`task_id=${sent.id}`));
    const table = page.getByRole('table', { name: 'Agent operations' });
    const row = table.locator('tbody tr', { hasText: 'SendMessage' });
    await expect(row).toContainText('trip-planner');
    await expect(row).toContainText('success');
    await row.getByRole('button', { name: /^Open SendMessage of/ }).click();
    await expect(page).toHaveURL(/entry=/);
    const drawer = page.getByRole('dialog', { name: 'Agent operation' });
    await expect(drawer).toContainText(sent.id!);
    await expect(drawer.getByRole('region', { name: 'Request' })).toContainText('book a train');
    await shot(page, 'history');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    // A push configuration a client set through the gateway: listed with its token redacted, deleted after a
    // confirmation naming it.
    const open = (await client.sendMessage(message(`tck-input-required-${Date.now()}`, 'hold it'))) as { id: string };
    await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'ui-cfg-1',
      taskId: open.id,
      url: 'http://127.0.0.1:9/hook',
      token: 'client-push-token',
      authentication: undefined,
    });
    await page.reload();
    const pushes = page.getByRole('table', { name: 'Push configurations' });
    const push = pushes.locator('tbody tr', { hasText: 'ui-cfg-1' });
    await expect(push).toContainText(open.id);
    await expect(push).toContainText('Redacted');
    await expect(page.getByText('client-push-token')).toHaveCount(0);
    await shot(page, 'screen');
    await push.getByRole('button', { name: 'Delete push configuration ui-cfg-1' }).click();
    const confirmPush = page.getByRole('dialog', { name: 'Delete push configuration' });
    await expect(confirmPush).toContainText(`ui-cfg-1 of task ${open.id} on trip-planner`);
    await confirmPush.getByRole('button', { name: 'Delete ui-cfg-1' }).click();
    await expect(page.getByText('No push configuration')).toBeVisible();

    // Deleted after a confirmation that names it.
    await panel.getByRole('button', { name: 'Delete agent trip-planner' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete agent' });
    await expect(confirm).toContainText('Delete the agent trip-planner?');
    await confirm.getByRole('button', { name: 'Delete trip-planner' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByText('No agent yet')).toBeVisible();
    const left = await api.request<{ count: number }>('GET', '/api/agents');
    expect(left.count).toBe(0);
    expect(problems).toEqual([]);
  });
});
