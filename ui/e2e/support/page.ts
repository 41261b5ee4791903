import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import type { Gateway } from './gateway';

/**
 * What a person would see go wrong on a page: uncaught errors, console errors, failed requests and error answers.
 * `allow` lists answers a test expects (a refused sign-in, a 403 it provokes).
 */
export function watchProblems(page: Page, allow: (url: string, status: number) => boolean = () => false) {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The browser's own line for an error answer: judged by the response listener below.
    if (/^Failed to load resource: the server responded with a status of \d+/.test(message.text())) return;
    problems.push(`console.error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    // A navigation or an export's download cancelled on purpose is not a failure.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !allow(response.url(), response.status())) {
      problems.push(`error answer: ${response.status()} ${response.request().method()} ${response.url()}`);
    }
  });
  return { problems };
}

/** Opens the dashboard on a setup-locked gateway and unlocks it with the token the first start generated. */
export async function unlock(page: Page, gateway: Gateway, path = ''): Promise<void> {
  await page.goto(`${gateway.url}/ui/${path}`);
  await page.getByLabel('Setup token').fill(gateway.setupToken());
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** The sidebar's links, by name. */
export function navLinks(page: Page) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link');
}

/**
 * Flips a switch from the keyboard (focus, then Space), as a person tabbing to it does. Mantine's switch input is
 * transparent over its track, so a pointer click needs `force`, which skips the stability check and lands on
 * coordinates taken before a layout shift (a modal closing gives the page its scrollbar back): in CI such a click
 * hit beside the switch and nothing was sent.
 */
export async function flipSwitch(toggle: Locator): Promise<void> {
  await toggle.focus();
  await toggle.press('Space');
}

/**
 * The serious and critical axe violations of what the page shows now, one line each (rule, then each node and why),
 * with the pointer moved off the page first so that no control is judged in its hovered state.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  // Only violations are read: axe then skips building the node details of passes and incomplete results.
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('; ')}`);
}
