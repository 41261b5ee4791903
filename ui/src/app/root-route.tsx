import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext } from '@tanstack/react-router';
import { AppLayout } from '../shell/app-layout';
import { NotFoundPage } from '../shell/not-found-page';
import { SessionGate } from '../shell/session/session-gate';

export interface RouterContext {
  queryClient: QueryClient;
}

/**
 * Every screen's parent: nothing renders before the session is known; without one, the sign-in (or unlock) page
 * takes the place of the screen at the same URL, so signing in lands where the user was.
 */
export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <SessionGate>
      <AppLayout />
    </SessionGate>
  ),
  notFoundComponent: NotFoundPage,
});
