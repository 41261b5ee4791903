import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { chat, GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { unlock, watchProblems, seriousViolations } from './support/page';
import { startHttpPeer, type McpPeer } from './support/mcp-peer';
import { startSimulator, type Simulator } from './support/simulator';

const SCREENSHOTS = join(RESULTS, 'screenshots');
const THEMES = ['light', 'dark'] as const;
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Every route of the dashboard (and a not-found one), with the heading each must show. */
function routes(
  logId: string,
  toolLogId: string,
  keyId: string,
): Array<{ name: string; path: string; heading: string }> {
  return [
    { name: 'overview', path: '', heading: 'Overview' },
    { name: 'logs', path: 'logs', heading: 'Request logs' },
    { name: 'log-drawer', path: `logs?log=${logId}`, heading: 'Request logs' },
    { name: 'mcp-logs', path: 'mcp-logs', heading: 'MCP tool logs' },
    { name: 'mcp-log-drawer', path: `mcp-logs?log=${toolLogId}`, heading: 'MCP tool logs' },
    { name: 'providers', path: 'providers', heading: 'Providers and keys' },
    { name: 'virtual-keys', path: 'virtual-keys', heading: 'Virtual keys' },
    { name: 'virtual-key-drawer', path: `virtual-keys?key=${keyId}`, heading: 'Virtual keys' },
    { name: 'routing-rules', path: 'routing-rules', heading: 'Routing rules' },
    { name: 'mcp-clients', path: 'mcp-clients', heading: 'MCP clients' },
    { name: 'mcp-tool-groups', path: 'mcp-tool-groups', heading: 'MCP tool groups' },
    { name: 'settings', path: 'settings', heading: 'Settings' },
    { name: 'settings-plugins', path: 'settings?tab=plugins', heading: 'Settings' },
    { name: 'settings-cache', path: 'settings?tab=cache', heading: 'Settings' },
    { name: 'audit-logs', path: 'audit-logs', heading: 'Audit log' },
    { name: 'webhooks', path: 'webhooks', heading: 'Webhooks' },
    { name: 'async-jobs', path: 'async-jobs', heading: 'Async jobs' },
    { name: 'teams', path: 'teams', heading: 'Teams and customers' },
    { name: 'models', path: 'models', heading: 'Models and pricing' },
    { name: 'pricing-overrides', path: 'models?tab=overrides', heading: 'Models and pricing' },
    { name: 'model-configs', path: 'models?tab=configs', heading: 'Models and pricing' },
    { name: 'provider-limits', path: 'models?tab=providers', heading: 'Models and pricing' },
    { name: 'agents', path: 'agents', heading: 'Agents' },
    { name: 'management-keys', path: 'management-keys', heading: 'Management keys' },
    // Enterprise-only: the open-source edition's notice (the screen's own axe checks are in access-control.spec.ts).
    { name: 'users', path: 'users', heading: 'Users and roles' },
    { name: 'not-found', path: 'no-such-page', heading: 'Page not found' },
  ];
}

/**
 * Opens every route in both themes at desktop and phone sizes: no page error, console error, failed request or error
 * answer; no serious or critical axe violation; a screenshot of each (ui/test-results/screenshots, not committed).
 */
test.describe('smoke: every route, both themes, two sizes', () => {
  let gateway: Gateway;
  let sim: Simulator;
  let peer: McpPeer;
  let logId: string;
  let budgetedKeyId: string;
  let toolLogId: string;
  test.beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [gateway, sim, peer] = await Promise.all([startGateway(), startSimulator(), startHttpPeer()]);
    const api = new GatewayApi(gateway, { setupToken: gateway.setupToken() });
    await api.addOpenAi(sim.url);
    const key = await api.createVirtualKey('smoke-key');
    for (const model of ['openai/gpt-4o-mini', 'openai/gpt-4o']) {
      ({ id: logId } = await chat(gateway, key.value, { model }));
    }
    await chat(gateway, key.value, { model: 'openai/sim-rate-limit', fallbacks: ['openai/gpt-4o-mini'] });
    const budgeted = await api.request<{ virtual_key: { id: string; value: string } }>(
      'POST',
      '/api/governance/virtual-keys',
      {
        name: 'smoke-budgeted',
        provider_configs: [{ provider: 'openai', allowed_models: ['gpt-4o-mini'] }],
        budgets: [{ max_limit: 5, reset_duration: '1d' }],
        rate_limit: { request_max_limit: 100, request_reset_duration: '1h' },
      },
    );
    budgetedKeyId = budgeted.virtual_key.id;
    // Agent mode: the model calls one MCP tool, then answers (two more request logs, one tool log).
    await api.addMcpClient('tools', peer.url, key.id, ['echo']);
    const { clients } = await api.request<{ clients: Array<{ id: string }> }>('GET', '/api/mcp/clients');
    await api.request('POST', '/api/mcp/tool-groups', {
      name: 'smoke_group',
      description: 'For the smoke test',
      tools: [{ mcp_client_id: clients[0]!.id, tool_name: 'echo' }],
    });
    sim.scenario({
      match: { path: '/chat/completions' },
      responses: [
        { ok: true, tool_calls: [{ name: 'tools-echo', arguments: { text: 'smoke' } }] },
        { ok: true, text: 'done' },
      ],
    });
    expect((await chat(gateway, key.value, { model: 'openai/gpt-4o-mini' })).status).toBe(200);
    const tools = await api.request<{ logs: Array<{ id: string }> }>('GET', '/api/mcp-logs');
    toolLogId = tools.logs[0]!.id;
    // A routing rule no request above matched (it reads a header none sent), for its screen.
    await api.request('POST', '/api/governance/routing-rules', {
      name: 'smoke-rule',
      cel_expression: 'headers["x-smoke"] == "1"',
      targets: [{ provider: 'openai', model: 'gpt-4o', weight: 1 }],
      fallbacks: ['openai/gpt-4o-mini'],
    });
  });
  test.afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await peer?.close();
  });

  for (const theme of THEMES) {
    for (const viewport of VIEWPORTS) {
      test(`${theme}, ${viewport.name} (${viewport.width}x${viewport.height})`, async ({ page }) => {
        // About 20 routes, each painted, screenshot and checked by axe: a few seconds each on a quiet machine,
        // several times that on a loaded one.
        test.setTimeout(360_000);
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: theme });
        const { problems } = watchProblems(page);
        const shot = (name: string) =>
          page.screenshot({ path: join(SCREENSHOTS, `${name}-${theme}-${viewport.name}.png`), fullPage: true });

        await page.goto(`${gateway.url}/ui/`);
        await expect(page.getByRole('heading', { name: 'Unlock the gateway' })).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
        await shot('unlock');
        expect(await seriousViolations(page), 'unlock page').toEqual([]);
        await unlock(page, gateway);

        for (const route of routes(logId, toolLogId, budgetedKeyId)) {
          await page.goto(`${gateway.url}/ui/${route.path}`);
          await expect(page.getByRole('heading', { level: 1, name: route.heading })).toBeVisible();
          if (route.name === 'overview') {
            await expect(page.getByRole('group', { name: 'Requests' })).toContainText('6');
            await expect(
              page.getByRole('region', { name: 'Requests over time' }).locator('canvas').first(),
            ).toBeVisible();
          }
          if (route.name === 'logs')
            await expect(page.getByRole('table', { name: 'Request logs' }).locator('tbody tr')).toHaveCount(6);
          if (route.name === 'mcp-clients')
            await expect(page.getByRole('table', { name: 'Tools of tools' })).toContainText('smoke_group');
          if (route.name === 'mcp-tool-groups')
            await expect(page.getByRole('table', { name: 'Tool groups' })).toContainText('tools-echo');
          if (route.name === 'providers')
            await expect(page.getByRole('table', { name: 'Keys of openai' })).toContainText('sim-key');
          if (route.name === 'virtual-keys')
            await expect(page.getByRole('table', { name: 'Virtual keys' }).locator('tbody tr')).toHaveCount(2);
          if (route.name === 'virtual-key-drawer') {
            await expect(
              page
                .getByRole('dialog', { name: 'Virtual key smoke-budgeted' })
                .getByRole('region', { name: 'Budgets and limits' }),
            ).toContainText('0 of 100 requests');
          }
          if (route.name === 'routing-rules')
            await expect(page.getByRole('table', { name: 'Routing rules' })).toContainText('smoke-rule');
          if (route.name === 'mcp-logs')
            await expect(page.getByRole('table', { name: 'MCP tool logs' }).locator('tbody tr')).toHaveCount(1);
          if (route.name === 'mcp-log-drawer') {
            await expect(
              page.getByRole('dialog', { name: 'Tool log' }).getByRole('region', { name: 'Summary' }),
            ).toContainText('tools-echo');
          }
          if (route.name === 'log-drawer') {
            await expect(
              page.getByRole('dialog', { name: 'Request log' }).getByRole('region', { name: 'Summary' }),
            ).toContainText(logId);
          }
          // Nothing may run off the side: the page scrolls vertically only (wide tables scroll in their own box).
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${route.name} is wider than the window`).toBeLessThanOrEqual(0);
          await shot(route.name);
          expect(await seriousViolations(page), route.name).toEqual([]);
        }

        // Keyboard: the first Tab stops are reachable and visible, and Enter on a log's time opens it.
        await page.goto(`${gateway.url}/ui/logs`);
        const open = page.getByRole('button', { name: /^Open the log of/ }).first();
        await open.focus();
        await page.keyboard.press('Enter');
        await expect(page.getByRole('dialog', { name: 'Request log' })).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog', { name: 'Request log' })).toBeHidden();
        expect(problems).toEqual([]);
      });
    }
  }
});
