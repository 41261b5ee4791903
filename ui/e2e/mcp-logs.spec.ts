import { expect, test, type Page } from '@playwright/test';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { startHttpPeer, type McpPeer } from './support/mcp-peer';
import { unlock, watchProblems } from './support/page';
import { startSimulator, type Simulator } from './support/simulator';

/**
 * The MCP tool logs screen against a real gateway: an MCP server (the official SDK) registered through the API, and
 * one chat request in agent mode whose model (the provider simulator, scripted) calls two of its tools. The list, its
 * filters in the URL, a call's drawer, and the links between a tool call and its LLM request, both ways.
 */
test.describe('MCP tool logs', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let sim: Simulator;
  let peer: McpPeer;
  let requestId: string;

  test.beforeAll(async () => {
    [gateway, sim, peer] = await Promise.all([startGateway(), startSimulator(), startHttpPeer()]);
    const api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    const key = await api.createVirtualKey('agent-key');
    await api.addMcpClient('tools', peer.url, key.id, ['echo', 'add']);
    const usage = { input_tokens: 10, output_tokens: 5 };
    sim.scenario({
      match: { path: '/chat/completions' },
      responses: [
        { ok: true, usage, tool_calls: [{ name: 'tools-echo', arguments: { text: 'from the dashboard test' } }] },
        { ok: true, usage, tool_calls: [{ name: 'tools-add', arguments: { a: 2, b: 3 } }] },
        { ok: true, usage, text: 'all done' },
      ],
    });
    const answer = await chat(gateway, key.value, { model: 'openai/gpt-4o-mini' });
    expect(answer.status).toBe(200);
    requestId = answer.id;
    expect(requestId).toBeTruthy();
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await peer?.close();
  });

  const rows = (page: Page) => page.getByRole('table', { name: 'MCP tool logs' }).locator('tbody tr');

  test('lists the tool calls, filters them through the URL, and shows a call in the drawer', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'mcp-logs');
    await expect(rows(page)).toHaveCount(2);
    // Newest first: add ran after echo.
    await expect(rows(page).nth(0)).toContainText('tools-add');
    await expect(rows(page).nth(1)).toContainText('tools-echo');
    for (const row of await rows(page).all()) {
      await expect(row).toContainText('success');
      await expect(row).toContainText('agent-key');
      await expect(row.getByRole('link', { name: `Open the LLM request ${requestId}` })).toBeVisible();
    }
    await expect(page.getByRole('group', { name: 'Tool calls' })).toContainText('2');

    const tools = page.getByRole('combobox', { name: 'Tools' });
    await tools.fill('tools-add');
    await tools.press('Enter');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/\/ui\/mcp-logs\?tool_names=tools-add$/);
    await expect(rows(page)).toHaveCount(1);

    await rows(page)
      .getByRole('button', { name: /^Open the tool log of/ })
      .click();
    const drawer = page.getByRole('dialog', { name: 'Tool log' });
    await expect(drawer.getByRole('region', { name: 'Summary' })).toContainText('tools-add');
    await expect(drawer.getByRole('region', { name: 'Arguments' })).toContainText('"a": 2');
    await expect(drawer.getByRole('region', { name: 'Result' })).toContainText('5');
    await expect(page).toHaveURL(/\/ui\/mcp-logs\?tool_names=tools-add&log=/);
    // The link reproduces the view, drawer included.
    await page.reload();
    await expect(drawer.getByRole('region', { name: 'Summary' })).toContainText('tools-add');
    expect(problems).toEqual([]);
  });

  test('a tool call links to its LLM request, and the request log links back to its calls', async ({ page }) => {
    const { problems } = watchProblems(page);
    await unlock(page, gateway, 'mcp-logs?tool_names=tools-echo');
    await expect(rows(page)).toHaveCount(1);
    await rows(page)
      .getByRole('link', { name: `Open the LLM request ${requestId}` })
      .click();

    await expect(page).toHaveURL(new RegExp(`/ui/logs\\?log=${requestId}$`));
    const request = page.getByRole('dialog', { name: 'Request log' });
    await expect(request.getByRole('region', { name: 'Summary' })).toContainText(requestId);
    const calls = request.getByRole('table', { name: 'Tool calls' }).locator('tbody tr');
    await expect(calls).toHaveCount(2);
    await expect(calls.nth(0)).toContainText('tools-echo');
    await expect(calls.nth(1)).toContainText('tools-add');

    await calls.nth(1).getByRole('link', { name: 'tools-add' }).click();
    await expect(page).toHaveURL(/\/ui\/mcp-logs\?log=/);
    const tool = page.getByRole('dialog', { name: 'Tool log' });
    await expect(tool.getByRole('region', { name: 'Summary' })).toContainText('tools-add');
    await expect(tool.getByRole('region', { name: 'Summary' })).toContainText(requestId);
    expect(problems).toEqual([]);
  });
});
