import type { ProviderId } from '../../../core/errors/routing-info.dto.js';
import type { FieldProblem } from './network-config.js';

/** Self-hosted providers: a key may have no value (a local vLLM needs none). */
export const KEYLESS_PROVIDERS: ReadonlySet<ProviderId> = new Set<ProviderId>(['ollama', 'vllm', 'sgl']);

export type KeyConfigField = 'azure_key_config' | 'bedrock_key_config' | 'vertex_key_config';

/** Which providers' keys may carry each provider-specific block. */
const CONFIG_OWNERS: Readonly<Record<KeyConfigField, readonly ProviderId[]>> = {
  azure_key_config: ['azure'],
  bedrock_key_config: ['bedrock', 'bedrock_mantle'],
  vertex_key_config: ['vertex'],
};

/** Providers whose keys cannot work without their block (endpoint, region, project). */
const REQUIRED_CONFIG: Partial<Record<ProviderId, KeyConfigField>> = {
  azure: 'azure_key_config',
  bedrock: 'bedrock_key_config',
  vertex: 'vertex_key_config',
};

/** What the cross-field rules look at, from a request (merged over the stored key) or from the config file. */
export interface KeyShape {
  hasValue: boolean;
  azure_key_config: boolean;
  bedrock_key_config?: { access_key: boolean; secret_key: boolean; session_token: boolean };
  vertex_key_config: boolean;
}

/**
 * The rules no single field decorator can check: provider-specific blocks only on their provider's keys (and
 * required there), Bedrock access keys in pairs, and a value wherever the provider needs one.
 */
export function keyRulesProblem(provider: ProviderId, key: KeyShape): FieldProblem | undefined {
  for (const field of Object.keys(CONFIG_OWNERS) as KeyConfigField[]) {
    const present = field === 'bedrock_key_config' ? key.bedrock_key_config !== undefined : key[field];
    if (present && !CONFIG_OWNERS[field].includes(provider)) {
      return { param: field, message: `is only accepted on keys of ${CONFIG_OWNERS[field].join(' and ')}` };
    }
  }
  const required = REQUIRED_CONFIG[provider];
  if (required) {
    const present = required === 'bedrock_key_config' ? key.bedrock_key_config !== undefined : key[required];
    if (!present) return { param: required, message: `is required for ${provider} keys` };
  }
  const bedrock = key.bedrock_key_config;
  if (bedrock) {
    if (bedrock.access_key && !bedrock.secret_key) {
      return { param: 'bedrock_key_config.secret_key', message: 'is required with access_key' };
    }
    if (!bedrock.access_key && (bedrock.secret_key || bedrock.session_token)) {
      const other = bedrock.secret_key ? 'secret_key' : 'session_token';
      return { param: 'bedrock_key_config.access_key', message: `is required with ${other}` };
    }
  }
  const valueOptional =
    KEYLESS_PROVIDERS.has(provider) || bedrock?.access_key === true || (provider === 'vertex' && key.vertex_key_config);
  if (!key.hasValue && !valueOptional) return { param: 'value', message: `is required for ${provider} keys` };
  return undefined;
}
