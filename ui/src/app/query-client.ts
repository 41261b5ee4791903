import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/errors';

/**
 * One cache for the whole dashboard. A refusal (4xx) is final: shown, never retried; a network failure or a 5xx is
 * tried twice more. Lists refresh when a screen asks (filters, live events), not on window focus.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) =>
          failures < 2 && (!(error instanceof ApiError) || error.status === 0 || error.status >= 500),
      },
      mutations: { retry: false },
    },
  });
}
