import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { startHttpPeer, type McpPeer } from './support/mcp-peer';
import { flipSwitch, unlock, watchProblems } from './support/page';

/**
 * The MCP clients screen against a real gateway and a real MCP server (the official SDK's, on loopback): the server
 * added in the UI with a secret header (sent upstream, never shown), its tools listed, one switched off and on, a
 * tool called from the panel (arguments refused by the input schema first, then sent), and the call found in the MCP
 * tool logs; a tool group made in the UI from the server's tools (after the API refused a taken name), a tool added
 * to and removed from it in the tools list, the group deleted after a confirmation naming it; a reconnect after the
 * server went away shows the error, then the connection back; delete confirms.
 */
test.describe('MCP clients', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let peer: McpPeer;
  let api: GatewayApi;
  let virtualKey: string;

  test.beforeAll(async () => {
    [gateway, peer] = await Promise.all([startGateway(), startHttpPeer()]);
    api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    virtualKey = (await api.createVirtualKey('panel-key')).value;
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await peer?.close();
  });

  const card = (page: import('@playwright/test').Page) => page.getByRole('region', { name: 'peer' });

  test('a server added in the UI, its tool called from the panel, the call in the MCP tool logs', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'mcp-clients');
    await expect(page.getByRole('heading', { level: 1, name: 'MCP clients' })).toBeVisible();
    await expect(page.getByText('No MCP server yet')).toBeVisible();

    await page.getByRole('button', { name: 'Add MCP server' }).click();
    const form = page.getByRole('form', { name: 'Add an MCP server' });
    await form.getByLabel('Name').fill('peer');
    await form.getByLabel('Server URL').fill(peer.url);
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header 1 name').fill('X-Peer-Token');
    await form.getByLabel('Header 1 value').fill('peer-secret-value');
    await form.getByLabel('Every virtual key may use its tools').check();
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form).toBeHidden();

    await expect(card(page).getByLabel('State connected')).toBeVisible();
    const tools = card(page).getByRole('table', { name: 'Tools of peer' });
    await expect(tools.locator('tbody tr')).toHaveCount(4);
    await expect(tools).toContainText('peer-add');
    await expect(tools).toContainText('Adds two numbers');
    // The header reached the server; its value is nowhere on the page.
    expect(peer.requests.some((headers) => headers['x-peer-token'] === 'peer-secret-value')).toBe(true);
    await expect(card(page).getByLabel('Headers of peer')).toContainText('X-Peer-Token: Redacted');
    await expect(page.locator('body')).not.toContainText('peer-secret-value');

    // A tool switched off is refused to callers, and switched on again.
    const echo = tools.getByRole('switch', { name: 'Enable peer-echo' });
    await flipSwitch(echo); // controlled: it follows the stored list
    await expect(echo).not.toBeChecked();
    await expect(tools.getByRole('button', { name: 'Call peer-echo' })).toBeDisabled();
    const stored = await api.request<{ clients: Array<{ tools_to_execute: string[] }> }>('GET', '/api/mcp/clients');
    expect(stored.clients[0]!.tools_to_execute).toEqual(['add', 'fail', 'slow']);
    await flipSwitch(echo);
    await expect(echo).toBeChecked();
    await expect(tools.getByRole('button', { name: 'Call peer-echo' })).toBeEnabled();

    // The panel checks the arguments against the tool's input schema before sending anything.
    await tools.getByRole('button', { name: 'Call peer-add' }).click();
    const panel = page.getByRole('dialog', { name: 'Call peer-add' });
    const args = panel.getByLabel('Arguments (JSON)');
    await args.fill('{"a": "two"}');
    await panel.getByLabel('Virtual key').fill(virtualKey);
    await panel.getByRole('button', { name: 'Call tool' }).click();
    const refusal = panel.getByRole('alert');
    await expect(refusal).toContainText('arguments.a must be number, not string');
    await expect(refusal).toContainText('arguments.b is required');
    const logsBefore = await api.request<{ logs: unknown[] }>('GET', '/api/mcp-logs');
    expect(logsBefore.logs).toEqual([]);

    await args.fill('{"a": 2, "b": 40}');
    await panel.getByRole('button', { name: 'Call tool' }).click();
    await expect(panel.getByTestId('tool-answer')).toHaveText('42');
    // The footer's Close (the title bar's close button has the same name).
    await panel.getByRole('button', { name: 'Close' }).last().click();

    // The call is the virtual key's, in the MCP tool logs.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MCP tool logs' }).click();
    const rows = page.getByRole('table', { name: 'MCP tool logs' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('peer-add');
    await expect(rows.first()).toContainText('success');
    await expect(rows.first()).toContainText('panel-key');
    expect(problems).toEqual([]);
  });

  test('a wrong virtual key is refused with the API message, the panel keeps what was typed', async ({ page }) => {
    const { problems } = watchProblems(page, (url, status) => status === 401 && url.includes('/v1/mcp/tool/execute'));
    await unlock(page, gateway, 'mcp-clients');
    await card(page).getByRole('button', { name: 'Call peer-echo' }).click();
    const panel = page.getByRole('dialog', { name: 'Call peer-echo' });
    await panel.getByLabel('Arguments (JSON)').fill('{"text": "kept"}');
    await panel.getByLabel('Virtual key').fill('sk-gw-not-a-key');
    await panel.getByRole('button', { name: 'Call tool' }).click();
    await expect(panel.getByRole('alert')).toContainText(/virtual key/i);
    await expect(panel.getByLabel('Arguments (JSON)')).toHaveValue('{"text": "kept"}');
    // Still signed in: a key's 401 is not the session's.
    // The footer's Close (the title bar's close button has the same name).
    await panel.getByRole('button', { name: 'Close' }).last().click();
    await expect(page.getByRole('heading', { level: 1, name: 'MCP clients' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('a tool group made from the server’s tools, edited from the tools list, deleted', async ({ page }) => {
    const { problems } = watchProblems(page, (url, status) => status === 409 && url.includes('/api/mcp/tool-groups'));
    type Groups = { tool_groups: Array<{ id: string; name: string; tools: Array<{ tool_name: string }> }> };
    await api.request('POST', '/api/mcp/tool-groups', { name: 'taken' });
    await unlock(page, gateway, 'mcp-clients');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MCP tool groups' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'MCP tool groups' })).toBeVisible();

    await page.getByRole('button', { name: 'Add tool group' }).click();
    const form = page.getByRole('form', { name: 'Add a tool group' });
    await form.getByLabel('Name').fill('taken');
    await form.getByLabel('Description').fill('Arithmetic tools');
    await form.getByLabel('Tools', { exact: true }).click();
    await page.getByRole('option', { name: 'peer-add' }).click();
    await page.getByRole('option', { name: 'peer-slow' }).click();
    await form.getByLabel('Description').click(); // closes the picker
    await form.getByRole('button', { name: 'Add tool group' }).click();
    // The API's refusal on its field; everything typed and picked is kept.
    await expect(form.getByText('MCP tool group taken already exists')).toBeVisible();
    await expect(form.getByLabel('Description')).toHaveValue('Arithmetic tools');
    await expect(form).toContainText('peer-add');
    await expect(form).toContainText('peer-slow');
    await form.getByLabel('Name').fill('math');
    await form.getByRole('button', { name: 'Add tool group' }).click();
    await expect(form).toBeHidden();

    const table = page.getByRole('table', { name: 'Tool groups' });
    const row = table.getByRole('row').filter({ hasText: 'math' });
    await expect(row.getByLabel('Tools of math')).toHaveText(/peer-add\s*peer-slow|peer-slow\s*peer-add/);
    await expect(row).toContainText('Arithmetic tools');
    await page.screenshot({ path: join(RESULTS, 'screenshots', 'mcp-tool-groups.png'), fullPage: true });
    const stored = await api.request<Groups>('GET', '/api/mcp/tool-groups?search=math');
    expect(stored.tool_groups[0]!.tools.map((t) => t.tool_name).sort()).toEqual(['add', 'slow']);

    // In the server's tools list: each tool shows its groups; one added to the group, one removed from it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MCP clients' }).click();
    const tools = card(page).getByRole('table', { name: 'Tools of peer' });
    const addRow = tools.getByRole('row').filter({ hasText: 'peer-add' });
    await expect(addRow).toContainText('math');
    await tools.getByRole('button', { name: 'Add peer-echo to a group' }).click();
    await page.getByRole('menuitem', { name: 'math' }).click();
    await expect(tools.getByRole('row').filter({ hasText: 'peer-echo' })).toContainText('math');
    await tools.getByRole('button', { name: 'Remove peer-slow from math' }).click();
    await expect(tools.getByRole('button', { name: 'Remove peer-slow from math' })).toBeHidden();
    const edited = await api.request<Groups>('GET', '/api/mcp/tool-groups?search=math');
    expect(edited.tool_groups[0]!.tools.map((t) => t.tool_name).sort()).toEqual(['add', 'echo']);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MCP tool groups' }).click();
    await page.getByRole('button', { name: 'Delete tool group math' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete tool group' });
    await expect(confirm).toContainText('Delete the tool group math?');
    await confirm.getByRole('button', { name: 'Delete math' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'math' })).toHaveCount(0);
    const left = await api.request<Groups>('GET', '/api/mcp/tool-groups');
    expect(left.tool_groups.map((g) => g.name)).toEqual(['taken']);
    expect(problems).toEqual([]);
  });

  test('a server gone shows its last error on reconnect; back, it connects; delete confirms naming it', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'mcp-clients');
    await expect(card(page).getByLabel('State connected')).toBeVisible();
    await peer.stop();
    await card(page).getByRole('button', { name: 'Reconnect peer' }).click();
    await expect(card(page).getByLabel('State error')).toBeVisible();
    await expect(card(page).getByLabel('Last error of peer')).toContainText(/\S/);

    await peer.restart();
    await card(page).getByRole('button', { name: 'Reconnect peer' }).click();
    await expect(card(page).getByLabel('State connected')).toBeVisible();
    await expect(card(page).getByLabel('Last error of peer')).toBeHidden();

    await card(page).getByRole('button', { name: 'Delete peer' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete MCP server' });
    await expect(confirm).toContainText('Delete the MCP server peer?');
    await confirm.getByRole('button', { name: 'Delete peer' }).click();
    await expect(page.getByText('No MCP server yet')).toBeVisible();
    expect(problems).toEqual([]);
  });
});
