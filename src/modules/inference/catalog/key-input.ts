import type { ProviderId } from '../providers/provider-ids.js';
import type { StoredSecret } from '../../../core/secrets/secret-value.js';
import type { KeyRecord } from './catalog-records.js';
import { invalid, type CatalogSealer } from './catalog-sealer.js';
import type { UpdateProviderKeyDto } from './dto/provider-key.dto.js';
import { keyRulesProblem } from './key-rules.js';
import type { KeyAlias } from './provider-snapshot.js';

/** The stored fields of a key that input decides. */
export type SealedKey = Pick<
  KeyRecord,
  | 'name'
  | 'value'
  | 'weight'
  | 'models'
  | 'blacklisted_models'
  | 'aliases'
  | 'enabled'
  | 'azure_key_config'
  | 'bedrock_key_config'
  | 'vertex_key_config'
>;

/** Only the declared alias fields (the validator refused others; this keeps stored JSON to the contract). */
function copyAliases(aliases: Record<string, KeyAlias>): Record<string, KeyAlias> {
  const out: Record<string, KeyAlias> = {};
  for (const [model, alias] of Object.entries(aliases)) {
    out[model] = {
      model_id: alias.model_id,
      ...(alias.model_name === undefined ? {} : { model_name: alias.model_name }),
      ...(alias.model_family === undefined ? {} : { model_family: alias.model_family }),
    };
  }
  return out;
}

const present = (secret: StoredSecret | undefined) => secret !== undefined;

/**
 * Key input (a create, an update over `previous`, or a config-file entry) to its stored fields: carried fields
 * replace stored ones, a carried provider-specific block replaces the stored block (its `<REDACTED>` secrets keep
 * theirs), and the result must satisfy the cross-field rules of its provider. Throws 400s naming the field.
 */
export function sealKeyInput(
  sealer: CatalogSealer,
  provider: ProviderId,
  input: UpdateProviderKeyDto,
  previous: SealedKey | null,
): SealedKey {
  const sealed: SealedKey = {
    name: input.name ?? previous?.name ?? '',
    value: input.value === undefined ? (previous?.value ?? null) : sealer.secret(input.value, previous?.value, 'value'),
    weight: input.weight ?? previous?.weight ?? 1,
    models: input.models ? [...input.models] : (previous?.models ?? ['*']),
    blacklisted_models: input.blacklisted_models ? [...input.blacklisted_models] : (previous?.blacklisted_models ?? []),
    aliases: input.aliases ? copyAliases(input.aliases) : (previous?.aliases ?? {}),
    enabled: input.enabled ?? previous?.enabled ?? true,
    azure_key_config: input.azure_key_config
      ? sealer.azure(input.azure_key_config)
      : (previous?.azure_key_config ?? null),
    bedrock_key_config: input.bedrock_key_config
      ? sealer.bedrock(input.bedrock_key_config, previous?.bedrock_key_config)
      : (previous?.bedrock_key_config ?? null),
    vertex_key_config: input.vertex_key_config
      ? sealer.vertex(input.vertex_key_config, previous?.vertex_key_config)
      : (previous?.vertex_key_config ?? null),
  };
  const bedrock = sealed.bedrock_key_config;
  const problem = keyRulesProblem(provider, {
    hasValue: sealed.value !== null,
    azure_key_config: sealed.azure_key_config !== null,
    bedrock_key_config: bedrock
      ? {
          access_key: present(bedrock.access_key),
          secret_key: present(bedrock.secret_key),
          session_token: present(bedrock.session_token),
        }
      : undefined,
    vertex_key_config: sealed.vertex_key_config !== null,
  });
  if (problem) throw invalid(problem.param, problem.message);
  return sealed;
}
