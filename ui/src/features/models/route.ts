import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readModelsSearch } from './models-search';

/** `/models?tab=…`: models with the price they are charged at, pricing overrides, model configs, provider budgets. */
export const modelsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'models',
  validateSearch: readModelsSearch,
  component: lazyRouteComponent(() => import('./models-page'), 'ModelsPage'),
});
