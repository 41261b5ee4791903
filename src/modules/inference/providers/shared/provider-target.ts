import type { ProviderId } from '../provider-ids.js';
import type { KeyCredentials, ProviderAdapter, ProviderTarget } from './provider-adapter.js';

/** What a target needs of a configured provider (the catalog's `ConfiguredProvider` is one). */
export interface ProviderEndpoint {
  /** No trailing slash; absent: the adapter's default. */
  readonly base_url?: string;
  readonly extra_headers: Readonly<Record<string, string>>;
}

/**
 * Where a call to `provider` goes with `key`: the provider's `base_url` (stored without a trailing slash) or the
 * adapter's default ('' when neither: Azure takes each key's endpoint), and its extra headers, which the adapter
 * adds to the call. The caller's `forwarded` headers (`inference.forward_headers`) go under the provider's own extra
 * headers, which win on a clash; the adapter's headers (credentials, content type) win over both. One builder for the
 * router and the model listing.
 */
export function providerTarget(
  provider: ProviderId,
  config: ProviderEndpoint | undefined,
  adapter: ProviderAdapter,
  key: KeyCredentials,
  model: string,
  forwarded?: Record<string, string>,
): ProviderTarget {
  return {
    provider,
    baseUrl: config?.base_url ?? adapter.defaultBaseUrl(provider) ?? '',
    extraHeaders: forwarded ? { ...forwarded, ...config?.extra_headers } : (config?.extra_headers ?? {}),
    key,
    model,
  };
}
