import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { useCan } from '../../shared/auth/permissions';
import type { PricingOverride } from './effective-price';

/** Overrides read 1,000 a request (the API's most), every page: the effective price needs all of them. */
const PAGE = 1000;

/** Every pricing override (`GET /api/governance/pricing-overrides`, all pages, newest first). */
export function useAllOverrides() {
  return useQuery({
    queryKey: ['models', 'overrides'],
    queryFn: async ({ signal }) => {
      const all: PricingOverride[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const page = await call(
          api.GET('/api/governance/pricing-overrides', { params: { query: { limit: PAGE, offset } }, signal }),
        );
        all.push(...page.pricing_overrides);
        if (page.pricing_overrides.length < PAGE || all.length >= page.pagination.total_count) return all;
      }
    },
  });
}

/** Virtual keys by id, for names and pickers (the first 1,000 by name); not asked without `VirtualKeys:View`. */
export function useVirtualKeys(enabled = true) {
  const can = useCan('VirtualKeys:View');
  return useQuery({
    queryKey: ['models', 'virtual-keys'],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/virtual-keys', {
          params: { query: { limit: 1000, sort_by: 'name', order: 'asc' } },
          signal,
        }),
      ),
    enabled: enabled && can,
  });
}

/** Provider keys (values redacted), for names and pickers; not asked without `ModelProvider:View`. */
export function useProviderKeys(enabled = true) {
  const can = useCan('ModelProvider:View');
  return useQuery({
    queryKey: ['models', 'provider-keys'],
    queryFn: ({ signal }) => call(api.GET('/api/keys', { signal })),
    enabled: enabled && can,
  });
}

/** A name lookup over a list (`id` → `name`), undefined when not (yet) known. */
export function namesOf(list: ReadonlyArray<{ id: string; name: string }> | undefined) {
  const names = new Map((list ?? []).map((item) => [item.id, item.name]));
  return (id: string) => names.get(id);
}
