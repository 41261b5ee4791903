import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { unlock, watchProblems, seriousViolations } from './support/page';

const ADMIN = { username: 'admin', password: 'enterprise-admin-password' };
const USERS = 500;
const SCREENSHOTS = join(RESULTS, 'screenshots');

/**
 * Access profiles in the enterprise edition: 500 users seeded through the API with one role; a template created in
 * the UI, given to the role's users as their default, edited (version 2, its diff field by field), then propagated:
 * the dry run says who would change, the run's progress bar moves and ends at 500 / 500, and a dry run after it shows
 * no changes; then cloned, and one stored version read. The smoke spec runs the open-source edition, so the axe check of this screen is here, in both themes.
 *
 * The gateway answers a propagate call with the result when the job ends within `access_profiles.propagation_wait`
 * (30 s by default) and with its job id otherwise; the wait is 0 s here, so the screen follows the job from its start.
 */
test.describe('access profiles', () => {
  test.describe.configure({ mode: 'serial' });
  let gateway: Gateway;
  let api: GatewayApi;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    mkdirSync(SCREENSHOTS, { recursive: true });
    gateway = await startGateway({
      env: {
        GATEWAY_EDITION: 'enterprise',
        GATEWAY_AUTH_ENABLED: 'true',
        GATEWAY_ADMIN_USERNAME: ADMIN.username,
        GATEWAY_ADMIN_PASSWORD: ADMIN.password,
        GATEWAY_ACCESS_PROFILES_PROPAGATION_WAIT: '0s',
      },
    });
    api = new GatewayApi(gateway, { basic: ADMIN });
    const role = await api.request<{ id: string }>('POST', '/api/governance/rbac/roles', {
      name: 'support',
      permissions: ['Dashboard:View'],
    });
    // 500 users of that role, eight requests at a time.
    let next = 0;
    const worker = async () => {
      while (next < USERS) {
        const n = next++;
        const name = `support-${String(n).padStart(3, '0')}`;
        await api.request('POST', '/api/governance/users', { name, email: `${name}@example.com`, role_id: role.id });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  });
  test.afterAll(async () => {
    await gateway?.stop();
  });

  async function signIn(page: Page, path: string) {
    await page.goto(`${gateway.url}/ui/${path}`);
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByRole('textbox', { name: /^Password/ }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  }

  test('a template made in the UI, propagated to 500 users with live progress, then a dry run with no changes', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const { problems } = watchProblems(page);
    const shot = (name: string) =>
      page.screenshot({ path: join(SCREENSHOTS, `access-profiles-${name}.png`), fullPage: true });
    await signIn(page, 'access-profiles');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Access profiles' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Access profiles' })).toBeVisible();
    await expect(page.getByText('No template yet.')).toBeVisible();

    // Created in the UI: a request limit of 100 a minute.
    await page.getByRole('button', { name: 'Add template' }).click();
    const form = page.getByRole('form', { name: 'Add a template' });
    await form.getByLabel('Name').fill('support-default');
    await form.getByLabel('Description').fill('What every support agent gets');
    await form.getByLabel('Requests per window').fill('100');
    await form.getByLabel('Request window').fill('1m');
    await form.getByRole('button', { name: 'Add template' }).click();
    await expect(form).toBeHidden();
    const templates = page.getByRole('table', { name: 'Access profile templates' });
    await expect(templates.locator('tbody tr', { hasText: 'support-default' })).toContainText('active');
    const detail = page.getByRole('region', { name: 'Template support-default' });
    await expect(detail).toContainText('100 requests / 1m');

    // Role default: the role's 500 users get a copy now.
    await detail.getByRole('tab', { name: 'Role defaults' }).click();
    await detail.getByLabel('Role', { exact: true }).click();
    await page.getByRole('option', { name: 'support' }).click();
    await detail.getByRole('button', { name: 'Attach role' }).click();
    await expect(page.getByText(`Role attached; ${USERS} users got a copy`)).toBeVisible({ timeout: 120_000 });
    await expect(detail.getByRole('table', { name: 'Attached roles' })).toContainText('support');
    await expect(detail).toContainText(`Users holding a copy: ${USERS}`);
    await shot('roles');
    expect(await seriousViolations(page), 'role defaults').toEqual([]);

    // Edited: version 2, and its difference from version 1 field by field.
    await templates.getByRole('button', { name: 'Edit template support-default' }).click();
    const edit = page.getByRole('form', { name: 'Edit template' });
    await edit.getByLabel('Requests per window').fill('250');
    await edit.getByRole('button', { name: 'Save template' }).click();
    await expect(edit).toBeHidden();
    await expect(detail).toContainText('Version 2');
    await detail.getByRole('tab', { name: 'Versions' }).click();
    const diff = detail.getByRole('table', { name: 'Changes from version 1 to version 2' });
    const changed = diff.locator('tbody tr', { hasText: 'rate_limit.request_max_limit' });
    await expect(changed).toContainText('changed');
    await expect(changed.locator('td').nth(2)).toHaveText('100');
    await expect(changed.locator('td').nth(3)).toHaveText('250');
    await expect(diff.locator('tbody tr')).toHaveCount(1);
    await shot('versions');
    expect(await seriousViolations(page), 'versions').toEqual([]);

    // A dry run for one chosen user, then for every holder: who would change, and the field each one takes.
    await detail.getByRole('tab', { name: 'Propagation' }).click();
    const only = detail.getByLabel('Only these users');
    await only.fill('support-042');
    await page.getByRole('option', { name: 'support-042' }).click();
    await detail.getByRole('button', { name: 'Preview (dry run)' }).click();
    await expect(detail.getByRole('alert', { name: /^Dry run/ })).toContainText(
      '1 user would change, 0 unchanged, 0 would fail.',
    );
    await only.press('Backspace');
    await expect(detail.getByRole('alert', { name: /^Dry run/ })).toBeHidden();
    await detail.getByRole('button', { name: 'Preview (dry run)' }).click();
    const dryRun = detail.getByRole('alert', { name: /^Dry run/ });
    await expect(dryRun).toContainText(`${USERS} users would change, 0 unchanged, 0 would fail.`);
    await expect(dryRun).toContainText('support-000');
    await expect(dryRun.getByRole('table', { name: 'Fields copied' })).toContainText('rate_limit.request_max_limit');

    // The run. Recorded: each read of the job the page makes (what the API said), and each count the screen shows
    // under the bar. The job takes about 2 s here and writes its progress between batches of users, so how many
    // counts between 0 and 500 the API reports varies; the screen must show every one it reported, in order.
    const reads: Array<{ status: string; processed: number; total: number }> = [];
    page.on('response', (response) => {
      if (/\/propagations\/[0-9a-f-]{36}$/.test(new URL(response.url()).pathname) && response.ok())
        void response.json().then((body: (typeof reads)[number]) => reads.push(body));
    });
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { countsSeen: string[] }).countsSeen = seen;
      new MutationObserver(() => {
        const run = document.querySelector('section[aria-label="Propagation run"]');
        const count = [...(run?.querySelectorAll('p') ?? [])]
          .map((p) => p.textContent ?? '')
          .find((text) => /^\d+ \/ \d+$/.test(text));
        if (count && seen.at(-1) !== count) seen.push(count);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await detail.getByRole('button', { name: 'Propagate' }).click();
    await expect(page.getByRole('dialog', { name: 'Propagate template' })).toContainText('every user holding it');
    // Other administrators read the users list while the job runs. On a quiet machine the job alone ends within
    // 0.1 s, before the page's first read; the embedded database serves one query at a time, so their reads, queued
    // between the job's batches, keep it running over several of the page's reads (each waits behind the same queue).
    let propagating = true;
    const otherAdmins = Array.from({ length: 4 }, async () => {
      while (propagating) await api.request('GET', '/api/governance/users');
    });
    await page.getByRole('button', { name: 'Propagate support-default' }).click();
    const run = detail.getByRole('region', { name: 'Propagation run' });
    await expect(page).toHaveURL(/job=[0-9a-f-]{36}/);
    await expect(run.getByText(`${USERS} / ${USERS}`, { exact: true })).toBeVisible({ timeout: 180_000 });
    propagating = false;
    await Promise.all(otherAdmins);
    await expect(run.getByText('Propagation finished')).toBeVisible();
    await expect(run.getByRole('progressbar', { name: 'Propagation progress' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    await expect(run).toContainText(`${USERS} users changed, 0 unchanged, 0 failed.`);
    await expect(run).toContainText('Failed: 0');
    await expect.poll(() => reads.at(-1)?.status).toBe('completed');
    const seen = await page.evaluate(() => (window as unknown as { countsSeen: string[] }).countsSeen);
    const reported = reads.map((r) => `${r.status === 'completed' ? r.total : r.processed} / ${r.total}`);
    const running = reads.filter((r) => r.status === 'running').map((r) => `${r.processed} / ${r.total}`);
    const context = `API: ${reported.join(', ')}; screen: ${seen.join(', ')}`;
    // Followed while it ran: the API said "running" at least once, and the screen showed each count it reported.
    expect(running.length, context).toBeGreaterThan(0);
    expect(seen, context).toEqual(reported.filter((count, i) => count !== reported[i - 1]));
    expect(seen.at(-1), context).toBe(`${USERS} / ${USERS}`);
    expect(seen.length, `the bar moved: ${context}`).toBeGreaterThan(1);
    await shot('propagated');
    expect(await seriousViolations(page), 'propagated').toEqual([]);

    // What the API says too: the user holds one copy.
    const users = await api.request<{ users: Array<{ id: string; name: string }> }>('GET', '/api/governance/users');
    const someone = users.users.find((u) => u.name === 'support-123')!;
    const copies = await api.request<{ access_profiles: Array<{ name: string }> }>(
      'GET',
      `/api/governance/users/${someone.id}/access-profiles`,
    );
    expect(copies.access_profiles).toHaveLength(1);

    // Idempotent: a dry run now changes nothing.
    await detail.getByRole('button', { name: 'Preview (dry run)' }).click();
    await expect(detail.getByRole('alert', { name: /^Dry run/ })).toContainText(
      `No changes: every selected copy (${USERS}) already matches the template on these fields.`,
    );
    // And running it again writes nothing: every copy already matches.
    await detail.getByRole('button', { name: 'Propagate' }).click();
    await page.getByRole('button', { name: 'Propagate support-default' }).click();
    await expect(run.getByRole('status')).toHaveText(
      `Nothing changed: ${USERS} selected copies already matched the template.`,
      { timeout: 60_000 },
    );
    await expect(run.getByText(`${USERS} / ${USERS}`, { exact: true })).toBeVisible();

    // A user's copy, its managed key masked.
    await detail.getByRole('tab', { name: "Users' copies" }).click();
    await detail.getByLabel('User', { exact: true }).fill('support-042');
    await page.getByRole('option', { name: /^support-042/ }).click();
    const copiesTable = detail.getByRole('table', { name: /^Copies of support-042/ });
    await expect(copiesTable).toContainText('support-default');
    await expect(copiesTable).toContainText('by role');
    await expect(copiesTable).toContainText(/sk-gw-.{2}…/);
    await expect(detail.getByRole('button', { name: 'Give this user a copy' })).toBeDisabled();
    await expect(detail.getByText('This user already holds a copy of support-default.')).toBeVisible();
    await shot('copies');
    expect(await seriousViolations(page), "users' copies").toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a template cloned in the UI (a taken name refused, what was typed kept), and one stored version read', async ({
    page,
  }) => {
    const { problems } = watchProblems(page, (url, status) => status === 409 && url.endsWith('/clone'));
    await signIn(page, 'access-profiles');
    const templates = page.getByRole('table', { name: 'Access profile templates' });
    await templates.getByRole('button', { name: 'Clone template support-default' }).click();
    const form = page.getByRole('form', { name: 'Clone template support-default' });
    await expect(form.getByLabel('Name')).toHaveValue('support-default copy');
    // A name already taken: the API's 409 on the field, the form still open with what was typed.
    await form.getByLabel('Name').fill('support-default');
    await form.getByLabel('Description').fill('Night shift');
    await form.getByRole('button', { name: 'Clone template' }).click();
    await expect(form.getByText('An access profile named support-default already exists')).toBeVisible();
    await expect(form.getByLabel('Description')).toHaveValue('Night shift');
    await form.getByLabel('Name').fill('support-night');
    await form.getByRole('button', { name: 'Clone template' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText('Template support-default cloned as support-night')).toBeVisible();
    // The clone opens: version 1, no copies, the original's limit (version 2's 250 a minute).
    const clone = page.getByRole('region', { name: 'Template support-night' });
    await expect(clone).toContainText('Version 1');
    await expect(clone).toContainText('Users holding a copy: 0');
    await expect(clone).toContainText('250 requests / 1m');
    const stored = await api.request<{
      access_profiles: Array<{ name: string; version: number; description: string; rate_limit: unknown }>;
    }>('GET', '/api/governance/access-profiles?search=support-night');
    expect(stored.access_profiles).toEqual([
      expect.objectContaining({
        name: 'support-night',
        version: 1,
        description: 'Night shift',
        rate_limit: expect.objectContaining({ request_max_limit: 250, request_reset_duration: '1m' }),
      }),
    ]);

    // Version 1 of the original as stored: who saved it, and every field, its first limit among them.
    await templates.getByRole('button', { name: 'Open template support-default' }).click();
    const detail = page.getByRole('region', { name: 'Template support-default' });
    await detail.getByRole('tab', { name: 'Versions' }).click();
    await detail.getByRole('button', { name: 'Show version 1' }).click();
    const fields = detail.getByRole('table', { name: 'Fields of version 1' });
    await expect(fields.locator('tbody tr', { hasText: 'rate_limit.request_max_limit' })).toContainText('100');
    await expect(fields.locator('tbody tr', { hasText: 'description' }).first()).toContainText(
      'What every support agent gets',
    );
    await expect(detail.getByText(`Saved by ${ADMIN.username}`)).toBeVisible();
    await page.screenshot({ path: join(SCREENSHOTS, 'access-profiles-version.png'), fullPage: true });
    expect(await seriousViolations(page), 'stored version').toEqual([]);
    expect(problems).toEqual([]);
  });

  test("a template's MCP tool groups picked by name in its form, and stored by id", async ({ page }) => {
    const { problems } = watchProblems(page);
    const group = (
      await api.request<{ tool_group: { id: string } }>('POST', '/api/mcp/tool-groups', { name: 'support_tools' })
    ).tool_group;
    await signIn(page, 'access-profiles');
    const templates = page.getByRole('table', { name: 'Access profile templates' });
    await templates.getByRole('button', { name: 'Edit template support-night' }).click();
    const edit = page.getByRole('form', { name: 'Edit template' });
    await edit.getByLabel('MCP tool groups').click();
    await page.getByRole('option', { name: 'support_tools' }).click();
    await edit.getByRole('button', { name: 'Save template' }).click();
    await expect(edit).toBeHidden();
    const stored = await api.request<{
      access_profiles: Array<{ version: number; mcp_tool_groups: Array<{ tool_group_id: string }> }>;
    }>('GET', '/api/governance/access-profiles?search=support-night');
    expect(stored.access_profiles).toEqual([
      expect.objectContaining({ version: 2, mcp_tool_groups: [{ tool_group_id: group.id }] }),
    ]);
    const detail = page.getByRole('region', { name: 'Template support-night' });
    await templates.getByRole('button', { name: 'Open template support-night' }).click();
    await detail.getByRole('tab', { name: 'Versions' }).click();
    await expect(
      detail
        .getByRole('table', { name: 'Changes from version 1 to version 2' })
        .locator('tbody tr', { hasText: 'mcp_tool_groups[0].tool_group_id' }),
    ).toContainText(group.id);
    expect(problems).toEqual([]);
  });

  test('the open-source edition has no item, and the link says why', async ({ page }) => {
    const oss = await startGateway();
    try {
      await unlock(page, oss, 'access-profiles');
      await expect(page.getByRole('heading', { level: 1, name: 'Access profiles' })).toBeVisible();
      await expect(page.getByText('Access profiles are part of the enterprise edition.')).toBeVisible();
      await expect(
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Access profiles' }),
      ).toHaveCount(0);
    } finally {
      await oss.stop();
    }
  });

  test('dark theme and a phone: the open template passes the axe check', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    const { problems } = watchProblems(page);
    const profiles = await api.request<{ access_profiles: Array<{ id: number }> }>(
      'GET',
      '/api/governance/access-profiles',
    );
    await signIn(page, `access-profiles?profile=${profiles.access_profiles[0]!.id}`);
    await expect(page.getByRole('region', { name: 'Template support-default' })).toContainText('Version 2');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'the page is wider than the window').toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'access-profiles-dark-phone.png'), fullPage: true });
    expect(await seriousViolations(page), 'dark phone').toEqual([]);
    expect(problems).toEqual([]);
  });
});
