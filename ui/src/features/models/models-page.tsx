import { Tabs } from '@mantine/core';
import { Page } from '../../shared/ui/page';
import { ModelConfigsTab } from './model-configs-tab';
import { ModelsTab } from './models-tab';
import { MODELS_DEFAULTS, modelsSearchOf, type ModelsSearch } from './models-search';
import { OverridesTab } from './overrides-tab';
import { ProviderLimitsTab } from './provider-limits-tab';
import { modelsRoute } from './route';

/**
 * Models and pricing: the catalogue with the price each model is charged at, the pricing overrides that set it,
 * model configs (budgets and limits per model) and provider limits (budgets and limits per provider). One tab each
 * (`tab=`); all of it is governance (`Governance:*`), the catalogue itself `ModelProvider:View`.
 */
export function ModelsPage() {
  const search = modelsRoute.useSearch();
  const navigate = modelsRoute.useNavigate();
  const go = (next: ModelsSearch) => void navigate({ search: modelsSearchOf(next) });
  const tab = search.tab ?? MODELS_DEFAULTS.tab;
  return (
    <Page
      title="Models and pricing"
      description="What each model is charged at, your own rates, and the budgets and limits per model and per provider."
    >
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value && value !== tab) go({ tab: value as ModelsSearch['tab'] });
        }}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="models">Models and prices</Tabs.Tab>
          <Tabs.Tab value="overrides">Pricing overrides</Tabs.Tab>
          <Tabs.Tab value="configs">Model configs</Tabs.Tab>
          <Tabs.Tab value="providers">Provider limits</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'models' && <ModelsTab search={search} go={go} />}
      {tab === 'overrides' && <OverridesTab />}
      {tab === 'configs' && <ModelConfigsTab />}
      {tab === 'providers' && <ProviderLimitsTab />}
    </Page>
  );
}
