import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { RESULTS } from '../playwright.config';
import { GatewayApi } from './support/api';
import { startGateway, type Gateway } from './support/gateway';
import { navLinks, unlock, watchProblems, seriousViolations } from './support/page';

const ADMIN = { username: 'admin', password: 'enterprise-admin-password' };
const READER = { name: 'Lee Reader', email: 'lee@example.com', password: 'lee-password-123' };
const SCREENSHOTS = join(RESULTS, 'screenshots');

interface Role {
  id: string;
  name: string;
  permissions: string[];
  is_builtin: boolean;
}
interface User {
  id: string;
  email: string;
  role_id: string;
}
interface ManagementKey {
  id: string;
  name: string;
  scopes: string[];
}

/**
 * Users, roles and management keys in the enterprise edition with dashboard auth: a custom role made in the UI by
 * ticking its grid, a user of it who signs in (a second browser) and sees only what the role allows, the role edited
 * in the grid and read back through the API, a role still held refused on delete with the API's message; a
 * management key with one scope, its value shown once, then used from the test: allowed on its scope, 403 elsewhere,
 * and refused once deleted. The smoke spec runs the open-source edition, so the axe checks of these screens are here.
 */
test.describe('users, roles and management keys', () => {
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
      },
    });
    api = new GatewayApi(gateway, { basic: ADMIN });
  });
  test.afterAll(async () => {
    await gateway?.stop();
  });

  async function signIn(page: Page, path: string, who = { login: ADMIN.username, password: ADMIN.password }) {
    await page.goto(`${gateway.url}/ui/${path}`);
    await page.getByLabel('Username or email').fill(who.login);
    await page.getByRole('textbox', { name: /^Password/ }).fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  }
  const roleNamed = async (name: string) =>
    (await api.request<{ roles: Role[] }>('GET', '/api/governance/rbac/roles')).roles.find((r) => r.name === name);

  test('a role ticked in the grid, a user of it who sees only what it allows, the role edited and refused on delete', async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const { problems } = watchProblems(
      page,
      (url, status) => status === 409 && url.includes('/api/governance/rbac/roles/'),
    );
    const shot = (name: string) =>
      page.screenshot({ path: join(SCREENSHOTS, `access-control-${name}.png`), fullPage: true });
    await signIn(page, 'users?tab=roles');
    await expect(navLinks(page).filter({ hasText: 'Users and roles' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Users and roles' })).toBeVisible();

    // The built-in roles, read-only: the viewer's grid has every View and nothing else.
    const roles = page.getByRole('table', { name: 'Roles' });
    for (const name of ['admin', 'developer', 'viewer']) await expect(roles).toContainText(name);
    await expect(roles.getByRole('button', { name: 'Edit role viewer' })).toHaveCount(0);
    await roles.getByRole('button', { name: 'Open role viewer' }).click();
    const viewer = page.getByRole('dialog', { name: 'Role viewer' });
    await expect(viewer).toContainText('cannot be edited or deleted');
    const viewerGrid = viewer.getByRole('table', { name: 'Permissions of role viewer' });
    await expect(viewerGrid.getByRole('row', { name: /^Logs\b/ })).toContainText('Logs:View granted');
    await expect(viewerGrid.getByRole('row', { name: /^Logs\b/ })).toContainText('Logs:Delete not granted');
    await expect(viewerGrid.getByRole('checkbox')).toHaveCount(0);
    await shot('builtin-role');
    expect(await seriousViolations(page), 'built-in role').toEqual([]);
    await viewer.getByRole('button', { name: 'Close the role' }).click();
    await expect(viewer).toBeHidden();

    // A custom role, made by ticking one cell of the grid.
    await page.getByRole('button', { name: 'Create role' }).click();
    const create = page.getByRole('form', { name: 'Create a role' });
    await create.getByLabel('Name').fill('log-reader');
    await create.getByLabel('Description').fill('Reads the request logs');
    const newGrid = create.getByRole('table', { name: 'Permissions of the new role' });
    // The column's box ticks View on every resource (as many as the admin role's View permissions), and clears it.
    const views = (await roleNamed('admin'))!.permissions.filter((p) => p.endsWith(':View')).length;
    await newGrid.getByRole('checkbox', { name: 'View on every resource' }).check();
    await expect(create).toContainText(`${views} granted.`);
    await expect(newGrid.getByRole('checkbox', { name: 'AuditLogs:View', exact: true })).toBeChecked();
    await newGrid.getByRole('checkbox', { name: 'View on every resource' }).uncheck();
    await expect(create).toContainText('None granted yet.');
    await newGrid.getByRole('checkbox', { name: 'Logs:View', exact: true }).check();
    await expect(create).toContainText('1 granted.');
    await shot('role-form');
    expect(await seriousViolations(page), 'role form').toEqual([]);
    await create.getByRole('button', { name: 'Create role' }).click();
    await expect(create).toBeHidden();
    await expect(roles.getByRole('row', { name: /log-reader/ })).toContainText('1 permission');
    const role = await roleNamed('log-reader');
    expect(role?.permissions).toEqual(['Logs:View']);
    expect(role?.is_builtin).toBe(false);

    // A user of that role, created in the UI with a password.
    await page.getByRole('tab', { name: 'Users' }).click();
    await expect(page.getByText('No user yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Create user' }).click();
    const userForm = page.getByRole('form', { name: 'Create a user' });
    await userForm.getByLabel('Name').fill(READER.name);
    await userForm.getByLabel('Email').fill(READER.email);
    await userForm.getByRole('textbox', { name: /^Password/ }).fill(READER.password);
    await userForm.getByLabel(/^Role/).click();
    await page.getByRole('option', { name: 'log-reader' }).click();
    await shot('user-form');
    expect(await seriousViolations(page), 'user form').toEqual([]);
    await userForm.getByRole('button', { name: 'Create user' }).click();
    await expect(userForm).toBeHidden();
    const users = page.getByRole('table', { name: 'Users' });
    await expect(users.getByRole('row', { name: new RegExp(READER.email) })).toContainText('log-reader');
    const stored = (await api.request<{ users: User[] }>('GET', '/api/governance/users')).users;
    expect(stored.map((u) => [u.email, u.role_id])).toEqual([[READER.email, role!.id]]);
    await shot('users');
    expect(await seriousViolations(page), 'users').toEqual([]);
    // The search is the API's (`?search=`): part of the email in capitals finds the user, anything else nobody.
    const searchBox = page.getByLabel('Search users by name or email');
    await searchBox.fill('no-such-person');
    await searchBox.press('Enter');
    await expect(page.getByText('No user has a name or email like this.')).toBeVisible();
    await searchBox.fill(READER.email.split('@')[0]!.toUpperCase());
    await searchBox.press('Enter');
    await expect(users.getByRole('row', { name: new RegExp(READER.email) })).toBeVisible();

    // The user signs in elsewhere and sees only the request logs (and async jobs, also under Logs:View).
    const other = await browser.newContext();
    try {
      const reader = await other.newPage();
      const readerProblems = watchProblems(
        reader,
        (url, status) => status === 403 && /\/api\/(providers|keys)\b/.test(url),
      );
      await signIn(reader, 'logs', { login: READER.email, password: READER.password });
      await expect(reader.getByRole('heading', { level: 1, name: 'Request logs' })).toBeVisible();
      await expect(navLinks(reader)).toHaveText(['Request logs', 'Async jobs']);
      await reader.goto(`${gateway.url}/ui/providers`);
      await expect(reader.getByRole('alert').first()).toContainText('Missing permission ModelProvider:View');

      // The admin ticks ModelProvider:View in the role's grid; the API reads back the new permissions, and the
      // user's next page load lists the providers.
      await page.getByRole('tab', { name: 'Roles' }).click();
      await roles.getByRole('button', { name: 'Edit role log-reader' }).click();
      const edit = page.getByRole('form', { name: 'Edit role log-reader' });
      const grid = edit.getByRole('table', { name: 'Permissions of role log-reader' });
      await expect(grid.getByRole('checkbox', { name: 'Logs:View', exact: true })).toBeChecked();
      await grid.getByRole('checkbox', { name: 'ModelProvider:View', exact: true }).check();
      await grid.getByRole('checkbox', { name: 'Logs:Delete', exact: true }).check();
      await edit.getByRole('button', { name: 'Save role' }).click();
      await expect(edit).toBeHidden();
      expect((await roleNamed('log-reader'))?.permissions).toEqual(['Logs:Delete', 'Logs:View', 'ModelProvider:View']);
      await roles.getByRole('button', { name: 'Open role log-reader' }).click();
      const drawer = page.getByRole('dialog', { name: 'Role log-reader' });
      await expect(drawer).toContainText('Held by 1 user.');
      await expect(drawer.getByRole('row', { name: /^ModelProvider\b/ })).toContainText('ModelProvider:View granted');
      await drawer.getByRole('button', { name: 'Close the role' }).click();

      await reader.reload();
      await expect(reader.getByRole('heading', { level: 1, name: 'Providers and keys' })).toBeVisible();
      await expect(navLinks(reader)).toHaveText(['Request logs', 'Providers and keys', 'Async jobs']);
      // The screen's reads, refused before the edit, now answer.
      await expect(reader.getByRole('alert')).toHaveCount(0);
      expect(readerProblems.problems).toEqual([]);
    } finally {
      await other.close();
    }

    // A role someone holds: the delete is refused with the API's message, and the role stays.
    await roles.getByRole('button', { name: 'Delete role log-reader' }).click();
    const sure = page.getByRole('dialog', { name: 'Delete role' });
    await expect(sure).toContainText('Delete the role log-reader?');
    await sure.getByRole('button', { name: 'Delete log-reader' }).click();
    await expect(page.getByText('Role "log-reader" is assigned to 1 user(s); reassign them first')).toBeVisible();
    await expect(roles.getByRole('row', { name: /log-reader/ })).toBeVisible();
    expect(await roleNamed('log-reader')).toBeDefined();

    // The user given another role in the UI; then the role can go, and so can the user (each confirmed by name).
    await page.getByRole('tab', { name: 'Users' }).click();
    await users.getByRole('button', { name: `Edit user ${READER.name}` }).click();
    const editUser = page.getByRole('form', { name: `Edit user ${READER.name}` });
    await editUser.getByLabel(/^Role/).click();
    await page.getByRole('option', { name: 'viewer' }).click();
    await editUser.getByRole('button', { name: 'Save user' }).click();
    await expect(editUser).toBeHidden();
    await expect(users.getByRole('row', { name: new RegExp(READER.email) })).toContainText('viewer');
    const viewerRole = await roleNamed('viewer');
    expect((await api.request<User>('GET', `/api/governance/users/${stored[0]!.id}`)).role_id).toBe(viewerRole!.id);

    await page.getByRole('tab', { name: 'Roles' }).click();
    await roles.getByRole('button', { name: 'Delete role log-reader' }).click();
    await page.getByRole('dialog', { name: 'Delete role' }).getByRole('button', { name: 'Delete log-reader' }).click();
    await expect(roles.getByRole('row', { name: /log-reader/ })).toHaveCount(0);
    expect(await roleNamed('log-reader')).toBeUndefined();

    await page.getByRole('tab', { name: 'Users' }).click();
    await users.getByRole('button', { name: `Delete user ${READER.name}` }).click();
    const sureUser = page.getByRole('dialog', { name: 'Delete user' });
    await expect(sureUser).toContainText(`Delete the user ${READER.name} (${READER.email})?`);
    await sureUser.getByRole('button', { name: `Delete ${READER.name}` }).click();
    await expect(page.getByText('No user yet.')).toBeVisible();
    expect((await api.request<{ users: User[] }>('GET', '/api/governance/users')).users).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a management key with one scope: shown once, allowed on its scope, 403 elsewhere, gone after a confirmed delete', async ({
    page,
  }) => {
    const { problems } = watchProblems(page);
    const shot = (name: string) =>
      page.screenshot({ path: join(SCREENSHOTS, `access-control-${name}.png`), fullPage: true });
    await signIn(page, 'management-keys');
    await expect(page.getByRole('heading', { level: 1, name: 'Management keys' })).toBeVisible();
    await expect(page.getByText('No management key yet.')).toBeVisible();
    // Enterprise with dashboard auth: scopes are enforced and keys accepted, so no caveat is shown.
    await expect(page.getByText('Before you rely on a key')).toHaveCount(0);

    await page.getByRole('button', { name: 'Create key' }).click();
    const form = page.getByRole('form', { name: 'Create a management key' });
    await form.getByLabel('Name').fill('ci-logs');
    await form
      .getByRole('table', { name: 'Scopes of the new key' })
      .getByRole('checkbox', { name: 'Logs:View', exact: true })
      .check();
    await shot('key-form');
    expect(await seriousViolations(page), 'key form').toEqual([]);
    await form.getByRole('button', { name: 'Create key' }).click();

    // The value, once.
    const shown = page.getByRole('dialog', { name: 'Management key ci-logs created' });
    await expect(shown).toContainText('You will not see this value again');
    const value = (await shown.getByLabel('Management key value').textContent())?.trim() ?? '';
    expect(value).toMatch(/^gwm_/);
    await shot('key-shown-once');
    expect(await seriousViolations(page), 'shown once').toEqual([]);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await expect(shown).toBeHidden();
    const table = page.getByRole('table', { name: 'Management keys' });
    await expect(table.getByRole('row', { name: /ci-logs/ })).toContainText('Logs: View');
    await page.reload();
    await expect(table.getByRole('row', { name: /ci-logs/ })).toBeVisible();
    expect(await page.content()).not.toContain(value);
    const keys = (await api.request<{ management_keys: ManagementKey[] }>('GET', '/api/management-keys'))
      .management_keys;
    expect(keys.map((k) => [k.name, k.scopes])).toEqual([['ci-logs', ['Logs:View']]]);
    await shot('keys');
    expect(await seriousViolations(page), 'keys').toEqual([]);

    // Used like curl: its scope's route answers, another is refused with the permission named.
    const asKey = (path: string) => fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${value}` } });
    expect((await asKey('/api/logs')).status).toBe(200);
    const refused = await asKey('/api/providers');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      'Missing permission ModelProvider:View',
    );

    // Edited: another scope ticked, and the route it covers answers.
    await table.getByRole('button', { name: 'Edit key ci-logs' }).click();
    const edit = page.getByRole('form', { name: 'Edit management key ci-logs' });
    await edit
      .getByRole('table', { name: 'Scopes of key ci-logs' })
      .getByRole('checkbox', { name: 'ModelProvider:View', exact: true })
      .check();
    await edit.getByRole('button', { name: 'Save key' }).click();
    await expect(edit).toBeHidden();
    await expect(table.getByRole('row', { name: /ci-logs/ })).toContainText('ModelProvider: View');
    expect((await api.request<ManagementKey>('GET', `/api/management-keys/${keys[0]!.id}`)).scopes).toEqual([
      'Logs:View',
      'ModelProvider:View',
    ]);
    expect((await asKey('/api/providers')).status).toBe(200);

    // Deleted after a confirmation naming it: the key stops at once.
    await table.getByRole('button', { name: 'Delete key ci-logs' }).click();
    const sure = page.getByRole('dialog', { name: 'Delete management key' });
    await expect(sure).toContainText('Delete the management key ci-logs?');
    await sure.getByRole('button', { name: 'Delete ci-logs' }).click();
    await expect(page.getByText('No management key yet.')).toBeVisible();
    expect(
      (await api.request<{ management_keys: ManagementKey[] }>('GET', '/api/management-keys')).management_keys,
    ).toEqual([]);
    expect((await asKey('/api/logs')).status).toBe(401);
    expect(problems).toEqual([]);
  });

  test('dark theme and a phone: the roles grid and the keys pass the axe check', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    const { problems } = watchProblems(page);
    const viewer = await roleNamed('viewer');
    await signIn(page, `users?tab=roles&role=${viewer!.id}`);
    await expect(page.getByRole('table', { name: 'Permissions of role viewer' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'the page is wider than the window').toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'access-control-dark-phone-role.png'), fullPage: true });
    expect(await seriousViolations(page), 'dark phone role').toEqual([]);
    await page.goto(`${gateway.url}/ui/management-keys`);
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('table', { name: 'Scopes of the new key' })).toBeVisible();
    await page.screenshot({ path: join(SCREENSHOTS, 'access-control-dark-phone-key-form.png'), fullPage: true });
    expect(await seriousViolations(page), 'dark phone key form').toEqual([]);
    expect(problems).toEqual([]);
  });

  test('the open-source edition has no users item and the link says why; management keys say scopes are not enforced', async ({
    page,
  }) => {
    const oss = await startGateway();
    try {
      await unlock(page, oss, 'users');
      await expect(page.getByRole('heading', { level: 1, name: 'Users and roles' })).toBeVisible();
      await expect(page.getByText('Users and roles are part of the enterprise edition.')).toBeVisible();
      await expect(page.getByText('The open-source edition enforces no permissions')).toBeVisible();
      await expect(navLinks(page).filter({ hasText: 'Users and roles' })).toHaveCount(0);
      await navLinks(page).filter({ hasText: 'Management keys' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Management keys' })).toBeVisible();
      await expect(page.getByText('The open-source edition does not enforce scopes')).toBeVisible();
      await expect(page.getByText('Dashboard authentication is off')).toBeVisible();
    } finally {
      await oss.stop();
    }
  });
});
