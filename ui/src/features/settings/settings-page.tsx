import { Tabs } from '@mantine/core';
import { useCan } from '../../shared/auth/permissions';
import { Page } from '../../shared/ui/page';
import { CachePanel } from './cache-panel';
import { PluginsPanel } from './plugins-panel';
import { settingsRoute, type SettingsTab } from './route';
import { RuntimeConfigPanel } from './runtime-config-panel';

/**
 * Settings: the runtime config (each setting's value and source, edited and reset), the plugins (on or off, order,
 * config) and the response cache (figures, removing an entry). The tab is in the URL (`?tab=plugins`).
 */
export function SettingsPage() {
  const { tab = 'config' } = settingsRoute.useSearch();
  const navigate = settingsRoute.useNavigate();
  const canPlugins = useCan('Plugins:View');
  const canCache = useCan('Cache:View');
  return (
    <Page title="Settings" description="Runtime config, plugins and the response cache, applied without a restart.">
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(next) =>
          void navigate({ search: next && next !== 'config' ? { tab: next as SettingsTab } : {}, replace: true })
        }
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="config">Runtime config</Tabs.Tab>
          <Tabs.Tab value="plugins" disabled={!canPlugins} title={canPlugins ? undefined : 'Needs Plugins:View'}>
            Plugins
          </Tabs.Tab>
          <Tabs.Tab value="cache" disabled={!canCache} title={canCache ? undefined : 'Needs Cache:View'}>
            Response cache
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="config">
          <RuntimeConfigPanel />
        </Tabs.Panel>
        <Tabs.Panel value="plugins">
          <PluginsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="cache">
          <CachePanel />
        </Tabs.Panel>
      </Tabs>
    </Page>
  );
}
