import type { ProviderId } from '../providers/provider-ids.js';
import { KEY_CONFIG_FIELDS } from '../providers/provider-descriptor.js';
import { keyConfigOwners, keyValueOptional, requiredKeyConfig } from '../providers/registry.js';
import type { FieldProblem } from './network-config.js';

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
  for (const field of KEY_CONFIG_FIELDS) {
    const present = field === 'bedrock_key_config' ? key.bedrock_key_config !== undefined : key[field];
    const owners = keyConfigOwners(field);
    if (present && !owners.includes(provider)) {
      return { param: field, message: `is only accepted on keys of ${owners.join(' and ')}` };
    }
  }
  const required = requiredKeyConfig(provider);
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
    keyValueOptional(provider) || bedrock?.access_key === true || (provider === 'vertex' && key.vertex_key_config);
  if (!key.hasValue && !valueOptional) return { param: 'value', message: `is required for ${provider} keys` };
  return undefined;
}
