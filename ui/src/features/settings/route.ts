import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';

export const SETTINGS_TABS = ['config', 'plugins', 'cache'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** `/settings?tab=`: runtime config (the default), plugins, response cache. */
export const settingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'settings',
  validateSearch: (raw: Record<string, unknown>): { tab?: SettingsTab } =>
    SETTINGS_TABS.includes(raw.tab as SettingsTab) && raw.tab !== 'config' ? { tab: raw.tab as SettingsTab } : {},
  component: lazyRouteComponent(() => import('./settings-page'), 'SettingsPage'),
});
