import type { ProviderRecord } from './catalog-records.js';
import { invalid, type CatalogSealer } from './catalog-sealer.js';
import type { UpdateProviderDto } from './dto/provider.dto.js';
import type { StoredNetworkConfig } from './catalog-records.js';
import { mergeNetworkConfig, networkConfigProblem } from './network-config.js';

/** The stored fields of a provider that input decides. */
export type SealedProvider = Pick<ProviderRecord, 'base_url' | 'extra_headers' | 'network_config'>;

/**
 * Provider input (a create, an update over `previous`, or a config-file entry) to its stored fields. Carried fields
 * change: `base_url: null` clears the override, a carried `extra_headers` map replaces the stored one (`<REDACTED>`
 * values keep theirs), a carried `network_config` changes the fields it carries. Only the fields ever carried are stored
 * (the rest follow `defaults`, `inference.network_defaults`); they are checked over the current defaults. Throws 400s
 * naming the field.
 */
export function sealProviderInput(
  sealer: CatalogSealer,
  input: UpdateProviderDto,
  previous: SealedProvider | null,
  defaults: Readonly<StoredNetworkConfig>,
): SealedProvider {
  const base_url =
    input.base_url === undefined
      ? (previous?.base_url ?? null)
      : input.base_url === null
        ? null
        : sealer.baseUrl(input.base_url);
  const extra_headers = input.extra_headers
    ? sealer.headers(input.extra_headers, previous?.extra_headers)
    : (previous?.extra_headers ?? {});
  const network_config = mergeNetworkConfig(previous?.network_config ?? {}, input.network_config);
  const problem = networkConfigProblem({ ...defaults, ...network_config });
  if (problem) throw invalid(problem.param, problem.message);
  return { base_url, extra_headers, network_config };
}
